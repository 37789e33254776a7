// The sm90 family's pure host side: schedule names, legality, the K split and the pick.
#include <gtest/gtest.h>

#include <string>

#include "kernels/sm90/sm90.h"

namespace {

using namespace mixgemm::kernels;

TEST(Sm90Heuristic, NamesRoundTripAndRefuseOthers) {
  const auto all = sm90_all_configs(AType::kF16, BType::kU4B8);
  ASSERT_FALSE(all.empty());
  for (const Sm90Config& c : all) {
    Sm90Config back{0, 0};
    ASSERT_TRUE(sm90_parse_name(c.name(), &back)) << c.name();
    EXPECT_EQ(back, c);
  }
  Sm90Config untouched{7, 7};
  for (const char* bad : {"sm90_128x96_1x1x1_coop_splitk", "sm90_0128x64_1x1x1_coop_splitk",
                          "sm90_128x64_1x1x1_coop", "smallm_t16_w8_o1_p0", "sm90_x_1x1x1_coop_splitk", ""}) {
    EXPECT_FALSE(sm90_parse_name(bad, &untouched)) << bad;
    EXPECT_EQ(untouched, (Sm90Config{7, 7}));
  }
  EXPECT_TRUE(sm90_all_configs(AType::kS8, BType::kU4B8).empty());
}

TEST(Sm90Heuristic, ShapeRulesNameTheArgument) {
  const Sm90Config c{128, 128};
  std::string why;
  EXPECT_TRUE(sm90_shape_ok(1000, 8192, 8192, AType::kF16, BType::kU4B8, 128, c, &why)) << why;
  EXPECT_TRUE(sm90_shape_ok(1000, 8192, 8192, AType::kBF16, BType::kU8, 32, c, &why)) << why;
  EXPECT_TRUE(sm90_shape_ok(1000, 8192, 8192, AType::kBF16, BType::kU8, 8192, c, &why)) << why;
  EXPECT_FALSE(sm90_shape_ok(1000, 8192, 8160, AType::kF16, BType::kU4B8, 0, c, &why));
  EXPECT_NE(why.find("K=8160"), std::string::npos) << why;
  EXPECT_FALSE(sm90_shape_ok(1000, 8192, 8192, AType::kF16, BType::kU4B8, 48, c, &why));
  EXPECT_NE(why.find("group_size=48"), std::string::npos) << why;
  EXPECT_FALSE(sm90_shape_ok(1000, 8192, 8192, AType::kS8, BType::kU4B8, 128, c, &why));
}

TEST(Sm90Heuristic, SplitOnlyWhenTheTilesDoNotFillTheSms) {
  // 64 x 32 tiles of 128 x 256 at M = N = 8192: many waves, no split, no workspace.
  EXPECT_EQ(sm90_splits(8192, 8192, 8192, {128, 256}, 132), 1);
  EXPECT_EQ(sm90_workspace_bytes(8192, 8192, 8192, {128, 256}, 132), 0u);
  // M = 128, N = 8192, 128 x 128 tiles: 64 tiles on 132 SMs -> 2 splits fill 128 of them.
  EXPECT_EQ(sm90_splits(128, 8192, 8192, {128, 128}, 132), 2);
  EXPECT_GT(sm90_workspace_bytes(128, 8192, 8192, {128, 128}, 132), 64u * 2 * 128 * 128 * 4);
  // Never more splits than K / 256 (each split keeps >= 4 k-blocks) nor 16.
  for (int64_t K : {256, 1024, 8192, 65536})
    for (int64_t N : {128, 1024, 8192}) {
      const int s = sm90_splits(1, N, K, {128, 64}, 132);
      EXPECT_GE(s, 1);
      EXPECT_LE(s, 16);
      EXPECT_LE(s, std::max<int64_t>(1, K / 256));
    }
}

TEST(Sm90Heuristic, PicksTheWideTileForLargeMAndALegalOneAlways) {
  const auto all = sm90_all_configs(AType::kF16, BType::kU4B8);
  Sm90Config c;
  ASSERT_TRUE(sm90_pick(8192, 8192, 8192, 132, AType::kF16, BType::kU4B8, 128, all, &c));
  EXPECT_EQ(c.tile_t, 256) << c.name();
  for (int64_t M : {65, 128, 257, 1024, 4096})
    for (int64_t N : {4096, 8192, 10240, 28672, 57344}) {
      ASSERT_TRUE(sm90_pick(M, N, 8192, 132, AType::kBF16, BType::kU4, 128, all, &c));
      std::string why;
      EXPECT_TRUE(sm90_shape_ok(M, N, 8192, AType::kBF16, BType::kU4, 128, c, &why)) << why;
    }
  EXPECT_FALSE(sm90_pick(100, 8192, 8160, 132, AType::kF16, BType::kU4B8, 0, all, &c));
}

}  // namespace
