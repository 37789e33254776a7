// The stream-K row partition of the smallm kernel (src/kernels/smallm/smallm_partition.h):
// its division-free forms must equal the plain int64 formulas exactly, for every CTA count
// a launch can have and row counts up to 2^31 - 1.
#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "kernels/smallm/smallm_geometry.h"
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

// Cluster split-K (smallm_geometry.h): where the geometry turns it on, C = stripes x S and
// CTA c = stripe * S + rank must own one non-empty k-part of exactly stripe c / S (the
// kernel's cluster_reduce relies on it: one segment per CTA, the cluster's ranks in k order),
// S <= 8 and <= KBn, C never above the plain split's CTA count; TM 32/64 never cluster; kAuto
// clusters only where kForce does, alike, on stripes of <= 64 k-blocks, keeping at least 70% of
// the plain split's CTAs.
TEST(SmallmPartition, ClusterSplitIsStripeAligned) {
  using mixgemm::kernels::AType;
  using mixgemm::kernels::BType;
  using mixgemm::kernels::SmallmConfig;
  namespace sh = mixgemm::kernels::smallm_host;
  const std::pair<int64_t, int64_t> shapes[] = {{8192, 21760}, {10240, 8192}, {8192, 8192}, {57344, 8192},
                                                {8192, 28672}, {4096, 4096},  {6144, 4096}, {28672, 4096},
                                                {4096, 14336}, {272, 768},    {400, 1344},  {16, 64}};
  int clustered = 0, plain = 0;
  for (auto [N, K] : shapes)
    for (const SmallmConfig& cfg : mixgemm::kernels::smallm_configs(AType::kF16, BType::kU4B8))
      for (int sms : {1, 78, 132}) {
        const sh::Geometry g = sh::make_geometry(1, N, K, AType::kF16, BType::kU4B8, 128, false, cfg, sms,
                                                 mixgemm::kernels::SmallmCluster::kForce);
        const sh::Geometry off = sh::make_geometry(1, N, K, AType::kF16, BType::kU4B8, 128, false, cfg, sms,
                                                   mixgemm::kernels::SmallmCluster::kOff);
        const sh::Geometry aut = sh::make_geometry(1, N, K, AType::kF16, BType::kU4B8, 128, false, cfg, sms);
        ASSERT_TRUE(aut.cluster == 0 || (aut.cluster == g.cluster && aut.C == g.C && 10 * aut.C >= 7 * off.C && g.KBn <= 64));
        ASSERT_EQ(off.cluster, 0);
        ASSERT_EQ(g.workspace_bytes, off.workspace_bytes);
        if (g.cluster < 2) {
          ASSERT_EQ(g.cluster, 0);
          ASSERT_EQ(g.C, off.C);
          ++plain;
          continue;
        }
        ++clustered;
        const int64_t S = g.cluster;
        ASSERT_LE(cfg.token_tile, 16);
        ASSERT_LE(S, 8);
        ASSERT_LE(S, g.KBn);
        ASSERT_EQ(g.C, g.stripes * S);
        ASSERT_LE(g.C, off.C);
        const RowPartition p = make_row_partition(g.U, static_cast<int32_t>(g.C), static_cast<int32_t>(g.KBn));
        for (int32_t c = 0; c < g.C; ++c) {
          const int64_t u0 = row_start(p, c), u1 = row_start(p, c + 1);
          ASSERT_LT(u0, u1) << N << "x" << K << " " << cfg.name() << " c=" << c;
          ASSERT_EQ(u0 / g.KBn, c / S) << N << "x" << K << " " << cfg.name() << " c=" << c;
          ASSERT_EQ((u1 - 1) / g.KBn, c / S) << N << "x" << K << " " << cfg.name() << " c=" << c;
        }
      }
  EXPECT_GT(clustered, 0);
  EXPECT_GT(plain, 0);
}

// Partial sums (smallm_geometry.h, make_partial_sums_geometry): S = g.parts is the most CTAs
// that meet one stripe (the kernel's zero parts fill the rest), counted here with the plain
// int64 formulas; the cluster geometry where it keeps >= 90% of the CTA slots (or the stream-K
// one would need more than 16 parts), the stream-K one (the workspace split's own C)
// otherwise; 2 <= S <= 16; TM 32/64 none. Named
// cases: Llama-3-8B o at M = 1 on 132 SMs (cluster, 8), gate_up (stream-K, 4), lm_head (2).
// Session 67: on a narrow layer the CTAs are cut to R = ceil(sqrt(KBn)) per stripe, each owning
// ~KBn / R consecutive rows of one stripe (R contributors per stripe); the seed
// shape, the Llama-2-70B layers and Llama-3-8B qkv / down / gate_up keep C = min(CTA slots, U).
TEST(SmallmPartition, NarrowLayersAreStripeAligned) {
  namespace sh = mixgemm::kernels::smallm_host;
  using mixgemm::kernels::AType;
  using mixgemm::kernels::BType;
  using mixgemm::kernels::SmallmConfig;
  EXPECT_EQ(sh::ceil_sqrt(0), 0);
  EXPECT_EQ(sh::ceil_sqrt(1), 1);
  EXPECT_EQ(sh::ceil_sqrt(56), 8);
  EXPECT_EQ(sh::ceil_sqrt(64), 8);
  EXPECT_EQ(sh::ceil_sqrt(65), 9);
  EXPECT_EQ(sh::ceil_sqrt((int64_t{1} << 40) + 1), (int64_t{1} << 20) + 1);
  const SmallmConfig cfgs[] = {{8, 8, 1, 0}, {8, 4, 4, 0}, {16, 8, 2, 0}, {32, 8, 1, 0}, {64, 8, 1, 0}};
  struct Shape { int64_t N, K; bool narrow; };
  const Shape shapes[] = {{768, 4096, true},    {1152, 3584, true},  {1280, 8192, true}, {3072, 4096, true},
                          {4096, 4096, true},   {8192, 21760, false}, {10240, 8192, false}, {8192, 8192, false},
                          {57344, 8192, false}, {8192, 28672, false}, {6144, 4096, false}, {4096, 14336, false},
                          {28672, 4096, false}};
  for (const Shape& sp : shapes)
    for (const SmallmConfig& cfg : cfgs) {
      const sh::Geometry g = sh::make_geometry(1, sp.N, sp.K, AType::kF16, BType::kU4B8, 128, false, cfg, 132,
                                               mixgemm::kernels::SmallmCluster::kOff);
      const int64_t slots = std::min<int64_t>(int64_t{cfg.ctas_per_sm} * 132, g.U);
      const int64_t R = sh::ceil_sqrt(g.KBn);
      ASSERT_EQ(g.stripe_aligned, g.stripes * R < slots) << sp.N << "x" << sp.K << " " << cfg.name();
      if (cfg.ctas_per_sm == 1 && cfg.warps == 8) ASSERT_EQ(g.stripe_aligned, sp.narrow) << sp.N << "x" << sp.K;
      if (!g.stripe_aligned) {
        ASSERT_EQ(g.C, slots) << sp.N << "x" << sp.K << " " << cfg.name();
        continue;
      }
      ASSERT_EQ(g.C, g.stripes * R);
      // Whole stripes: CTA j R starts stripe j (j R U / C = j KBn), so no CTA's range crosses a stripe
      // boundary and every stripe has exactly R parts.
      ASSERT_EQ(sh::max_ctas_per_stripe(g.stripes, g.KBn, g.C), R) << sp.N << "x" << sp.K;
    }
}

TEST(SmallmPartition, PartialSumsGeometry) {
  using mixgemm::kernels::AType;
  using mixgemm::kernels::BType;
  using mixgemm::kernels::SmallmConfig;
  namespace sh = mixgemm::kernels::smallm_host;
  const std::pair<int64_t, int64_t> shapes[] = {{8192, 21760}, {10240, 8192}, {57344, 8192}, {4096, 4096},
                                                {6144, 4096},  {28672, 4096}, {4096, 14336}, {128256, 4096},
                                                {272, 768},    {400, 1344},   {16, 64},      {4096, 64}};
  int cluster = 0, stream = 0, none = 0;
  for (auto [N, K] : shapes)
    for (const SmallmConfig& cfg : mixgemm::kernels::smallm_configs(AType::kF16, BType::kU4B8))
      for (int sms : {1, 78, 132}) {
        const sh::Geometry g = sh::make_partial_sums_geometry(1, N, K, AType::kF16, BType::kU4B8, 128, false, cfg, sms);
        const sh::Geometry off = sh::make_geometry(1, N, K, AType::kF16, BType::kU4B8, 128, false, cfg, sms,
                                                   mixgemm::kernels::SmallmCluster::kOff);
        if (g.parts == 0) {
          ++none;
          continue;
        }
        ASSERT_LE(cfg.token_tile, 16);
        ASSERT_GE(g.parts, 2);
        ASSERT_LE(g.parts, 16);
        int64_t most = 0;
        for (int64_t j = 0; j < g.stripes; ++j)
          most = std::max(most, ref_cta(g.U, g.C, (j + 1) * g.KBn - 1) - ref_cta(g.U, g.C, j * g.KBn) + 1);
        ASSERT_EQ(g.parts, most) << N << "x" << K << " " << cfg.name() << " sms=" << sms;
        const int64_t stream_parts = sh::max_ctas_per_stripe(off.stripes, off.KBn, off.C);
        if (g.cluster >= 2) {  // where it keeps 90% of the slots, or the stream-K S is out of 2..16
          ++cluster;
          ASSERT_EQ(g.parts, g.cluster);
          ASSERT_TRUE(10 * g.C >= 9 * off.C || stream_parts < 2 || stream_parts > 16) << N << "x" << K;
        } else {
          ++stream;
          ASSERT_EQ(g.C, off.C);
        }
      }
  EXPECT_GT(cluster, 0);
  EXPECT_GT(stream, 0);
  EXPECT_GT(none, 0);
  const auto pick = [](int64_t N, int64_t K) {
    const mixgemm::kernels::SmallmConfig cfg =
        mixgemm::kernels::smallm_default_config(1, N, K, 132, AType::kF16, BType::kU4B8, 128);
    return sh::make_partial_sums_geometry(1, N, K, AType::kF16, BType::kU4B8, 128, false, cfg, 132);
  };
  EXPECT_EQ(pick(4096, 4096).parts, 8);
  EXPECT_EQ(pick(4096, 4096).cluster, 8);
  EXPECT_EQ(pick(28672, 4096).parts, 4);
  EXPECT_EQ(pick(28672, 4096).cluster, 0);
  EXPECT_EQ(pick(128256, 4096).parts, 2);
}

// max_ctas_per_stripe walks one period of stripes (stripes / gcd(stripes, C)): equal to the
// plain int64 count over every stripe, for stripe, k-block and CTA counts of every size class.
TEST(SmallmPartition, MaxCtasPerStripeOverOnePeriod) {
  namespace sh = mixgemm::kernels::smallm_host;
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<int64_t> st(1, 1200), kb(1, 448), cc(1, 1056);
  for (int i = 0; i < 3000; ++i) {
    const int64_t stripes = st(rng), KBn = kb(rng), C = std::min<int64_t>(cc(rng), stripes * KBn);
    const int64_t U = stripes * KBn;
    int64_t most = 0;
    for (int64_t j = 0; j < stripes; ++j)
      most = std::max(most, ref_cta(U, C, (j + 1) * KBn - 1) - ref_cta(U, C, j * KBn) + 1);
    ASSERT_EQ(sh::max_ctas_per_stripe(stripes, KBn, C), most) << stripes << " " << KBn << " " << C;
  }
}
