// sm90_trace.h - host side of the sm90 diagnostic timeline (a -DMIXGEMM_SM90_TRACE build only;
// the device side is sm90_mark in sm90_common.cuh, the reader scripts/sm90_trace_summary.py).
// With MIXGEMM_SM90_TRACE_FILE=<file>, the 10th launch of every key (shape, types, schedule,
// split) records %globaltimer at a CTA's milestones and appends one line per CTA to the file:
// "key cta <c> t0 .. t15" (ns; 2^64 - 1 for a milestone the CTA did not reach). It allocates and
// synchronizes the stream: a development tool,
// never compiled into a library build (bench/results/2026-12-01-h200/s22-trace/).
#pragma once

#ifdef MIXGEMM_SM90_TRACE
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace mixgemm::kernels::sm90 {

inline constexpr int kTraceSlots = 16;
inline constexpr int kTraceMaxCtas = 8192;

struct Sm90TraceLaunch {
  const char* path = nullptr;
  std::string key;
  unsigned long long* buf = nullptr;  // non-null: this launch is traced
};

// Before a launch: whether to trace it; returns the buffer to pass as Sm90KernelParams::trace.
inline Sm90TraceLaunch sm90_trace_begin(std::string key, cudaStream_t stream) {
  static unsigned long long* buf = nullptr;
  static std::mutex mu;
  static std::vector<std::pair<std::string, int>> seen;
  Sm90TraceLaunch t;
  t.path = std::getenv("MIXGEMM_SM90_TRACE_FILE");
  if (!t.path) return t;
  std::lock_guard<std::mutex> lock(mu);
  int* count = nullptr;
  for (auto& kv : seen)
    if (kv.first == key) count = &kv.second;
  if (!count) {
    seen.emplace_back(key, 0);
    count = &seen.back().second;
  }
  if (++*count != 10) return t;
  const size_t bytes = size_t{kTraceMaxCtas} * kTraceSlots * sizeof(unsigned long long);
  if (!buf && cudaMalloc(&buf, bytes) != cudaSuccess) buf = nullptr;
  if (!buf || cudaMemsetAsync(buf, 0xFF, bytes, stream) != cudaSuccess) return t;  // all ones: unset
  t.key = std::move(key);
  t.buf = buf;
  return t;
}

// After the launch: waits for it and appends its CTAs' lines.
inline void sm90_trace_end(const Sm90TraceLaunch& t, unsigned grid, cudaStream_t stream) {
  if (!t.buf || grid > static_cast<unsigned>(kTraceMaxCtas)) return;
  std::vector<unsigned long long> h(size_t{grid} * kTraceSlots);
  if (cudaStreamSynchronize(stream) != cudaSuccess ||
      cudaMemcpy(h.data(), t.buf, h.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost) != cudaSuccess)
    return;
  if (FILE* f = std::fopen(t.path, "a")) {
    for (unsigned c = 0; c < grid; ++c) {
      std::fprintf(f, "%s cta %u", t.key.c_str(), c);
      for (int j = 0; j < kTraceSlots; ++j) std::fprintf(f, " %llu", h[size_t{c} * kTraceSlots + j]);
      std::fprintf(f, "\n");
    }
    std::fclose(f);
  }
}

}  // namespace mixgemm::kernels::sm90
#endif
