// ptx.cuh - tiny named wrappers around single PTX instructions.
//
// Each function is exactly one PTX instruction (no hidden rounding steps), so the
// converters in src/kernels/convert/ read like the bit diagrams in their comments
// and the host emulation in src/layout/convert_emulation.h can mirror them one
// call for one call. Float arithmetic is written with an explicit `.rn` so that
// ptxas never contracts a mul and an add into an fma (PTX: an instruction with an
// explicit rounding modifier is not contracted), which the bit-exact semantics in
// docs/semantics.md depend on.
//
// Operands are plain uint32_t: a "f16x2"/"bf16x2" is two 16-bit values, element 0 in
// bits [0,16), element 1 in bits [16,32).
#pragma once

#include <cstdint>

namespace mixgemm::kernels::ptx {

// lop3.b32 d, a, b, c, LUT: any 3-input bitwise function. The LUT is the function's
// truth table evaluated on a = 0xF0, b = 0xCC, c = 0xAA, e.g.
//   (a & b) | c  ->  (0xF0 & 0xCC) | 0xAA = 0xEA
template <int kLut>
__device__ __forceinline__ uint32_t lop3(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t d;
  asm("lop3.b32 %0, %1, %2, %3, %4;\n" : "=r"(d) : "r"(a), "r"(b), "r"(c), "n"(kLut));
  return d;
}

// Truth tables used by the converters (see lop3 above).
inline constexpr int kLutAndOr = (0xF0 & 0xCC) | 0xAA;          // (a & b) | c
inline constexpr int kLutOrAnd = (0xF0 | 0xCC) & 0xAA;          // (a | b) & c
inline constexpr int kLutSelect = (0xF0 & ~0xAA) | (0xCC & 0xAA);  // c ? b : a (bitwise)
inline constexpr int kLutOr = 0xF0 | 0xCC;                      // a | b (c unused)
inline constexpr int kLutXor = 0xF0 ^ 0xCC;                     // a ^ b (c unused)

// prmt.b32 d, a, b, sel (default mode): byte i of d is byte (sel >> 4i) & 7 of the
// 8-byte value {b, a} (bytes 0..3 from a, 4..7 from b); when bit 3 of that selector
// nibble is set, the selected byte's sign bit is replicated over all 8 bits instead.
// Only sel[15:0] is used.
__device__ __forceinline__ uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel) {
  uint32_t d;
  asm("prmt.b32 %0, %1, %2, %3;\n" : "=r"(d) : "r"(a), "r"(b), "r"(sel));
  return d;
}

// ---- f16x2 ------------------------------------------------------------------
__device__ __forceinline__ uint32_t sub_f16x2(uint32_t a, uint32_t b) {
  uint32_t d;
  asm("sub.rn.f16x2 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(b));
  return d;
}
__device__ __forceinline__ uint32_t add_f16x2(uint32_t a, uint32_t b) {
  uint32_t d;
  asm("add.rn.f16x2 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(b));
  return d;
}
__device__ __forceinline__ uint32_t mul_f16x2(uint32_t a, uint32_t b) {
  uint32_t d;
  asm("mul.rn.f16x2 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(b));
  return d;
}
__device__ __forceinline__ uint32_t fma_f16x2(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t d;
  asm("fma.rn.f16x2 %0, %1, %2, %3;\n" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}

// ---- 16-bit pairs times one 16-bit value (the low half of a register) --------------------
// a * {s.lo, s.lo} (+ {z.lo, z.lo}): the splat happens inside the PTX (mov.b32 {lo, lo}), where
// ptxas folds it into the HMUL2 / HFMA2 operand selector (R.H0_H0) instead of emitting a PRMT or
// a shift-or per splat (checked in SASS, sm_90a). The high halves of s and z are ignored.
// PTX prologues of the _lo forms: %2 (and %3) -> ss (and zz) = {lo, lo}.
#define MIXGEMM_PTX_SPLAT_S "{\n.reg .b16 sl, sh;\n.reg .b32 ss;\nmov.b32 {sl, sh}, %2;\nmov.b32 ss, {sl, sl};\n"
#define MIXGEMM_PTX_SPLAT_SZ                                                                              \
  "{\n.reg .b16 sl, sh, zl, zh;\n.reg .b32 ss, zz;\nmov.b32 {sl, sh}, %2;\nmov.b32 {zl, zh}, %3;\n" \
  "mov.b32 ss, {sl, sl};\nmov.b32 zz, {zl, zl};\n"
__device__ __forceinline__ uint32_t mul_f16x2_lo(uint32_t a, uint32_t s) {
  uint32_t d;
  asm(MIXGEMM_PTX_SPLAT_S "mul.rn.f16x2 %0, %1, ss;\n}\n" : "=r"(d) : "r"(a), "r"(s));
  return d;
}
__device__ __forceinline__ uint32_t mul_bf16x2_lo(uint32_t a, uint32_t s) {
  uint32_t d;
  asm(MIXGEMM_PTX_SPLAT_S "mul.rn.bf16x2 %0, %1, ss;\n}\n" : "=r"(d) : "r"(a), "r"(s));
  return d;
}
__device__ __forceinline__ uint32_t fma_f16x2_lo(uint32_t a, uint32_t s, uint32_t z) {
  uint32_t d;
  asm(MIXGEMM_PTX_SPLAT_SZ "fma.rn.f16x2 %0, %1, ss, zz;\n}\n" : "=r"(d) : "r"(a), "r"(s), "r"(z));
  return d;
}
__device__ __forceinline__ uint32_t fma_bf16x2_lo(uint32_t a, uint32_t s, uint32_t z) {
  uint32_t d;
  asm(MIXGEMM_PTX_SPLAT_SZ "fma.rn.bf16x2 %0, %1, ss, zz;\n}\n" : "=r"(d) : "r"(a), "r"(s), "r"(z));
  return d;
}
// The same with the high half of s and z splat ({hi, hi}: R.H1_H1): the unit form's row g+8 factors.
#define MIXGEMM_PTX_SPLAT_SZ_HI                                                                           \
  "{\n.reg .b16 sl, sh, zl, zh;\n.reg .b32 ss, zz;\nmov.b32 {sl, sh}, %2;\nmov.b32 {zl, zh}, %3;\n" \
  "mov.b32 ss, {sh, sh};\nmov.b32 zz, {zh, zh};\n"
__device__ __forceinline__ uint32_t fma_f16x2_hi(uint32_t a, uint32_t s, uint32_t z) {
  uint32_t d;
  asm(MIXGEMM_PTX_SPLAT_SZ_HI "fma.rn.f16x2 %0, %1, ss, zz;\n}\n" : "=r"(d) : "r"(a), "r"(s), "r"(z));
  return d;
}
__device__ __forceinline__ uint32_t fma_bf16x2_hi(uint32_t a, uint32_t s, uint32_t z) {
  uint32_t d;
  asm(MIXGEMM_PTX_SPLAT_SZ_HI "fma.rn.bf16x2 %0, %1, ss, zz;\n}\n" : "=r"(d) : "r"(a), "r"(s), "r"(z));
  return d;
}
#undef MIXGEMM_PTX_SPLAT_SZ_HI
#undef MIXGEMM_PTX_SPLAT_S
#undef MIXGEMM_PTX_SPLAT_SZ

// ---- f32 pairs -> 16-bit pairs (cvt.rn.{f16x2,bf16x2}.f32: each element RN, as cvt.rn.f16.f32) ----
// Element 0 (low half) from lo, element 1 from hi (the instruction's first source is the high half).
__device__ __forceinline__ uint32_t cvt_f16x2_f32(float lo, float hi) {
  uint32_t d;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;\n" : "=r"(d) : "f"(hi), "f"(lo));
  return d;
}
__device__ __forceinline__ uint32_t cvt_bf16x2_f32(float lo, float hi) {
  uint32_t d;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(d) : "f"(hi), "f"(lo));
  return d;
}

// ---- bf16x2 (sub and mul need sm_90; the splat mul / fma forms are above) ------
__device__ __forceinline__ uint32_t sub_bf16x2(uint32_t a, uint32_t b) {
  uint32_t d;
  asm("sub.rn.bf16x2 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

__device__ __forceinline__ uint32_t mul_bf16x2(uint32_t a, uint32_t b) {
  uint32_t d;
  asm("mul.rn.bf16x2 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

// ---- |x| in [lo, hi) for both halves of an f16x2 / bf16x2 (one predicate) -----------------
// abs then two packed compares (HSETP2 with the |.| folded into the operand); 1 when both
// halves of |a| are >= lo and < hi (NaN: 0).
#define MIXGEMM_PTX_ABS_IN(TY)                                                                  \
  "{\n.reg .pred p0, p1, q0, q1;\n.reg .b32 m;\nabs." TY " m, %1;\n"                            \
  "setp.ge." TY " p0|p1, m, %2;\nsetp.lt." TY " q0|q1, m, %3;\n"                                 \
  "and.pred p0, p0, p1;\nand.pred q0, q0, q1;\nand.pred p0, p0, q0;\nselp.u32 %0, 1, 0, p0;\n}\n"
__device__ __forceinline__ uint32_t abs_in_f16x2(uint32_t a, uint32_t lo, uint32_t hi) {
  uint32_t d;
  asm(MIXGEMM_PTX_ABS_IN("f16x2") : "=r"(d) : "r"(a), "r"(lo), "r"(hi));
  return d;
}
__device__ __forceinline__ uint32_t abs_in_bf16x2(uint32_t a, uint32_t lo, uint32_t hi) {
  uint32_t d;
  asm(MIXGEMM_PTX_ABS_IN("bf16x2") : "=r"(d) : "r"(a), "r"(lo), "r"(hi));
  return d;
}
#undef MIXGEMM_PTX_ABS_IN

// ---- f32 ----------------------------------------------------------------------
__device__ __forceinline__ uint32_t sub_f32(uint32_t a, uint32_t b) {
  uint32_t d;
  asm("sub.rn.f32 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

// An opaque copy of x: the compiler cannot re-derive the value from its inputs, so it keeps
// it in a register (or spills it) instead of recomputing it where it is used.
__device__ __forceinline__ uint32_t pin(uint32_t x) {
  asm volatile("" : "+r"(x));
  return x;
}

// ---- e4m3 -----------------------------------------------------------------------
// cvt.rn.satfinite.e4m3x2.f16x2: the f16 in bits [0,16) of a becomes byte 0 of the
// result, the f16 in bits [16,32) byte 1; bits [16,32) of the result are zero.
// Round to nearest even, |x| > 448 (inf included) saturates to +-448, NaN -> NaN.
__device__ __forceinline__ uint32_t cvt_e4m3x2_f16x2(uint32_t a) {
  uint16_t d;
  asm("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;\n" : "=h"(d) : "r"(a));
  return d;
}
// Two of them packed into one register: bytes 0, 1 from lo (its f16 0, 1), bytes 2, 3 from hi.
// One asm, so the compiler does not zero-extend each 16-bit result before packing them (as two
// cvt_e4m3x2_f16x2 and a prmt: a LOP3 per conversion, 10% of the e4m3 g128 block loop).
__device__ __forceinline__ uint32_t cvt_e4m3x4_f16x2x2(uint32_t lo, uint32_t hi) {
  uint32_t d;
  asm("{\n .reg .b16 l, h;\n"
      " cvt.rn.satfinite.e4m3x2.f16x2 l, %1;\n"
      " cvt.rn.satfinite.e4m3x2.f16x2 h, %2;\n"
      " mov.b32 %0, {l, h};\n}\n"
      : "=r"(d)
      : "r"(lo), "r"(hi));
  return d;
}

}  // namespace mixgemm::kernels::ptx
