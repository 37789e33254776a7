// mixgemm/scalar_type.h - the element types of mixgemm's operands, as values.
//
// A ScalarType says how a stored element becomes a number:
//   integer types: value = stored_unsigned_or_signed_integer - bias
//   float types:   IEEE-like, `exponent` bits and `mantissa` bits, sign bit.
// Names follow vLLM's scalar_types: "u4b8" is a 4-bit unsigned integer stored
// with bias 8 (value = q - 8, range [-8, 7]); "u4" has bias 0 and normally comes
// with explicit zero points.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace mixgemm {

struct ScalarType {
  uint8_t exponent = 0;  // float: exponent bits; integer: 0
  uint8_t mantissa = 0;  // float: mantissa bits; integer: bits excluding sign
  bool is_signed = false;
  int32_t bias = 0;      // integer only: value = stored - bias

  constexpr bool is_float() const { return exponent != 0; }
  constexpr bool is_integer() const { return exponent == 0; }
  constexpr int size_bits() const { return exponent + mantissa + (is_signed ? 1 : 0); }
  constexpr bool has_bias() const { return bias != 0; }

  // Representable integer range of the *value* (after bias), integer types only.
  constexpr int64_t min_value() const {
    return is_signed ? -(int64_t{1} << mantissa) - bias : int64_t{0} - bias;
  }
  constexpr int64_t max_value() const {
    return ((int64_t{1} << mantissa) - 1) - bias;
  }

  friend constexpr bool operator==(const ScalarType& x, const ScalarType& y) {
    return x.exponent == y.exponent && x.mantissa == y.mantissa && x.is_signed == y.is_signed &&
           x.bias == y.bias;
  }

  static constexpr ScalarType uint(int bits, int32_t bias = 0) {
    return ScalarType{0, static_cast<uint8_t>(bits), false, bias};
  }
  static constexpr ScalarType sint(int bits) {
    return ScalarType{0, static_cast<uint8_t>(bits - 1), true, 0};
  }
  static constexpr ScalarType flt(int exponent, int mantissa) {
    return ScalarType{static_cast<uint8_t>(exponent), static_cast<uint8_t>(mantissa), true, 0};
  }

  // "u4b8", "s8", "e4m3", "f16", "bf16", ...
  std::string name() const;
  // Inverse of name(); throws mixgemm::Error naming the accepted names on failure.
  static ScalarType from_name(std::string_view name);
};

namespace types {
inline constexpr ScalarType u4 = ScalarType::uint(4);
inline constexpr ScalarType u4b8 = ScalarType::uint(4, 8);
inline constexpr ScalarType u8 = ScalarType::uint(8);
inline constexpr ScalarType u8b128 = ScalarType::uint(8, 128);
inline constexpr ScalarType s8 = ScalarType::sint(8);
inline constexpr ScalarType s32 = ScalarType::sint(32);
inline constexpr ScalarType e4m3 = ScalarType::flt(4, 3);
inline constexpr ScalarType f16 = ScalarType::flt(5, 10);
inline constexpr ScalarType bf16 = ScalarType::flt(8, 7);
inline constexpr ScalarType f32 = ScalarType::flt(8, 23);
}  // namespace types

}  // namespace mixgemm
