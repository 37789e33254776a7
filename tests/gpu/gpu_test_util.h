// gpu_test_util.h - shared helpers of the GPU tests: skip without a device,
// check CUDA calls, NaN-poison outputs.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace mixgemm::test {

// Empty when a CUDA device is usable; otherwise the reason to print in GTEST_SKIP.
inline std::string no_gpu_reason() {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) return std::string("no CUDA device: ") + cudaGetErrorString(e);
  if (n == 0) return "no CUDA device: cudaGetDeviceCount returned 0";
  return "";
}

#define MIXGEMM_SKIP_WITHOUT_GPU()                                       \
  do {                                                                   \
    const std::string mixgemm_why_ = ::mixgemm::test::no_gpu_reason();   \
    if (!mixgemm_why_.empty()) GTEST_SKIP() << mixgemm_why_;             \
  } while (0)

#define MIXGEMM_CUDA_OK(expr)                                                        \
  do {                                                                               \
    cudaError_t mixgemm_e_ = (expr);                                                 \
    ASSERT_EQ(mixgemm_e_, cudaSuccess) << #expr << ": " << cudaGetErrorString(mixgemm_e_); \
  } while (0)

// 0x7E00 is an f16 NaN and 0x7FC0 a bf16 NaN; 0xFFFF is a NaN in both, so one fill
// poisons either output type.
inline cudaError_t poison_16bit(void* dev, size_t elems, cudaStream_t s = nullptr) {
  return cudaMemsetAsync(dev, 0xFF, elems * 2, s);
}

}  // namespace mixgemm::test
