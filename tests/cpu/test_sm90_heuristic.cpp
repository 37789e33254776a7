// The sm90 family's pure host side: schedule names, legality, the K split and the pick.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kernels/sm90/sm90.h"
#include "kernels/sm90/sm90_partition.h"
#include "kernels/workspace_layout.h"

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
  // W4A8: 4-bit weights only.
  EXPECT_FALSE(sm90_all_configs(AType::kS8, BType::kU4B8).empty());
  EXPECT_TRUE(sm90_all_configs(AType::kS8, BType::kU8B128).empty());
}

// 8-bit activations get 128 x 256 in every mode (one compiled consumer with run-time flags).
TEST(Sm90Heuristic, EightBitWideTileTakesEveryMode) {
  const Sm90Config wide{128, 256};
  std::string why;
  for (AType a : {AType::kS8, AType::kE4M3})
    for (BType b : {BType::kU4B8, BType::kU4})
      for (int64_t g : {int64_t{0}, int64_t{32}, int64_t{64}, int64_t{128}, int64_t{8192}})
        EXPECT_TRUE(sm90_shape_ok(4096, 8192, 8192, a, b, g, wide, &why)) << why;
}

// Both families use kernels/workspace_layout.h: counters in [0, kWorkspaceCounterBytes), split-K
// partials behind it (sm90 once put its partials right after its own few counters, where the
// next smallm call read them as counters).
TEST(Sm90Heuristic, WorkspaceKeepsTheSharedCounterArea) {
  for (const Sm90Config& c : sm90_all_configs(AType::kF16, BType::kU4B8)) {
    const int64_t M = 128, N = 512, K = 4096;
    const int s = sm90_split(M, N, K, c, 132, Sm90SplitMode::kSplitK).splits;
    ASSERT_GT(s, 1) << c.name();
    const int64_t tiles = ((N + c.tile_n - 1) / c.tile_n) * ((M + c.tile_t - 1) / c.tile_t);
    EXPECT_EQ(sm90_workspace_bytes(M, N, K, c, 132, Sm90SplitMode::kSplitK),
              static_cast<size_t>(kWorkspaceCounterBytes + tiles * s * c.tile_n * c.tile_t * 4))
        << c.name();
  }
  EXPECT_EQ(sm90_workspace_bytes(8192, 8192, 8192, Sm90Config{128, 256}, 132, Sm90SplitMode::kSplitK), 0u);  // no split
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
  EXPECT_TRUE(sm90_shape_ok(1000, 8192, 8192, AType::kS8, BType::kU4B8, 128, c, &why)) << why;
  EXPECT_TRUE(sm90_shape_ok(1000, 8192, 8192, AType::kE4M3, BType::kU4, 32, c, &why)) << why;
  EXPECT_FALSE(sm90_shape_ok(1000, 8192, 8192, AType::kS8, BType::kU4B8, 16, c, &why));
  EXPECT_NE(why.find("8-bit activations"), std::string::npos) << why;
  EXPECT_FALSE(sm90_shape_ok(1000, 8192, 8192, AType::kS8, BType::kU8B128, 0, c, &why));
}

TEST(Sm90Heuristic, SplitOnlyWhenTheTilesDoNotFillTheSms) {
  // 64 x 32 tiles of 128 x 256 at M = N = 8192: many waves, no split, no workspace.
  EXPECT_EQ(sm90_split(8192, 8192, 8192, {128, 256}, 132, Sm90SplitMode::kSplitK).splits, 1);
  EXPECT_EQ(sm90_workspace_bytes(8192, 8192, 8192, {128, 256}, 132, Sm90SplitMode::kSplitK), 0u);
  // M = 128, N = 8192, 128 x 128 tiles: 64 tiles on 132 SMs -> 2 splits fill 128 of them.
  EXPECT_EQ(sm90_split(128, 8192, 8192, {128, 128}, 132, Sm90SplitMode::kSplitK).splits, 2);
  EXPECT_EQ(sm90_split(128, 8192, 8192, {128, 128}, 132, Sm90SplitMode::kSplitK).whole, 0);
  EXPECT_GT(sm90_workspace_bytes(128, 8192, 8192, {128, 128}, 132, Sm90SplitMode::kSplitK), 64u * 2 * 128 * 128 * 4);
  // Never more splits than K / 256 (each split keeps >= 4 k-blocks) nor 16.
  for (int64_t K : {256, 1024, 8192, 65536})
    for (int64_t N : {128, 1024, 8192}) {
      const int s = sm90_split(1, N, K, {128, 64}, 132, Sm90SplitMode::kSplitK).splits;
      EXPECT_GE(s, 1);
      EXPECT_LE(s, 16);
      EXPECT_LE(s, std::max<int64_t>(1, K / 256));
    }
}

// The tail split: whole waves run whole tiles, the partial last wave's tiles in k-parts.
TEST(Sm90Heuristic, TailSplitOnlyForAPartialLastWave) {
  // 10240 x 8192 at M = 1024, 128 x 256: 80 x 4 = 320 tiles = 2 waves + 56 -> the 56 in 2 parts.
  const Sm90Split q = sm90_split(1024, 10240, 8192, {128, 256}, 132, Sm90SplitMode::kSplitK);
  EXPECT_EQ(q.whole, 264);
  EXPECT_EQ(q.splits, 2);
  // The model then predicts it faster than the unsplit third wave.
  EXPECT_LT(sm90_predicted_us(1024, 10240, 8192, 132, AType::kF16, BType::kU4B8, {128, 256}),
            2.0 + 3 * (128 * 682.0 + 3000) * 1e-3);
  EXPECT_EQ(sm90_workspace_bytes(1024, 10240, 8192, {128, 256}, 132, Sm90SplitMode::kSplitK),
            static_cast<size_t>(kWorkspaceCounterBytes + 56 * 2 * 128 * 256 * 4));
  // Whole waves only: no split. A nearly full last wave (r = 124 of 132): parts would not fit.
  EXPECT_EQ(sm90_split(8192, 8192, 8192, {128, 256}, 132, Sm90SplitMode::kSplitK).splits, 1);  // 2048 tiles, r = 68: s <= 1
  const Sm90Split o = sm90_split(1024, 8192, 8192, {128, 256}, 132, Sm90SplitMode::kSplitK);     // 256 tiles, r = 124
  EXPECT_EQ(o.splits, 1);
  EXPECT_EQ(o.whole, 256);
  EXPECT_EQ(sm90_workspace_bytes(1024, 8192, 8192, {128, 256}, 132, Sm90SplitMode::kSplitK), 0u);
  // Every split, at every shape: parts <= sm_count / r (one wave of units), <= 16, <= K / 256.
  for (const Sm90Config& c : sm90_all_configs(AType::kF16, BType::kU4B8))
    for (int64_t M : {1, 64, 257, 1024, 4096})
      for (int64_t N : {1040, 8192, 10240, 57344})
        for (int64_t K : {1024, 8192, 28672})
          for (int sm : {7, 132}) {
            const Sm90Split sp = sm90_split(M, N, K, c, sm, Sm90SplitMode::kSplitK);
            const int64_t tiles = ((N + c.tile_n - 1) / c.tile_n) * ((M + c.tile_t - 1) / c.tile_t);
            ASSERT_GE(sp.splits, 1);
            EXPECT_LE(sp.splits, std::max<int64_t>(1, std::min<int64_t>(16, K / 256)));
            if (sp.splits == 1) {
              EXPECT_EQ(sp.whole, tiles);
            } else if (tiles < sm) {
              EXPECT_EQ(sp.whole, 0);
            } else {
              EXPECT_EQ(sp.whole % sm, 0);
              EXPECT_EQ(sp.whole, tiles - tiles % sm);
              EXPECT_LE((tiles - sp.whole) * sp.splits, sm) << c.name() << " M=" << M << " N=" << N;
            }
          }
}

// sm90_partition.h: the units cover every tile's k-blocks exactly once, whole tiles first, the
// parts of a split tile on neighbouring units, counters / partials indexed by part.
TEST(Sm90Heuristic, UnitsCoverEveryTileOnce) {
  using mixgemm::kernels::sm90::sm90_partial_slot;
  using mixgemm::kernels::sm90::sm90_unit_count;
  using mixgemm::kernels::sm90::sm90_unit_pos;
  using mixgemm::kernels::sm90::Sm90Part;
  using mixgemm::kernels::sm90::Sm90UnitPos;
  for (int tiles : {1, 5, 132, 320})
    for (int whole : {0, 1, 264})
      for (int splits : {1, 2, 3, 16})
        for (int kb64 : {4, 17, 340}) {
          if (whole > tiles || (splits == 1 && whole != tiles && whole != 0)) continue;
          const Sm90Part q = mixgemm::kernels::sm90::sm90_make_part(whole, splits, kb64, 0, 0);
          std::vector<int> covered(static_cast<size_t>(tiles) * kb64, 0);
          const int units = static_cast<int>(sm90_unit_count(tiles, q));
          for (int u = 0; u < units; ++u) {
            const Sm90UnitPos x = sm90_unit_pos(u, q);
            ASSERT_GE(x.tile, 0);
            ASSERT_LT(x.tile, tiles);
            if (u < whole) {
              EXPECT_EQ(x.part, -1);
              EXPECT_EQ(x.kb1 - x.kb0, kb64);
            } else {
              EXPECT_EQ(x.part, x.tile - whole);
              EXPECT_EQ(x.split, (u - whole) % splits);
              EXPECT_EQ(x.nsplit, splits);
              EXPECT_EQ(x.slot, x.part * splits + x.split);
              for (int s = 0; s < splits; ++s) EXPECT_EQ(sm90_partial_slot(x, s), x.part * splits + s);
            }
            for (int kb = x.kb0; kb < x.kb1; ++kb) ++covered[static_cast<size_t>(x.tile) * kb64 + kb];
          }
          EXPECT_TRUE(std::all_of(covered.begin(), covered.end(), [](int v) { return v == 1; }))
              << "tiles=" << tiles << " whole=" << whole << " splits=" << splits << " kb64=" << kb64;
        }
}

// Stream-K (sm90_partition.h): CTA c of C runs units c, c + C, ...; every k-block of every
// tile is covered exactly once; CTA c's blocks are one contiguous range of the streamed
// blocks, of the size T / C +-1; a streamed tile's parts are its contributing CTAs in
// ascending k, each with a unique partial slot that sm90_partial_slot finds from any part;
// the units past a CTA's range are empty.
TEST(Sm90Heuristic, StreamUnitsCoverEveryTileOnce) {
  using mixgemm::kernels::sm90::sm90_partial_slot;
  using mixgemm::kernels::sm90::sm90_stream_begin;
  using mixgemm::kernels::sm90::sm90_stream_owner;
  using mixgemm::kernels::sm90::sm90_unit_count;
  using mixgemm::kernels::sm90::sm90_unit_pos;
  using mixgemm::kernels::sm90::Sm90Part;
  using mixgemm::kernels::sm90::Sm90UnitPos;
  int checked = 0;
  for (int C : {1, 3, 7, 132})
    for (int tiles : {1, 5, 64, 80, 131, 133, 320})
      for (int waves : {0, 1, 2})
        for (int kb64 : {1, 4, 17, 128, 340}) {
          const int whole = waves * C;
          if (whole >= tiles) continue;
          const int64_t T = static_cast<int64_t>(tiles - whole) * kb64;
          if (T < C) continue;  // sm90_split never streams fewer blocks than CTAs
          const Sm90Part q = mixgemm::kernels::sm90::sm90_make_part(whole, 1, kb64, C, static_cast<uint32_t>(T));
          // The owner formula against a scan of the ranges; the part's forms (multiply-high divisors,
          // what the kernel evaluates) against the plain ones.
          for (uint32_t c = 0; c < static_cast<uint32_t>(C); ++c) {
            ASSERT_EQ(sm90_stream_begin(c, q), sm90_stream_begin(c, T, C)) << "c=" << c << " T=" << T << " C=" << C;
            for (uint32_t b = sm90_stream_begin(c, T, C); b < sm90_stream_begin(c + 1, T, C); ++b) {
              ASSERT_EQ(sm90_stream_owner(b, T, C), c) << "b=" << b << " T=" << T << " C=" << C;
              ASSERT_EQ(sm90_stream_owner(b, q), c) << "b=" << b << " T=" << T << " C=" << C;
            }
          }
          const int units = static_cast<int>(sm90_unit_count(tiles, q));
          ASSERT_EQ((units - whole) % C, 0);
          std::vector<int> covered(static_cast<size_t>(tiles) * kb64, 0), per_cta(C, 0);
          std::vector<int> slot_used(2 * static_cast<size_t>(C), 0);
          std::vector<std::vector<std::pair<int, int>>> parts(tiles);  // tile -> (split, slot)
          std::vector<int> nsplit(tiles, 0);
          for (int u = 0; u < units; ++u) {
            const Sm90UnitPos x = sm90_unit_pos(u, q);
            ASSERT_GE(x.tile, 0);
            ASSERT_LT(x.tile, tiles);
            if (u < whole) {
              EXPECT_EQ(x.part, -1);
              EXPECT_EQ(x.kb1 - x.kb0, kb64);
            } else {
              const int c = (u - whole) % C;
              per_cta[c] += x.kb1 - x.kb0;
              if (x.kb0 == x.kb1) continue;  // empty: past the range
              if (x.part < 0) {
                EXPECT_EQ(x.kb1 - x.kb0, kb64) << "a tile of one CTA is whole";
              } else {
                EXPECT_EQ(x.part, x.tile - whole);
                ASSERT_LT(x.slot, 2 * C);
                EXPECT_EQ(slot_used[x.slot]++, 0) << "slot " << x.slot << " used twice";
                parts[x.tile].push_back({x.split, x.slot});
                if (nsplit[x.tile] == 0) nsplit[x.tile] = x.nsplit;
                EXPECT_EQ(nsplit[x.tile], x.nsplit);
                for (int s = 0; s < x.nsplit; ++s) EXPECT_GE(sm90_partial_slot(x, s), 0);
              }
            }
            for (int kb = x.kb0; kb < x.kb1; ++kb) ++covered[static_cast<size_t>(x.tile) * kb64 + kb];
          }
          EXPECT_TRUE(std::all_of(covered.begin(), covered.end(), [](int v) { return v == 1; }))
              << "C=" << C << " tiles=" << tiles << " whole=" << whole << " kb64=" << kb64;
          for (int c = 0; c < C; ++c) {
            EXPECT_GE(per_cta[c], T / C);
            EXPECT_LE(per_cta[c], (T + C - 1) / C);
          }
          // Every split tile: parts 0 .. n-1 once each, in ascending k (ascending CTA), and
          // every part finds every other part's slot.
          for (int u = whole; u < units; ++u) {
            const Sm90UnitPos x = sm90_unit_pos(u, q);
            if (x.kb0 == x.kb1 || x.part < 0) continue;
            auto ps = parts[x.tile];
            ASSERT_EQ(static_cast<int>(ps.size()), x.nsplit);
            std::sort(ps.begin(), ps.end());
            for (int s = 0; s < x.nsplit; ++s) {
              EXPECT_EQ(ps[s].first, s);
              EXPECT_EQ(sm90_partial_slot(x, s), ps[s].second) << "tile " << x.tile << " part " << s;
            }
          }
          ++checked;
        }
  EXPECT_GT(checked, 100);
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

// Measured H200 times of the f16 x u4b8 g128 sm90 tiles at one (shape, M); 0: not timed.
struct TimedPoint {
  int64_t N, K, M;
  double us64, us128, us256;  // 128 x 64, 128 x 128, 128 x 256
  double us256x64 = 0;        // 256 x 64
};

// Whether a schedule now runs the tail split at this point (sm90_split): the tables below
// were measured before it existed, so their time for it is not what it runs now.
bool tail_split_at(const TimedPoint& r, const Sm90Config& c) {
  const Sm90Split sp = sm90_split(r.M, r.N, r.K, c, 132);
  return (sp.whole > 0 && sp.splits > 1) || sp.stream > 0;
}

// The measured time of tile c at point r (0: not timed).
double timed_us(const TimedPoint& r, const Sm90Config& c) {
  if (c.tile_n == 256) return r.us256x64;
  return c.tile_t == 64 ? r.us64 : c.tile_t == 128 ? r.us128 : r.us256;
}

// At every point the heuristic's tile (among the timed ones) is within `tol` of the fastest;
// returns the geomean of pick / fastest over the points. With skip_tail_split, schedules that
// now split their last wave (tail_split_at) are left out: tables measured before the tail split
// existed, whose gain is checked against newer measurements (TailSplitPicksBeatTheSession9Best).
double expect_picks_within(const std::vector<TimedPoint>& table, double tol, AType a = AType::kF16,
                           bool skip_tail_split = true) {
  const std::vector<Sm90Config> cands = {{128, 64}, {128, 128}, {128, 256}, {256, 64}};
  double log_sum = 0;
  int points = 0;
  for (const TimedPoint& r : table) {
    std::vector<Sm90Config> timed;
    for (const Sm90Config& c : cands)
      if (timed_us(r, c) > 0 && !(skip_tail_split && tail_split_at(r, c))) timed.push_back(c);
    if (timed.empty()) continue;
    Sm90Config pick;
    if (!sm90_pick(r.M, r.N, r.K, 132, a, BType::kU4B8, 128, timed, &pick)) {
      ADD_FAILURE() << "no pick at N=" << r.N << " K=" << r.K << " M=" << r.M;
      continue;
    }
    double best = 1e30;
    for (const Sm90Config& c : timed) best = std::min(best, timed_us(r, c));
    EXPECT_LE(timed_us(r, pick), best * tol)
        << "N=" << r.N << " K=" << r.K << " M=" << r.M << " picked " << pick.name();
    log_sum += std::log(timed_us(r, pick) / best);
    ++points;
  }
  return points ? std::exp(log_sum / points) : 1.0;
}

// 8-bit activations (kModelS8 / kModelE4M3): every sm90 tile of s8 / e4m3 x u4b8 g128, seed shape
// and Llama-2-70B, M = 32 / 64 / 128 / 256, timed in one run with session 21's kernels
// (bench/results/2026-12-01-h200/s21-w4a8tiles/allsched.csv, us; the splits as the kernels ran
// them). At every point the heuristic's tile is within 5% of the fastest (worst: 70B o M = 32 / 64
// with s8, 4%); with the 16-bit constants it picked 128 x 128 on 70B qkv / o at M = 256, 4-11%
// slower than 128 x 256.
double expect_a8_picks_within(AType a, const std::vector<TimedPoint>& table, double tol) {
  return expect_picks_within(table, tol, a, false);
}

TEST(Sm90Heuristic, EightBitPicksWithinFivePercentOfTheMeasuredBest) {
  expect_a8_picks_within(AType::kS8, {
      {8192, 8192, 32, 22.8, 33.1, 57.0, 23.6},
      {8192, 8192, 64, 23.0, 30.2, 54.2, 24.0},
      {8192, 8192, 128, 33.1, 27.8, 47.9, 32.3},
      {8192, 8192, 256, 60.3, 40.2, 38.2, 47.1},
      {8192, 21760, 32, 43.6, 58.1, 99.7, 39.1},
      {8192, 21760, 64, 44.2, 53.4, 95.8, 39.6},
      {8192, 21760, 128, 74.8, 55.8, 91.2, 65.7},
      {8192, 21760, 256, 147.5, 94.9, 78.8, 114.2},
      {8192, 28672, 32, 53.8, 74.7, 132.3, 47.2},
      {8192, 28672, 64, 54.9, 67.7, 117.6, 48.9},
      {8192, 28672, 128, 97.6, 70.2, 109.3, 82.8},
      {8192, 28672, 256, 192.2, 122.3, 100.6, 148.9},
      {10240, 8192, 32, 30.2, 46.2, 84.5, 26.2},
      {10240, 8192, 64, 29.1, 41.8, 80.2, 26.4},
      {10240, 8192, 128, 44.1, 34.7, 71.5, 40.6},
      {10240, 8192, 256, 77.4, 53.9, 50.1, 64.6},
      {57344, 8192, 32, 103.6, 163.2, 313.6, 87.5},
      {57344, 8192, 64, 107.6, 140.9, 278.5, 92.8},
      {57344, 8192, 128, 208.5, 138.4, 239.7, 171.4},
      {57344, 8192, 256, 411.3, 262.2, 200.8, 340.6},
  }, 1.05);
  expect_a8_picks_within(AType::kE4M3, {
      {8192, 8192, 32, 27.2, 34.6, 58.7, 27.1},
      {8192, 8192, 64, 27.5, 32.0, 56.7, 27.4},
      {8192, 8192, 128, 42.3, 31.8, 50.9, 39.8},
      {8192, 8192, 256, 78.7, 48.8, 44.7, 63.3},
      {8192, 21760, 32, 55.2, 63.6, 107.2, 49.0},
      {8192, 21760, 64, 55.8, 60.9, 101.6, 49.2},
      {8192, 21760, 128, 98.6, 67.7, 96.3, 85.7},
      {8192, 21760, 256, 191.8, 117.1, 94.8, 153.8},
      {8192, 28672, 32, 69.5, 83.1, 136.9, 59.7},
      {8192, 28672, 64, 70.3, 78.3, 130.7, 62.0},
      {8192, 28672, 128, 127.6, 84.8, 116.6, 109.9},
      {8192, 28672, 256, 249.9, 159.4, 121.9, 202.1},
      {10240, 8192, 32, 34.5, 47.8, 85.0, 31.1},
      {10240, 8192, 64, 34.6, 44.8, 82.0, 31.2},
      {10240, 8192, 128, 55.3, 39.8, 75.5, 49.3},
      {10240, 8192, 256, 99.8, 65.3, 58.6, 82.6},
      {57344, 8192, 32, 135.6, 174.2, 329.7, 116.1},
      {57344, 8192, 64, 138.8, 157.0, 305.3, 121.9},
      {57344, 8192, 128, 267.5, 169.6, 269.8, 226.4},
      {57344, 8192, 256, 532.6, 329.6, 244.5, 433.9},
  }, 1.05);
}

// Above M = 128, on the kernels of session 32: every sm90 tile of s8 / e4m3 x u4b8 g128 on the
// Llama-2-70B / Llama-2-7B / Llama-3-8B layers and the seed shape at M = 160..768, each with the
// split the heuristic gives it (bench/results/2026-12-02-h200/s32-a8tiles/allsched-a8.csv, us;
// 128 x 64, 128 x 128, 128 x 256, 256 x 64). kModelS8 / kModelE4M3's block times were measured at
// this data's whole-tile points, and the ranking is by each tile's own split: the picks take
// 1.012x (s8) and 1.007x (e4m3) the fastest tile's time in geomean (the split-K ranking on the
// session-21 constants: 1.044x / 1.039x). Every pick within 30 percent; the worst, Llama-2-70B qkv
// s8 at M = 160 (1.26x: 128 x 256 streamed against 256 x 64), is the model form's
// (docs/design-sm90.md). (Session 21's M = 160..384 table of the three large tiles, s21-a8model/,
// measured kernels that have changed since: the two-part exchange and arrive-first of sessions
// 30-31.)
TEST(Sm90Heuristic, EightBitPicksNearTheMeasuredBestAboveM128) {
  const double g_s8 = expect_a8_picks_within(AType::kS8, {
      {12288, 4096, 160, 41.9, 36.8, 37.2, 34.7},  // llama2-7b/qkv
      {12288, 4096, 192, 42.4, 36.2, 35.1, 35.2},  // llama2-7b/qkv
      {12288, 4096, 224, 49.2, 35.5, 32.9, 43.0},  // llama2-7b/qkv
      {12288, 4096, 256, 48.6, 35.4, 32.1, 43.1},  // llama2-7b/qkv
      {12288, 4096, 320, 63.2, 50.2, 62.5, 48.9},  // llama2-7b/qkv
      {12288, 4096, 384, 72.9, 51.0, 50.2, 60.1},  // llama2-7b/qkv
      {12288, 4096, 512, 91.8, 56.1, 46.3, 69.7},  // llama2-7b/qkv
      {12288, 4096, 768, 134.1, 84.6, 67.9, 105.6},  // llama2-7b/qkv
      {4096, 4096, 160, 20.6, 19.5, 22.9, 21.6},  // llama2-7b/o
      {4096, 4096, 192, 20.7, 18.6, 22.2, 21.6},  // llama2-7b/o
      {4096, 4096, 224, 20.0, 18.7, 21.7, 21.6},  // llama2-7b/o
      {4096, 4096, 256, 20.3, 18.9, 21.7, 21.6},  // llama2-7b/o
      {4096, 4096, 320, 27.8, 25.7, 30.3, 27.1},  // llama2-7b/o
      {4096, 4096, 384, 30.2, 24.8, 26.1, 28.1},  // llama2-7b/o
      {4096, 4096, 512, 34.5, 22.9, 23.5, 27.8},  // llama2-7b/o
      {4096, 4096, 768, 48.9, 35.4, 31.6, 43.4},  // llama2-7b/o
      {22016, 4096, 160, 64.0, 62.4, 54.7, 48.9},  // llama2-7b/gate_up
      {22016, 4096, 192, 63.6, 56.2, 50.7, 49.1},  // llama2-7b/gate_up
      {22016, 4096, 224, 85.3, 56.0, 46.4, 69.9},  // llama2-7b/gate_up
      {22016, 4096, 256, 85.8, 56.0, 46.7, 70.4},  // llama2-7b/gate_up
      {22016, 4096, 320, 107.5, 75.5, 94.9, 83.2},  // llama2-7b/gate_up
      {22016, 4096, 384, 121.2, 73.1, 89.1, 91.7},  // llama2-7b/gate_up
      {22016, 4096, 512, 164.9, 101.8, 76.3, 124.8},  // llama2-7b/gate_up
      {22016, 4096, 768, 236.0, 139.5, 100.7, 176.1},  // llama2-7b/gate_up
      {4096, 11008, 160, 36.3, 32.0, 35.0, 33.4},  // llama2-7b/down
      {4096, 11008, 192, 36.4, 30.6, 33.0, 33.7},  // llama2-7b/down
      {4096, 11008, 224, 41.2, 30.6, 30.4, 37.4},  // llama2-7b/down
      {4096, 11008, 256, 41.2, 30.8, 30.0, 37.5},  // llama2-7b/down
      {4096, 11008, 320, 54.4, 44.0, 50.8, 47.7},  // llama2-7b/down
      {4096, 11008, 384, 62.3, 42.9, 45.8, 51.3},  // llama2-7b/down
      {4096, 11008, 512, 77.1, 46.3, 39.7, 59.3},  // llama2-7b/down
      {4096, 11008, 768, 113.3, 71.4, 57.1, 90.5},  // llama2-7b/down
      {6144, 4096, 160, 25.3, 28.1, 31.2, 24.5},  // llama3-8b/qkv
      {6144, 4096, 192, 25.3, 27.3, 31.0, 24.6},  // llama3-8b/qkv
      {6144, 4096, 224, 30.4, 25.2, 25.9, 27.7},  // llama3-8b/qkv
      {6144, 4096, 256, 30.4, 24.8, 25.5, 27.7},  // llama3-8b/qkv
      {6144, 4096, 320, 34.3, 32.1, 39.3, 27.5},  // llama3-8b/qkv
      {6144, 4096, 384, 41.7, 29.6, 36.0, 34.4},  // llama3-8b/qkv
      {6144, 4096, 512, 48.7, 35.5, 31.8, 43.2},  // llama3-8b/qkv
      {6144, 4096, 768, 73.3, 51.0, 38.9, 61.0},  // llama3-8b/qkv
      {4096, 4096, 160, 20.5, 20.3, 23.0, 21.6},  // llama3-8b/o
      {4096, 4096, 192, 20.7, 18.9, 22.3, 21.6},  // llama3-8b/o
      {4096, 4096, 224, 20.0, 18.7, 21.8, 21.7},  // llama3-8b/o
      {4096, 4096, 256, 20.2, 18.7, 21.9, 21.7},  // llama3-8b/o
      {4096, 4096, 320, 27.7, 26.7, 28.5, 27.1},  // llama3-8b/o
      {4096, 4096, 384, 30.3, 24.5, 25.9, 27.8},  // llama3-8b/o
      {4096, 4096, 512, 34.4, 23.0, 23.6, 27.6},  // llama3-8b/o
      {4096, 4096, 768, 48.9, 35.4, 31.5, 43.0},  // llama3-8b/o
      {28672, 4096, 160, 85.0, 76.4, 66.3, 70.8},  // llama3-8b/gate_up
      {28672, 4096, 192, 85.1, 72.5, 58.9, 70.7},  // llama3-8b/gate_up
      {28672, 4096, 224, 107.7, 69.0, 51.7, 86.5},  // llama3-8b/gate_up
      {28672, 4096, 256, 107.0, 68.8, 51.4, 86.4},  // llama3-8b/gate_up
      {28672, 4096, 320, 131.7, 104.0, 119.1, 104.7},  // llama3-8b/gate_up
      {28672, 4096, 384, 159.0, 103.1, 111.7, 127.1},  // llama3-8b/gate_up
      {28672, 4096, 512, 208.6, 124.1, 95.6, 156.8},  // llama3-8b/gate_up
      {28672, 4096, 768, 310.4, 192.8, 147.5, 233.8},  // llama3-8b/gate_up
      {4096, 14336, 160, 44.3, 41.8, 37.9, 39.1},  // llama3-8b/down
      {4096, 14336, 192, 44.8, 38.7, 36.1, 39.2},  // llama3-8b/down
      {4096, 14336, 224, 51.9, 36.5, 34.8, 45.2},  // llama3-8b/down
      {4096, 14336, 256, 51.6, 36.5, 34.4, 45.0},  // llama3-8b/down
      {4096, 14336, 320, 67.4, 52.5, 72.3, 57.3},  // llama3-8b/down
      {4096, 14336, 384, 77.7, 52.0, 64.4, 62.4},  // llama3-8b/down
      {4096, 14336, 512, 97.2, 57.8, 47.7, 74.0},  // llama3-8b/down
      {4096, 14336, 768, 143.1, 87.4, 69.7, 111.9},  // llama3-8b/down
      {10240, 8192, 160, 59.6, 61.0, 57.7, 45.7},  // llama2-70b/qkv
      {10240, 8192, 192, 59.6, 54.3, 52.5, 45.8},  // llama2-70b/qkv
      {10240, 8192, 224, 75.7, 51.3, 45.6, 61.7},  // llama2-70b/qkv
      {10240, 8192, 256, 76.3, 51.0, 44.2, 62.1},  // llama2-70b/qkv
      {10240, 8192, 320, 95.4, 73.0, 98.0, 76.0},  // llama2-70b/qkv
      {10240, 8192, 384, 113.1, 67.2, 87.1, 85.6},  // llama2-70b/qkv
      {10240, 8192, 512, 142.7, 88.6, 70.8, 112.1},  // llama2-70b/qkv
      {10240, 8192, 768, 209.3, 131.3, 91.4, 166.9},  // llama2-70b/qkv
      {8192, 8192, 160, 49.2, 43.2, 40.9, 42.1},  // llama2-70b/o
      {8192, 8192, 192, 49.3, 36.4, 37.7, 42.1},  // llama2-70b/o
      {8192, 8192, 224, 59.4, 36.9, 33.7, 45.7},  // llama2-70b/o
      {8192, 8192, 256, 59.4, 36.9, 33.0, 46.3},  // llama2-70b/o
      {8192, 8192, 320, 75.6, 58.6, 70.3, 62.3},  // llama2-70b/o
      {8192, 8192, 384, 86.4, 56.1, 60.8, 70.8},  // llama2-70b/o
      {8192, 8192, 512, 113.4, 67.1, 48.4, 85.6},  // llama2-70b/o
      {8192, 8192, 768, 167.4, 98.3, 76.2, 125.1},  // llama2-70b/o
      {57344, 8192, 160, 291.0, 263.0, 215.7, 228.4},  // llama2-70b/gate_up
      {57344, 8192, 192, 288.7, 248.9, 197.9, 228.3},  // llama2-70b/gate_up
      {57344, 8192, 224, 390.0, 231.9, 186.7, 293.5},  // llama2-70b/gate_up
      {57344, 8192, 256, 390.9, 228.9, 176.2, 293.9},  // llama2-70b/gate_up
      {57344, 8192, 320, 469.8, 360.5, 434.2, 364.4},  // llama2-70b/gate_up
      {57344, 8192, 384, 579.7, 341.2, 400.1, 437.6},  // llama2-70b/gate_up
      {57344, 8192, 512, 769.3, 456.1, 330.4, 655.3},  // llama2-70b/gate_up
      {57344, 8192, 768, 1120.3, 710.8, 522.2, 1032.6},  // llama2-70b/gate_up
      {8192, 28672, 160, 143.9, 129.9, 102.2, 111.7},  // llama2-70b/down
      {8192, 28672, 192, 144.0, 106.0, 92.0, 112.1},  // llama2-70b/down
      {8192, 28672, 224, 186.7, 106.8, 83.7, 139.9},  // llama2-70b/down
      {8192, 28672, 256, 190.1, 109.2, 85.3, 140.4},  // llama2-70b/down
      {8192, 28672, 320, 233.8, 172.1, 233.7, 179.9},  // llama2-70b/down
      {8192, 28672, 384, 276.0, 163.8, 186.9, 209.8},  // llama2-70b/down
      {8192, 28672, 512, 365.8, 209.9, 148.0, 271.7},  // llama2-70b/down
      {8192, 28672, 768, 545.9, 313.6, 228.6, 403.2},  // llama2-70b/down
      {8192, 21760, 160, 111.9, 99.7, 82.4, 87.3},  // seed
      {8192, 21760, 192, 112.6, 87.4, 70.8, 88.9},  // seed
      {8192, 21760, 224, 143.3, 83.0, 66.0, 107.8},  // seed
      {8192, 21760, 256, 143.1, 83.1, 66.5, 107.9},  // seed
      {8192, 21760, 320, 180.7, 132.9, 175.9, 140.1},  // seed
      {8192, 21760, 384, 212.1, 127.9, 131.1, 163.3},  // seed
      {8192, 21760, 512, 281.0, 161.8, 114.6, 209.4},  // seed
      {8192, 21760, 768, 419.2, 240.7, 177.1, 310.4},  // seed
  }, 1.3);
  const double g_e4m3 = expect_a8_picks_within(AType::kE4M3, {
      {12288, 4096, 160, 51.2, 41.9, 38.0, 43.0},  // llama2-7b/qkv
      {12288, 4096, 192, 51.7, 42.0, 36.0, 42.9},  // llama2-7b/qkv
      {12288, 4096, 224, 62.2, 41.5, 34.0, 53.6},  // llama2-7b/qkv
      {12288, 4096, 256, 62.7, 41.9, 34.2, 54.4},  // llama2-7b/qkv
      {12288, 4096, 320, 81.4, 59.9, 55.9, 62.8},  // llama2-7b/qkv
      {12288, 4096, 384, 93.6, 60.4, 54.2, 76.3},  // llama2-7b/qkv
      {12288, 4096, 512, 119.1, 68.4, 50.6, 90.5},  // llama2-7b/qkv
      {12288, 4096, 768, 175.6, 103.4, 76.1, 136.2},  // llama2-7b/qkv
      {4096, 4096, 160, 24.2, 21.1, 24.1, 24.2},  // llama2-7b/o
      {4096, 4096, 192, 24.3, 21.1, 23.5, 24.3},  // llama2-7b/o
      {4096, 4096, 224, 24.7, 20.9, 23.2, 25.9},  // llama2-7b/o
      {4096, 4096, 256, 24.8, 21.1, 23.2, 26.2},  // llama2-7b/o
      {4096, 4096, 320, 33.6, 27.5, 30.1, 31.5},  // llama2-7b/o
      {4096, 4096, 384, 37.2, 28.0, 27.6, 33.5},  // llama2-7b/o
      {4096, 4096, 512, 43.3, 27.5, 24.9, 35.6},  // llama2-7b/o
      {4096, 4096, 768, 62.2, 41.4, 34.1, 53.8},  // llama2-7b/o
      {22016, 4096, 160, 81.6, 68.4, 57.0, 63.9},  // llama2-7b/gate_up
      {22016, 4096, 192, 81.2, 68.4, 52.6, 64.0},  // llama2-7b/gate_up
      {22016, 4096, 224, 109.2, 68.6, 51.0, 91.7},  // llama2-7b/gate_up
      {22016, 4096, 256, 109.0, 69.3, 51.8, 92.4},  // llama2-7b/gate_up
      {22016, 4096, 320, 137.8, 89.2, 100.4, 107.0},  // llama2-7b/gate_up
      {22016, 4096, 384, 156.4, 89.7, 94.1, 118.7},  // llama2-7b/gate_up
      {22016, 4096, 512, 214.3, 124.3, 85.2, 161.6},  // llama2-7b/gate_up
      {22016, 4096, 768, 306.3, 172.2, 113.3, 229.6},  // llama2-7b/gate_up
      {4096, 11008, 160, 45.4, 36.8, 36.2, 40.2},  // llama2-7b/down
      {4096, 11008, 192, 45.2, 36.6, 33.7, 40.6},  // llama2-7b/down
      {4096, 11008, 224, 53.9, 36.7, 32.3, 47.7},  // llama2-7b/down
      {4096, 11008, 256, 53.9, 36.6, 32.8, 48.0},  // llama2-7b/down
      {4096, 11008, 320, 69.6, 50.9, 57.1, 58.4},  // llama2-7b/down
      {4096, 11008, 384, 79.9, 50.4, 50.8, 65.2},  // llama2-7b/down
      {4096, 11008, 512, 100.9, 57.8, 44.0, 78.6},  // llama2-7b/down
      {4096, 11008, 768, 149.4, 88.4, 63.9, 118.2},  // llama2-7b/down
      {6144, 4096, 160, 30.2, 29.5, 27.7, 28.5},  // llama3-8b/qkv
      {6144, 4096, 192, 30.3, 27.5, 27.3, 28.7},  // llama3-8b/qkv
      {6144, 4096, 224, 37.1, 27.6, 26.4, 33.2},  // llama3-8b/qkv
      {6144, 4096, 256, 37.0, 27.7, 26.2, 32.9},  // llama3-8b/qkv
      {6144, 4096, 320, 43.4, 34.0, 43.1, 35.4},  // llama3-8b/qkv
      {6144, 4096, 384, 51.6, 34.2, 36.5, 42.5},  // llama3-8b/qkv
      {6144, 4096, 512, 62.1, 41.4, 33.8, 53.9},  // llama3-8b/qkv
      {6144, 4096, 768, 93.5, 59.8, 41.8, 75.8},  // llama3-8b/qkv
      {4096, 4096, 160, 24.0, 22.4, 23.9, 24.0},  // llama3-8b/o
      {4096, 4096, 192, 24.1, 20.9, 23.5, 24.4},  // llama3-8b/o
      {4096, 4096, 224, 24.7, 20.9, 22.8, 26.2},  // llama3-8b/o
      {4096, 4096, 256, 24.8, 21.0, 23.2, 26.3},  // llama3-8b/o
      {4096, 4096, 320, 33.9, 27.5, 27.1, 31.3},  // llama3-8b/o
      {4096, 4096, 384, 37.0, 27.5, 27.8, 33.0},  // llama3-8b/o
      {4096, 4096, 512, 43.3, 27.4, 25.0, 35.8},  // llama3-8b/o
      {4096, 4096, 768, 62.3, 41.3, 33.6, 53.6},  // llama3-8b/o
      {28672, 4096, 160, 108.0, 86.4, 67.4, 92.0},  // llama3-8b/gate_up
      {28672, 4096, 192, 108.3, 83.4, 63.6, 92.6},  // llama3-8b/gate_up
      {28672, 4096, 224, 138.4, 83.6, 55.9, 111.1},  // llama3-8b/gate_up
      {28672, 4096, 256, 137.9, 84.3, 56.8, 111.6},  // llama3-8b/gate_up
      {28672, 4096, 320, 168.6, 124.4, 123.6, 133.2},  // llama3-8b/gate_up
      {28672, 4096, 384, 202.7, 123.6, 114.4, 160.8},  // llama3-8b/gate_up
      {28672, 4096, 512, 269.6, 152.9, 105.2, 202.7},  // llama3-8b/gate_up
      {28672, 4096, 768, 399.7, 237.7, 166.7, 299.6},  // llama3-8b/gate_up
      {4096, 14336, 160, 55.4, 44.8, 38.7, 48.0},  // llama3-8b/down
      {4096, 14336, 192, 55.2, 44.0, 36.9, 48.3},  // llama3-8b/down
      {4096, 14336, 224, 67.0, 43.9, 37.1, 58.1},  // llama3-8b/down
      {4096, 14336, 256, 67.0, 44.0, 37.6, 58.0},  // llama3-8b/down
      {4096, 14336, 320, 86.4, 61.9, 67.2, 71.8},  // llama3-8b/down
      {4096, 14336, 384, 100.9, 62.3, 61.0, 80.4},  // llama3-8b/down
      {4096, 14336, 512, 128.0, 72.9, 53.7, 98.6},  // llama3-8b/down
      {4096, 14336, 768, 190.8, 110.9, 78.2, 148.6},  // llama3-8b/down
      {10240, 8192, 160, 78.2, 61.4, 59.7, 61.4},  // llama2-70b/qkv
      {10240, 8192, 192, 77.2, 61.3, 53.8, 60.8},  // llama2-70b/qkv
      {10240, 8192, 224, 97.9, 62.0, 46.5, 80.6},  // llama2-70b/qkv
      {10240, 8192, 256, 98.2, 61.9, 46.9, 80.8},  // llama2-70b/qkv
      {10240, 8192, 320, 123.3, 84.9, 102.2, 98.0},  // llama2-70b/qkv
      {10240, 8192, 384, 149.6, 84.8, 90.4, 113.6},  // llama2-70b/qkv
      {10240, 8192, 512, 184.3, 110.0, 79.4, 143.8},  // llama2-70b/qkv
      {10240, 8192, 768, 271.1, 164.0, 103.0, 217.5},  // llama2-70b/qkv
      {8192, 8192, 160, 62.3, 46.5, 42.4, 52.7},  // llama2-70b/o
      {8192, 8192, 192, 62.2, 45.4, 39.0, 52.9},  // llama2-70b/o
      {8192, 8192, 224, 76.8, 44.9, 35.6, 60.3},  // llama2-70b/o
      {8192, 8192, 256, 77.2, 45.6, 36.4, 61.2},  // llama2-70b/o
      {8192, 8192, 320, 98.5, 69.5, 72.6, 80.7},  // llama2-70b/o
      {8192, 8192, 384, 113.2, 69.4, 64.3, 92.0},  // llama2-70b/o
      {8192, 8192, 512, 149.0, 84.9, 55.4, 113.3},  // llama2-70b/o
      {8192, 8192, 768, 220.3, 124.2, 85.6, 164.9},  // llama2-70b/o
      {57344, 8192, 160, 380.1, 308.9, 234.4, 294.6},  // llama2-70b/gate_up
      {57344, 8192, 192, 377.4, 286.6, 209.4, 293.2},  // llama2-70b/gate_up
      {57344, 8192, 224, 512.4, 286.0, 191.9, 382.8},  // llama2-70b/gate_up
      {57344, 8192, 256, 506.5, 287.8, 191.7, 382.8},  // llama2-70b/gate_up
      {57344, 8192, 320, 615.2, 423.9, 463.1, 508.5},  // llama2-70b/gate_up
      {57344, 8192, 384, 763.2, 426.5, 435.3, 624.9},  // llama2-70b/gate_up
      {57344, 8192, 512, 1014.0, 574.2, 377.6, 864.6},  // llama2-70b/gate_up
      {57344, 8192, 768, 1458.9, 886.3, 565.5, 1251.1},  // llama2-70b/gate_up
      {8192, 28672, 160, 191.8, 141.8, 103.4, 147.4},  // llama2-70b/down
      {8192, 28672, 192, 189.0, 136.0, 99.1, 145.2},  // llama2-70b/down
      {8192, 28672, 224, 246.2, 137.0, 94.1, 187.4},  // llama2-70b/down
      {8192, 28672, 256, 248.6, 138.6, 96.9, 190.2},  // llama2-70b/down
      {8192, 28672, 320, 310.8, 211.6, 219.2, 241.4},  // llama2-70b/down
      {8192, 28672, 384, 369.0, 210.1, 214.2, 281.0},  // llama2-70b/down
      {8192, 28672, 512, 490.5, 269.4, 176.5, 363.8},  // llama2-70b/down
      {8192, 28672, 768, 728.3, 403.4, 269.8, 537.0},  // llama2-70b/down
      {8192, 21760, 160, 148.3, 114.8, 86.4, 115.1},  // seed
      {8192, 21760, 192, 146.9, 105.8, 75.5, 114.8},  // seed
      {8192, 21760, 224, 189.7, 106.3, 74.1, 144.6},  // seed
      {8192, 21760, 256, 189.2, 106.7, 75.7, 144.6},  // seed
      {8192, 21760, 320, 238.1, 162.6, 191.3, 185.4},  // seed
      {8192, 21760, 384, 285.5, 163.7, 155.4, 219.6},  // seed
      {8192, 21760, 512, 378.3, 209.2, 134.7, 283.1},  // seed
      {8192, 21760, 768, 558.2, 308.9, 207.6, 413.2},  // seed
  }, 1.3);
  EXPECT_LE(g_s8, 1.015);
  EXPECT_LE(g_e4m3, 1.01);
}

// The pick against the committed H200 timing runs (bench/results/2026-11-30-h200/sm90-timing/:
// run 6 for the 64/128-token tiles, run 3 for 128 x 256, the code that ships for each;
// s4-round1/w16-256x64.csv for 256 x 64 at M = 64/128/256), f16 x
// u4b8 g128: at every (shape, M) the heuristic's tile is within 5% of the fastest measured.
// The two runs were on different days' machines of the same kind; their shared point
// (128 x 64) agrees within 2-6%.
TEST(Sm90Heuristic, PicksWithinFivePercentOfTheMeasuredBest) {
  expect_picks_within({
    {8192, 8192, 64, 35.1, 46.9, 100.1, 33.8},
    {8192, 8192, 128, 56.4, 41.6, 85.0, 46.6},
    {8192, 8192, 256, 107.7, 62.4, 63.6, 70.3},
    {8192, 8192, 512, 210.5, 119.3, 92.9},
    {8192, 21760, 64, 76.0, 92.5, 184.5, 60.1},
    {8192, 21760, 128, 138.5, 86.4, 166.8, 98.1},
    {8192, 21760, 256, 272.1, 151.8, 131.8, 171.5},
    {8192, 21760, 512, 538.9, 298.4, 229.8},
    {8192, 28672, 64, 100.4, 124.7, 258.0, 73.4},
    {8192, 28672, 128, 183.8, 111.1, 231.4, 124.8},
    {8192, 28672, 256, 359.7, 199.8, 167.6, 223.2},
    {8192, 28672, 512, 712.9, 393.1, 299.3},
    {10240, 8192, 64, 48.2, 61.8, 124.4, 36.8},
    {10240, 8192, 128, 107.5, 61.6, 106.5, 68.4},
    {10240, 8192, 256, 159.0, 118.5, 97.3, 138.0},
    {10240, 8192, 512, 262.0, 176.1, 180.9},
    {57344, 8192, 64, 207.9, 251.0, 569.3, 138.9},
    {57344, 8192, 128, 360.6, 230.6, 506.2, 271.7},
    {57344, 8192, 256, 715.0, 398.9, 356.1, 472.2},
    {57344, 8192, 512, 1418.6, 788.9, 619.2},
    {8192, 8192, 1024, 0, 232.9, 180.5},
    {8192, 8192, 2048, 0, 460.5, 356.1},
    {8192, 8192, 4096, 0, 913.8, 707.5},
    {8192, 8192, 8192, 0, 1816.3, 1410.8},
    {8192, 21760, 1024, 0, 592.2, 456.1},
    {8192, 21760, 2048, 0, 1177.9, 906.8},
    {8192, 21760, 4096, 0, 2348.3, 1808.7},
    {8192, 21760, 8192, 0, 4680.6, 3597.3},
    {8192, 28672, 1024, 0, 780.2, 593.5},
    {8192, 28672, 2048, 0, 1553.5, 1181.3},
    {8192, 28672, 4096, 0, 3100.3, 2358.5},
    {8192, 28672, 8192, 0, 6187.6, 4721.0},
    {10240, 8192, 1024, 0, 290.5, 268.1},
    {10240, 8192, 2048, 0, 575.0, 443.5},
    {10240, 8192, 4096, 0, 1139.9, 882.5},
    {10240, 8192, 8192, 0, 2219.3, 1761.8},
    {57344, 8192, 1024, 0, 1573.7, 1233.8},
    {57344, 8192, 2048, 0, 3085.7, 2507.7},
    {57344, 8192, 4096, 0, 6202.2, 4854.4},
    {57344, 8192, 8192, 0, 12387.6, 9585.7},
  }, 1.05);
}

// The same against session 9's kernels (the producer without a division per block, the wide
// tile's GPTQ kernel and early load): every schedule timed in one run at M >= 64
// (bench/results/2026-11-30-h200/s9-final/sm90_timing.log). The model's constants predate
// these kernels; its picks still land within 5% of the fastest tile everywhere.
TEST(Sm90Heuristic, PicksWithinFivePercentOfTheSession9Timing) {
  expect_picks_within({
    {8192, 21760, 64, 66.3, 88.4, 186.0, 57.6},
    {8192, 21760, 128, 118.8, 82.4, 159.4, 94.6},
    {8192, 21760, 256, 232.8, 143.6, 133.0, 162.5},
    {8192, 21760, 512, 460.9, 280.8, 233.4, 316.9},
    {8192, 21760, 1024, 0, 561.4, 461.8, 0},
    {8192, 21760, 2048, 0, 1129.7, 920.0, 0},
    {8192, 21760, 4096, 0, 2530.7, 1951.7, 0},
    {8192, 21760, 8192, 0, 5043.2, 3972.9, 0},
    {10240, 8192, 64, 54.8, 72.2, 129.5, 43.2},
    {10240, 8192, 128, 116.2, 72.5, 112.2, 80.6},
    {10240, 8192, 256, 172.0, 137.3, 115.2, 157.7},
    {10240, 8192, 512, 283.6, 202.3, 212.8, 234.4},
    {10240, 8192, 1024, 0, 330.8, 268.1, 0},
    {10240, 8192, 2048, 0, 550.8, 449.7, 0},
    {10240, 8192, 4096, 0, 1122.2, 907.5, 0},
    {10240, 8192, 8192, 0, 2178.7, 1809.0, 0},
    {8192, 8192, 64, 38.1, 50.2, 105.5, 39.0},
    {8192, 8192, 128, 60.4, 47.5, 87.9, 54.5},
    {8192, 8192, 256, 115.3, 70.5, 72.3, 72.4},
    {8192, 8192, 512, 199.6, 121.4, 95.7, 132.8},
    {8192, 8192, 1024, 0, 225.4, 184.9, 0},
    {8192, 8192, 2048, 0, 442.6, 362.8, 0},
    {8192, 8192, 4096, 0, 881.2, 719.5, 0},
    {8192, 8192, 8192, 0, 1755.5, 1491.2, 0},
    {57344, 8192, 64, 205.2, 255.5, 583.6, 136.3},
    {57344, 8192, 128, 327.7, 224.1, 503.0, 260.2},
    {57344, 8192, 256, 622.0, 388.7, 356.2, 451.5},
    {57344, 8192, 512, 1237.1, 820.9, 639.8, 1004.1},
    {57344, 8192, 1024, 0, 1717.7, 1362.8, 0},
    {57344, 8192, 2048, 0, 3461.0, 2741.7, 0},
    {57344, 8192, 4096, 0, 7039.0, 5684.6, 0},
    {57344, 8192, 8192, 0, 14390.4, 12114.3, 0},
    {8192, 28672, 64, 123.7, 150.1, 298.4, 99.2},
    {8192, 28672, 128, 230.8, 146.4, 264.2, 168.6},
    {8192, 28672, 256, 454.8, 263.0, 173.5, 226.7},
    {8192, 28672, 512, 659.5, 386.9, 308.3, 439.7},
    {8192, 28672, 1024, 0, 755.5, 624.9, 0},
    {8192, 28672, 2048, 0, 1611.9, 1269.3, 0},
    {8192, 28672, 4096, 0, 3329.1, 2570.7, 0},
    {8192, 28672, 8192, 0, 7268.0, 5616.5, 0},
  }, 1.05);
}

}  // namespace

namespace {

// The tail split's picks, measured (bench/results/2026-12-01-h200/s10-tailsplit/cand.csv and
// cand2.csv, f16 x u4b8 g128, the mean of the two medians): at each point where the heuristic
// now splits the last wave, its pick beats the fastest session-9 tile (unsplit, PicksWithin-
// FivePercentOfTheSession9Timing's table) by the margin the model asks of a tail split.
// (Llama-2-70B qkv at M = 256, 128 x 128 with a tail split in 84.3 us against 115.2, left this
// table in session 31: above M = 128 the 16-bit pick ranks each tile's own split, and the
// streamed 128 x 256 tile is predicted faster there; measured tied, s31-allsched/: 72.6 / 72.0 us.)
TEST(Sm90Heuristic, TailSplitPicksBeatTheSession9Best) {
  struct Point {
    int64_t N, K, M;
    Sm90Config pick;
    double us_pick, us_s9_best;
  };
  const Point pts[] = {
      {10240, 8192, 512, {128, 256}, 139.0, 202.3},  // s9 best 128 x 128
      {10240, 8192, 1024, {128, 256}, 239.4, 268.1},
      {57344, 8192, 128, {128, 128}, 204.5, 224.1},
      {57344, 8192, 256, {128, 256}, 328.9, 356.2},
  };
  const auto all = sm90_all_configs(AType::kF16, BType::kU4B8);
  for (const Point& p : pts) {
    Sm90Config c;
    ASSERT_TRUE(sm90_pick(p.M, p.N, p.K, 132, AType::kF16, BType::kU4B8, 128, all, &c));
    EXPECT_EQ(c, p.pick) << "N=" << p.N << " M=" << p.M << " picked " << c.name();
    const Sm90Split sp = sm90_split(p.M, p.N, p.K, c, 132);
    EXPECT_TRUE(sp.whole > 0 && sp.splits > 1) << "N=" << p.N << " M=" << p.M;
    EXPECT_LT(p.us_pick, 0.97 * p.us_s9_best) << "N=" << p.N << " M=" << p.M;
  }
}


// Stream-K's picks, measured (bench/results/2026-12-01-h200/s11-streamk/round3: cand = this
// kernel, base = split-K only, f16 / s8 x u4b8 g128, the mean of two medians each): the
// heuristic streams only the tile split-K would pick, and only where the model predicts >= 10%
// less time; at the points where it does on the swept shapes, stream-K measured faster. Where
// the model's earlier versions streamed everywhere (round1) it measured up to 1.8x slower: every
// CTA reduces a tile at the end, reading ~kb / per + 1 partials.
TEST(Sm90Heuristic, StreamKPicksBeatSplitK) {
  struct Point {
    int64_t N, K, M;
    Sm90Config pick;
    double us_stream, us_split;  // f16 g128
  };
  const Point pts[] = {
      {10240, 8192, 128, {128, 128}, 58.6, 63.8},  // Llama-2-70B qkv
      {6144, 4096, 128, {256, 64}, 35.4, 43.8},    // Llama-3-8B qkv
  };
  const auto all = sm90_all_configs(AType::kF16, BType::kU4B8);
  for (const Point& p : pts) {
    Sm90Config c;
    ASSERT_TRUE(sm90_pick(p.M, p.N, p.K, 132, AType::kF16, BType::kU4B8, 128, all, &c));
    EXPECT_EQ(c, p.pick) << "N=" << p.N << " M=" << p.M << " picked " << c.name();
    EXPECT_GT(sm90_split(p.M, p.N, p.K, c, 132).stream, 0) << "N=" << p.N << " M=" << p.M;
    EXPECT_LT(p.us_stream, 0.97 * p.us_split) << "N=" << p.N << " M=" << p.M;
  }
  // On the five standard shapes at M >= 512 stream-K is not taken (measured no better there:
  // round1, round3); at M = 256 only on Llama-2-70B qkv (80 wide tiles on 132 SMs), whose
  // streamed 128 x 256 tile measured as fast as the split 128 x 128 one (s31-allsched/).
  for (int64_t M : {256, 512, 1024, 4096, 8192})
    for (auto [N, K] : {std::pair<int64_t, int64_t>{8192, 21760}, {10240, 8192}, {8192, 8192}, {57344, 8192}, {8192, 28672}}) {
      Sm90Config c;
      ASSERT_TRUE(sm90_pick(M, N, K, 132, AType::kF16, BType::kU4B8, 128, all, &c));
      const bool streams = M == 256 && N == 10240;
      EXPECT_EQ(sm90_split(M, N, K, c, 132).stream > 0, streams) << "N=" << N << " K=" << K << " M=" << M;
    }
}

// A measured point where a ranking change moved the pick: the tile the heuristic now picks, the
// one it picked before, and both measured times (us) from one run.
struct ChangedPick {
  AType a;
  int64_t N, K, M;
  Sm90Config pick, old_pick;
  double us_pick, us_old;
};

// At every point the heuristic picks the new tile, not the old one, and the new one measured faster.
void expect_changed_picks(const std::vector<ChangedPick>& pts) {
  for (const ChangedPick& p : pts) {
    Sm90Config c;
    ASSERT_TRUE(sm90_pick(p.M, p.N, p.K, 132, p.a, BType::kU4B8, 128, sm90_all_configs(p.a, BType::kU4B8), &c));
    EXPECT_EQ(c, p.pick) << "N=" << p.N << " K=" << p.K << " M=" << p.M << " picked " << c.name();
    EXPECT_NE(c, p.old_pick);
    EXPECT_LT(p.us_pick, p.us_old) << "N=" << p.N << " M=" << p.M;
  }
}

// Session 31 (bench/results/2026-12-02-h200/s31-allsched/: every sm90 tile with its own split,
// f16 x u4b8 g128, one run): above M = 128 the 16-bit pick ranks each tile by the split it
// would run, stream-K included. Where that changes the tile, the new pick measured faster than
// the split-K ranking's (us: the new pick, the old pick).
TEST(Sm90Heuristic, SixteenBitPicksRankTheTilesOwnSplitAboveM128) {
  expect_changed_picks({
      {AType::kF16, 12288, 4096, 160, {256, 64}, {128, 128}, 43.60, 51.20},     // Llama-2-7B qkv
      {AType::kF16, 6144, 4096, 256, {128, 128}, {128, 64}, 29.47, 35.31},      // Llama-3-8B qkv
      {AType::kF16, 4096, 11008, 320, {256, 64}, {128, 256}, 60.93, 83.97},     // Llama-2-7B down
      {AType::kF16, 4096, 4096, 384, {128, 128}, {128, 256}, 29.84, 37.36},     // Llama-3-8B o
      {AType::kF16, 4096, 14336, 768, {128, 256}, {128, 128}, 129.39, 134.02},  // Llama-3-8B down
  });
  const auto all = sm90_all_configs(AType::kF16, BType::kU4B8);
  // At M <= 128 the split-K ranking stays (the new one is unmeasured there): Llama-3-8B qkv at
  // M = 64 keeps 256 x 64 in five k-parts (the new ranking would stream 128 x 64).
  Sm90Config c;
  ASSERT_TRUE(sm90_pick(64, 6144, 4096, 132, AType::kF16, BType::kU4B8, 128, all, &c));
  EXPECT_EQ(c, (Sm90Config{256, 64})) << c.name();
  EXPECT_EQ(sm90_split(64, 6144, 4096, c, 132).stream, 0);
}

// Session 32 (bench/results/2026-12-02-h200/s32-a8final/: the picks of main and of this heuristic
// timed in one run, s8 / e4m3 x u4b8 g128, the mean of two runs each): 8-bit activations rank the
// tiles by their own split above M = 128 too, on the block times of kModelS8 / kModelE4M3. Where
// that changed the tile, the new pick measured faster (us: the new pick, the old pick).
TEST(Sm90Heuristic, EightBitPicksRankTheTilesOwnSplitAboveM128) {
  expect_changed_picks({
      {AType::kE4M3, 4096, 14336, 768, {128, 256}, {128, 128}, 77.56, 110.94},  // Llama-3-8B down
      {AType::kE4M3, 6144, 4096, 256, {128, 128}, {128, 64}, 27.54, 37.32},     // Llama-3-8B qkv
      {AType::kS8, 4096, 14336, 320, {128, 128}, {128, 256}, 52.23, 65.19},     // Llama-3-8B down
      {AType::kS8, 57344, 8192, 320, {128, 128}, {128, 256}, 356.94, 443.04},   // Llama-2-70B gate_up
      {AType::kS8, 6144, 4096, 256, {128, 128}, {128, 64}, 24.66, 30.37},       // Llama-3-8B qkv
  });
  // #5's M = 256 points keep the two-part 128 x 256 split (Llama-2-70B o, s8 and e4m3).
  for (AType a : {AType::kS8, AType::kE4M3}) {
    Sm90Config c;
    ASSERT_TRUE(sm90_pick(256, 8192, 8192, 132, a, BType::kU4B8, 128, sm90_all_configs(a, BType::kU4B8), &c));
    EXPECT_EQ(c, (Sm90Config{128, 256})) << c.name();
    EXPECT_EQ(sm90_split(256, 8192, 8192, c, 132).splits, 2);
  }
}

}  // namespace
