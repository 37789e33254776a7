// ubench_check.h - the development microbenchmarks' CUDA error check (tools/ubench): a failed
// runtime call prints where and why and ends the process (these tools have no error path).
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define UB_CHECK(x)                                                                            \
  do {                                                                                         \
    cudaError_t e_ = (x);                                                                      \
    if (e_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)
