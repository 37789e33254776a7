// convert_emulation.cpp - see convert_emulation.h. Every converter below is a line-by-line
// transcription of its device twin in src/kernels/convert/*.cuh; keep them in step.
#include "layout/convert_emulation.h"

#include <cmath>
#include <cstring>

#include "core/float_bits.h"
#include "kernels/convert/unit_form.h"

namespace mixgemm::emu {

namespace {

// a + b rounded to odd at double precision (exact when the sum is a double): a later
// round-to-nearest-even to a format with <= 51 significand bits then equals one
// rounding of the exact sum.
double add_round_to_odd(double a, double b) {
  const double s = a + b;
  if (!std::isfinite(s) || !std::isfinite(a) || !std::isfinite(b)) return s;
  // TwoSum: s + err == a + b exactly.
  const double bb = s - a;
  const double err = (a - (s - bb)) + (b - bb);
  if (err == 0.0) return s;
  uint64_t bits;
  std::memcpy(&bits, &s, 8);
  if (bits & 1) return s;  // already odd
  return std::nextafter(s, err > 0 ? INFINITY : -INFINITY);
}

double decode(Half h, uint32_t v) {
  return h == Half::kF16 ? numeric::from_f16(static_cast<uint16_t>(v))
                         : numeric::from_bf16(static_cast<uint16_t>(v));
}

uint32_t encode(Half h, double x) {
  if (std::isnan(x)) return 0x7FFFu;  // canonical NaN of f16x2/bf16x2 arithmetic
  return h == Half::kF16 ? numeric::to_f16(x) : numeric::to_bf16(x);
}

template <class F>
uint32_t per_half(uint32_t a, uint32_t b, uint32_t c, F&& f) {
  uint32_t out = 0;
  for (int i = 0; i < 2; ++i) {
    const uint32_t r = f((a >> (16 * i)) & 0xFFFFu, (b >> (16 * i)) & 0xFFFFu, (c >> (16 * i)) & 0xFFFFu);
    out |= (r & 0xFFFFu) << (16 * i);
  }
  return out;
}

}  // namespace

// ---- PTX instructions ----------------------------------------------------------

uint32_t lop3(uint8_t lut, uint32_t a, uint32_t b, uint32_t c) {
  uint32_t d = 0;
  for (int i = 0; i < 32; ++i) {
    const int idx = static_cast<int>(((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1));
    d |= static_cast<uint32_t>((lut >> idx) & 1) << i;
  }
  return d;
}

uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel) {
  const uint64_t src = static_cast<uint64_t>(a) | (static_cast<uint64_t>(b) << 32);
  uint32_t d = 0;
  for (int i = 0; i < 4; ++i) {
    const uint32_t s = (sel >> (4 * i)) & 0xFu;
    uint32_t byte = static_cast<uint32_t>(src >> (8 * (s & 7))) & 0xFFu;
    if (s & 8) byte = (byte & 0x80u) ? 0xFFu : 0x00u;
    d |= byte << (8 * i);
  }
  return d;
}

uint32_t sub_x2(Half h, uint32_t a, uint32_t b) {
  return per_half(a, b, 0, [h](uint32_t x, uint32_t y, uint32_t) {
    return encode(h, add_round_to_odd(decode(h, x), -decode(h, y)));
  });
}

uint32_t mul_x2(Half h, uint32_t a, uint32_t b) {
  return per_half(a, b, 0, [h](uint32_t x, uint32_t y, uint32_t) {
    return encode(h, decode(h, x) * decode(h, y));  // product of <= 11-bit significands: exact
  });
}

uint32_t fma_x2(Half h, uint32_t a, uint32_t b, uint32_t c) {
  return per_half(a, b, c, [h](uint32_t x, uint32_t y, uint32_t z) {
    const double p = decode(h, x) * decode(h, y);  // exact
    return encode(h, add_round_to_odd(p, decode(h, z)));
  });
}

uint32_t sub_f32(uint32_t a, uint32_t b) {
  float fa, fb;
  std::memcpy(&fa, &a, 4);
  std::memcpy(&fb, &b, 4);
  const float r = static_cast<float>(add_round_to_odd(fa, -static_cast<double>(fb)));
  uint32_t out;
  std::memcpy(&out, &r, 4);
  if (std::isnan(r)) out = 0x7FFFFFFFu;
  return out;
}

uint32_t cvt_e4m3x2_f16x2(uint32_t a) {
  const uint32_t lo = numeric::to_e4m3_sat(numeric::from_f16(static_cast<uint16_t>(a & 0xFFFFu)));
  const uint32_t hi = numeric::to_e4m3_sat(numeric::from_f16(static_cast<uint16_t>(a >> 16)));
  return lo | (hi << 8);
}

// ---- convert_16bit.cuh ----------------------------------------------------------

namespace {

void cvt_u4_frag16_biased(Half h, int bias, uint32_t w, uint32_t (&frag)[4]) {
  if (h == Half::kF16) {
    const uint32_t kLo = 0x64006400u, kHi = 0x54005400u;
    const uint32_t kLoSub = bias == 0 ? 0x64006400u : 0x64086408u;
    const uint32_t kHiSub = bias == 0 ? 0x54005400u : 0x54805480u;
    const uint32_t w8 = w >> 8;
    const uint32_t r0 = lop3(kLutAndOr, w, 0x000F000Fu, kLo);
    const uint32_t r1 = lop3(kLutAndOr, w, 0x00F000F0u, kHi);
    const uint32_t r2 = lop3(kLutAndOr, w8, 0x000F000Fu, kLo);
    const uint32_t r3 = lop3(kLutAndOr, w8, 0x00F000F0u, kHi);
    frag[0] = sub_x2(h, r0, kLoSub);
    frag[1] = sub_x2(h, r1, kHiSub);
    frag[2] = sub_x2(h, r2, kLoSub);
    frag[3] = sub_x2(h, r3, kHiSub);
  } else {
    const uint32_t kMagic = 0x43004300u;
    const uint32_t kSub = bias == 0 ? 0x43004300u : 0x43084308u;
    const uint32_t r0 = lop3(kLutAndOr, w, 0x000F000Fu, kMagic);
    const uint32_t r1 = lop3(kLutAndOr, w >> 4, 0x000F000Fu, kMagic);
    const uint32_t r2 = lop3(kLutAndOr, w >> 8, 0x000F000Fu, kMagic);
    const uint32_t r3 = lop3(kLutAndOr, w >> 12, 0x000F000Fu, kMagic);
    frag[0] = sub_x2(h, r0, kSub);
    frag[1] = sub_x2(h, r1, kSub);
    frag[2] = sub_x2(h, r2, kSub);
    frag[3] = sub_x2(h, r3, kSub);
  }
}

void cvt_u8_frag16_biased(Half h, int bias, uint32_t lo, uint32_t hi, uint32_t (&frag)[4]) {
  if (h == Half::kF16) {
    const uint32_t kExp = 0x64646464u;
    const uint32_t kSub = bias == 0 ? 0x64006400u : 0x64806480u;
    frag[0] = sub_x2(h, prmt(lo, kExp, 0x4140u), kSub);
    frag[1] = sub_x2(h, prmt(lo, kExp, 0x4342u), kSub);
    frag[2] = sub_x2(h, prmt(hi, kExp, 0x4140u), kSub);
    frag[3] = sub_x2(h, prmt(hi, kExp, 0x4342u), kSub);
  } else {
    const uint32_t kF32Magic = 0x4B000000u;
    const uint32_t kSub = 0x4B000000u + static_cast<uint32_t>(bias);
    const uint32_t src[2] = {lo, hi};
    for (int k = 0; k < 2; ++k) {
      const uint32_t f0 = sub_f32(prmt(src[k], kF32Magic, 0x7440u), kSub);
      const uint32_t f1 = sub_f32(prmt(src[k], kF32Magic, 0x7441u), kSub);
      const uint32_t f2 = sub_f32(prmt(src[k], kF32Magic, 0x7442u), kSub);
      const uint32_t f3 = sub_f32(prmt(src[k], kF32Magic, 0x7443u), kSub);
      frag[2 * k + 0] = prmt(f0, f1, 0x7632u);
      frag[2 * k + 1] = prmt(f2, f3, 0x7632u);
    }
  }
}

uint32_t splat2(uint16_t x) { return (static_cast<uint32_t>(x) << 16) | x; }

}  // namespace

void cvt_u4_frag16(Half h, uint32_t word, uint32_t (&frag)[4]) {
  cvt_u4_frag16_biased(h, 0, word, frag);
}
void cvt_u4b8_frag16(Half h, uint32_t word, uint32_t (&frag)[4]) {
  cvt_u4_frag16_biased(h, 8, word, frag);
}
void cvt_u8_frag16(Half h, uint32_t lo, uint32_t hi, uint32_t (&frag)[4]) {
  cvt_u8_frag16_biased(h, 0, lo, hi, frag);
}
void cvt_u8b128_frag16(Half h, uint32_t lo, uint32_t hi, uint32_t (&frag)[4]) {
  cvt_u8_frag16_biased(h, 128, lo, hi, frag);
}

void scale_frag16(Half h, uint32_t (&frag)[4], uint16_t s_row_g, uint16_t s_row_g8) {
  const uint32_t sg = splat2(s_row_g), sg8 = splat2(s_row_g8);
  frag[0] = mul_x2(h, frag[0], sg);
  frag[1] = mul_x2(h, frag[1], sg8);
  frag[2] = mul_x2(h, frag[2], sg);
  frag[3] = mul_x2(h, frag[3], sg8);
}

// ---- the unit form ----------------------------------------------------------------

namespace {
const kernels::convert::unit::Consts& unit_consts(Half h, int wbits = 4) {
  return kernels::convert::unit::consts(h == Half::kBF16, wbits);
}
uint32_t lo_splat(uint32_t x) { return splat2(static_cast<uint16_t>(x & 0xFFFFu)); }
uint32_t hi_splat(uint32_t x) { return splat2(static_cast<uint16_t>(x >> 16)); }
float f32_of_bits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
}  // namespace

uint32_t unit_t(Half h, uint32_t s2, uint32_t base2) { return mul_x2(h, s2, base2); }

bool unit_in_window(Half h, uint32_t t2) {
  const auto& c = unit_consts(h);
  for (int i = 0; i < 2; ++i) {
    const double t = std::fabs(decode(h, (t2 >> (16 * i)) & 0xFFFFu));
    if (!(t >= decode(h, c.t_lo & 0xFFFFu) && t < decode(h, c.t_hi & 0xFFFFu))) return false;  // NaN: false
  }
  return true;
}

void unit_factors(Half h, uint32_t t2, uint32_t& S2, uint32_t& C2, int wbits) {
  S2 = mul_x2(h, t2, unit_consts(h, wbits).s_mul);
  C2 = mul_x2(h, t2, unit_consts(h, wbits).c_mul);
}

uint32_t unit_zero_term(Half h, uint32_t zs2, uint32_t base2) {
  return mul_x2(h, zs2, mul_x2(h, base2, unit_consts(h).z_mul));
}

void cvt_u4_unit_frag16(Half h, uint32_t w, uint32_t S2, uint32_t C2, uint32_t (&frag)[4]) {
  uint32_t r0, r1, r2, r3;
  if (h == Half::kF16) {
    const uint32_t w8 = w >> 8;
    r0 = lop3(kLutAndOr, w, 0x000F000Fu, 0u);
    r1 = lop3(kLutAndOr, w, 0x00F000F0u, 0u);
    r2 = lop3(kLutAndOr, w8, 0x000F000Fu, 0u);
    r3 = lop3(kLutAndOr, w8, 0x00F000F0u, 0u);
  } else {
    r0 = lop3(kLutAndOr, w, 0x000F000Fu, 0u);
    r1 = lop3(kLutAndOr, w >> 4, 0x000F000Fu, 0u);
    r2 = lop3(kLutAndOr, w >> 8, 0x000F000Fu, 0u);
    r3 = lop3(kLutAndOr, w >> 12, 0x000F000Fu, 0u);
  }
  frag[0] = fma_x2(h, r0, lo_splat(S2), lo_splat(C2));
  frag[1] = fma_x2(h, r1, hi_splat(S2), hi_splat(C2));
  frag[2] = fma_x2(h, r2, lo_splat(S2), lo_splat(C2));
  frag[3] = fma_x2(h, r3, hi_splat(S2), hi_splat(C2));
}

void cvt_u8_unit_frag16(uint32_t lo, uint32_t hi, uint32_t S2, uint32_t C2, uint32_t (&frag)[4]) {
  constexpr Half h = Half::kF16;
  frag[0] = fma_x2(h, prmt(lo, 0u, 0x4140u), lo_splat(S2), lo_splat(C2));
  frag[1] = fma_x2(h, prmt(lo, 0u, 0x4342u), hi_splat(S2), hi_splat(C2));
  frag[2] = fma_x2(h, prmt(hi, 0u, 0x4140u), lo_splat(S2), lo_splat(C2));
  frag[3] = fma_x2(h, prmt(hi, 0u, 0x4342u), hi_splat(S2), hi_splat(C2));
}

float unit_rebase_half(Half h, uint32_t s2, uint32_t& base2, int row_half) {
  const bool bf = h == Half::kBF16;
  const int sh = 16 * row_half;
  const uint32_t old = (base2 >> sh) & 0xFFFFu;
  const uint32_t nb = kernels::convert::unit::base_for_scale(bf, (s2 >> sh) & 0xFFFFu, old);
  base2 = (base2 & (0xFFFF0000u >> sh)) | (nb << sh);
  return f32_of_bits(kernels::convert::unit::rebase_factor_bits(bf, nb, old));
}

bool unit_domain(Half h, uint16_t s, int wbits) {
  if (h == Half::kF16)
    return (s & 0x7C00u) != 0x7C00u && std::fabs(numeric::from_f16(s)) <= (wbits == 8 ? 511.75 : 8188.0);
  return (s & 0x7F80u) != 0x7F80u && std::fabs(numeric::from_bf16(s)) < std::ldexp(1.0, 117);
}

float unit_value_factor(Half h, uint32_t base2, int row_half) {
  return f32_of_bits(
      kernels::convert::unit::value_factor_bits(h == Half::kBF16, (base2 >> (16 * row_half)) & 0xFFFFu));
}

void scale_zero_frag16(Half h, uint32_t (&frag)[4], uint16_t s_row_g, uint16_t s_row_g8,
                       uint16_t zs_row_g, uint16_t zs_row_g8) {
  const uint32_t sg = splat2(s_row_g), sg8 = splat2(s_row_g8);
  const uint32_t zg = splat2(zs_row_g), zg8 = splat2(zs_row_g8);
  frag[0] = fma_x2(h, frag[0], sg, zg);
  frag[1] = fma_x2(h, frag[1], sg8, zg8);
  frag[2] = fma_x2(h, frag[2], sg, zg);
  frag[3] = fma_x2(h, frag[3], sg8, zg8);
}

// ---- convert_8bit.cuh -----------------------------------------------------------

uint32_t spread_nibbles(uint32_t nibbles) {
  const uint32_t t = prmt(nibbles, 0u, 0x4140u);
  return lop3(kLutOrAnd, t, t << 4, 0x0F0F0F0Fu);
}

uint32_t nibble_msb_mask(uint32_t nibbles) { return prmt(nibbles << 4, nibbles, 0xD9C8u); }

uint32_t lut16x4(uint32_t nibbles, uint32_t lo0, uint32_t lo1, uint32_t hi0, uint32_t hi1) {
  const uint32_t idx = nibbles & 0x7777u;
  const uint32_t lo = prmt(lo0, lo1, idx);
  const uint32_t hi = prmt(hi0, hi1, idx);
  return lop3(kLutSelect, lo, hi, nibble_msb_mask(nibbles));
}

uint32_t lut16x4_msb0(uint32_t nibbles, uint32_t lo0, uint32_t lo1, uint32_t hi0, uint32_t hi1) {
  const uint32_t lo = prmt(lo0, lo1, nibbles);
  const uint32_t hi = prmt(hi0, hi1, nibbles ^ 0x8888u);
  return lo | hi;
}

uint32_t cvt_u4x4_s8(uint32_t nibbles, int32_t bias) {
  const uint32_t u = spread_nibbles(nibbles);
  if (bias == 0) return u;
  const uint32_t offset = (0x80u - static_cast<uint32_t>(bias)) * 0x01010101u;
  return (u + offset) ^ 0x80808080u;
}

uint32_t s8_gscale_offset(uint32_t zsg) { return 0x80808080u - zsg * 0x01010101u; }

uint32_t cvt_u4x4_s8_gscale_pre(uint32_t nibbles, uint32_t sg, uint32_t offset) {
  return (spread_nibbles(nibbles) * sg + offset) ^ 0x80808080u;
}

uint32_t cvt_u4x4_s8_gscale(uint32_t nibbles, uint32_t sg, uint32_t zsg) {
  return cvt_u4x4_s8_gscale_pre(nibbles, sg, s8_gscale_offset(zsg));
}

uint32_t cvt_u8x4_s8(uint32_t bytes, uint32_t z) {
  return (bytes + (0x80808080u - z * 0x01010101u)) ^ 0x80808080u;
}

uint32_t cvt_u4x4_e4m3(uint32_t nibbles, int32_t bias) {
  if (bias == 0) return lut16x4_msb0(nibbles, 0x44403800u, 0x4E4C4A48u, 0x53525150u, 0x57565554u);
  return lut16x4(nibbles, 0xCACCCED0u, 0xB8C0C4C8u, 0x44403800u, 0x4E4C4A48u);
}

uint32_t cvt_u4x4_e5m2_b8(uint32_t nibbles) {
  const Half h = Half::kF16;
  const uint32_t t = prmt(nibbles, 0u, 0x4140u);
  const uint32_t p02 = lop3(kLutAndOr, t, 0x000F000Fu, 0x64006400u);
  const uint32_t p13 = lop3(kLutAndOr, t, 0x00F000F0u, 0x54005400u);
  return prmt(sub_x2(h, p02, 0x64086408u), sub_x2(h, p13, 0x54805480u), 0x7351u);
}

uint32_t cvt_u4x4_e4m3_gscale_bias(uint32_t nibbles, uint16_t s, uint16_t zs, bool has_zero,
                                   int32_t bias) {
  const Half h = Half::kF16;
  const uint32_t t = prmt(nibbles, 0u, 0x4140u);
  const uint32_t p02 = lop3(kLutAndOr, t, 0x000F000Fu, 0x64006400u);
  const uint32_t p13 = lop3(kLutAndOr, t, 0x00F000F0u, 0x54005400u);
  const uint32_t s2 = splat2(s);
  uint32_t w02, w13;
  if (has_zero) {
    const uint32_t zs2 = splat2(zs);
    w02 = fma_x2(h, sub_x2(h, p02, 0x64006400u), s2, zs2);
    w13 = fma_x2(h, sub_x2(h, p13, 0x54005400u), s2, zs2);
  } else {
    const uint32_t lo_sub = bias == 0 ? 0x64006400u : 0x64086408u;
    const uint32_t hi_sub = bias == 0 ? 0x54005400u : 0x54805480u;
    w02 = mul_x2(h, sub_x2(h, p02, lo_sub), s2);
    w13 = mul_x2(h, sub_x2(h, p13, hi_sub), s2);
  }
  return prmt(cvt_e4m3x2_f16x2(w02), cvt_e4m3x2_f16x2(w13), 0x5140u);
}

uint32_t cvt_u4x4_e4m3_gscale(uint32_t nibbles, uint16_t s, uint16_t zs, bool has_zero) {
  return cvt_u4x4_e4m3_gscale_bias(nibbles, s, zs, has_zero, 8);
}

}  // namespace mixgemm::emu
