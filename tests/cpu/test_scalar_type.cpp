// ScalarType: names round-trip, properties match the definitions in scalar_type.h.
#include <gtest/gtest.h>

#include <string>

#include "mixgemm/error.h"
#include "mixgemm/scalar_type.h"

namespace {

using namespace mixgemm;

TEST(ScalarType, NamesRoundTrip) {
  const ScalarType all[] = {types::u4,   types::u4b8, types::u8,   types::u8b128, types::s8,
                            types::s32,  types::e4m3, types::f16,  types::bf16,   types::f32};
  const char* names[] = {"u4", "u4b8", "u8", "u8b128", "s8", "s32", "e4m3", "f16", "bf16", "f32"};
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(all[i].name(), names[i]);
    EXPECT_EQ(ScalarType::from_name(names[i]), all[i]) << names[i];
    EXPECT_EQ(ScalarType::from_name(all[i].name()), all[i]) << names[i];
  }
}

TEST(ScalarType, UnknownNameIsRefusedWithTheAcceptedList) {
  try {
    ScalarType::from_name("int4");
    FAIL() << "accepted 'int4'";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'int4'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("accepted"), std::string::npos) << msg;
    EXPECT_NE(msg.find("u4b8"), std::string::npos) << msg;
  }
  EXPECT_THROW(ScalarType::from_name(""), Error);
  EXPECT_THROW(ScalarType::from_name("F16"), Error);  // names are case-sensitive
}

TEST(ScalarType, UnnamedTypesPrintUnambiguously) {
  EXPECT_EQ(ScalarType::uint(3).name(), "u3");
  EXPECT_EQ(ScalarType::uint(4, 7).name(), "u4b7");
  EXPECT_EQ(ScalarType::sint(16).name(), "s16");
  EXPECT_EQ(ScalarType::flt(5, 2).name(), "e5m2");
}

TEST(ScalarType, Properties) {
  // Integer value ranges (value = stored - bias).
  EXPECT_EQ(types::u4b8.min_value(), -8);
  EXPECT_EQ(types::u4b8.max_value(), 7);
  EXPECT_EQ(types::u4.min_value(), 0);
  EXPECT_EQ(types::u4.max_value(), 15);
  EXPECT_EQ(types::u8b128.min_value(), -128);
  EXPECT_EQ(types::u8b128.max_value(), 127);
  EXPECT_EQ(types::u8.max_value(), 255);
  EXPECT_EQ(types::s8.min_value(), -128);
  EXPECT_EQ(types::s8.max_value(), 127);
  EXPECT_EQ(types::s32.min_value(), -(int64_t{1} << 31));
  EXPECT_EQ(types::s32.max_value(), (int64_t{1} << 31) - 1);
  // Sizes.
  EXPECT_EQ(types::u4.size_bits(), 4);
  EXPECT_EQ(types::u4b8.size_bits(), 4);
  EXPECT_EQ(types::u8b128.size_bits(), 8);
  EXPECT_EQ(types::s8.size_bits(), 8);
  EXPECT_EQ(types::s32.size_bits(), 32);
  EXPECT_EQ(types::e4m3.size_bits(), 8);
  EXPECT_EQ(types::f16.size_bits(), 16);
  EXPECT_EQ(types::bf16.size_bits(), 16);
  EXPECT_EQ(types::f32.size_bits(), 32);
  // Kinds and biases.
  for (ScalarType t : {types::u4, types::u4b8, types::u8, types::u8b128, types::s8, types::s32}) {
    EXPECT_TRUE(t.is_integer()) << t.name();
    EXPECT_FALSE(t.is_float()) << t.name();
  }
  for (ScalarType t : {types::e4m3, types::f16, types::bf16, types::f32}) {
    EXPECT_TRUE(t.is_float()) << t.name();
    EXPECT_TRUE(t.is_signed) << t.name();
    EXPECT_FALSE(t.has_bias()) << t.name();
  }
  EXPECT_TRUE(types::u4b8.has_bias());
  EXPECT_EQ(types::u4b8.bias, 8);
  EXPECT_EQ(types::u8b128.bias, 128);
  EXPECT_FALSE(types::u4.has_bias());
  EXPECT_FALSE(types::s8.has_bias());
  EXPECT_EQ(types::f16.exponent, 5);
  EXPECT_EQ(types::f16.mantissa, 10);
  EXPECT_EQ(types::bf16.exponent, 8);
  EXPECT_EQ(types::bf16.mantissa, 7);
  EXPECT_EQ(types::e4m3.exponent, 4);
  EXPECT_EQ(types::e4m3.mantissa, 3);
  // Equality compares every field: the bias distinguishes u4 from u4b8.
  EXPECT_FALSE(types::u4 == types::u4b8);
  EXPECT_FALSE(types::u8 == types::s8);
  EXPECT_FALSE(types::f16 == types::bf16);
  static_assert(types::u4b8 == ScalarType::uint(4, 8));
  static_assert(types::u4b8.min_value() == -8);
}

}  // namespace
