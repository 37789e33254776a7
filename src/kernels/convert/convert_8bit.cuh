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

// Per byte e5m2(q - 8), exact, for the wgmma that takes e5m2 weights against e4m3
// activations (.e5m2.e4m3: the same f32 products, since the values are the same): every
// q - 8 in [-8, 7] has at most 3 significant bits, e5m2 holds 1 + 2, and e5m2 is f16 with
// the low 8 bits cut off (same sign, 5-bit exponent, bias 15), so e5m2(v) is the high byte
// of f16(v) whenever v is exactly representable in both. 6 instructions and no tables
// (cvt_u4x4_e4m3(.., 8): 6 plus the table registers, which ptxas rematerializes in the
// wide tile's loop):
//   t   = {0x00, n3n2, 0x00, n1n0}                (prmt; kHi: bytes 2, 3)
//   p02 = {0x64, 0x0|q2, 0x64, 0x0|q0}  = f16 (1024 + q0, 1024 + q2)
//   p13 = {0x54, q3<<4, 0x54, q1<<4}    = f16 (64 + q1, 64 + q3)   (ulp 1/16 at 64)
//   w02 = p02 - 1032, w13 = p13 - 72 (sub.f16x2, exact) = f16 (q0 - 8, q2 - 8), (q1 - 8, q3 - 8)
//   prmt(w02, w13, 0x7351) = {hi(w13.y), hi(w02.y), hi(w13.x), hi(w02.x)}
//                          = {e5m2(q3-8), e5m2(q2-8), e5m2(q1-8), e5m2(q0-8)}
// q = 8 gives 1032 - 1032 = +0 (0x00).
template <bool kHi = false>
__device__ __forceinline__ uint32_t cvt_u4x4_e5m2_b8(uint32_t nibbles) {
  const uint32_t t = ptx::prmt(nibbles, 0u, kHi ? 0x4342u : 0x4140u);
  const uint32_t p02 = ptx::lop3<ptx::kLutAndOr>(t, 0x000F000Fu, 0x64006400u);
  const uint32_t p13 = ptx::lop3<ptx::kLutAndOr>(t, 0x00F000F0u, 0x54005400u);
  return ptx::prmt(ptx::sub_f16x2(p02, 0x64086408u), ptx::sub_f16x2(p13, 0x54805480u), 0x7351u);
}

// Per-group f16 scales (docs/semantics.md, e4m3 activations): per byte
//   has_zero:  RN_e4m3sat( RN_f16(q * s + zs) )        (u4 with zero points, zs = RN_f16(-(z*s)))
//   !has_zero: RN_e4m3sat( RN_f16((q - 8) * s) )       (u4b8)
// s and zs are the row's group scale and prepacked zero (one row per register).
//   t   = {0x00, n3n2, 0x00, n1n0}
//   p02 = {0x64, 0x0|q2, 0x64, 0x0|q0}       = (1024 + q0, 1024 + q2)
//   p13 = {0x54, q3<<4, 0x54, q1<<4}         = (64 + q1, 64 + q3)
//   exact sub.rn.f16x2 -> (q0 - B, q2 - B), (q1 - B, q3 - B)
//   fma.rn / mul.rn.f16x2 (rounds: RN_f16), cvt.rn.satfinite.e4m3x2.f16x2 (rounds:
//   RN_e4m3sat) -> c02 = {e(w2), e(w0)}, c13 = {e(w3), e(w1)} in the low 16 bits,
//   packed as {c13, c02} = {e(w3), e(w1), e(w2), e(w0)} (cvt_e4m3x4_f16x2x2), then
//   prmt(.., 0x3120) = {e(w3), e(w2), e(w1), e(w0)}.
template <bool kHi = false>
__device__ __forceinline__ uint32_t cvt_u4x4_e4m3_gscale_bias(uint32_t nibbles, __half s,
                                                              __half zs, bool has_zero,
                                                              int32_t bias) {
  const uint32_t t = ptx::prmt(nibbles, 0u, kHi ? 0x4342u : 0x4140u);
  const uint32_t p02 = ptx::lop3<ptx::kLutAndOr>(t, 0x000F000Fu, 0x64006400u);
  const uint32_t p13 = ptx::lop3<ptx::kLutAndOr>(t, 0x00F000F0u, 0x54005400u);
  const uint32_t sb = __half_as_ushort(s);
  const uint32_t s2 = (sb << 16) | sb;
  uint32_t w02, w13;
  if (has_zero) {
    const uint32_t zb = __half_as_ushort(zs);
    const uint32_t zs2 = (zb << 16) | zb;
    w02 = ptx::fma_f16x2(ptx::sub_f16x2(p02, 0x64006400u), s2, zs2);
    w13 = ptx::fma_f16x2(ptx::sub_f16x2(p13, 0x54005400u), s2, zs2);
  } else {
    // 1024 + B and 64 + B as f16 (B = 0 or 8: 0x6408 = 1032, 0x5480 = 72)
    const uint32_t lo_sub = bias == 0 ? 0x64006400u : 0x64086408u;
    const uint32_t hi_sub = bias == 0 ? 0x54005400u : 0x54805480u;
    w02 = ptx::mul_f16x2(ptx::sub_f16x2(p02, lo_sub), s2);
    w13 = ptx::mul_f16x2(ptx::sub_f16x2(p13, hi_sub), s2);
  }
  // {e(w3), e(w1), e(w2), e(w0)} -> {e(w3), e(w2), e(w1), e(w0)}
  return ptx::prmt(ptx::cvt_e4m3x4_f16x2x2(w02, w13), 0u, 0x3120u);
}

// The required entry point: has_zero selects u4-with-zeros, otherwise u4b8 (bias 8).
// u4 with group scales and no zero points (w = RN(q * s)) is
// cvt_u4x4_e4m3_gscale_bias(nibbles, s, zs, false, 0).
__device__ __forceinline__ uint32_t cvt_u4x4_e4m3_gscale(uint32_t nibbles, __half s, __half zs,
                                                         bool has_zero) {
  return cvt_u4x4_e4m3_gscale_bias(nibbles, s, zs, has_zero, 8);
}

}  // namespace mixgemm::kernels::convert
