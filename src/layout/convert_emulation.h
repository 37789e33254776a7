// convert_emulation.h - bit-level host emulation of the register converters in
// src/kernels/convert/ and of the PTX instructions they use (src/kernels/ptx/ptx.cuh).
//
// Each emulated converter mirrors its device twin instruction for instruction, so
//   tests/gpu/test_convert.cu             checks device == emulation (bit for bit), and
//   tests/cpu/test_convert_emulation.cpp  checks emulation == docs/semantics.md,
// which together pin the device converters to the semantics without a GPU in the loop
// for the second half.
//
// Float instruction emulation: the exact result is formed in double when that is
// exact, otherwise (sums of values far apart in magnitude) as a round-to-odd double,
// then rounded once to the target with float_bits.h; round-to-odd at 53 bits followed
// by round-to-nearest-even at <= 24 bits equals a single rounding of the exact value.
// NaN results are the canonical NaN the GPU produces (0x7FFF for f16x2/bf16x2 arithmetic),
// but the tests avoid NaN inputs (their sign/payload is not part of the semantics).
#pragma once

#include <cstdint>

namespace mixgemm::emu {

// Which 16-bit float an f16x2-style register holds.
enum class Half { kF16, kBF16 };

// ---- PTX instructions ----------------------------------------------------------
uint32_t lop3(uint8_t lut, uint32_t a, uint32_t b, uint32_t c);  // any LUT
uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel);             // default mode (with sign replicate)
uint32_t sub_x2(Half h, uint32_t a, uint32_t b);                 // sub.rn.{f16,bf16}x2
uint32_t mul_x2(Half h, uint32_t a, uint32_t b);                 // mul.rn.{f16,bf16}x2
uint32_t fma_x2(Half h, uint32_t a, uint32_t b, uint32_t c);     // fma.rn.{f16,bf16}x2
uint32_t sub_f32(uint32_t a, uint32_t b);                        // sub.rn.f32 (bits)
uint32_t cvt_e4m3x2_f16x2(uint32_t a);                           // cvt.rn.satfinite.e4m3x2.f16x2

// LUT constants, identical to ptx.cuh.
inline constexpr uint8_t kLutAndOr = (0xF0 & 0xCC) | 0xAA;
inline constexpr uint8_t kLutOrAnd = (0xF0 | 0xCC) & 0xAA;
inline constexpr uint8_t kLutSelect = (0xF0 & ~0xAA) | (0xCC & 0xAA);

// ---- convert_16bit.cuh ----------------------------------------------------------
void cvt_u4_frag16(Half h, uint32_t word, uint32_t (&frag)[4]);
void cvt_u4b8_frag16(Half h, uint32_t word, uint32_t (&frag)[4]);
void cvt_u8_frag16(Half h, uint32_t lo, uint32_t hi, uint32_t (&frag)[4]);      // uint2{lo, hi}
void cvt_u8b128_frag16(Half h, uint32_t lo, uint32_t hi, uint32_t (&frag)[4]);
void scale_frag16(Half h, uint32_t (&frag)[4], uint16_t s_row_g, uint16_t s_row_g8);
void scale_zero_frag16(Half h, uint32_t (&frag)[4], uint16_t s_row_g, uint16_t s_row_g8,
                       uint16_t zs_row_g, uint16_t zs_row_g8);

// the unit form (4-bit weights, and 8-bit ones with f16, with a 16-bit group scale;
// src/kernels/convert/unit_form.h has the rest). wbits: 4 or 8 (f16 only).
uint32_t unit_t(Half h, uint32_t s2, uint32_t base2);  // t = s * base, both rows
bool unit_in_window(Half h, uint32_t t2);              // both rows' |t| inside the window
void unit_factors(Half h, uint32_t t2, uint32_t& S2, uint32_t& C2, int wbits = 4);
uint32_t unit_zero_term(Half h, uint32_t zs2, uint32_t base2);  // zs * 2^u
void cvt_u4_unit_frag16(Half h, uint32_t word, uint32_t S2, uint32_t C2, uint32_t (&frag)[4]);
void cvt_u8_unit_frag16(uint32_t lo, uint32_t hi, uint32_t S2, uint32_t C2, uint32_t (&frag)[4]);  // f16
float unit_rebase_half(Half h, uint32_t s2, uint32_t& base2, int row_half);  // returns 2^(u_new - u_old)
float unit_value_factor(Half h, uint32_t base2, int row_half);               // 2^-u
// A biased weight's group scale of the unit form's domain (docs/semantics.md 4.1): finite, and
// u4b8: f16 |s| <= 8188 (8 |s| stays finite), bf16 |s| < 2^117; u8b128 (f16): |s| <= 511.75.
bool unit_domain(Half h, uint16_t s, int wbits = 4);

// ---- convert_8bit.cuh -----------------------------------------------------------
uint32_t spread_nibbles(uint32_t nibbles);
uint32_t nibble_msb_mask(uint32_t nibbles);
uint32_t lut16x4(uint32_t nibbles, uint32_t lo0, uint32_t lo1, uint32_t hi0, uint32_t hi1);
uint32_t lut16x4_msb0(uint32_t nibbles, uint32_t lo0, uint32_t lo1, uint32_t hi0, uint32_t hi1);
uint32_t cvt_u4x4_s8(uint32_t nibbles, int32_t bias);
uint32_t s8_gscale_offset(uint32_t zsg);
uint32_t cvt_u4x4_s8_gscale_pre(uint32_t nibbles, uint32_t sg, uint32_t offset);
uint32_t cvt_u4x4_s8_gscale(uint32_t nibbles, uint32_t sg, uint32_t zsg);
uint32_t cvt_u8x4_s8(uint32_t bytes, uint32_t z);
uint32_t cvt_u4x4_e4m3(uint32_t nibbles, int32_t bias);
uint32_t cvt_u4x4_e5m2_b8(uint32_t nibbles);  // per byte e5m2(q - 8), exact
uint32_t cvt_u4x4_e4m3_gscale_bias(uint32_t nibbles, uint16_t s, uint16_t zs, bool has_zero,
                                   int32_t bias);  // s, zs: f16 bits
uint32_t cvt_u4x4_e4m3_gscale(uint32_t nibbles, uint16_t s, uint16_t zs, bool has_zero);

}  // namespace mixgemm::emu
