// The stream-K row partition of the smallm kernel (src/kernels/smallm/smallm_partition.h):
// its division-free forms must equal the plain int64 formulas exactly, for every CTA count
// a launch can have and row counts up to 2^31 - 1.
#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <random>
#include <vector>

#include "kernels/smallm/smallm_partition.h"

namespace {

using mixgemm::kernels::smallm::cta_of_row;
using mixgemm::kernels::smallm::make_row_partition;
using mixgemm::kernels::smallm::row_start;
using mixgemm::kernels::smallm::RowPartition;
using mixgemm::kernels::smallm::stripe_of_row;

int64_t ref_start(int64_t U, int64_t C, int64_t c) { return c * U / C; }
int64_t ref_cta(int64_t U, int64_t C, int64_t u) { return ((u + 1) * C - 1) / U; }

// Every row of the boundary neighbourhoods of every CTA, and random rows.
void check(int64_t U, int32_t C, int32_t KBn, std::mt19937_64& rng) {
  const RowPartition p = make_row_partition(U, C, KBn);
  for (int32_t c = 0; c <= C; ++c) {
    const int64_t s = row_start(p, c);
    ASSERT_EQ(s, ref_start(U, C, c)) << "U=" << U << " C=" << C << " c=" << c;
    for (int64_t d : {-1, 0, 1}) {
      const int64_t u = s + d;
      if (u < 0 || u >= U) continue;
      ASSERT_EQ(cta_of_row(p, u), ref_cta(U, C, u)) << "U=" << U << " C=" << C << " u=" << u;
      ASSERT_EQ(stripe_of_row(p, u), u / KBn) << "U=" << U << " KBn=" << KBn << " u=" << u;
    }
  }
  std::uniform_int_distribution<int64_t> pick(0, U - 1);
  for (int i = 0; i < 64; ++i) {
    const int64_t u = pick(rng);
    ASSERT_EQ(cta_of_row(p, u), ref_cta(U, C, u)) << "U=" << U << " C=" << C << " u=" << u;
    ASSERT_EQ(stripe_of_row(p, u), u / KBn);
  }
}

TEST(SmallmPartition, SmallRowCountsExhaustively) {
  std::mt19937_64 rng(1);
  for (int64_t U = 1; U <= 700; ++U)
    for (int32_t C = 1; C <= std::min<int64_t>(U, 600); C += (C < 40 ? 1 : 37))
      for (int32_t KBn : {1, 2, 3, 64, 340})
        check(U, C, KBn, rng);
}

TEST(SmallmPartition, LargeRowCounts) {
  std::mt19937_64 rng(2);
  const int64_t Us[] = {4096, 65536, 1 << 20, 174080, 917504, (int64_t{1} << 31) - 1, 2147483629, 1000000007};
  for (int64_t U : Us)
    for (int32_t C : {1, 2, 131, 132, 264, 396, 527, 528, 576, 1056})
      for (int32_t KBn : {1, 64, 128, 340, 448, 896})
        check(U, C, KBn, rng);
}

}  // namespace
