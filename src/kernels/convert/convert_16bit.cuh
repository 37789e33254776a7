// convert_16bit.cuh - register-level converters: prepacked 4-/8-bit weights -> the
// 16-bit MMA A fragment (f16 or bf16), bit-exact to docs/semantics.md.
//
// Fragment of one k16 step (mma.sync.m16n8k16 A operand, and per warp the wgmma
// A register fragment), see include/mixgemm/layout.h:
//   frag[0] = (e0, e1)  row g,   cols 2t, 2t+1
//   frag[1] = (e2, e3)  row g+8, cols 2t, 2t+1
//   frag[2] = (e4, e5)  row g,   cols 2t+8, 2t+9
//   frag[3] = (e6, e7)  row g+8, cols 2t+8, 2t+9
// Each register holds two 16-bit values; the lower element index is in bits [0,16).
//
// Notation in the bit diagrams: registers are written most significant byte first,
// one {..} per register, e.g. {0x64, 0x0|q1, 0x64, 0x0|q0} is the f16x2 whose high
// half is 0x640q1 and low half 0x640q0. q_e is the stored unsigned integer of
// fragment element e.
//
// Rounding: the integer conversions are exact (the magic-number subtraction
// produces a small integer, representable in f16/bf16/f32, so the `.rn` never
// rounds). The only rounding is in scale_frag16 (mul.rn) and scale_zero_frag16
// (fma.rn): one rounding each, as semantics.md requires; the unit form (below) rounds once too.
//
// Every function here has a bit-for-bit host twin in src/layout/convert_emulation.h;
// tests/gpu/test_convert.cu checks device == host, tests/cpu/test_convert_emulation.cpp
// checks host == semantics.md.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "kernels/convert/unit_form.h"
#include "kernels/ptx/ptx.cuh"

namespace mixgemm::kernels::convert {

namespace detail {

template <class T>
inline constexpr bool kIsF16 = std::is_same_v<T, __half>;

template <class T>
__device__ __forceinline__ uint32_t bits16(T x) {
  if constexpr (kIsF16<T>) {
    return __half_as_ushort(x);
  } else {
    return __bfloat16_as_ushort(x);
  }
}

// The 16-bit value x in both halves of a register.
template <class T>
__device__ __forceinline__ uint32_t splat2(T x) {
  const uint32_t b = bits16(x);
  return (b << 16) | b;
}

// 4-bit -> 16-bit for bias kBias (0 or 8), both types.
template <class T, int kBias>
__device__ __forceinline__ void cvt_u4_frag16_biased(uint32_t w, uint32_t (&frag)[4]) {
  static_assert(kBias == 0 || kBias == 8);
  // The prepacked word holds nibbles (most significant first)
  //   w = {q7 q6, q5 q4, q3 q2, q1 q0}[nibble 7..0] = elements [7,5,3,1,6,4,2,0]
  // i.e. nibble p holds element (p < 4 ? 2p : 2(p-4)+1) (layout.h: p = e/2 + 4*(e%2)).
  if constexpr (kIsF16<T>) {
    // f16: 0x6400 = 1024 has ulp 1, so 0x6400 | q = 1024 + q for q < 1024;
    //      0x5400 =   64 has ulp 1/16, so 0x5400 | (q << 4) = 64 + q.
    // Mask the nibbles in place, OR in the exponent (one lop3 each), subtract the
    // magic plus the bias (one sub.rn.f16x2 each, exact: the result is the integer q - B).
    constexpr uint32_t kLo = 0x64006400u;                                  // 1024, 1024
    constexpr uint32_t kHi = 0x54005400u;                                  // 64, 64
    constexpr uint32_t kLoSub = kBias == 0 ? 0x64006400u : 0x64086408u;    // 1024 + B
    constexpr uint32_t kHiSub = kBias == 0 ? 0x54005400u : 0x54805480u;    // 64 + B
    const uint32_t w8 = w >> 8;
    // r0 = {0x64, 0x0|q1, 0x64, 0x0|q0}           = (1024 + q0, 1024 + q1)
    const uint32_t r0 = ptx::lop3<ptx::kLutAndOr>(w, 0x000F000Fu, kLo);
    // r1 = {0x54, q3<<4,  0x54, q2<<4}            = (64 + q2, 64 + q3)
    const uint32_t r1 = ptx::lop3<ptx::kLutAndOr>(w, 0x00F000F0u, kHi);
    // after w >> 8 the nibbles of q4 q5 q6 q7 sit where q0 q1 q2 q3 were
    // r2 = {0x64, 0x0|q5, 0x64, 0x0|q4}           = (1024 + q4, 1024 + q5)
    const uint32_t r2 = ptx::lop3<ptx::kLutAndOr>(w8, 0x000F000Fu, kLo);
    // r3 = {0x54, q7<<4,  0x54, q6<<4}            = (64 + q6, 64 + q7)
    const uint32_t r3 = ptx::lop3<ptx::kLutAndOr>(w8, 0x00F000F0u, kHi);
    frag[0] = ptx::sub_f16x2(r0, kLoSub);  // (q0 - B, q1 - B), exact
    frag[1] = ptx::sub_f16x2(r1, kHiSub);  // (q2 - B, q3 - B), exact
    frag[2] = ptx::sub_f16x2(r2, kLoSub);  // (q4 - B, q5 - B), exact
    frag[3] = ptx::sub_f16x2(r3, kHiSub);  // (q6 - B, q7 - B), exact
  } else {
    // bf16 has 7 mantissa bits: 0x4300 = 128 has ulp 1, so 0x4300 | q = 128 + q, but
    // q << 4 would reach the exponent, so every pair is shifted down to bits 0..3 first.
    constexpr uint32_t kMagic = 0x43004300u;                               // 128, 128
    constexpr uint32_t kSub = kBias == 0 ? 0x43004300u : 0x43084308u;      // 128 + B
    // r0 = {0x43, 0x0|q1, 0x43, 0x0|q0}           = (128 + q0, 128 + q1)
    const uint32_t r0 = ptx::lop3<ptx::kLutAndOr>(w, 0x000F000Fu, kMagic);
    // r1 = {0x43, 0x0|q3, 0x43, 0x0|q2}  from w >> 4
    const uint32_t r1 = ptx::lop3<ptx::kLutAndOr>(w >> 4, 0x000F000Fu, kMagic);
    // r2 = {0x43, 0x0|q5, 0x43, 0x0|q4}  from w >> 8
    const uint32_t r2 = ptx::lop3<ptx::kLutAndOr>(w >> 8, 0x000F000Fu, kMagic);
    // r3 = {0x43, 0x0|q7, 0x43, 0x0|q6}  from w >> 12
    const uint32_t r3 = ptx::lop3<ptx::kLutAndOr>(w >> 12, 0x000F000Fu, kMagic);
    frag[0] = ptx::sub_bf16x2(r0, kSub);  // exact
    frag[1] = ptx::sub_bf16x2(r1, kSub);
    frag[2] = ptx::sub_bf16x2(r2, kSub);
    frag[3] = ptx::sub_bf16x2(r3, kSub);
  }
}

// 8-bit -> 16-bit for bias kBias (0 or 128).
template <class T, int kBias>
__device__ __forceinline__ void cvt_u8_frag16_biased(uint2 b, uint32_t (&frag)[4]) {
  static_assert(kBias == 0 || kBias == 128);
  // b.x = {q3, q2, q1, q0}, b.y = {q7, q6, q5, q4} (natural byte order).
  if constexpr (kIsF16<T>) {
    // 0x6400 | q = 1024 + q for q < 1024 (ulp 1): one prmt per register puts a byte
    // under each 0x64 exponent byte, one exact sub.rn.f16x2 removes 1024 + B.
    constexpr uint32_t kExp = 0x64646464u;
    constexpr uint32_t kSub = kBias == 0 ? 0x64006400u : 0x64806480u;  // 1024 + B
    // prmt selectors: 0..3 pick bytes of the data, 4 picks 0x64.
    frag[0] = ptx::sub_f16x2(ptx::prmt(b.x, kExp, 0x4140u), kSub);  // {0x64,q1,0x64,q0}
    frag[1] = ptx::sub_f16x2(ptx::prmt(b.x, kExp, 0x4342u), kSub);  // {0x64,q3,0x64,q2}
    frag[2] = ptx::sub_f16x2(ptx::prmt(b.y, kExp, 0x4140u), kSub);  // {0x64,q5,0x64,q4}
    frag[3] = ptx::sub_f16x2(ptx::prmt(b.y, kExp, 0x4342u), kSub);  // {0x64,q7,0x64,q6}
  } else {
    // bf16 cannot hold 128 + q with ulp 1 for 8-bit q, so go through f32:
    // 0x4B000000 | q = 2^23 + q (ulp 1); sub.rn.f32 of 2^23 + B is exact; q - B is an
    // integer of magnitude <= 255, which has at most 8 significant bits, so its f32
    // encoding's upper 16 bits are exactly its bf16 encoding: one prmt packs two.
    constexpr uint32_t kF32Magic = 0x4B000000u;
    constexpr uint32_t kSub = 0x4B000000u + kBias;  // 2^23 + B
    const uint32_t src[2] = {b.x, b.y};
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      // f_i = {0x4B, 0x00, 0x00, q_i} (selector: byte i, then 4, 4, 7 from kF32Magic)
      const uint32_t f0 = ptx::sub_f32(ptx::prmt(src[h], kF32Magic, 0x7440u), kSub);
      const uint32_t f1 = ptx::sub_f32(ptx::prmt(src[h], kF32Magic, 0x7441u), kSub);
      const uint32_t f2 = ptx::sub_f32(ptx::prmt(src[h], kF32Magic, 0x7442u), kSub);
      const uint32_t f3 = ptx::sub_f32(ptx::prmt(src[h], kF32Magic, 0x7443u), kSub);
      // upper halves: {f1[31:16], f0[31:16]}
      frag[2 * h + 0] = ptx::prmt(f0, f1, 0x7632u);
      frag[2 * h + 1] = ptx::prmt(f2, f3, 0x7632u);
    }
  }
}

}  // namespace detail

// ---- integer -> 16-bit fragment ---------------------------------------------------
// `word`: one k-step of a 4-bit/16-bit-MMA lane fragment (layout.h: nibbles 0..7 hold
// elements [0,2,4,6,1,3,5,7]). Results are exact.

// w = T(q) (u4 with bias 0: zero points / scales are applied afterwards).
template <class T>
__device__ __forceinline__ void cvt_u4_frag16(uint32_t word, uint32_t (&frag)[4]) {
  detail::cvt_u4_frag16_biased<T, 0>(word, frag);
}

// w = T(q - 8) (u4b8); the -8 is folded into the magic-number subtraction.
template <class T>
__device__ __forceinline__ void cvt_u4b8_frag16(uint32_t word, uint32_t (&frag)[4]) {
  detail::cvt_u4_frag16_biased<T, 8>(word, frag);
}

// `bytes`: one k-step of an 8-bit/16-bit-MMA lane fragment, element e in byte e
// (bytes.x = e0..e3, bytes.y = e4..e7). w = T(q).
template <class T>
__device__ __forceinline__ void cvt_u8_frag16(uint2 bytes, uint32_t (&frag)[4]) {
  detail::cvt_u8_frag16_biased<T, 0>(bytes, frag);
}

// w = T(q - 128) (u8b128).
template <class T>
__device__ __forceinline__ void cvt_u8b128_frag16(uint2 bytes, uint32_t (&frag)[4]) {
  detail::cvt_u8_frag16_biased<T, 128>(bytes, frag);
}

// ---- group scales / zero points ---------------------------------------------------
// frag[0], frag[2] are row g, frag[1], frag[3] row g+8 (two weights of one row per register).

// frag = RN_T(frag * s) and RN_T(frag * s + zs) with each operand in the low half of a register
// (bits16 of the value; the high half is ignored): the splat is folded into the instruction's
// operand (ptx::mul_f16x2_lo), no instruction of its own (s28-splat). The kernels' form; the
// T-typed overloads below wrap it.
template <class T>
__device__ __forceinline__ void scale_frag16_lo(uint32_t (&frag)[4], uint32_t sg, uint32_t sg8) {
  if constexpr (detail::kIsF16<T>) {
    frag[0] = ptx::mul_f16x2_lo(frag[0], sg);
    frag[1] = ptx::mul_f16x2_lo(frag[1], sg8);
    frag[2] = ptx::mul_f16x2_lo(frag[2], sg);
    frag[3] = ptx::mul_f16x2_lo(frag[3], sg8);
  } else {
    frag[0] = ptx::mul_bf16x2_lo(frag[0], sg);
    frag[1] = ptx::mul_bf16x2_lo(frag[1], sg8);
    frag[2] = ptx::mul_bf16x2_lo(frag[2], sg);
    frag[3] = ptx::mul_bf16x2_lo(frag[3], sg8);
  }
}
template <class T>
__device__ __forceinline__ void scale_zero_frag16_lo(uint32_t (&frag)[4], uint32_t sg, uint32_t sg8, uint32_t zg,
                                                     uint32_t zg8) {
  if constexpr (detail::kIsF16<T>) {
    frag[0] = ptx::fma_f16x2_lo(frag[0], sg, zg);
    frag[1] = ptx::fma_f16x2_lo(frag[1], sg8, zg8);
    frag[2] = ptx::fma_f16x2_lo(frag[2], sg, zg);
    frag[3] = ptx::fma_f16x2_lo(frag[3], sg8, zg8);
  } else {
    frag[0] = ptx::fma_bf16x2_lo(frag[0], sg, zg);
    frag[1] = ptx::fma_bf16x2_lo(frag[1], sg8, zg8);
    frag[2] = ptx::fma_bf16x2_lo(frag[2], sg, zg);
    frag[3] = ptx::fma_bf16x2_lo(frag[3], sg8, zg8);
  }
}

// frag = RN_T(frag * s): one mul.rn.{f16,bf16}x2 per register (the only rounding).
template <class T>
__device__ __forceinline__ void scale_frag16(uint32_t (&frag)[4], T s_row_g, T s_row_g8) {
  scale_frag16_lo<T>(frag, detail::bits16(s_row_g), detail::bits16(s_row_g8));
}

// frag = RN_T(frag * s + zs): one fma.rn.{f16,bf16}x2 per register (the only rounding).
// zs is the prepacked zero point RN_T(-(z * s)) (docs/semantics.md).
template <class T>
__device__ __forceinline__ void scale_zero_frag16(uint32_t (&frag)[4], T s_row_g, T s_row_g8,
                                                  T zs_row_g, T zs_row_g8) {
  scale_zero_frag16_lo<T>(frag, detail::bits16(s_row_g), detail::bits16(s_row_g8), detail::bits16(zs_row_g),
                          detail::bits16(zs_row_g8));
}

// ---- the unit form: u4b8 with a 16-bit group scale in one fma per register --------------
// The base form above spends two instructions per register on (q - 8) * s: the exact sub of
// the magic number and the mul. The unit form spends one, bit-exactly, by computing w * 2^u
// instead of w (unit_form.h has the bookkeeping, docs/design-smallm.md "The unit form" the
// derivation):
//   - the nibble is masked in place with no exponent, so the register's half IS a subnormal:
//       f16  nibble at bits 0..3: q * 2^-24,   at bits 4..7: q * 2^-20
//       bf16 nibble at bits 0..3: q * 2^-133   (bits 4..7 would reach the exponent: shifted)
//   - fma(x, S, C) with S = s 2^(u+24) (2^(u+20); bf16 2^(u+133)) and C = -8 s 2^u: the product
//     q s 2^u is exact (S is s times a power of two), the sum (q - 8) s 2^u is formed exactly
//     inside the fma and rounded once: RN((q - 8) s 2^u) = RN((q - 8) s) 2^u = w 2^u while
//     |s| 2^u lies in the window (unit_form.h: the result is then normal, and scaling by a power
//     of two commutes with RN; a subnormal scale's weights have too few bits to round).
//   - u4 with zero points (w = RN(q s + zs), zs = RN(-(z s)) prepacked; zs = 0 without them): the
//     same fma with C = zs 2^u, exact for the same reason (q s + zs is a multiple of s's ulp, |zs|
//     >= |s| or zs = 0, so zs 2^u is exact and the sum rounds at the same relative place).
// The caller keeps, per weight row, base = 2^(u+9) and its f32 accumulators in the unit 2^u
// (a tensor-core f32 sum of products scaled by a common power of two is that power of two times
// the unscaled sum), moves a row to another unit when a group's scale leaves its window
// (unit_rebase_half), and returns to real values (x 2^-u: unit_value_factor) before the
// accumulators are used.
//
// Registers of one row pair: s2 / base2 / t2 / S2 / C2 hold row g in the low half and row g+8 in
// the high half.

template <class T, int kWBits = 4>
inline constexpr unit::Consts kUnit = unit::consts(!detail::kIsF16<T>, kWBits);

// The weights the unit form converts with scales of type T: 4-bit with f16 or bf16, 8-bit with f16
// only (a byte under bf16's 7-bit mantissa would reach its exponent).
template <class T, int kWBits>
inline constexpr bool kUnitFormWeights = kWBits == 4 || (kWBits == 8 && detail::kIsF16<T>);

// t = s * base, both rows (exact for every t inside the window; outside it, the window test fails).
template <class T>
__device__ __forceinline__ uint32_t unit_t(uint32_t s2, uint32_t base2) {
  if constexpr (detail::kIsF16<T>) return ptx::mul_f16x2(s2, base2);
  else return ptx::mul_bf16x2(s2, base2);
}

// 1 when both rows' t lie in their windows (then unit_factors is exact), else 0 (rebase).
template <class T>
__device__ __forceinline__ uint32_t unit_in_window(uint32_t t2) {
  if constexpr (detail::kIsF16<T>) return ptx::abs_in_f16x2(t2, kUnit<T>.t_lo, kUnit<T>.t_hi);
  else return ptx::abs_in_bf16x2(t2, kUnit<T>.t_lo, kUnit<T>.t_hi);
}

// S2 = t * {2^11, 2^15} (bf16 {2^124, 2^124}; 8-bit weights {2^15, 2^15}) and C2 = t * -2^-6 (8-bit:
// -2^-2): exact inside the window.
template <class T, int kWBits = 4>
__device__ __forceinline__ void unit_factors(uint32_t t2, uint32_t& S2, uint32_t& C2) {
  static_assert(kUnitFormWeights<T, kWBits>, "8-bit weights: f16 only (unit_form.h)");
  if constexpr (detail::kIsF16<T>) {
    S2 = ptx::mul_f16x2(t2, kUnit<T, kWBits>.s_mul);
    C2 = ptx::mul_f16x2(t2, kUnit<T, kWBits>.c_mul);
  } else {
    S2 = ptx::mul_bf16x2(t2, kUnit<T>.s_mul);
    C2 = ptx::mul_bf16x2(t2, kUnit<T>.c_mul);
  }
}

// C2 = zs * 2^u (zs2: the rows' prepacked zero terms RN(-(z s)), or 0 without zero points), with
// base2 the rows' bases after any rebase: 2^u = base * 2^-9 (exact: f16 2^-23.., a subnormal power of
// two at worst), then one exact multiply.
template <class T>
__device__ __forceinline__ uint32_t unit_zero_term(uint32_t zs2, uint32_t base2) {
  if constexpr (detail::kIsF16<T>) return ptx::mul_f16x2(zs2, ptx::mul_f16x2(base2, kUnit<T>.z_mul));
  else return ptx::mul_bf16x2(zs2, ptx::mul_bf16x2(base2, kUnit<T>.z_mul));
}

// w * 2^u for one k16 step of 4-bit weights (the word of cvt_u4b8_frag16 / cvt_u4_frag16): C2 =
// -8 s 2^u (u4b8: unit_factors) or zs 2^u (u4: unit_zero_term). 4 lop3 + 1 shift + 4 fma (bf16: 3
// shifts), against the base form's 4 lop3 + 1 shift + 4 sub + 4 mul (u4 with zeros: 4 sub + 4 fma).
template <class T>
__device__ __forceinline__ void cvt_u4_unit_frag16(uint32_t w, uint32_t S2, uint32_t C2, uint32_t (&frag)[4]) {
  // nibbles as in cvt_u4_frag16_biased: w = {q7 q6, q5 q4, q3 q2, q1 q0}[nibble 7..0] = elements
  // [7,5,3,1,6,4,2,0]; frag[0], frag[2] are row g (S2.lo, C2.lo), frag[1], frag[3] row g+8 (.hi).
  if constexpr (detail::kIsF16<T>) {
    const uint32_t w8 = w >> 8;
    // r0 = {0x00, 0x0|q1, 0x00, 0x0|q0}  = (q0 2^-24, q1 2^-24)
    const uint32_t r0 = ptx::lop3<ptx::kLutAndOr>(w, 0x000F000Fu, 0u);
    // r1 = {0x00, q3<<4, 0x00, q2<<4}    = (q2 2^-20, q3 2^-20)
    const uint32_t r1 = ptx::lop3<ptx::kLutAndOr>(w, 0x00F000F0u, 0u);
    const uint32_t r2 = ptx::lop3<ptx::kLutAndOr>(w8, 0x000F000Fu, 0u);  // (q4, q5) 2^-24
    const uint32_t r3 = ptx::lop3<ptx::kLutAndOr>(w8, 0x00F000F0u, 0u);  // (q6, q7) 2^-20
    frag[0] = ptx::fma_f16x2_lo(r0, S2, C2);  // RN((q - 8) s 2^u) / RN((q s + zs) 2^u): S2.lo = s 2^(u+24)
    frag[1] = ptx::fma_f16x2_hi(r1, S2, C2);  //                    S2.hi = s 2^(u+20)
    frag[2] = ptx::fma_f16x2_lo(r2, S2, C2);
    frag[3] = ptx::fma_f16x2_hi(r3, S2, C2);
  } else {
    // r_i = {0x00, 0x0|q, 0x00, 0x0|q}   = (q 2^-133, q 2^-133), every pair shifted to bits 0..3
    const uint32_t r0 = ptx::lop3<ptx::kLutAndOr>(w, 0x000F000Fu, 0u);
    const uint32_t r1 = ptx::lop3<ptx::kLutAndOr>(w >> 4, 0x000F000Fu, 0u);
    const uint32_t r2 = ptx::lop3<ptx::kLutAndOr>(w >> 8, 0x000F000Fu, 0u);
    const uint32_t r3 = ptx::lop3<ptx::kLutAndOr>(w >> 12, 0x000F000Fu, 0u);
    frag[0] = ptx::fma_bf16x2_lo(r0, S2, C2);  // S2 = s 2^(u+133)
    frag[1] = ptx::fma_bf16x2_hi(r1, S2, C2);
    frag[2] = ptx::fma_bf16x2_lo(r2, S2, C2);
    frag[3] = ptx::fma_bf16x2_hi(r3, S2, C2);
  }
}

// w * 2^u for one k16 step of 8-bit weights with f16 group scales (the bytes of cvt_u8b128_frag16 /
// cvt_u8_frag16): C2 = -128 s 2^u (u8b128: unit_factors<__half, 8>) or zs 2^u (u8: unit_zero_term).
// One prmt puts two bytes under zero high bytes, so each half is the subnormal q 2^-24 (exact for
// every q < 1024), and S2 = s 2^(u+24) for both rows: 4 prmt + 4 fma, against the base form's 4 prmt
// + 4 sub + 4 mul (u8 with zeros: 4 sub + 4 fma).
template <class T>
__device__ __forceinline__ void cvt_u8_unit_frag16(uint2 b, uint32_t S2, uint32_t C2, uint32_t (&frag)[4]) {
  static_assert(detail::kIsF16<T>, "8-bit weights in the unit form: f16 only (unit_form.h)");
  // b.x = {q3, q2, q1, q0}, b.y = {q7, q6, q5, q4}; prmt selector 4 picks a zero byte of the second
  // operand. frag[0], frag[2] are row g (S2.lo, C2.lo), frag[1], frag[3] row g+8 (.hi).
  frag[0] = ptx::fma_f16x2_lo(ptx::prmt(b.x, 0u, 0x4140u), S2, C2);  // {0x00,q1,0x00,q0}: (q0, q1) 2^-24
  frag[1] = ptx::fma_f16x2_hi(ptx::prmt(b.x, 0u, 0x4342u), S2, C2);  // {0x00,q3,0x00,q2}
  frag[2] = ptx::fma_f16x2_lo(ptx::prmt(b.y, 0u, 0x4140u), S2, C2);  // {0x00,q5,0x00,q4}
  frag[3] = ptx::fma_f16x2_hi(ptx::prmt(b.y, 0u, 0x4342u), S2, C2);  // {0x00,q7,0x00,q6}
}

// Row h (0: g, low half; 1: g+8, high half) of a pair whose scale left its window: its new base
// (unit::base_for_scale) goes into base2, and the f32 factor 2^(u_new - u_old) that moves the
// row's accumulators to it is returned (1 for a zero scale: the unit stays).
template <class T>
__device__ __forceinline__ float unit_rebase_half(uint32_t s2, uint32_t& base2, int h) {
  constexpr bool kBF = !detail::kIsF16<T>;
  const int sh = 16 * h;
  const uint32_t old = (base2 >> sh) & 0xFFFFu;
  const uint32_t nb = unit::base_for_scale(kBF, (s2 >> sh) & 0xFFFFu, old);
  base2 = (base2 & (0xFFFF0000u >> sh)) | (nb << sh);
  return __uint_as_float(unit::rebase_factor_bits(kBF, nb, old));
}

// 2^-u of row h: the factor that returns its accumulators to real values.
template <class T>
__device__ __forceinline__ float unit_value_factor(uint32_t base2, int h) {
  return __uint_as_float(unit::value_factor_bits(!detail::kIsF16<T>, (base2 >> (16 * h)) & 0xFFFFu));
}

// Per-channel zero points without group scales: prepack_zeros stores zs = T(-z) and the
// kernel calls scale_zero_frag16 with s = 1, i.e. fma(q, 1, -z) = q - z exactly.

}  // namespace mixgemm::kernels::convert
