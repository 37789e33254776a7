// float_bits.h - bit-exact host conversions between f64/f32 and the narrow
// float formats mixgemm uses (f16, bf16, e4m3). Round-to-nearest-even from the
// exact double value, so `to_f16(double)` is a single rounding (what a fused
// device operation such as hfma2 produces when the double holds the exact result).
//
// Encodings:
//   f16  : 1 sign, 5 exponent (bias 15), 10 mantissa; overflow -> inf
//   bf16 : 1 sign, 8 exponent (bias 127), 7 mantissa; overflow -> inf
//   e4m3 : 1 sign, 4 exponent (bias 7), 3 mantissa, no inf, 0x7F/0xFF = NaN,
//          max finite 448; `_sat` variants saturate to +-448 (PTX satfinite).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace mixgemm::numeric {

namespace detail {
// Round the exact value x to a binary format with `ebits` exponent bits and
// `mbits` mantissa bits (IEEE-style subnormals), nearest-even. Returns the
// encoding. `max_finite_code`: the largest finite magnitude code; on overflow
// the result is `overflow_code` (inf for IEEE formats, max finite when saturating).
inline uint32_t round_to_format(double x, int ebits, int mbits, uint32_t overflow_code,
                                uint32_t nan_code) {
  const uint32_t sign = std::signbit(x) ? 1u : 0u;
  const uint32_t sign_bit = sign << (ebits + mbits);
  if (std::isnan(x)) return nan_code;
  double ax = std::fabs(x);
  if (std::isinf(ax)) return sign_bit | overflow_code;
  const int bias = (1 << (ebits - 1)) - 1;
  const int emin = 1 - bias;  // exponent of the smallest normal
  if (ax == 0.0) return sign_bit;
  int e;
  std::frexp(ax, &e);  // ax = f * 2^e, f in [0.5, 1)
  int exp = e - 1;     // ax in [2^exp, 2^(exp+1))
  if (exp < emin) exp = emin;  // subnormal range: fixed quantum
  // quantum (ulp) at this exponent
  const double ulp = std::ldexp(1.0, exp - mbits);
  double q = ax / ulp;  // exact (power-of-two scaling)
  double fl = std::floor(q);
  double rem = q - fl;
  uint64_t m = static_cast<uint64_t>(fl);
  if (rem > 0.5 || (rem == 0.5 && (m & 1))) m += 1;
  // m is the significand in units of ulp; m in [2^mbits, 2^(mbits+1)] for normals
  int biased;
  uint64_t frac;
  if (m >= (uint64_t{1} << (mbits + 1))) {  // rounding carried into the next binade
    m >>= 1;
    exp += 1;
  }
  if (m < (uint64_t{1} << mbits)) {  // subnormal (only possible when exp == emin)
    biased = 0;
    frac = m;
  } else {
    biased = exp + bias;
    frac = m - (uint64_t{1} << mbits);
  }
  const uint32_t code = (static_cast<uint32_t>(biased) << mbits) | static_cast<uint32_t>(frac);
  return sign_bit | (code > overflow_code ? overflow_code : code);
}

inline double decode_format(uint32_t code, int ebits, int mbits) {
  const uint32_t sign = (code >> (ebits + mbits)) & 1u;
  const uint32_t biased = (code >> mbits) & ((1u << ebits) - 1);
  const uint32_t frac = code & ((1u << mbits) - 1);
  const int bias = (1 << (ebits - 1)) - 1;
  double v = biased == 0 ? std::ldexp(static_cast<double>(frac), 1 - bias - mbits)
                         : std::ldexp(static_cast<double>(frac + (1u << mbits)), biased - bias - mbits);
  return sign ? -v : v;
}
}  // namespace detail

// ---- f16 -------------------------------------------------------------------
inline uint16_t to_f16(double x) {
  // overflow code 0x7C00 (inf): any code above the max finite 0x7BFF becomes inf.
  return static_cast<uint16_t>(detail::round_to_format(x, 5, 10, 0x7C00, 0x7E00));
}
inline double from_f16(uint16_t h) {
  if ((h & 0x7C00) == 0x7C00) {
    if (h & 0x03FF) return std::nan("");
    return (h & 0x8000) ? -INFINITY : INFINITY;
  }
  return detail::decode_format(h, 5, 10);
}

// ---- bf16 ------------------------------------------------------------------
inline uint16_t to_bf16(double x) {
  return static_cast<uint16_t>(detail::round_to_format(x, 8, 7, 0x7F80, 0x7FC0));
}
inline double from_bf16(uint16_t h) {
  uint32_t bits = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// ---- f32 -------------------------------------------------------------------
inline float to_f32(double x) { return static_cast<float>(x); }  // RN-even on IEEE hosts

// ---- e4m3 (OCP FP8 E4M3FN) ---------------------------------------------------
// Saturating round (PTX cvt.rn.satfinite.e4m3x2.*): |x| > 448 after rounding -> +-448.
inline uint8_t to_e4m3_sat(double x) {
  if (std::isnan(x)) return 0x7F;
  // max finite code 0x7E (448); 0x7F is NaN, so saturate at 0x7E.
  return static_cast<uint8_t>(detail::round_to_format(x, 4, 3, 0x7E, 0x7F));
}
inline double from_e4m3(uint8_t v) {
  if ((v & 0x7F) == 0x7F) return std::nan("");
  return detail::decode_format(v, 4, 3);
}

// ---- e5m2 (OCP FP8 E5M2: f16 without its low 8 bits) ----------------------------
inline double from_e5m2(uint8_t v) {
  if ((v & 0x7C) == 0x7C) {
    if (v & 0x03) return std::nan("");
    return (v & 0x80) ? -INFINITY : INFINITY;
  }
  return detail::decode_format(v, 5, 2);
}

}  // namespace mixgemm::numeric
