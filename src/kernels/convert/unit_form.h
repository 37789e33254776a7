// unit_form.h - the integer bookkeeping of the unit form (convert_16bit.cuh, "the unit form"),
// shared by the device converters and their host twin (src/layout/convert_emulation.cpp).
// Pure bit arithmetic on 16-bit float images (f16 or bf16) and f32 images; no CUDA types.
//
// The unit form computes a 4-bit weight with a 16-bit group scale s as w' = w * 2^u, where w =
// RN((q - 8) s) (u4b8) or RN(q s + zs) (u4 with zero points) is docs/semantics.md's weight and 2^u a power of two held per weight row (per
// output column) by that row's f32 accumulators; with an f16 scale, an 8-bit weight likewise (u8b128:
// RN((q - 128) s), u8: RN(q s + zs); kF16W8 below). The kernels keep 2^u as its *base*
//   base = 2^(u + 9)                         (a 16-bit power of two, f16 or bf16)
// because t = s * base is the quantity every factor is formed from (convert_16bit.cuh):
//   f16:  S(row g) = s 2^(u+24) = t 2^15,  S(row g+8) = s 2^(u+20) = t 2^11,  C = -8 s 2^u = -t 2^-6
//   bf16: S        = s 2^(u+133) = t 2^124 (both rows),                       C = -t 2^-6
//   zero points: C = zs 2^u = zs (base 2^-9)
// and the unit form is exact (w' = w * 2^u bit for bit) while t lies in the window
//   f16:  |t| in [2^-5, 2)       (|s| 2^u in [2^-14, 2^-8): w' normal, S < 2^16, C normal)
//   bf16: |t| in [2^-117, 2^4)   (|s| 2^u in [2^-126, 2^-5): S < 2^128)
// (docs/design-smallm.md, "The unit form", derives both).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define MIXGEMM_UNIT_HD __host__ __device__ __forceinline__
#else
#define MIXGEMM_UNIT_HD inline
#endif

namespace mixgemm::kernels::convert::unit {

// Register images (the same value in both halves unless noted; hi half = row g+8, lo = row g).
struct Consts {
  uint32_t base0;  // the base a segment starts with (its first unit)
  uint32_t t_lo;   // window: |t| >= t_lo ...
  uint32_t t_hi;   //         ... and |t| < t_hi
  uint32_t s_mul;  // S = t * s_mul  (f16: {2^11 row g+8, 2^15 row g}; bf16: 2^124 both)
  uint32_t c_mul;  // C = t * c_mul  (-2^-6: -8 s 2^u for u4b8)
  uint32_t z_mul;  // 2^u = base * z_mul (2^-9: zero points' term zs 2^u)
};
// f16: the first unit is u = -5 (base 2^4), whose window holds |s| in [2^-9, 2^-3): the scales of
// typical 4-bit checkpoints (absmax / 7 of weights of magnitude ~0.01-0.5), so most segments never
// rebase. bf16: u = 0 (base 2^9): no scaling at all for every normal |s| < 2^-5.
inline constexpr Consts kF16{0x4C004C00u, 0x28002800u, 0x40004000u, 0x68007800u, 0xA400A400u, 0x18001800u};
inline constexpr Consts kBF16{0x44004400u, 0x05000500u, 0x41804180u, 0x7D807D80u, 0xBC80BC80u, 0x3B003B00u};
// 8-bit weights (u8b128, u8; f16 only: a byte under bf16's 7-bit mantissa would reach its exponent):
// the byte sits at bits 0..7 of both rows' halves, q 2^-24 (cvt_u8_unit_frag16), so S = s 2^(u+24) =
// t 2^15 for both rows, and C = -128 s 2^u = -t 2^-2 (u8b128). The same window: |s| 2^u in
// [2^-14, 2^-8) keeps S < 2^16, C and every nonzero w' = (q - 128) s 2^u (|q - 128| <= 128) normal.
inline constexpr Consts kF16W8{0x4C004C00u, 0x28002800u, 0x40004000u, 0x78007800u, 0xB400B400u, 0x18001800u};

MIXGEMM_UNIT_HD constexpr const Consts& consts(bool bf16, int wbits = 4) {
  return bf16 ? kBF16 : wbits == 8 ? kF16W8 : kF16;
}

// The 16-bit image of 2^k, k inside the format's normal range (every base is normal: below).
MIXGEMM_UNIT_HD constexpr uint32_t pow2_bits(bool bf16, int k) {
  return bf16 ? static_cast<uint32_t>(k + 127) << 7 : static_cast<uint32_t>(k + 15) << 10;
}

// The exponent k of a base 2^k (a normal 16-bit power of two).
MIXGEMM_UNIT_HD constexpr int pow2_exp(bool bf16, uint32_t b) {
  return bf16 ? static_cast<int>(b >> 7) - 127 : static_cast<int>(b >> 10) - 15;
}

// The base of the unit a row moves to for a scale s that is outside its window: the unit that puts
// s in its window, from s's exponent field e (subnormal s: e taken as 1):
//   f16:  u = 3 - min(e, 26): |s| 2^u in [2^-12, 2^-11), 2 binades above the window's floor and 3
//         below its ceiling; for e = 27 (|s| in [4096, 8192), the domain's last binade) [2^-11,
//         2^-10). The clamp keeps every base normal (u + 9 >= -14).
//   bf16: u = min(0, 117 - min(e, 243)): |s| 2^u in [2^-10, 2^-9) from |s| = 2^-5 up, else no
//         scaling (u = 0: |s| 2^0 in the window for every normal |s| < 2^-5).
// Subnormal s sit below the window (f16 u = 2, bf16 u = 0), where they are exact all the same
// (docs/design-smallm.md, "The unit form"): such a row takes the rare path at each such group,
// with a factor of 1. A zero s keeps the row's base (its weights are zeros in every unit).
MIXGEMM_UNIT_HD constexpr uint32_t base_for_scale(bool bf16, uint32_t s, uint32_t base_old) {
  const uint32_t mag = s & 0x7FFFu;
  if (mag == 0) return base_old;
  const int e = static_cast<int>(mag >> (bf16 ? 7 : 10));
  if (bf16) {
    const int k = 126 - (e < 1 ? 1 : e > 243 ? 243 : e);  // u + 9 = 117 - e + 9
    return pow2_bits(true, k < 9 ? k : 9);
  }
  return pow2_bits(false, 12 - (e < 1 ? 1 : e > 26 ? 26 : e));  // u + 9 = 3 - e + 9
}

// f32 image of 2^k.
MIXGEMM_UNIT_HD constexpr uint32_t f32_pow2_bits(int k) { return static_cast<uint32_t>(k + 127) << 23; }

// The factor that moves a row's accumulators from the unit of base_old to that of base_new:
// 2^(u_new - u_old) as an f32 image (f16 |u_new - u_old| <= 25, bf16 <= 126: a normal f32).
MIXGEMM_UNIT_HD constexpr uint32_t rebase_factor_bits(bool bf16, uint32_t base_new, uint32_t base_old) {
  return f32_pow2_bits(pow2_exp(bf16, base_new & 0xFFFFu) - pow2_exp(bf16, base_old & 0xFFFFu));
}

// The factor that returns a row's accumulators to real values: 2^-u (u = k - 9 for base 2^k).
MIXGEMM_UNIT_HD constexpr uint32_t value_factor_bits(bool bf16, uint32_t base) {
  return f32_pow2_bits(9 - pow2_exp(bf16, base & 0xFFFFu));
}

}  // namespace mixgemm::kernels::convert::unit

#undef MIXGEMM_UNIT_HD
