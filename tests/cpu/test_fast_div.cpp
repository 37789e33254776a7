// kernels/fast_div.h: the multiply-high division the smallm kernel uses for the group size
// equals integer division for every divisor up to 4096, the large ones that occur (K up
// to 2^20, and near 2^31), and numerators across [0, 2^31).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernels/fast_div.h"

namespace {

using mixgemm::kernels::fast_div;
using mixgemm::kernels::make_fast_div;

std::vector<uint32_t> numerators(uint32_t d) {
  std::vector<uint32_t> v;
  for (uint32_t n = 0; n < 70000; ++n) v.push_back(n);
  const uint32_t top = 0x7FFFFFFFu;
  for (uint32_t i = 0; i < 2000; ++i) v.push_back(top - i);
  // around the multiples of d, where a wrong quotient shows first
  for (uint64_t q = 1; q * d < top; q = q * 3 + 1)
    for (int64_t e = -2; e <= 2; ++e) v.push_back(static_cast<uint32_t>(static_cast<int64_t>(q * d) + e));
  uint64_t x = 0x9E3779B97F4A7C15ull;  // splitmix-style walk
  for (int i = 0; i < 2000; ++i) {
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    v.push_back(static_cast<uint32_t>(x >> 33));
  }
  return v;
}

TEST(FastDiv, EqualsIntegerDivision) {
  std::vector<uint32_t> ds;
  for (uint32_t d = 2; d <= 4096; ++d) ds.push_back(d);
  for (uint32_t d : {21760u, 28672u, 57344u, 1u << 20, (1u << 20) + 64, 0x7FFFFFFFu, 0x40000001u}) ds.push_back(d);
  for (uint32_t d : ds) {
    const auto f = make_fast_div(d);
    const auto ns = d <= 4096 && d % 97 != 0 ? std::vector<uint32_t>{0, 1, d - 1, d, d + 1, 2 * d - 1, 12345678, 0x7FFFFFFFu}
                                             : numerators(d);
    for (uint32_t n : ns) {
      if (n > 0x7FFFFFFFu) continue;
      ASSERT_EQ(fast_div(n, f), n / d) << "n=" << n << " d=" << d;
    }
  }
  // the full numerator set for the group sizes the kernels see
  for (uint32_t d : {16u, 32u, 48u, 64u, 96u, 128u, 192u, 256u, 1344u, 4096u, 8192u})
    for (uint32_t n : numerators(d)) ASSERT_EQ(fast_div(n, make_fast_div(d)), n / d) << "n=" << n << " d=" << d;
}

}  // namespace
