// test_sm90.cu - the sm90 (Hopper wgmma) kernel family against the CPU reference.
//
// Every type config (f16/bf16 x u4b8, u4 + zero points, u8b128, u8 + zero points) x group
// mode (none, 32, 64, 128, 256, per-channel) x compiled schedule runs on M in {1, 2, 3, 7,
// 8, 13, 16, 31, 64, 127, 257, 1024} with N, K made of tile multiples plus a partial
// weight tile (N = 400: 3 x 128 + 16); outputs NaN-poisoned, rows >= M and padding columns
// must stay poisoned. Data flavours alternate between "int" (small integers, power-of-two
// scales: bit-exact through the reference's acc_quantum) and "rnd" (derived tolerance,
// docs/semantics.md section 8). A second run of M = 257 must give the same bits (fixed
// split-K order), and the workspace counters must be zero after every schedule. Real
// shapes: the seed shape (N=8192, K=21760) at M = 257 (and e4m3 at M = 24), Llama-2-70B 10240 x 8192
// at M = 127, and M = 4096 on a small N x K. e4m3 outputs are held to the bound of each schedule's
// promotion interval (kernels::sm90_e4m3_promotion_k). Seeds are printed with every failure; repro:
//   MIXGEMM_TEST_SEED=<seed> ./mixgemm_gpu_tests --gtest_filter='Sm90*'
//
// MIXGEMM_SM90_TIMING=1 adds a timing report (lines "SM90_TIME ...") of every schedule on
// the seed and Llama-2-70B shapes, M = 1 ... 8192, median of cold-L2 launches (f16 x u4b8 g128;
// MIXGEMM_SM90_TIMING_TYPES="f16,s8,e4m3" for 8-bit activations too, MIXGEMM_SM90_TIMING_MS="256,512"
// for other M, MIXGEMM_SM90_TIMING_MODES=1 to force split-K and stream-K beside the heuristic).
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gpu/gemm_test_data.h"
#include "gpu/gpu_test_util.h"
#include "kernels/sm90/sm90.h"

namespace {

using namespace mixgemm::test;
using mixgemm::kernels::Sm90Config;
using mixgemm::kernels::Sm90Exchange;
using mixgemm::kernels::Sm90SplitMode;

const int kMs[] = {1, 2, 3, 7, 8, 13, 16, 31, 64, 127, 257, 1024};

uint64_t base_seed() {
  const char* s = std::getenv("MIXGEMM_TEST_SEED");
  return s ? std::strtoull(s, nullptr, 10) : 90;
}

auto sm90_ws(const Spec& s, const std::vector<int>& ms) {
  return [s, ms](int sm_count) {
    size_t bytes = 0;
    for (const Sm90Config& c : mixgemm::kernels::sm90_configs(s.a, s.b))
      for (int M : ms) bytes = std::max(bytes, mixgemm::kernels::sm90_workspace_bytes(M, s.N, s.K, c, sm_count, s.a, s.b));
    return bytes;
  };
}

// Runs one schedule at M tokens; returns the whole output buffer (rows x ldo).
// `mode` forces split-K or stream-K (Sm90SplitMode).
// `exchange`: how the wide tile's two-part split tiles are reduced (Sm90Exchange).
std::vector<uint16_t> run_once(const Data& d, const DevData& dd, const Sm90Config& cfg, int M, std::string* err,
                               Sm90SplitMode mode = Sm90SplitMode::kAuto, Sm90Exchange exchange = Sm90Exchange::kOn) {
  return run_kernel_once(
      d, dd, M,
      [&](const GemmParams& p, std::string* why) { return mixgemm::kernels::sm90_can_implement(p, cfg, why, mode); },
      [&](const GemmParams& p) { mixgemm::kernels::launch_sm90(p, cfg, nullptr, mode, exchange); }, err);
}

// The counters (the first bytes of the workspace, one int per split or streamed tile) are
// zero again.
bool counters_zero(const DevData& dd, const Spec& s, int M, const Sm90Config& cfg,
                   Sm90SplitMode mode = Sm90SplitMode::kAuto) {
  const auto sp = mixgemm::kernels::sm90_split(M, s.N, s.K, cfg, dd.sm_count, s.a, s.b, mode);
  if (sp.splits <= 1 && sp.stream == 0) return true;
  const size_t tiles = static_cast<size_t>((s.N + cfg.tile_n - 1) / cfg.tile_n) * ((M + cfg.tile_t - 1) / cfg.tile_t);
  std::vector<int32_t> h(tiles);
  cudaMemcpy(h.data(), dd.ws.p, tiles * 4, cudaMemcpyDeviceToHost);
  return std::all_of(h.begin(), h.end(), [](int32_t v) { return v == 0; });
}

// Every compiled schedule of s's type config at every M of ms. A type config this build did
// not compile (-DMIXGEMM_SM90_TYPES / _SCHEDULES restrict the instance set) is counted in
// *not_built and reported; without not_built the test skips (a full build fails instead).
void check_all(const Spec& s, const std::vector<int>& ms, int* not_built = nullptr) {
  SCOPED_TRACE(s.name());
  const int rows = *std::max_element(ms.begin(), ms.end());
  Data d;
  try {
    d = make_data(s, rows, rows);
  } catch (const mixgemm::Error& e) {
    ADD_FAILURE() << "reference refused " << s.name() << ": " << e.what();
    return;
  }
  DevData dd(d, sm90_ws(s, ms));
  ASSERT_NE(dd.b.p, nullptr);
  const auto cfgs = mixgemm::kernels::sm90_configs(s.a, s.b);
  if (cfgs.empty() && mixgemm::kernels::sm90_instance_set_restricted()) {
    if (!not_built)
      GTEST_SKIP() << "no sm90 instance for " << s.name()
                   << " in this build (-DMIXGEMM_SM90_TYPES / _SCHEDULES restrict the instance set)";
    ++*not_built;
    std::printf("[ not built ] %s: no sm90 instance in this restricted build\n", s.name().c_str());
    return;
  }
  ASSERT_FALSE(cfgs.empty()) << "no sm90 instance compiled for " << s.name();
  // e4m3: each schedule is held to the bound of its own promotion interval (sm90_e4m3_promotion_k; the
  // spec's, usually 0 = never, for the tiles that do not promote): at K = 1024 and P = 256 about a fifth
  // of the unpromoted bound, and finite at any K.
  const std::vector<double> tol_spec = d.tol;
  std::vector<double> tol_promoted;
  int failures = 0, ran = 0;
  for (const Sm90Config& cfg : cfgs) {
    // A schedule may refuse a whole mode (none does at present); refusals are checked on the
    // CPU (tests/cpu/test_sm90_heuristic.cpp).
    if (!mixgemm::kernels::sm90_shape_ok(rows, s.N, s.K, s.a, s.b, s.group_size, cfg, nullptr)) continue;
    const int64_t P = s.a == AType::kE4M3 ? mixgemm::kernels::sm90_e4m3_promotion_k(cfg) : 0;
    if (P > 0 && (s.fp8_promotion_k == 0 || P < s.fp8_promotion_k)) {
      if (tol_promoted.empty()) tol_promoted = tolerances(d, P);
      d.tol = tol_promoted;
    } else {
      d.tol = tol_spec;
    }
    ++ran;
    for (int M : ms) {
      std::string err;
      const std::vector<uint16_t> out = run_once(d, dd, cfg, M, &err);
      if (out.empty()) {
        ADD_FAILURE() << s.name() << " " << cfg.name() << " M=" << M << ": " << err;
        if (++failures > 8) return;
        continue;
      }
      std::string msg;
      const int64_t bad = compare(d, out, M, &msg);
      if (bad) {
        ADD_FAILURE() << s.name() << " " << cfg.name() << " M=" << M << " splits="
                      << mixgemm::kernels::sm90_split(M, s.N, s.K, cfg, dd.sm_count, s.a, s.b).splits << ": " << bad
                      << " bad elements:" << msg;
        if (++failures > 8) return;
      }
      if (M == 257 || M == 13) {
        const std::vector<uint16_t> again = run_once(d, dd, cfg, M, &err);
        if (again != out) {
          ADD_FAILURE() << s.name() << " " << cfg.name() << " M=" << M << ": second run differs (" << err << ")";
          if (++failures > 8) return;
        }
      }
      if (!counters_zero(dd, s, M, cfg)) {
        ADD_FAILURE() << s.name() << " " << cfg.name() << " M=" << M << ": workspace counters not reset";
        return;
      }
    }
  }
  EXPECT_GT(ran, 0) << "no sm90 schedule accepts " << s.name();
}

// Every group mode x weight type of one activation type; epilogue and data flavour vary.
void check_family(AType a) {
  const bool a8 = a == AType::kS8 || a == AType::kE4M3;
  const std::vector<BType> bs = a8 ? std::vector<BType>{BType::kU4B8, BType::kU4}
                                   : std::vector<BType>{BType::kU4B8, BType::kU4, BType::kU8B128, BType::kU8};
  const int64_t K = 1024;
  const int64_t groups[] = {0, 32, 64, 128, 256, K};
  const std::vector<int> ms(std::begin(kMs), std::end(kMs));
  int i = 0, not_built = 0;
  for (BType b : bs)
    for (int64_t g : groups) {
      Spec s;
      s.a = a;
      s.b = b;
      s.zeros = b == BType::kU4 || b == BType::kU8;
      s.group_size = g;
      s.N = 400;
      s.K = K;
      s.out = (i % 3 == 2) ? OutType::kBF16 : (a == AType::kBF16 ? OutType::kBF16 : OutType::kF16);
      s.bias = i % 2 == 0;
      s.tok = i % 3 == 0;
      s.ch = i % 4 != 1;
      s.integer = i % 2 == 1;
      s.seed = base_seed() + 1000 * i + static_cast<int>(a);
      // e4m3: the loosest model, which holds for every schedule (128 x 256 keeps a work unit's whole
      // k-range in one fp8 wgmma chain; the other tiles promote: E4m3PromotionKeepsStepsAfterALargeBlock).
      s.fp8_promotion_k = 0;
      ++i;
      check_all(s, ms, &not_built);
    }
  if (a8) {
    // Biased weights without group scales (QQQ's per-channel W4A8; e4m3 gives them to the
    // wgmma as e5m2) on exact integer data too: the loop above runs that mode on random data.
    Spec s;
    s.a = a;
    s.b = BType::kU4B8;
    s.group_size = 0;
    s.N = 400;
    s.K = K;
    s.out = OutType::kBF16;
    s.bias = true;
    s.tok = true;
    s.ch = true;
    s.integer = true;
    s.seed = base_seed() + 1000 * i + static_cast<int>(a);
    s.fp8_promotion_k = 0;
    ++i;
    check_all(s, ms, &not_built);
  }
  // The test passes on what ran; it reports itself skipped only when nothing was built.
  if (not_built == i)
    GTEST_SKIP() << "no sm90 instance for any " << i << " type configs of this family in this restricted build";
  if (not_built > 0) std::printf("[ partial ] %d of %d type configs ran; %d not built\n", i - not_built, i, not_built);
}

TEST(Sm90, W4W8A16_F16) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  check_family(AType::kF16);
}
TEST(Sm90, W4W8A16_BF16) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  check_family(AType::kBF16);
}

TEST(Sm90, W4A8_S8) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  check_family(AType::kS8);
}
TEST(Sm90, W4A8_E4M3) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  check_family(AType::kE4M3);
}

TEST(Sm90, LargeMSmallShape) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  Spec s;
  s.a = AType::kBF16;
  s.b = BType::kU4;
  s.zeros = true;
  s.group_size = 128;
  s.N = 256;
  s.K = 512;
  s.out = OutType::kBF16;
  s.bias = s.tok = s.ch = true;
  s.seed = base_seed() + 77;
  check_all(s, {4096});
}

TEST(Sm90, RealShapes) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  Spec seed;  // the seed shape, W4A16 u4b8 g128 f16
  seed.N = 8192;
  seed.K = 21760;
  seed.group_size = 128;
  seed.seed = base_seed() + 5;
  check_all(seed, {257});
  Spec llama;  // Llama-2-70B qkv-like 10240 x 8192, bf16 per-channel u8b128
  llama.a = AType::kBF16;
  llama.b = BType::kU8B128;
  llama.group_size = 8192;
  llama.N = 10240;
  llama.K = 8192;
  llama.out = OutType::kBF16;
  llama.ch = true;
  llama.seed = base_seed() + 6;
  check_all(llama, {127});
  // W4A8 e4m3 g128 on the seed shape at M = 24 (the narrow tiles): at K = 21760 the unpromoted bound is
  // infinite, so this checks the promoting tiles against their P-bound and only 128 x 256 loosely.
  Spec e4m3 = seed;
  e4m3.a = AType::kE4M3;
  e4m3.out = OutType::kBF16;
  e4m3.tok = e4m3.ch = true;
  e4m3.fp8_promotion_k = 0;
  e4m3.seed = base_seed() + 7;
  check_all(e4m3, {24});
}

// The tail split (sm90_split, sm90_partition.h): tiles >= SMs with a partial last wave, whose
// tiles run in k-parts while the whole waves run whole tiles. A pretend SM count (the grid is
// then that many CTAs) makes small shapes take it: for every compiled schedule and M, the
// smallest count at which the model splits the tail. Both parts of the workspace protocol
// (counters per split tile, partials) and the whole tiles' direct path run in one launch;
// a second launch must repeat the bits.
// The tail split, forced (split-K only: kAuto may stream these points instead).
void check_tail_split(const Spec& s) {
  SCOPED_TRACE(s.name());
  const std::vector<int> ms = {64, 257, 1024};
  const auto cfgs = mixgemm::kernels::sm90_configs(s.a, s.b);
  if (cfgs.empty()) GTEST_SKIP() << "no sm90 instance for " << s.name() << " in this build";
  // (schedule, M) -> the pretend SM count, 0 when no count in [2, 64] splits the tail.
  auto tail_sm = [&](const Sm90Config& c, int M) {
    for (int sm = 2; sm <= 64; ++sm) {
      const auto sp = mixgemm::kernels::sm90_split(M, s.N, s.K, c, sm, s.a, s.b, Sm90SplitMode::kSplitK);
      if (sp.splits > 1 && sp.whole > 0) return sm;
    }
    return 0;
  };
  Data d = make_data(s, 1024, 1024);
  DevData dd(d, [&](int) {
    size_t bytes = 0;
    for (const Sm90Config& c : cfgs)
      for (int M : ms)
        if (const int sm = tail_sm(c, M))
          bytes = std::max(bytes, mixgemm::kernels::sm90_workspace_bytes(M, s.N, s.K, c, sm, s.a, s.b, Sm90SplitMode::kSplitK));
    return bytes;
  });
  int ran = 0;
  for (const Sm90Config& cfg : cfgs)
    for (int M : ms) {
      const int sm = tail_sm(cfg, M);
      if (!sm) continue;
      dd.sm_count = sm;
      const auto sp = mixgemm::kernels::sm90_split(M, s.N, s.K, cfg, sm, s.a, s.b, Sm90SplitMode::kSplitK);
      std::string err;
      const std::vector<uint16_t> out = run_once(d, dd, cfg, M, &err, Sm90SplitMode::kSplitK);
      ASSERT_FALSE(out.empty()) << cfg.name() << " M=" << M << " sm=" << sm << ": " << err;
      std::string msg;
      const int64_t bad = compare(d, out, M, &msg);
      EXPECT_EQ(bad, 0) << cfg.name() << " M=" << M << " pretend sm_count=" << sm << " whole=" << sp.whole
                        << " splits=" << sp.splits << ":" << msg;
      EXPECT_EQ(run_once(d, dd, cfg, M, &err, Sm90SplitMode::kSplitK), out) << cfg.name() << " M=" << M << ": second run differs";
      EXPECT_TRUE(counters_zero(dd, s, M, cfg, Sm90SplitMode::kSplitK)) << cfg.name() << " M=" << M << ": workspace counters not reset";
      ++ran;
    }
  std::printf("[ tail split ] %s: %d (schedule, M) points\n", s.name().c_str(), ran);
  EXPECT_GT(ran, 0) << "no schedule splits a tail on this shape";
}

// The two specs the split tests run (N = 1040: 8 weight tiles of 128 + one of 16 rows; K =
// 4096): f16 with integer data (bit-exact, whatever the split) and QQQ s8 (s32 partials, u4 +
// zero points, per-group integer scales, random data, bf16 out). `check` runs on each whose
// type config this build compiled; the test skips when neither is.
void for_split_specs(uint64_t seed, const std::function<void(const Spec&)>& check) {
  Spec f16;
  f16.group_size = 128;
  f16.N = 1040;
  f16.K = 4096;
  f16.integer = true;
  f16.bias = f16.ch = true;
  f16.seed = seed;
  Spec s8;
  s8.a = AType::kS8;
  s8.b = BType::kU4;
  s8.zeros = true;
  s8.group_size = 64;
  s8.N = 1040;
  s8.K = 4096;
  s8.tok = s8.ch = true;
  s8.out = OutType::kBF16;
  s8.seed = seed + 1;
  s8.fp8_promotion_k = 0;
  // e4m3 u4b8 g128: the per-group weight tables (built by the producer warpgroup's table warps;
  // in the wide tile's GPTQ kernel once per group, kept in registers across the group's blocks)
  // with k-ranges that start and end anywhere in a group.
  Spec e4m3;
  e4m3.a = AType::kE4M3;
  e4m3.group_size = 128;
  e4m3.N = 1040;
  e4m3.K = 4096;
  e4m3.integer = true;
  e4m3.tok = e4m3.bias = true;
  e4m3.seed = seed + 2;
  e4m3.fp8_promotion_k = 0;
  bool any = false;
  for (const Spec* s : {&f16, &s8, &e4m3})
    if (!mixgemm::kernels::sm90_configs(s->a, s->b).empty()) {
      check(*s);
      any = true;
    }
  if (!any) GTEST_SKIP() << "none of f16.u4, s8.u4, e4m3.u4 is compiled in this build";
}

TEST(Sm90, TailSplit) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  for_split_specs(base_seed() + 31, [](const Spec& s) { check_tail_split(s); });
}

// A partial last token tile after whole ones in the same CTA: M = two token tiles + r, r = 1, 8
// and tile_t - 1, on every compiled schedule, K = 4096 (64 k-blocks per unit, more than any ring
// has stages), on 4 pretend SMs (each CTA runs whole tiles of the first token tiles before its
// tail tiles). Where a full box would zero-fill >= 4 KB per block (sm90_tail_box_for: r = 1 and 8
// on every tile but the 64-token one with 8-bit activations; r = tile_t - 1 never) that is the exact
// TMA box (act_tail_map, sm90_producer.cuh): a CTA loads each stage slot's first tail block
// through the full box, zero-filling its rows past M, then the exact box, while its stages held
// other tokens' rows before; the others take the full box throughout. Exact
// against the CPU reference where the data is integer, rows >= M untouched, a second run bit for
// bit.
TEST(Sm90, TailTokenTile) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  for_split_specs(base_seed() + 35, [](const Spec& s) {
    SCOPED_TRACE(s.name());
    const auto cfgs = mixgemm::kernels::sm90_configs(s.a, s.b);
    constexpr int kSm = 4;
    auto ms_of = [](const Sm90Config& c) {
      return std::vector<int>{2 * c.tile_t + 1, 2 * c.tile_t + 8, 3 * c.tile_t - 1};
    };
    int rows = 0;
    for (const Sm90Config& c : cfgs) rows = std::max(rows, ms_of(c).back());
    const Data d = make_data(s, rows, rows);
    DevData dd(d, [&](int) {
      size_t bytes = 0;
      for (const Sm90Config& c : cfgs)
        for (int M : ms_of(c))
          bytes = std::max(bytes, mixgemm::kernels::sm90_workspace_bytes(M, s.N, s.K, c, kSm, s.a, s.b, Sm90SplitMode::kSplitK));
      return bytes;
    });
    dd.sm_count = kSm;
    int ran = 0;
    for (const Sm90Config& cfg : cfgs)
      for (int M : ms_of(cfg)) {
        std::string err;
        const std::vector<uint16_t> out = run_once(d, dd, cfg, M, &err, Sm90SplitMode::kSplitK);
        ASSERT_FALSE(out.empty()) << cfg.name() << " M=" << M << ": " << err;
        std::string msg;
        EXPECT_EQ(compare(d, out, M, &msg), 0) << cfg.name() << " M=" << M << " (tail of " << M % cfg.tile_t
                                               << " rows):" << msg;
        EXPECT_EQ(run_once(d, dd, cfg, M, &err, Sm90SplitMode::kSplitK), out) << cfg.name() << " M=" << M
                                                                                << ": second run differs";
        EXPECT_TRUE(counters_zero(dd, s, M, cfg, Sm90SplitMode::kSplitK)) << cfg.name() << " M=" << M;
        ++ran;
      }
    std::printf("[ tail token tile ] %s: %d (schedule, M) points\n", s.name().c_str(), ran);
  });
}

// Stream-K, forced (mode) on every schedule, at pretend SM counts that make
// the CTAs' k-ranges start and end inside tiles in many ways (3 and 7: many contributors per
// tile, whole waves before the streamed tiles; the real count), bit-exact against the CPU
// reference (integer data), deterministic, counters zero afterwards.
void check_forced(const Spec& s, const std::vector<int>& ms, std::vector<int> sms, Sm90SplitMode mode) {
  SCOPED_TRACE(s.name());
  const auto cfgs = mixgemm::kernels::sm90_configs(s.a, s.b);
  const int rows = *std::max_element(ms.begin(), ms.end());
  Data d = make_data(s, rows, rows);
  int real_sm = 0;
  cudaDeviceGetAttribute(&real_sm, cudaDevAttrMultiProcessorCount, 0);
  for (int& sm : sms)
    if (sm == 0) sm = real_sm;
  DevData dd(d, [&](int) {
    size_t bytes = 0;
    for (const Sm90Config& c : cfgs)
      for (int M : ms)
        for (int sm : sms)
          bytes = std::max(bytes, mixgemm::kernels::sm90_workspace_bytes(M, s.N, s.K, c, sm, s.a, s.b, mode));
    return bytes;
  });
  int ran = 0, with_whole = 0;
  for (const Sm90Config& cfg : cfgs)
    for (int M : ms)
      for (int sm : sms) {
        const auto sp = mixgemm::kernels::sm90_split(M, s.N, s.K, cfg, sm, s.a, s.b, mode);
        if (mode == Sm90SplitMode::kStream && sp.stream == 0) continue;  // too few k-blocks for the CTAs
        dd.sm_count = sm;
        std::string err;
        const std::vector<uint16_t> out = run_once(d, dd, cfg, M, &err, mode);
        ASSERT_FALSE(out.empty()) << cfg.name() << " M=" << M << " sm=" << sm << ": " << err;
        std::string msg;
        const int64_t bad = compare(d, out, M, &msg);
        EXPECT_EQ(bad, 0) << cfg.name() << " M=" << M << " pretend sm_count=" << sm << " whole=" << sp.whole
                          << " stream=" << sp.stream << ":" << msg;
        EXPECT_EQ(run_once(d, dd, cfg, M, &err, mode), out)
            << cfg.name() << " M=" << M << " sm=" << sm << ": second run differs";
        EXPECT_TRUE(counters_zero(dd, s, M, cfg, mode))
            << cfg.name() << " M=" << M << " sm=" << sm << ": workspace counters not reset";
        ++ran;
        with_whole += sp.whole > 0;
      }
  std::printf("[ %s ] %s: %d (schedule, M, SM count) points, %d with whole tiles first\n",
              mode == Sm90SplitMode::kStream ? "stream-K" : "split-K", s.name().c_str(), ran, with_whole);
  EXPECT_GT(ran, 0);
}

TEST(Sm90, StreamK) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  for_split_specs(base_seed() + 33,
                  [](const Spec& s) { check_forced(s, {1, 64, 257, 1024}, {3, 7, 0}, Sm90SplitMode::kStream); });
}

// The unit form (sm90_mainloop.cuh, kUnitForm: f16 / bf16 x u4b8 and u4 with or without zero points, f16
// x u8b128 and u8 with zero points, one group row per 64-k block on the block-issue tiles; on the
// 128 x 256 tile u4b8 (its GPTQ kernel) and u4 (its AWQ kernel, with -DMIXGEMM_SM90_AWQ_KERNEL=1);
// built in with -DMIXGEMM_SM90_UNIT_FORM=1):
// group scales spread over 20 binades, zeros and f16 subnormals among them, signs mixed
// (Spec::scale_spread), so that rows leave their windows and move to other units at many group
// starts, with accumulators in several units at once. Groups of 64 (a group start every block)
// and 128, and per channel (group size K: one group, a unit's first block only), random data,
// M = 1, 40, 64, 200 (partial and whole token tiles), every compiled schedule (the 128 x 256 one
// runs the unit form for u4b8, at f16 g64 and bf16 per channel, and for u4 where its AWQ kernel is
// built, else the base form: a check of the same data), against the CPU reference: with the heuristic's
// own split, and with stream-K forced on 7 pretend SMs (k-ranges that start and end anywhere in a
// group: a work unit's first block starts the unit form wherever it lies in its group). The weight
// type rotates over the points (not every type at every point: the run time): u4b8; u4 with zero
// points (C = zs 2^u); u4 with group scales only (C = 0); and on f16's per-channel point u4 with
// zero points and no group scales (group size 0: s = 1, one group of K; the first unit's window
// misses it, so every work unit starts with a rebase). With the unit form off it checks the base
// form on the same data.
TEST(Sm90, UnitFormScalesAcrossWindows) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  const std::vector<int> ms = {1, 40, 64, 200};
  const int64_t K = 1024;
  // i = 0..5: f16 g64 u4b8, g128 u4+z, g0 u4+z (zeros only); bf16 g64 u4+z, g128 u4, gK u4b8;
  // i = 6, 7 (8-bit weights, f16 only): g64 u8b128 (a group start every block), g128 u8+z.
  struct Point {
    AType a;
    BType b;
    bool zeros;
    int64_t g;
  };
  const Point points[] = {{AType::kF16, BType::kU4B8, false, 64},  {AType::kF16, BType::kU4, true, 128},
                          {AType::kF16, BType::kU4, true, 0},      {AType::kBF16, BType::kU4, true, 64},
                          {AType::kBF16, BType::kU4, false, 128},  {AType::kBF16, BType::kU4B8, false, K},
                          {AType::kF16, BType::kU8B128, false, 64}, {AType::kF16, BType::kU8, true, 128}};
  int ran = 0, i = 0;
  for (const Point& pt : points) {
    Spec s;
    s.a = pt.a;
    s.b = pt.b;
    s.zeros = pt.zeros;
    s.group_size = pt.g;
    s.N = 400;
    s.K = K;
    s.out = i % 2 ? OutType::kBF16 : OutType::kF16;
    s.bias = i % 2 == 0;
    s.tok = i % 3 == 0;
    s.ch = true;
    s.integer = false;
    s.scale_spread = true;
    s.seed = base_seed() + 70 + i++;
    if (mixgemm::kernels::sm90_configs(s.a, s.b).empty()) {
      std::printf("[ not built ] %s\n", s.name().c_str());
      continue;
    }
    check_all(s, ms);
    check_forced(s, ms, {7}, Sm90SplitMode::kStream);
    ++ran;
  }
  if (ran == 0) GTEST_SKIP() << "none of f16.u4, bf16.u4, f16.u8 is compiled in this build";
}

// One split-K point (cfg, M, dd.sm_count) in each exchange mode: exact against the CPU reference, the modes
// bitwise equal, the counters zero again; *ran counts the runs.
void check_exchange_modes(const Data& d, const DevData& dd, const Spec& s, const Sm90Config& cfg, int M, int* ran) {
  std::vector<uint16_t> first;
  for (Sm90Exchange ex : {Sm90Exchange::kOn, Sm90Exchange::kLeaveFirst, Sm90Exchange::kOff, Sm90Exchange::kOn}) {
    const char* name = ex == Sm90Exchange::kOn ? "on" : ex == Sm90Exchange::kOff ? "off" : "leave-first";
    std::string err;
    const std::vector<uint16_t> out = run_once(d, dd, cfg, M, &err, Sm90SplitMode::kSplitK, ex);
    ASSERT_FALSE(out.empty()) << cfg.name() << " M=" << M << " exchange " << name << ": " << err;
    std::string msg;
    EXPECT_EQ(compare(d, out, M, &msg), 0) << cfg.name() << " M=" << M << " sm=" << dd.sm_count << " exchange " << name
                                           << ":" << msg;
    if (first.empty()) first = out;
    else EXPECT_EQ(out, first) << cfg.name() << " M=" << M << " exchange " << name << ": bits differ from exchange on";
    EXPECT_TRUE(counters_zero(dd, s, M, cfg, Sm90SplitMode::kSplitK))
        << cfg.name() << " M=" << M << " exchange " << name << ": workspace counters not reset";
    ++*ran;
  }
}

// The two-part exchange (Sm90Exchange, sm90_epilogue.cuh) of the 128 x 256 and 128 x 128
// tiles: pretend SM counts at which every tile runs in exactly two k-parts, M with full, partial
// and empty second token halves, each exchange mode (on: both parts finalize a token half where
// both arrived, or the first leaves; leave-first: the first arriver leaves in almost every tile,
// the partner reduces the whole tile; off: the last arriver reduces it all): bit-exact against the
// CPU reference, the modes and a second run bitwise equal, counters zero.
void check_exchange(const Spec& s, const std::vector<int>& ms, int* ran) {
  SCOPED_TRACE(s.name());
  std::vector<Sm90Config> cfgs;
  for (const Sm90Config& c : mixgemm::kernels::sm90_configs(s.a, s.b))
    if (c.tile_n == 128 && c.tile_t >= 128) cfgs.push_back(c);
  if (cfgs.empty()) {
    std::printf("[ not built ] %s: no 128 x 128 or 128 x 256 instance\n", s.name().c_str());
    return;
  }
  const int rows = *std::max_element(ms.begin(), ms.end());
  Data d = make_data(s, rows, rows);
  // The SM count of two units per tile: splits == 2 whenever tiles < SMs and 2 * tiles fills them.
  auto two_part_sm = [&](const Sm90Config& c, int M) {
    return static_cast<int>(2 * ((s.N + c.tile_n - 1) / c.tile_n) * ((M + c.tile_t - 1) / c.tile_t));
  };
  DevData dd(d, [&](int) {
    size_t bytes = 0;
    for (const Sm90Config& c : cfgs)
      for (int M : ms)
        bytes = std::max(bytes, mixgemm::kernels::sm90_workspace_bytes(M, s.N, s.K, c, two_part_sm(c, M), s.a,
                                                                       s.b, Sm90SplitMode::kSplitK));
    return bytes;
  });
  for (const Sm90Config& cfg : cfgs)
    for (int M : ms) {
      const int sm = two_part_sm(cfg, M);
      const auto sp = mixgemm::kernels::sm90_split(M, s.N, s.K, cfg, sm, s.a, s.b, Sm90SplitMode::kSplitK);
      ASSERT_EQ(sp.splits, 2) << cfg.name() << " M=" << M << " sm=" << sm << ": the exchange needs two-part tiles";
      dd.sm_count = sm;
      check_exchange_modes(d, dd, s, cfg, M, ran);
    }
}

TEST(Sm90, TwoPartExchange) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  int ran = 0;
  for_split_specs(base_seed() + 34, [&](const Spec& s) { check_exchange(s, {100, 130, 200, 256}, &ran); });
  std::printf("[ exchange ] %d (spec, M, mode) runs\n", ran);
  if (ran == 0) GTEST_SKIP() << "no 128 x 128 or 128 x 256 instance of f16.u4, s8.u4, e4m3.u4 in this build";
}

// The narrow tiles' split-K tiles (64 and 128 tokens) at pretend SM counts at which every tile runs in exactly
// s = 2, 3, 4, 5, 8, 16 k-parts (fewer, as many and more parts than a tile has 64-row output boxes), and at one SM
// fewer (several tiles' parts then straddle the persistent grid's rounds), M = 64 and 100 (a partial last token
// tile: its partials skip the columns past M, sm90_epilogue.cuh), each exchange mode (it applies to
// 128 x 128's two-part tiles): exact against the CPU reference, the modes and a second run bitwise equal, counters
// zero.
void check_split_parts(const Spec& s, const std::vector<int>& ms, int* ran) {
  SCOPED_TRACE(s.name());
  std::vector<Sm90Config> cfgs;
  for (const Sm90Config& c : mixgemm::kernels::sm90_configs(s.a, s.b))
    if (c.tile_t <= 128) cfgs.push_back(c);
  if (cfgs.empty()) return;
  const int rows = *std::max_element(ms.begin(), ms.end());
  Data d = make_data(s, rows, rows);
  const int parts[] = {2, 3, 4, 5, 8, 16};
  auto tiles_of = [&](const Sm90Config& c, int M) {
    return static_cast<int>(((s.N + c.tile_n - 1) / c.tile_n) * ((M + c.tile_t - 1) / c.tile_t));
  };
  DevData dd(d, [&](int) {
    size_t bytes = 0;
    for (const Sm90Config& c : cfgs)
      for (int M : ms)
        for (int np : parts)
          bytes = std::max(bytes, mixgemm::kernels::sm90_workspace_bytes(M, s.N, s.K, c, np * tiles_of(c, M), s.a,
                                                                         s.b, Sm90SplitMode::kSplitK));
    return bytes;
  });
  for (const Sm90Config& cfg : cfgs)
    for (int M : ms)
      for (int np : parts)
        for (int less : {0, 1}) {
          if (np > s.K / 256) continue;  // sm90_split's most parts
          const int sm = np * tiles_of(cfg, M) - less;
          const auto sp = mixgemm::kernels::sm90_split(M, s.N, s.K, cfg, sm, s.a, s.b, Sm90SplitMode::kSplitK);
          if (less == 0) ASSERT_EQ(sp.splits, np) << cfg.name() << " M=" << M << " sm=" << sm;
          if (sp.splits < 2 || sp.stream > 0) continue;
          dd.sm_count = sm;
          SCOPED_TRACE("splits " + std::to_string(sp.splits));
          check_exchange_modes(d, dd, s, cfg, M, ran);
        }
}

TEST(Sm90, SplitKParts) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  int ran = 0;
  for_split_specs(base_seed() + 37, [&](const Spec& s) { check_split_parts(s, {64, 100}, &ran); });
  std::printf("[ split-K parts ] %d (spec, schedule, M, SM count, mode) runs\n", ran);
  if (ran == 0) GTEST_SKIP() << "no 64- or 128-token instance of f16.u4, s8.u4, e4m3.u4 in this build";
}

// e4m3 promotion (kernels::sm90_e4m3_promotion_k, docs/semantics.md 5.2), on data where one wgmma chain
// without it loses a gross share of the sum. Every token's activations are 448 (e4m3's largest) at k < 64
// and 2^-5 after, every weight 1 (u4b8, q = 9): acc = 64 * 448 + (K - 64) / 32, exact in f32. Once a chain
// holds the first block's 28672, its e8m13 spacing (2) exceeds one k32 step's 32 * 2^-5 = 1, and the
// tensor cores' truncating add drops the step. A tile that promotes every P k starts a new chain there, so it
// loses at most the steps that share the first chain with the large block ((P - 64) / 32 <= 2); a tile that
// keeps a work unit's k-range in one chain loses every later step of the first unit. K = 65536, N = 256,
// M = 16, split-K forced (16 parts of 4096 k on one tile): acc = 30718, f16 out 30720 (spacing 16) with
// promotion, 30591 -> 30592 without. Per-channel (e5m2 weights, no scales) and g128 with unit scales (the
// group tables). Tiles that do not promote (128 x 256) are listed with their output and not checked, unless
// MIXGEMM_TEST_PROMOTION_ALL=1 (checks them too: they must fail, which shows that the data discriminates).
TEST(Sm90, E4m3PromotionKeepsStepsAfterALargeBlock) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  const auto cfgs = mixgemm::kernels::sm90_configs(AType::kE4M3, BType::kU4B8);
  if (cfgs.empty()) GTEST_SKIP() << "e4m3.u4 is not compiled in this build";
  const int M = 16;
  const char* all_env = std::getenv("MIXGEMM_TEST_PROMOTION_ALL");
  const bool check_all_tiles = all_env && std::string(all_env) == "1";
  int ran = 0;
  for (const int64_t g : {int64_t{0}, int64_t{128}}) {
    Spec s;
    s.a = AType::kE4M3;
    s.group_size = g;
    s.N = 256;
    s.K = 65536;
    s.integer = true;
    s.seed = base_seed() + 91;
    SCOPED_TRACE(s.name());
    Data d = make_data(s, M, 1);  // random inputs and their reference, replaced below
    for (int64_t m = 0; m < M; ++m)
      for (int64_t k = 0; k < s.K; ++k)
        d.a[static_cast<size_t>(m * d.lda + k)] = nm::to_e4m3_sat(k < 64 ? 448.0 : 0.03125);
    std::fill(d.q.begin(), d.q.end(), uint8_t{9});
    for (size_t i = 0; i + 1 < d.scales.size(); i += 2) {  // f16 1.0
      d.scales[i] = 0x00;
      d.scales[i + 1] = 0x3C;
    }
    const double acc = 64.0 * 448.0 + static_cast<double>(s.K - 64) / 32.0;
    const uint16_t want = to16(st(s.out), acc);
    DevData dd(d, [&](int sm_count) {
      size_t bytes = 0;
      for (const Sm90Config& c : cfgs)
        bytes = std::max(bytes, mixgemm::kernels::sm90_workspace_bytes(M, s.N, s.K, c, sm_count, s.a, s.b,
                                                                         Sm90SplitMode::kSplitK));
      return bytes;
    });
    ASSERT_NE(dd.b.p, nullptr);
    for (const Sm90Config& cfg : cfgs) {
      const int64_t P = mixgemm::kernels::sm90_e4m3_promotion_k(cfg);
      const auto sp = mixgemm::kernels::sm90_split(M, s.N, s.K, cfg, dd.sm_count, s.a, s.b, Sm90SplitMode::kSplitK);
      std::string err;
      const std::vector<uint16_t> out = run_once(d, dd, cfg, M, &err, Sm90SplitMode::kSplitK);
      ASSERT_FALSE(out.empty()) << cfg.name() << ": " << err;
      if (P == 0 && !check_all_tiles) {
        std::printf("[ no promotion ] %s (%d k-parts): out[0] = %g, f16(exact) = %g; not checked\n", cfg.name().c_str(),
                    sp.splits, from16(st(s.out), out[0]), from16(st(s.out), want));
        continue;
      }
      ++ran;
      int64_t bad = 0;
      uint16_t first_bad = 0;
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < s.N; ++n) {
          const uint16_t v = out[static_cast<size_t>(m * d.ldo + n)];
          if (v != want && bad++ == 0) first_bad = v;
        }
      EXPECT_EQ(bad, 0) << cfg.name() << " (P = " << P << ", " << sp.splits << " k-parts): " << bad
                        << " elements differ from f16(" << acc << ") = 0x" << std::hex << want << ", e.g. 0x"
                        << first_bad << std::dec;
    }
  }
  std::printf("[ promotion ] %d (group mode, schedule) runs\n", ran);
  if (ran == 0) GTEST_SKIP() << "no e4m3 schedule of this build promotes";
}

// Small cases for compute-sanitizer (memcheck, racecheck: '*Sanitize*'): every schedule, 3
// weight tiles of 128 rows (N = 272: a partial one), K = 1024 (16 k-blocks per tile), f16
// integer data, one split mode at one pretend SM count.
void check_sanitize_small(uint64_t seed, int sm, Sm90SplitMode mode) {
  Spec f16;
  f16.group_size = 64;
  f16.N = 272;
  f16.K = 1024;
  f16.integer = true;
  f16.seed = seed;
  if (mixgemm::kernels::sm90_configs(f16.a, f16.b).empty()) GTEST_SKIP() << "f16.u4 is not compiled in this build";
  check_forced(f16, {13, 130}, {sm}, mode);
}

// Stream-K on 7 pretend SMs.
TEST(Sm90Sanitize, StreamKSmall) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  check_sanitize_small(base_seed() + 35, 7, Sm90SplitMode::kStream);
}

// The two-part exchange (3 weight tiles x 1-2 token tiles in two parts each, each mode), f16 x u4b8 g64, K = 1024.
TEST(Sm90Sanitize, ExchangeSmall) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  Spec f16;
  f16.group_size = 64;
  f16.N = 272;
  f16.K = 1024;
  f16.integer = true;
  f16.seed = base_seed() + 60;
  int ran = 0;
  check_exchange(f16, {130}, &ran);
  if (ran == 0) GTEST_SKIP() << "no f16.u4 128 x 128 or 128 x 256 instance in this build";
}

// Split-K on 2 pretend SMs: several whole and split units per CTA, more k-blocks than a ring of
// stages: the ring wraps within and across units.
TEST(Sm90Sanitize, SplitKWrapSmall) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  check_sanitize_small(base_seed() + 36, 2, Sm90SplitMode::kSplitK);
}

// Every other type config's kernels under compute-sanitizer (StreamKSmall and SplitKWrapSmall
// above run f16 x u4b8 only): bf16 x u4b8, f16 / bf16 x u8b128 (W8A16: their own kernels), s8 /
// e4m3 x u4b8 (W4A8, with the wide tile's fixed-variant kernels, sm90_info), each grouped (g64;
// e4m3 also g128, whose wide GPTQ kernel builds and loads its tables once per group) and
// per-channel, every schedule, the ring wrapping (2 pretend SMs, 16 k-blocks per tile),
// M = 130 (a partial token tile), N = 272 (a partial weight tile).
TEST(Sm90Sanitize, TypeConfigsSmall) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  const std::pair<AType, BType> configs[] = {{AType::kBF16, BType::kU4B8}, {AType::kF16, BType::kU8B128},
                                             {AType::kBF16, BType::kU8B128}, {AType::kS8, BType::kU4B8},
                                             {AType::kE4M3, BType::kU4B8}};
  int ran = 0, i = 0;
  for (const auto& [a, b] : configs)
    for (int64_t g : {int64_t{64}, int64_t{128}, int64_t{0}}) {
      if (g == 128 && a != AType::kE4M3) continue;
      Spec s;
      s.a = a;
      s.b = b;
      s.group_size = g;
      s.K = 1024;
      s.integer = true;
      s.tok = s.ch = true;
      s.out = i++ % 2 ? OutType::kBF16 : OutType::kF16;
      s.fp8_promotion_k = 0;  // e4m3: the whole K in the fp8 wgmma accumulator
      s.seed = base_seed() + 37 + i;
      if (mixgemm::kernels::sm90_configs(s.a, s.b).empty()) {
        std::printf("[ not built ] %s\n", s.name().c_str());
        continue;
      }
      check_forced(s, {130}, {2}, Sm90SplitMode::kSplitK);
      ++ran;
    }
  if (ran == 0) GTEST_SKIP() << "none of these type configs is compiled in this build";
}

// ---- timing report ---------------------------------------------------------------------------
__device__ __forceinline__ uint32_t hash32(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return static_cast<uint32_t>(x);
}
// f16 values uniform in (-scale, scale) (positive for scales: scale < 0.1), and random bytes.
__global__ void fill_f16_kernel(uint16_t* p, size_t n, float scale, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x) {
    const float u = (hash32(i * 0x9E3779B97F4A7C15ull + seed) >> 8) * (1.0f / 16777216.0f);
    p[i] = __half_as_ushort(__float2half_rn(scale < 0.1f ? scale * (0.5f + u) : scale * (2.0f * u - 1.0f)));
  }
}
__global__ void fill_bytes_kernel(uint8_t* p, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x)
    p[i] = static_cast<uint8_t>(hash32(i + (seed << 40)));
}
// Random bytes as 8-bit activations: any s8; e4m3 without its NaN (S.1111.111 -> S.1111.110).
// As u8 group scales (QQQ's integer sg): 1..16, the range semantics.md 4.2 allows for u4b8.
__global__ void fill_bytes_as_kernel(uint8_t* p, size_t n, uint64_t seed, int kind) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x) {
    uint8_t v = static_cast<uint8_t>(hash32(i + (seed << 40)));
    if (kind == 1 && (v & 0x7F) == 0x7F) v ^= 1;  // e4m3
    if (kind == 2) v = static_cast<uint8_t>(1 + (v & 15));  // u8 group scale
    p[i] = v;
  }
}
void fill_random_f16(uint16_t* p, size_t n, float scale, uint64_t seed) { fill_f16_kernel<<<1024, 256>>>(p, n, scale, seed); }
void fill_random_bytes(uint8_t* p, size_t n, uint64_t seed) { fill_bytes_kernel<<<1024, 256>>>(p, n, seed); }
void fill_random_bytes_as(uint8_t* p, size_t n, uint64_t seed, int kind) { fill_bytes_as_kernel<<<1024, 256>>>(p, n, seed, kind); }

// The report's activation types: MIXGEMM_SM90_TIMING_TYPES="f16,s8,e4m3" (default f16), each with
// u4b8 g128 weights (s8: u8 integer group scales, QQQ; f16 / e4m3: f16 group scales) and f16 output.
std::vector<AType> timing_types() {
  std::vector<AType> v;
  const char* env = std::getenv("MIXGEMM_SM90_TIMING_TYPES");
  const std::string list = env ? env : "f16";
  size_t at = 0;
  while (at <= list.size()) {
    const size_t end = std::min(list.find(',', at), list.size());
    const std::string t = list.substr(at, end - at);
    if (t == "f16") v.push_back(AType::kF16);
    else if (t == "bf16") v.push_back(AType::kBF16);
    else if (t == "s8") v.push_back(AType::kS8);
    else if (t == "e4m3") v.push_back(AType::kE4M3);
    at = end + 1;
  }
  return v;
}
const char* timing_type_name(AType a) {
  return a == AType::kF16 ? "f16" : a == AType::kBF16 ? "bf16" : a == AType::kS8 ? "s8" : "e4m3";
}

const int kTimingMs[] = {1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192};

// The report's M list: MIXGEMM_SM90_TIMING_MS="512,1024" overrides kTimingMs.
std::vector<int> timing_ms() {
  std::vector<int> ms(std::begin(kTimingMs), std::end(kTimingMs));
  if (const char* env = std::getenv("MIXGEMM_SM90_TIMING_MS")) {
    ms.clear();
    for (const char* c = env; *c;) {
      char* end = nullptr;
      const long v = std::strtol(c, &end, 10);
      if (end == c) break;
      if (v > 0 && v <= 8192) ms.push_back(static_cast<int>(v));
      c = *end == ',' ? end + 1 : end;
    }
  }
  return ms;
}

TEST(Sm90Timing, Report) {
  const char* env = std::getenv("MIXGEMM_SM90_TIMING");
  if (!env || std::string(env) != "1") GTEST_SKIP() << "set MIXGEMM_SM90_TIMING=1 for the timing report";
  MIXGEMM_SKIP_WITHOUT_GPU();
  int sm = 0;
  cudaDeviceGetAttribute(&sm, cudaDevAttrMultiProcessorCount, 0);
  const std::pair<int, int> shapes[] = {{8192, 21760}, {10240, 8192}, {8192, 8192}, {57344, 8192}, {8192, 28672}};
  const int maxM = 8192;
  const int maxN = 57344, maxK = 28672;
  DevBuf<uint16_t> a(static_cast<size_t>(maxM) * maxK), out(static_cast<size_t>(maxM) * maxN);
  DevBuf<uint8_t> b(static_cast<size_t>(maxN) * maxK / 2), sc(static_cast<size_t>(maxK / 128) * maxN * 2);
  DevBuf<uint8_t> flush(256u << 20);
  // Random data, as in mixgemm-bench: constant bits toggle less and measured up to 20%
  // faster at large M (the tensor cores draw less power). Activations and scales per type (below).
  fill_random_bytes(b.p, static_cast<size_t>(maxN) * maxK / 2, 2);
  // MIXGEMM_SM90_TIMING_MODES=1 also times each config with split-K and with stream-K forced
  // (Sm90SplitMode), beside the heuristic's own split ("auto"): the data for the split model.
  const char* modes_env = std::getenv("MIXGEMM_SM90_TIMING_MODES");
  std::vector<Sm90SplitMode> modes = {Sm90SplitMode::kAuto};
  if (modes_env && std::string(modes_env) == "1") modes = {Sm90SplitMode::kAuto, Sm90SplitMode::kSplitK, Sm90SplitMode::kStream};
  const std::vector<int> ms = timing_ms();
  const std::vector<AType> types = timing_types();
  size_t wsb = 0;
  for (AType at : types)
    for (auto [N, K] : shapes)
      for (int M : ms)
        for (const Sm90Config& c : mixgemm::kernels::sm90_configs(at, BType::kU4B8))
          for (Sm90SplitMode mode : modes)
            wsb = std::max(wsb, mixgemm::kernels::sm90_workspace_bytes(M, N, K, c, sm, at, BType::kU4B8, mode));
  DevBuf<uint8_t> ws(wsb + 256);
  cudaMemset(ws.p, 0, wsb + 256);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  for (AType at : types) {
    const bool a8 = at == AType::kS8 || at == AType::kE4M3;
    if (a8) {  // 8-bit activations in the same buffer; group scales of the type
      fill_random_bytes_as(reinterpret_cast<uint8_t*>(a.p), static_cast<size_t>(maxM) * maxK, 1, at == AType::kE4M3);
      if (at == AType::kS8) fill_random_bytes_as(sc.p, static_cast<size_t>(maxK / 128) * maxN, 3, 2);
      else fill_random_f16(reinterpret_cast<uint16_t*>(sc.p), static_cast<size_t>(maxK / 128) * maxN, 0.01f, 3);
    } else {
      fill_random_f16(a.p, static_cast<size_t>(maxM) * maxK, 1.0f, 1);
      fill_random_f16(reinterpret_cast<uint16_t*>(sc.p), static_cast<size_t>(maxK / 128) * maxN, 0.01f, 3);
    }
  for (auto [N, K] : shapes)
    for (int M : ms)
      for (const Sm90Config& c : mixgemm::kernels::sm90_configs(at, BType::kU4B8))
        for (Sm90SplitMode mode : modes) {
          if (c.tile_t > 4 * M && c.tile_t > 32) continue;  // tiles mostly padding: never picked
          if (c.tile_t < 128 && M >= 1024) continue;        // narrow tiles at prefill: never picked
          const char* mode_name = mode == Sm90SplitMode::kAuto ? "auto" : mode == Sm90SplitMode::kSplitK ? "splitk" : "stream";
          GemmParams p{};
          p.M = M;
          p.N = N;
          p.K = K;
          p.lda = K;
          p.ldo = N;
          p.a_type = at;
          p.b_type = BType::kU4B8;
          p.out_type = OutType::kF16;
          p.group_size = 128;
          p.a = a.p;
          p.b = b.p;
          p.group_scales = sc.p;
          p.out = out.p;
          p.workspace = ws.p;
          p.workspace_bytes = wsb;
          p.sm_count = sm;
          std::vector<float> t;
          const int reps = M >= 2048 ? 5 : 15;
          for (int r = 0; r < reps + 1; ++r) {
            cudaMemsetAsync(flush.p, r, 256u << 20);  // cold L2
            cudaEventRecord(e0);
            mixgemm::kernels::launch_sm90(p, c, nullptr, mode);
            cudaEventRecord(e1);
            cudaEventSynchronize(e1);
            float ms = 0;
            cudaEventElapsedTime(&ms, e0, e1);
            if (r > 0) t.push_back(ms * 1000.0f);
          }
          ASSERT_EQ(cudaGetLastError(), cudaSuccess);
          std::sort(t.begin(), t.end());
          const double us = t[t.size() / 2];
          const double tflops = 2.0 * M * N * static_cast<double>(K) / us * 1e-6;
          const mixgemm::kernels::Sm90Split sp = mixgemm::kernels::sm90_split(M, N, K, c, sm, at, BType::kU4B8, mode);
          std::printf("SM90_TIME N=%d K=%d M=%d %s mode=%s splits=%d whole=%lld stream=%d us=%.1f tflops=%.1f predicted_us=%.1f a=%s\n",
                      N, K, M, c.name().c_str(), mode_name, sp.splits, static_cast<long long>(sp.whole), sp.stream, us,
                      tflops, mixgemm::kernels::sm90_predicted_us(M, N, K, sm, at, BType::kU4B8, c), timing_type_name(at));
        }
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
}

}  // namespace
