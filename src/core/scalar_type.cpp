#include "mixgemm/scalar_type.h"

#include <array>

#include "mixgemm/error.h"

namespace mixgemm {

namespace {
struct Named {
  const char* name;
  ScalarType type;
};
constexpr std::array<Named, 10> kNamed{{
    {"u4", types::u4},
    {"u4b8", types::u4b8},
    {"u8", types::u8},
    {"u8b128", types::u8b128},
    {"s8", types::s8},
    {"s32", types::s32},
    {"e4m3", types::e4m3},
    {"f16", types::f16},
    {"bf16", types::bf16},
    {"f32", types::f32},
}};
}  // namespace

std::string ScalarType::name() const {
  for (const auto& n : kNamed)
    if (n.type == *this) return n.name;
  // Types outside the named list still print unambiguously.
  std::string s;
  if (is_float()) {
    s = "e" + std::to_string(exponent) + "m" + std::to_string(mantissa);
  } else {
    s = (is_signed ? "s" : "u") + std::to_string(size_bits());
    if (bias != 0) s += "b" + std::to_string(bias);
  }
  return s;
}

ScalarType ScalarType::from_name(std::string_view name) {
  for (const auto& n : kNamed)
    if (name == n.name) return n.type;
  std::string accepted;
  for (const auto& n : kNamed) {
    if (!accepted.empty()) accepted += ", ";
    accepted += n.name;
  }
  throw Error(ErrorCode::kInvalidArgument,
              "mixgemm::ScalarType::from_name: unknown type name '" + std::string(name) +
                  "'; accepted: " + accepted);
}

}  // namespace mixgemm
