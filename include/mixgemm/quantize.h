// mixgemm/quantize.h - CPU quantizers: weights (offline) and activations (the exact
// formulas a GPU activation-quantization kernel must reproduce bit for bit).
//
// Weights W[K][N] are row-major host arrays of f32, f16 or bf16 (uint16_t bits).
// The outputs plug straight into ReferenceArgs / GemmArgs:
//   q              -> ReferenceArgs::q (unpacked, one integer per byte), or prepack_cpu
//   group_scales   -> group_scales (group_size != 0)
//   zeros          -> zeros (asymmetric types)
//   channel_scales -> channel_scales (the f32 per-column factor of the epilogue)
// docs/semantics.md ("Quantizers") states every formula and rounding.
#pragma once

#include <cstdint>
#include <vector>

#include "mixgemm/scalar_type.h"

namespace mixgemm {

// A quantized K x N weight.
struct QuantizedWeight {
  int64_t K = 0, N = 0;
  ScalarType type = types::u4b8;    // u4b8/u8b128 (symmetric) or u4/u8 (with zero points)
  int64_t group_size = 0;           // 0: no group scales (q - B or q - z, times channel_scales)
                                    // else a divisor of K; G = K / group_size groups
  ScalarType scale_type = types::f16;  // element type of group_scales: f16/bf16, or u8 (QQQ)
  std::vector<uint8_t> q;              // [K][N] stored integers
  std::vector<uint8_t> group_scales;   // [G][N] elements of scale_type as raw little-endian bytes
                                       // (uint16_t bits for f16/bf16, uint8_t for u8); empty if none
  std::vector<uint8_t> zeros;          // [G][N] raw zero points (G = 1 when group_size == 0);
                                       // empty for symmetric types
  std::vector<float> channel_scales;   // [N]; empty when there are none (factor 1)

  int64_t groups() const { return group_size == 0 ? 1 : K / group_size; }
  bool has_zeros() const { return !zeros.empty(); }
  const void* group_scales_data() const { return group_scales.empty() ? nullptr : group_scales.data(); }
  const uint8_t* zeros_data() const { return zeros.empty() ? nullptr : zeros.data(); }
  const float* channel_scales_data() const {
    return channel_scales.empty() ? nullptr : channel_scales.data();
  }
};

// Round-to-nearest (RTN) quantization.
//   type u4b8 / u8b128: symmetric, s = amax / (B - 1/2), q = clamp(rint(w / s) + B, 0, 2B - 1)
//   type u4 / u8:       asymmetric, lo = min(min w, 0), hi = max(max w, 0), s = (hi - lo) / qmax,
//                       z = rint(-lo / s), q = clamp(rint(w / s) + z, 0, qmax)
// group_size 0: one scale per column, stored as f32 channel_scales (w_kernel = q - B or q - z);
// group_size > 0 (a divisor of K; K means one group per column): group scales of scale_type
// (f16 or bf16). Every scale is rounded UP to its type, which keeps |w - (q - B|z) * s| <= s / 2
// for every element (in exact arithmetic). Throws mixgemm::Error for non-finite weights, a scale
// that overflows its type, or bad arguments.
QuantizedWeight quantize_weights_rtn(const void* w, ScalarType w_type, int64_t K, int64_t N,
                                     ScalarType type, int64_t group_size,
                                     ScalarType scale_type = types::f16);

// QQQ's two-level quantizer for the s8-activation path (type u4b8, scale_type u8):
//   group_size 0: ch[n] = RU_f32(amax_n / 7.5), q = clamp(rint(w / ch) + 8, 0, 15)
//   group_size > 0: ch[n] = RU_f32(amax_n / 120) so that |w / ch| <= 120 = 7.5 * 16; per group,
//     sg = the smallest integer in 1..16 with sg * 7.5 * ch >= amax_group, then
//     q = clamp(rint(w / (sg * ch)) + 8, 0, 15). The kernel weight w8 = (q - 8) * sg is an int8
//     in [-128, 112]; the effective weight is w8 * ch. |w - w8 * ch| <= sg * ch / 2.
QuantizedWeight quantize_weights_qqq(const void* w, ScalarType w_type, int64_t K, int64_t N,
                                     int64_t group_size);

// int4 -> fp8 weight scaling for the e4m3-activation path. From RTN weights (u4b8 or u4, f16 or
// bf16 group scales, optional channel scales c) builds f16 group scales s' and f32 channel scales
// c' with s' * c' ~= s * c, such that every f16 weight (q - B|z) * s' stays within the e4m3 range
// (|.| <= 448) and the largest of each column reaches it:
//   m[g][n] = max over the group of |q - B| (or |q - z|)
//   c'[n]   = RU_f32( c[n] * max_g(m[g][n] * s[g][n]) / 448 )      (1 for an all-zero column)
//   s'[g][n]= RN_f16( RN_f64(s[g][n] * c[n] / c'[n]) ), stepped down while m * s' > 448
// q and zeros are unchanged.
QuantizedWeight rescale_for_fp8(const QuantizedWeight& qw);

// The effective weights a GEMM with activations of a_type computes with, as doubles:
// [K][N] = reference_weight(...) * channel_scales[n] (exact product, no rounding).
// The group-scale type must suit a_type (the semantics' rules; e.g. bf16 scales need bf16
// activations, u8 scales need s8).
std::vector<double> dequantize_weights(const QuantizedWeight& qw, ScalarType a_type);

// ||W - dequantize_weights(qw, a_type)||_F / ||W||_F (0 when W is all zero and exact).
double relative_frobenius_error(const void* w, ScalarType w_type, const QuantizedWeight& qw,
                                ScalarType a_type);

// ---- activations ----------------------------------------------------------------------------
struct QuantizedActivations {
  int64_t M = 0, K = 0;
  ScalarType type = types::s8;       // s8 or e4m3
  std::vector<uint8_t> q;            // [M][K]: int8_t bits (s8) or e4m3 bits
  std::vector<float> token_scales;   // [M] (tok of the epilogue)
};

// Per-token dynamic quantization of a[M][lda] (f32, f16 or bf16) to `to` (s8 or e4m3):
//   amax = max_k |a|; tok = RN_f32(amax / R); inv = RN_f32(R / amax)   (R = 127 or 448)
//   s8:   q = clamp(rint_even(RN_f32(a * inv)), -127, 127)   (a NaN product gives 0)
//   e4m3: q = RN_e4m3sat(RN_f32(a * inv))
//   amax == 0: tok = 1, q = 0.
// Throws mixgemm::Error for a non-finite activation.
QuantizedActivations quantize_activations_dynamic(const void* a, ScalarType a_type, int64_t M,
                                                  int64_t K, int64_t lda, ScalarType to);

// Static (per-tensor) quantization with a given f32 scale s > 0: tok = s, inv = RN_f32(1 / s),
// s8: q = clamp(rint_even(RN_f32(a * inv)), -128, 127); e4m3: q = RN_e4m3sat(RN_f32(a * inv)).
QuantizedActivations quantize_activations_static(const void* a, ScalarType a_type, int64_t M,
                                                 int64_t K, int64_t lda, ScalarType to, float scale);

// One element of the formulas above, for tests of a GPU kernel: the quantized bits of the f32
// activation x given inv (s8: clamp bounds lo..127 with lo = -127 dynamic, -128 static).
uint8_t quantize_activation_element(float x, float inv, ScalarType to, bool static_scale);

}  // namespace mixgemm
