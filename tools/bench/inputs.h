// inputs.h - the host-side operands of a benchmarked mixgemm call: group scales, zero
// points, channel and token scales (pure host logic, header-only; tests/cpu/test_bench_cli.cpp
// runs the CPU reference on them for every standard type spec to check they are valid and
// give O(1) outputs).
//
// The weights themselves are uniformly random bytes written on the device straight into the
// prepacked buffer (a uniformly random q), and the activations are drawn on the device:
//   f16/bf16 normal(0, 1); s8 uniform [-127, 127]; e4m3 normal(0, 64) saturated.
// The scales below make every output O(1):
//   16-bit activations, group scales : s = U[0.5, 1.5] / (sqrt(K) * sd(q - z))
//   e4m3, f16 group scales           : s = U[0.5, 1.5] (w16 = (q - z) * s stays well inside e4m3)
//   s8, u8 integer group scales      : sg in 1..16 (u4b8), 1..8 (u4 with zeros), 1 (8-bit weights),
//                                      so w8 = (q - B or z) * sg stays in [-128, 127]
//   channel scales (f32)             : U[0.5, 1.5] / (sqrt(K) * sd(q - z) * mean(sg))
//   token scales (f32)               : U[0.5, 1.5] / sd(a)
//   zero points                      : uniform over the weight's range; 128 for 8-bit weights
//                                      with s8 activations (keeps q - z in [-128, 127])
// unit_scales (mixgemm-bench --unit-group-scales): every group scale 1 instead (a diagnostic:
// integer weights at the tensor cores; outputs of 16-bit activations are then ~sqrt(K) sd(q - z)
// larger, still finite in f16 / bf16 for the bench's shapes).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/float_bits.h"
#include "type_spec.h"
#include "verify_sample.h"

namespace mixgemm::bench {

struct HostInputs {
  int64_t G = 1;                // rows of group scales / zero points
  int scale_elem_bytes = 0;     // 2 (f16/bf16) or 1 (u8); 0 without group scales
  std::vector<uint8_t> scales;  // [G][N] raw elements of spec.scale, empty without group scales
  std::vector<uint8_t> z;       // [G][N] raw zero points, empty without zeros
  std::vector<float> ch;        // [N], empty unless spec.uses_channel_scales()
  double sd_a = 1.0;            // spread of the activations (for the token scales)
};

// Standard deviation of an integer uniform over `levels` consecutive values.
inline double sd_uniform_int(int64_t levels) {
  return std::sqrt((static_cast<double>(levels) * static_cast<double>(levels) - 1.0) / 12.0);
}

inline double activation_sd(const TypeSpec& spec) {
  if (spec.a == types::s8) return sd_uniform_int(255);  // uniform [-127, 127]
  if (spec.a == types::e4m3) return 64.0;
  return 1.0;
}

inline HostInputs make_host_inputs(const TypeSpec& spec, int64_t N, int64_t K, uint64_t seed,
                                   bool unit_scales = false) {
  HostInputs h;
  HostRng rng(seed * 7919 + static_cast<uint64_t>(N * 31 + K));
  h.G = spec.num_groups(K);
  const bool four_bit = spec.b.size_bits() == 4;
  const int64_t levels = four_bit ? 16 : 256;
  const bool s8 = spec.a == types::s8, e4m3 = spec.a == types::e4m3;
  const bool fixed_zero = s8 && !four_bit;  // z = 128
  // Spread of (q - B) or (q - z): one uniform integer, or the difference of two.
  const double sd_q = sd_uniform_int(levels) * (spec.has_zeros && !fixed_zero ? std::sqrt(2.0) : 1.0);
  const double sqrt_k = std::sqrt(static_cast<double>(K));
  h.sd_a = activation_sd(spec);

  if (spec.has_zeros) {
    h.z.resize(static_cast<size_t>(h.G * N));
    for (auto& v : h.z) v = fixed_zero ? uint8_t{128} : static_cast<uint8_t>(rng.integer(0, levels - 1));
  }
  double mean_sg = 1.0;
  if (spec.uses_group_scales()) {
    h.scale_elem_bytes = s8 ? 1 : 2;
    h.scales.resize(static_cast<size_t>(h.G * N) * static_cast<size_t>(h.scale_elem_bytes));
    if (s8) {
      const int64_t smax = !four_bit ? 1 : (spec.has_zeros ? 8 : 16);
      for (auto& v : h.scales) {
        const auto sg = static_cast<uint8_t>(rng.integer(1, smax));  // drawn either way: same sequence
        v = unit_scales ? uint8_t{1} : sg;
      }
      mean_sg = unit_scales ? 1.0 : (1.0 + static_cast<double>(smax)) / 2.0;
    } else {
      const double s0 = e4m3 ? 1.0 : 1.0 / (sqrt_k * sd_q);
      for (int64_t i = 0; i < h.G * N; ++i) {
        const double drawn = rng.uniform(0.5, 1.5) * s0;  // drawn either way: same sequence
        const double v = unit_scales ? 1.0 : drawn;
        const uint16_t bits = spec.scale == types::bf16 ? numeric::to_bf16(v) : numeric::to_f16(v);
        std::memcpy(&h.scales[static_cast<size_t>(i) * 2], &bits, 2);
      }
    }
  }
  if (spec.uses_channel_scales()) {
    h.ch.resize(static_cast<size_t>(N));
    const double c0 = 1.0 / (sqrt_k * sd_q * mean_sg);
    for (auto& v : h.ch) v = static_cast<float>(rng.uniform(0.5, 1.5) * c0);
  }
  return h;
}

// Token scales for M rows (empty unless spec.uses_token_scales()).
inline std::vector<float> make_token_scales(const TypeSpec& spec, int64_t M, uint64_t seed) {
  std::vector<float> t;
  if (!spec.uses_token_scales()) return t;
  HostRng rng(seed * 104729 + static_cast<uint64_t>(M));
  t.resize(static_cast<size_t>(M));
  const double sd = activation_sd(spec);
  for (auto& v : t) v = static_cast<float>(rng.uniform(0.5, 1.5) / sd);
  return t;
}

}  // namespace mixgemm::bench
