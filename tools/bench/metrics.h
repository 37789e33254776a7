// metrics.h - byte counts, the weight-streaming floor, throughput and timing statistics
// (pure host logic, header-only, unit-tested in tests/cpu/test_bench_cli.cpp).
//
// The floor of a kernel is the time to move every byte it must touch once at the
// device-to-device copy bandwidth measured in the same run:
//   floor_us = (weight + scale + zero + activation + output bytes) / copy_bandwidth
// "scale bytes" counts the group scales and the f32 channel/token scales the call reads.
// Copy bandwidth counts bytes read + bytes written, so a copy kernel runs at 100% of it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "type_spec.h"

namespace mixgemm::bench {

struct ByteCount {
  int64_t weights = 0;
  int64_t scales = 0;  // group scales + channel scales + token scales
  int64_t zeros = 0;
  int64_t activations = 0;
  int64_t output = 0;
  int64_t total() const { return weights + scales + zeros + activations + output; }
};

inline int64_t element_bytes(ScalarType t) { return (t.size_bits() + 7) / 8; }

// Bytes one mixgemm call reads and writes (see type_spec.h for which scales it passes).
inline ByteCount mixgemm_bytes(const TypeSpec& t, int64_t M, int64_t N, int64_t K) {
  ByteCount b;
  b.weights = N * K * t.b.size_bits() / 8;
  if (t.uses_group_scales()) b.scales += t.num_groups(K) * N * element_bytes(t.scale);
  if (t.uses_channel_scales()) b.scales += N * 4;
  if (t.uses_token_scales()) b.scales += M * 4;
  if (t.has_zeros) b.zeros = t.num_groups(K) * N * t.zero_bytes_per_element();
  b.activations = M * K * element_bytes(t.a);
  b.output = M * N * element_bytes(t.out);
  return b;
}

// The cuBLAS/cuBLASLt baselines, by name. kFp8Fast is kFp8 with CUBLASLT_MATMUL_DESC_FAST_ACCUM
// (no periodic promotion of the fp8 accumulation: the precision of mixgemm's e4m3 path, which
// accumulates each k-range in the tensor cores); it is not in the default list.
enum class Baseline { kFp16, kBf16, kFp8, kInt8, kFp8Fast };
inline bool is_fp8(Baseline b) { return b == Baseline::kFp8 || b == Baseline::kFp8Fast; }

inline const char* baseline_name(Baseline b) {
  switch (b) {
    case Baseline::kFp16: return "cublas_fp16";
    case Baseline::kBf16: return "cublas_bf16";
    case Baseline::kFp8: return "cublaslt_fp8";
    case Baseline::kInt8: return "cublaslt_int8";
    case Baseline::kFp8Fast: return "cublaslt_fp8_fast";
  }
  return "?";
}
inline const std::vector<Baseline>& all_baselines() {
  static const std::vector<Baseline> all = {Baseline::kFp16, Baseline::kBf16, Baseline::kFp8, Baseline::kInt8};
  return all;
}
inline Baseline parse_baseline(const std::string& s) {
  for (Baseline b : all_baselines())
    if (s == baseline_name(b)) return b;
  if (s == baseline_name(Baseline::kFp8Fast) || s == "fp8_fast") return Baseline::kFp8Fast;
  if (s == "fp16") return Baseline::kFp16;
  if (s == "bf16") return Baseline::kBf16;
  if (s == "fp8") return Baseline::kFp8;
  if (s == "int8") return Baseline::kInt8;
  throw std::invalid_argument("unknown baseline '" + s +
                              "'; known: cublas_fp16, cublas_bf16, cublaslt_fp8, cublaslt_int8, cublaslt_fp8_fast "
                              "(or fp16, bf16, fp8, int8, fp8_fast)");
}
// Element types of each baseline: activation/weight, output.
inline const char* baseline_in_type(Baseline b) {
  switch (b) {
    case Baseline::kFp16: return "f16";
    case Baseline::kBf16: return "bf16";
    case Baseline::kFp8: return "e4m3";
    case Baseline::kFp8Fast: return "e4m3";
    case Baseline::kInt8: return "s8";
  }
  return "?";
}
inline const char* baseline_out_type(Baseline b) {
  switch (b) {
    case Baseline::kFp16: return "f16";
    case Baseline::kBf16: return "bf16";
    case Baseline::kFp8: return "bf16";
    case Baseline::kFp8Fast: return "bf16";
    case Baseline::kInt8: return "s32";
  }
  return "?";
}

// Bytes one baseline call reads and writes. fp8 with row/column-wise scales reads an
// f32 per output channel and per token; with per-tensor scales two f32.
inline ByteCount baseline_bytes(Baseline b, int64_t M, int64_t N, int64_t K, bool fp8_vector_scales = true) {
  ByteCount c;
  const int64_t in = (b == Baseline::kFp16 || b == Baseline::kBf16) ? 2 : 1;
  const int64_t out = b == Baseline::kInt8 ? 4 : 2;
  c.weights = N * K * in;
  c.activations = M * K * in;
  c.output = M * N * out;
  if (b == Baseline::kFp8) c.scales = fp8_vector_scales ? (N + M) * 4 : 8;
  return c;
}

// Copy bandwidth in GB/s (1e9 bytes per second) from the bytes of one copy and its time.
inline double copy_gbps(int64_t copy_bytes, double us) { return 2.0 * static_cast<double>(copy_bytes) / (us * 1e3); }
inline double floor_us(const ByteCount& b, double copy_bw_gbps) {
  return static_cast<double>(b.total()) / (copy_bw_gbps * 1e3);
}
inline double pct_of_floor(double floor, double us) { return 100.0 * floor / us; }
inline double achieved_gbps(const ByteCount& b, double us) { return static_cast<double>(b.total()) / (us * 1e3); }
inline double tflops(int64_t M, int64_t N, int64_t K, double us) {
  return 2.0 * static_cast<double>(M) * static_cast<double>(N) * static_cast<double>(K) / (us * 1e6);
}

struct Stats {
  double median = 0, min = 0, max = 0, mean = 0;
  int count = 0;
};

inline Stats compute_stats(std::vector<double> v) {
  if (v.empty()) throw std::invalid_argument("compute_stats: no samples");
  for (double x : v)
    if (!std::isfinite(x) || x < 0) throw std::runtime_error("compute_stats: invalid sample " + std::to_string(x));
  std::sort(v.begin(), v.end());
  Stats s;
  s.count = static_cast<int>(v.size());
  const size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  s.min = v.front();
  s.max = v.back();
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(n);
  return s;
}

// How many copies of a working set to rotate through so that the rotated set covers
// `factor` times the L2 size (at least `min_copies`, at most `max_copies`).
inline int rotation_copies(int64_t bytes_per_copy, int64_t l2_bytes, double factor, int min_copies, int max_copies) {
  if (bytes_per_copy <= 0) return std::max(1, min_copies);
  const double need = factor * static_cast<double>(l2_bytes) / static_cast<double>(bytes_per_copy);
  int64_t c = static_cast<int64_t>(std::ceil(need));
  c = std::max<int64_t>(c, min_copies);
  c = std::min<int64_t>(c, max_copies);
  return static_cast<int>(std::max<int64_t>(c, 1));
}

}  // namespace mixgemm::bench
