// mixgemm/reference.h - the CPU reference of docs/semantics.md, and the error
// bound the GPU tests compare against.
//
// Everything here runs on the host, on host memory. The reference rebuilds the
// weight the tensor cores see bit for bit (single roundings from exact values),
// accumulates in f64 (exact for s8 x s8 and for every problem whose products
// share a common quantum, see acc_quantum_out), and applies the epilogue
//   out = RN_out( fma_f32( RN_f32(acc), RN_f32(tok * ch), bias ) )
// exactly as the kernels do. Where the kernels' f32 accumulation order is
// unspecified, gemm_tolerance() gives the derived bound (docs/semantics.md,
// "Tolerances").
#pragma once

#include <cstdint>

#include "mixgemm/gemm.h"
#include "mixgemm/scalar_type.h"

namespace mixgemm {

// One reference GEMM. Element encodings (all host memory, row-major):
//   a             [M][lda]  types.a: uint16_t bits (f16/bf16), int8_t (s8), uint8_t bits (e4m3)
//   q             [K][N]    one stored weight integer per byte (0..15 for 4-bit, 0..255 for 8-bit);
//                           any K and N (the prepacked layout's shape rules do not apply here)
//   group_scales  [G][N]    types.scale: uint16_t bits (f16/bf16) or uint8_t (u8, s8 activations);
//                           G = K / group_size; required iff group_size != 0
//   zeros         [G][N]    raw integer zero points z (not pre-multiplied), G = 1 when
//                           group_size == 0; required iff types.has_zeros
//   channel_scales[N] f32, token_scales [M] f32, bias [N] of types.out (uint16_t bits): optional
//   out           [M][ldo]  types.out, uint16_t bits
struct ReferenceArgs {
  GemmProblem problem;

  const void* a = nullptr;
  int64_t lda = 0;  // >= K
  const uint8_t* q = nullptr;
  const void* group_scales = nullptr;
  const uint8_t* zeros = nullptr;
  const float* channel_scales = nullptr;
  const float* token_scales = nullptr;
  const void* bias = nullptr;

  void* out = nullptr;
  int64_t ldo = 0;  // >= N

  // Optional diagnostics, each [M*N] row-major (index m*N + n), written when non-null:
  double* acc_out = nullptr;          // the accumulator sum_k a*w in f64, before the epilogue
  double* abs_acc_out = nullptr;      // sum_k |a*w| (the S of the tolerance derivation)
  double* acc_quantum_out = nullptr;  // a power of two q such that every product a[m,k]*w[k,n] is
                                      // an integer multiple of q (+inf when all products are 0,
                                      // 0 when some input is inf/NaN); see ToleranceOptions
};

// Computes args.out (and the optional diagnostics). Host memory used: 4*(K*N + M*K) bytes for
// the decoded operands plus 8*M*N for the accumulator when acc_out is null. Validates everything first and throws
// mixgemm::Error naming the offending argument (nothing is written then), including stored
// weights out of range for types.b, zero points out of range, and s8 weights
// w8 = (q - B or z) * sg outside [-128, 127]. threads = 0: std::thread::hardware_concurrency().
// The result does not depend on `threads`.
void reference_gemm(const ReferenceArgs& args, int threads = 0);

// The dequantized weight the tensor cores see, as a double (exact: it is a value of the MMA
// operand type: f16/bf16 for 16-bit activations, an int8 integer for s8, an e4m3 value for
// e4m3), per docs/semantics.md.
//   scale_elem: pointer to ONE element of types.scale (the group scale s[g][n]), or null for
//               the no-group-scale modes (group_size == 0)
//   z:          the raw zero point z[g][n]; used only when has_zero
// Throws mixgemm::Error for the same invalid inputs reference_gemm refuses.
double reference_weight(const GemmProblem& p, uint8_t q, const void* scale_elem, uint8_t z,
                        bool has_zero);

// The whole dequantized matrix: w[k*N + n] = reference_weight(...) for every k, n
// (q [K][N], group_scales [G][N] or null, zeros [G][N] or null as in ReferenceArgs).
void reference_weights(const GemmProblem& p, const uint8_t* q, const void* group_scales,
                       const uint8_t* zeros, double* w);

// ---- tolerances ---------------------------------------------------------------------------
// Knobs of the bound that the reference cannot know by itself.
struct ToleranceOptions {
  // The element's acc_quantum_out. When > 0 and the accumulation cannot round in any order
  // (abs_acc < 2^p * acc_quantum, p = 24 for f32, 14 for the e4m3 tensor-core accumulator),
  // the GPU result must equal the reference bit for bit and the tolerance is 0.
  double acc_quantum = 0;
  // e4m3 activations only: the kernel adds the tensor-core partial sum (an e8m13 accumulator
  // on Hopper, truncating) into an f32 register accumulator at least every this many k.
  // 0: never (the whole K runs through the e8m13 accumulator). mixgemm's kernels: 1 for smallm
  // (e4m3 on the f16 tensor cores), 256 for the sm90 tiles but 128 x 256, 0 for 128 x 256
  // (docs/semantics.md 5.2).
  int64_t fp8_promotion_k = 0;
};

// |acc_gpu - acc_exact| bound for an element with sum_k |a*w| = abs_acc (0 for s8 x s8; +inf
// when the model gives no finite bound). docs/semantics.md, "Tolerances", derives it.
double accumulation_error_bound(const GemmProblem& p, double abs_acc,
                                const ToleranceOptions& options = {});

// Largest |out_gpu - ref_out_value| allowed for one output element, where
//   abs_acc          = abs_acc_out[m*N + n] of the reference,
//   tok_ch_scale_abs = |RN_f32(tok[m] * ch[n])| (1 when neither is given),
//   ref_out_value    = the reference output element, decoded (from_f16 / from_bf16).
// Returns 0 when the result must be bit-exact, +inf when no finite bound exists (the output
// may overflow, ref_out_value is not finite, or the accumulation model gives none: e4m3
// without promotion reaches that above K = 4096). within_tolerance() accepts anything but a
// NaN mismatch under +inf, so a test should count such elements rather than trust them, and
// check those configurations with exact data (ToleranceOptions::acc_quantum).
// Compare with within_tolerance().
double gemm_tolerance(const GemmProblem& p, double abs_acc, double tok_ch_scale_abs,
                      double ref_out_value, const ToleranceOptions& options = {});

// value vs reference with a tolerance from gemm_tolerance: NaN matches only NaN, infinities
// match when equal (or when tolerance is +inf), otherwise |value - reference| <= tolerance.
bool within_tolerance(double value, double reference, double tolerance);

// Decodes element `index` of a host array of type t (f16/bf16/e4m3 bits, s8, u8, f32, s32)
// to a double (exact).
double element_value(ScalarType t, const void* base, int64_t index);

}  // namespace mixgemm
