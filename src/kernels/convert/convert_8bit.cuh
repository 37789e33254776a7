// convert_8bit.cuh - register-level converters: prepacked weights -> the 8-bit MMA A
// fragment (s8 or e4m3), bit-exact to docs/semantics.md.
//
// One register of the 8-bit fragment (mma.sync.m16n8k32 A, wgmma k32 A) holds four
// consecutive k of one row: bytes {e+3, e+2, e+1, e} (most significant first),
// e in {0, 4, 8, 12}. In the 4-bit/8-bit-MMA layout element e is nibble e % 8 of
// word e / 8, in natural order, so
//   reg0 = cvt(word0), reg1 = cvt(word0 >> 16), reg2 = cvt(word1), reg3 = cvt(word1 >> 16).
// Every converter below reads only bits [0,16) of `nibbles` (the upper half is
// ignored, so callers need not mask), which hold n0..n3 (n0 in bits 0..3). Those that take
// a template flag kHi read bits [16,32) instead when it is set: cvt<true>(word) ==
// cvt(word >> 16), without the shift (their first prmt selects bytes 2, 3 instead of 0, 1).
//
// Notation: registers written most significant byte first; "0x0|n" is a byte whose
// low nibble is n. q_i = n_i is the stored unsigned integer.
//
// Rounding: cvt_u4x4_s8*, cvt_u4x4_e4m3 and cvt_u8x4_s8 are exact integer/table
// operations (no rounding anywhere). cvt_u4x4_e4m3_gscale rounds twice, as the
// semantics define: fma.rn/mul.rn.f16x2 (RN_f16), then cvt.rn.satfinite.e4m3x2.f16x2
// (RN_e4m3sat).
//
// Host twins: src/layout/convert_emulation.h.
#pragma once

#include <cuda_fp16.h>

#include <cstdint>

#include "kernels/convert/convert_16bit.cuh"  // detail::splat2
#include "kernels/ptx/ptx.cuh"

namespace mixgemm::kernels::convert {

// ---- building blocks ------------------------------------------------------------

// Four nibbles -> four bytes:  {.., n3n2, n1n0} -> {0x0|n3, 0x0|n2, 0x0|n1, 0x0|n0}.
template <bool kHi = false>
__device__ __forceinline__ uint32_t spread_nibbles(uint32_t nibbles) {
  // t = {0x00, n3n2, 0x00, n1n0}          (prmt: bytes 0, 4(=0), 1, 4(=0); kHi: bytes 2, 3)
  const uint32_t t = ptx::prmt(nibbles, 0u, kHi ? 0x4342u : 0x4140u);
  // (t | t << 4) & 0x0F0F0F0F: byte 0 keeps n0, byte 1 gets n1 (shifted up from
  // byte 0's high nibble), byte 2 keeps n2, byte 3 gets n3.
  return ptx::lop3<ptx::kLutOrAnd>(t, t << 4, 0x0F0F0F0Fu);
}

// Per-byte 0xFF where nibble i has its high bit set (q_i >= 8), else 0x00.
__device__ __forceinline__ uint32_t nibble_msb_mask(uint32_t nibbles) {
  // Bytes whose sign bit is bit 3 of nibble i:  a = nibbles << 4:  a.byte0 = n0<<4,
  // a.byte1 = {n2, n1}; b = nibbles: b.byte0 = {n1, n0}, b.byte1 = {n3, n2}.
  // prmt selector nibble 8|j replicates the sign of source byte j:
  //   byte0 <- a.byte0 (8), byte1 <- b.byte0 (C), byte2 <- a.byte1 (9), byte3 <- b.byte1 (D)
  return ptx::prmt(nibbles << 4, nibbles, 0xD9C8u);
}

// Generic 16-entry byte table lookup for four nibbles: byte i = table[n_i], with
// table[0..3] = lo0 bytes 0..3, table[4..7] = lo1, table[8..11] = hi0, table[12..15] = hi1.
// Two 8-entry prmt lookups indexed with n & 7, then a bitwise select on bit 3.
__device__ __forceinline__ uint32_t lut16x4(uint32_t nibbles, uint32_t lo0, uint32_t lo1,
                                            uint32_t hi0, uint32_t hi1) {
  const uint32_t idx = nibbles & 0x7777u;  // no sign-replicate selectors
  const uint32_t lo = ptx::prmt(lo0, lo1, idx);
  const uint32_t hi = ptx::prmt(hi0, hi1, idx);
  return ptx::lop3<ptx::kLutSelect>(lo, hi, nibble_msb_mask(nibbles));  // mask ? hi : lo
}

// Same lookup when no table byte has its sign bit set (4 instead of 6 instructions):
// the sign-replicate selectors that the high nibbles produce then read 0x00.
//   lo = prmt(lo, n):     q < 8 -> table[q],     q >= 8 -> sign(table[q & 7]) = 0x00
//   hi = prmt(hi, n ^ 8): q >= 8 -> table[q],   q < 8  -> sign(table[8 + q]) = 0x00
__device__ __forceinline__ uint32_t lut16x4_msb0(uint32_t nibbles, uint32_t lo0, uint32_t lo1,
                                                 uint32_t hi0, uint32_t hi1) {
  const uint32_t lo = ptx::prmt(lo0, lo1, nibbles);
  const uint32_t hi = ptx::prmt(hi0, hi1, nibbles ^ 0x8888u);
  return lo | hi;
}

// ---- 4-bit -> s8 ----------------------------------------------------------------

// Per byte q - bias, exact int8 (bias 0 or 8; any bias in [0,128] works).
//   u = {0x0|q3, 0x0|q2, 0x0|q1, 0x0|q0}
//   u + (0x80 - bias) per byte: no byte exceeds 0x8F, so no carry crosses bytes;
//   ^ 0x80 per byte turns "q - bias + 128" into the two's complement of q - bias.
template <bool kHi = false>
__device__ __forceinline__ uint32_t cvt_u4x4_s8(uint32_t nibbles, int32_t bias) {
  const uint32_t u = spread_nibbles<kHi>(nibbles);
  if (bias == 0) return u;  // {q3, q2, q1, q0}
  const uint32_t offset = (0x80u - static_cast<uint32_t>(bias)) * 0x01010101u;
  return (u + offset) ^ 0x80808080u;
}

// The per-row constant cvt_u4x4_s8_gscale_pre needs: 0x80808080 - zsg * 0x01010101.
__device__ __forceinline__ uint32_t s8_gscale_offset(uint32_t zsg) {
  return 0x80808080u - zsg * 0x01010101u;
}

// Per byte q * sg - zsg as int8, exact when the semantics' preconditions hold
// (q * sg <= 255 and q * sg - zsg in [-128, 127]; sg <= 16).
//   u * sg: each byte q*sg <= 240 stays inside its byte (one 32-bit multiply).
//   + offset: byte i becomes q_i*sg - zsg + 128 in [0, 255]; since every final byte is
//     in range, the 32-bit sum has exactly those bytes whatever borrows happen on the
//     way (it is the unique base-256 representation), then ^ 0x80 per byte.
// One imad and one lop3 after the spread.
template <bool kHi = false>
__device__ __forceinline__ uint32_t cvt_u4x4_s8_gscale_pre(uint32_t nibbles, uint32_t sg,
                                                           uint32_t offset) {
  return (spread_nibbles<kHi>(nibbles) * sg + offset) ^ 0x80808080u;
}

// zsg = 8 * sg for u4b8, z * sg for u4 with zero points (prepack_zeros stores it).
__device__ __forceinline__ uint32_t cvt_u4x4_s8_gscale(uint32_t nibbles, uint32_t sg,
                                                       uint32_t zsg) {
  return cvt_u4x4_s8_gscale_pre(nibbles, sg, s8_gscale_offset(zsg));
}

// ---- 8-bit -> s8 ----------------------------------------------------------------

// Four stored bytes {q3, q2, q1, q0} -> per byte q - z as int8, exact when every
// q - z is in [-128, 127]. z = 128 (u8b128) gives q ^ 0x80; z = 0 returns q unchanged.
// Same carry argument as cvt_u4x4_s8_gscale: bytes q + 128 - z in [0, 255].
__device__ __forceinline__ uint32_t cvt_u8x4_s8(uint32_t bytes, uint32_t z) {
  return (bytes + (0x80808080u - z * 0x01010101u)) ^ 0x80808080u;
}

// ---- 4-bit -> e4m3 --------------------------------------------------------------

// e4m3 codes of the integers used below (exact: |v| <= 15 needs at most 4
// significant bits; e4m3 has 1 + 3):
//   0:00 1:38 2:40 3:44 4:48 5:4A 6:4C 7:4E 8:50 9:51 10:52 11:53 12:54 13:55 14:56 15:57
//   negative: | 0x80.
// Per byte e4m3(q - bias), exact. bias 0: a table without sign bits (4 instructions);
// bias 8: q < 8 gives negative values, general 16-entry select (6 instructions).
__device__ __forceinline__ uint32_t cvt_u4x4_e4m3(uint32_t nibbles, int32_t bias) {
  if (bias == 0) {
    // table[q] = e4m3(q)
    return lut16x4_msb0(nibbles, 0x44403800u, 0x4E4C4A48u, 0x53525150u, 0x57565554u);
  }
  // table[q] = e4m3(q - 8): q = 0..7 -> -8..-1 = D0 CE CC CA C8 C4 C0 B8; q = 8..15 -> 0..7
  return lut16x4(nibbles, 0xCACCCED0u, 0xB8C0C4C8u, 0x44403800u, 0x4E4C4A48u);
}

// Nibbles 0..3 of a word (kHi: 4..7) as f16 pairs offset by magic numbers (as in
// cvt_u4_frag16_biased); the caller subtracts 1024 + B and 64 + B (sub.rn.f16x2, exact:
// 0x6400 / 0x5400 for B = 0, 0x6408 = 1032 / 0x5480 = 72 for B = 8) to get the integers
// (q0 - B, q2 - B), (q1 - B, q3 - B):
//   t   = {0x00, n3n2, 0x00, n1n0}                (prmt; kHi: bytes 2, 3)
//   p02 = {0x64, 0x0|q2, 0x64, 0x0|q0}  = f16 (1024 + q0, 1024 + q2)
//   p13 = {0x54, q3<<4, 0x54, q1<<4}    = f16 (64 + q1, 64 + q3)   (ulp 1/16 at 64)
template <bool kHi>
__device__ __forceinline__ void u4x4_f16_magic(uint32_t nibbles, uint32_t& p02, uint32_t& p13) {
  const uint32_t t = ptx::prmt(nibbles, 0u, kHi ? 0x4342u : 0x4140u);
  p02 = ptx::lop3<ptx::kLutAndOr>(t, 0x000F000Fu, 0x64006400u);
  p13 = ptx::lop3<ptx::kLutAndOr>(t, 0x00F000F0u, 0x54005400u);
}

// Per byte e5m2(q - 8), exact, for the wgmma that takes e5m2 weights against e4m3
// activations (.e5m2.e4m3: the same f32 products, since the values are the same): every
// q - 8 in [-8, 7] has at most 3 significant bits, e5m2 holds 1 + 2, and e5m2 is f16 with
// the low 8 bits cut off (same sign, 5-bit exponent, bias 15), so e5m2(v) is the high byte
// of f16(v) whenever v is exactly representable in both. 6 instructions and no tables
// (cvt_u4x4_e4m3(.., 8): 6 plus the table registers, which ptxas rematerializes in the
// wide tile's loop):
//   w02 = p02 - 1032, w13 = p13 - 72 (u4x4_f16_magic)  = f16 (q0 - 8, q2 - 8), (q1 - 8, q3 - 8)
//   prmt(w02, w13, 0x7351) = {hi(w13.y), hi(w02.y), hi(w13.x), hi(w02.x)}
//                          = {e5m2(q3-8), e5m2(q2-8), e5m2(q1-8), e5m2(q0-8)}
// q = 8 gives 1032 - 1032 = +0 (0x00).
template <bool kHi = false>
__device__ __forceinline__ uint32_t cvt_u4x4_e5m2_b8(uint32_t nibbles) {
  uint32_t p02, p13;
  u4x4_f16_magic<kHi>(nibbles, p02, p13);
  return ptx::prmt(ptx::sub_f16x2(p02, 0x64086408u), ptx::sub_f16x2(p13, 0x54805480u), 0x7351u);
}

// Per-group f16 scales (docs/semantics.md, e4m3 activations): per byte
//   has_zero:  RN_e4m3sat( RN_f16(q * s + zs) )        (u4 with zero points, zs = RN_f16(-(z*s)))
//   !has_zero: RN_e4m3sat( RN_f16((q - 8) * s) )       (u4b8)
// s and zs are the row's group scale and prepacked zero (one row per register).
//   u4x4_f16_magic, then exact sub.rn.f16x2 -> (q0 - B, q2 - B), (q1 - B, q3 - B)
//   fma.rn / mul.rn.f16x2 (rounds: RN_f16), cvt.rn.satfinite.e4m3x2.f16x2 (rounds:
//   RN_e4m3sat) -> c02 = {e(w2), e(w0)}, c13 = {e(w3), e(w1)} in the low 16 bits,
//   packed as {c13, c02} = {e(w3), e(w1), e(w2), e(w0)} (cvt_e4m3x4_f16x2x2), then
//   prmt(.., 0x3120) = {e(w3), e(w2), e(w1), e(w0)}.
template <bool kHi = false>
__device__ __forceinline__ uint32_t cvt_u4x4_e4m3_gscale_bias(uint32_t nibbles, __half s,
                                                              __half zs, bool has_zero,
                                                              int32_t bias) {
  uint32_t p02, p13;
  u4x4_f16_magic<kHi>(nibbles, p02, p13);
  // The scale and zero in the low half: splatted in the instruction's operand (ptx::mul_f16x2_lo).
  const uint32_t s1 = detail::bits16(s);
  uint32_t w02, w13;
  if (has_zero) {
    const uint32_t zs1 = detail::bits16(zs);
    w02 = ptx::fma_f16x2_lo(ptx::sub_f16x2(p02, 0x64006400u), s1, zs1);
    w13 = ptx::fma_f16x2_lo(ptx::sub_f16x2(p13, 0x54005400u), s1, zs1);
  } else {
    // 1024 + B and 64 + B as f16 (B = 0 or 8)
    const uint32_t lo_sub = bias == 0 ? 0x64006400u : 0x64086408u;
    const uint32_t hi_sub = bias == 0 ? 0x54005400u : 0x54805480u;
    w02 = ptx::mul_f16x2_lo(ptx::sub_f16x2(p02, lo_sub), s1);
    w13 = ptx::mul_f16x2_lo(ptx::sub_f16x2(p13, hi_sub), s1);
  }
  // {e(w3), e(w1), e(w2), e(w0)} -> {e(w3), e(w2), e(w1), e(w0)}
  return ptx::prmt(ptx::cvt_e4m3x4_f16x2x2(w02, w13), 0u, 0x3120u);
}

// The same per-group conversion by lookup: a (row, group) has only 16 possible results,
// computed once per row and group (e4m3_gscale_table), after which each weight is a 16-entry
// byte lookup (lut16x8). tab = {entries 0..3, 4..7, 8..11, 12..15}: byte i of word j is the
// result for q = 4j + i, computed with the same roundings as cvt_u4x4_e4m3_gscale_bias:
//   !has_zero: RN_e4m3sat(RN_f16((q - bias) s))   mul.rn.f16x2 of the exact pair (q - bias)
//   has_zero:  RN_e4m3sat(RN_f16(q s + zs))        fma.rn.f16x2 of the exact pair q
// (the converter's magic-number subtraction produces exactly these f16 integers), then
// cvt.rn.satfinite.e4m3x2.f16x2 per pair: 8 f16x2 operations and 8 conversions per row.
// f16 bits of a small integer (|v| <= 15: exact).
__host__ __device__ constexpr uint32_t f16_of_int(int v) {
  if (v == 0) return 0u;
  const uint32_t sign = v < 0 ? 0x8000u : 0u;
  const int a = v < 0 ? -v : v;
  const int e = a >= 8 ? 3 : a >= 4 ? 2 : a >= 2 ? 1 : 0;
  return sign | static_cast<uint32_t>(e + 15) << 10 | (static_cast<uint32_t>(a << (10 - e)) & 0x3FFu);
}
// f16x2 {v(q0 + 1), v(q0)}: the pair of table entries q0, q0 + 1 (q0 even), v(q) = q - kBias.
template <int kBias>
__host__ __device__ constexpr uint32_t f16x2_of_pair(int q0) {
  return f16_of_int(q0 - kBias) | f16_of_int(q0 + 1 - kBias) << 16;
}
template <bool kZero, int kBias>
__device__ __forceinline__ uint4 e4m3_gscale_table_v(uint32_t s2, uint32_t zs2) {
  uint32_t w[4];
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    uint32_t h[2];
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const int q0 = 4 * j + 2 * i;
      if constexpr (kZero) h[i] = ptx::fma_f16x2(f16x2_of_pair<0>(q0), s2, zs2);
      else h[i] = ptx::mul_f16x2(f16x2_of_pair<kBias>(q0), s2);
    }
    w[j] = ptx::cvt_e4m3x4_f16x2x2(h[0], h[1]);  // {e(4j+3), e(4j+2), e(4j+1), e(4j)}
  }
  return make_uint4(w[0], w[1], w[2], w[3]);
}
// Half h (entries 8h .. 8h+7: words 2h, 2h+1) of e4m3_gscale_table_v<false, kBias> for a
// run-time h in {0, 1}, the same operations on the same pairs. The pairs {v(q+1), v(q)} of the
// half are the compile-time pairs {j+1, j} (j = 0, 2, 4, 6) plus the half's offset
// v(8h) = 8h - kBias, one exact add.f16x2 each (small integers):
//   kBias 8: offset 0 (h = 1) or -8 (h = 0);  kBias 0: offset 8 (h = 1) or 0 (h = 0).
template <int kBias>
__device__ __forceinline__ void e4m3_gscale_table_half(uint32_t s2, int h, uint32_t& w0, uint32_t& w1) {
  static_assert(kBias == 0 || kBias == 8, "u4b8 or u4");
  const uint32_t off = kBias == 8 ? (h ? 0u : 0xC800C800u) : (h ? 0x48004800u : 0u);  // f16x2 (8h - kBias)
  uint32_t p[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) p[k] = ptx::mul_f16x2(ptx::add_f16x2(f16x2_of_pair<0>(2 * k), off), s2);
  w0 = ptx::cvt_e4m3x4_f16x2x2(p[0], p[1]);  // {e(8h+3), e(8h+2), e(8h+1), e(8h)}
  w1 = ptx::cvt_e4m3x4_f16x2x2(p[2], p[3]);
}

// has_zero: u4 with zero points (bias ignored); otherwise bias 8 (u4b8) or 0 (u4, scales only).
__device__ __forceinline__ uint4 e4m3_gscale_table(__half s, __half zs, bool has_zero, int32_t bias) {
  const uint32_t s2 = detail::splat2(s), zs2 = detail::splat2(zs);
  if (has_zero) return e4m3_gscale_table_v<true, 0>(s2, zs2);
  return bias == 0 ? e4m3_gscale_table_v<false, 0>(s2, zs2) : e4m3_gscale_table_v<false, 8>(s2, zs2);
}
static_assert(f16_of_int(-8) == 0xC800u && f16_of_int(7) == 0x4700u && f16_of_int(1) == 0x3C00u &&
                  f16_of_int(15) == 0x4B80u && f16_of_int(-3) == 0xC200u,
              "f16 bits of small integers");

// One word of 8 nibbles through two rows' tables: nibbles 0..3 (row g) by tab_lo into lo,
// nibbles 4..7 (row g+8) by tab_hi into hi; byte i = tab[n_i] (lut16x4, the index and
// bit-3 mask of both halves computed once per word: 11 instructions per 8 weights against
// ~21 for two cvt_u4x4_e4m3_gscale_bias).
//   idx  = n & 0x77777777                     idx_hi = idx >> 16
//   a    = n << 4
//   mlo  = prmt(a, n, 0xD9C8): byte i = 0xFF if bit 3 of n_i   (nibble_msb_mask)
//   mhi  = prmt(a, n, 0xFBEA): byte i = 0xFF if bit 3 of n_{4+i}
//          (a.byte2 = {n4, n3}, n.byte2 = {n5, n4}, a.byte3 = {n6, n5}, n.byte3 = {n7, n6}:
//           the sign bit of each is bit 3 of n4, n5, n6, n7)
__device__ __forceinline__ void lut16x8(uint32_t n, const uint4& tab_lo, const uint4& tab_hi, uint32_t& lo,
                                        uint32_t& hi) {
  const uint32_t idx = n & 0x77777777u;
  const uint32_t idx_hi = idx >> 16;
  const uint32_t a = n << 4;
  const uint32_t mlo = ptx::prmt(a, n, 0xD9C8u);
  const uint32_t mhi = ptx::prmt(a, n, 0xFBEAu);
  lo = ptx::lop3<ptx::kLutSelect>(ptx::prmt(tab_lo.x, tab_lo.y, idx), ptx::prmt(tab_lo.z, tab_lo.w, idx), mlo);
  hi = ptx::lop3<ptx::kLutSelect>(ptx::prmt(tab_hi.x, tab_hi.y, idx_hi), ptx::prmt(tab_hi.z, tab_hi.w, idx_hi),
                                  mhi);
}

// The required entry point: has_zero selects u4-with-zeros, otherwise u4b8 (bias 8).
// u4 with group scales and no zero points (w = RN(q * s)) is
// cvt_u4x4_e4m3_gscale_bias(nibbles, s, zs, false, 0).
__device__ __forceinline__ uint32_t cvt_u4x4_e4m3_gscale(uint32_t nibbles, __half s, __half zs,
                                                         bool has_zero) {
  return cvt_u4x4_e4m3_gscale_bias(nibbles, s, zs, has_zero, 8);
}

}  // namespace mixgemm::kernels::convert
