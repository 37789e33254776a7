// test_smallm_fullk.cu - the whole-column small-M kernel (fullk) against the CPU reference.
//
// Every fullk schedule x M in {1, 2, 3, 5, 8, 13, 16} x type pair (f16/bf16 x u4b8, u4,
// u4 + zero points) x group mode (none, per-channel K, 64, 128) x data flavour ("int": small
// integers and power-of-two scales, bit-exact; "rnd": random, the derived tolerance of
// docs/semantics.md section 8), NaN-poisoned output, rows >= M and padding columns must stay
// poisoned, and a second launch must give the same bits. Shapes: N = 272 (17 n-blocks) and
// 400, K = 768 and 1344, on this GPU's SM count and on 2 and 5 pretend SMs (each CTA then owns
// many n-blocks: warps hold whole n-blocks, middle segments and ranges that cross n-blocks);
// 400 x 4096 on 1 and 3 pretend SMs (long ranges: the main loop's fast groups); plus 4096 x
// 4096 at M = 1 and 16.
//
// MIXGEMM_FULLK_TIMING=1 adds a timing report (lines "FULLK_TIME ..."): the smallm shapes of
// test_smallm.cu's report (MIXGEMM_FULLK_TIMING_SHAPES = indices, _MS), f16 x u4b8 g128, every
// fullk schedule and the stream-K smallm kernel's heuristic pick, in alternating rounds, median
// of cold-L2 launches.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/gemm_test_data.h"
#include "gpu/gpu_test_util.h"
#include "kernels/gemm_params.h"
#include "kernels/smallm/fullk.h"
#include "kernels/smallm/smallm.h"
#include "mixgemm/error.h"

namespace {

using namespace mixgemm::test;
using mixgemm::kernels::FullkConfig;

const int kMs[] = {1, 2, 3, 5, 8, 13, 16};
constexpr int kMaxM = 16;

std::vector<uint16_t> run_once(const Data& d, const DevData& dd, const FullkConfig& cfg, int M, int sm,
                               std::string* err) {
  return run_kernel_once(
      d, dd, M, [&](const GemmParams& p, std::string* why) { return mixgemm::kernels::fullk_can_implement(p, cfg, why); },
      [&](GemmParams p) {
        if (sm > 0) p.sm_count = sm;
        mixgemm::kernels::launch_smallm_fullk(p, cfg, nullptr);
      },
      err);
}

void check_spec(const Spec& s, const std::vector<int>& ms, const std::vector<int>& sms, int* failures) {
  SCOPED_TRACE(s.name());
  Data d;
  try {
    d = make_data(s, kMaxM, *std::max_element(ms.begin(), ms.end()));
  } catch (const mixgemm::Error& e) {
    ADD_FAILURE() << "reference refused " << s.name() << ": " << e.what();
    return;
  }
  DevData dd(d, [](int) { return size_t{0}; });
  ASSERT_NE(dd.b.p, nullptr);
  for (const FullkConfig& cfg : mixgemm::kernels::fullk_configs(s.a, s.b))
    for (int sm : sms)
      for (int M : ms) {
        std::string err, msg;
        const std::vector<uint16_t> out = run_once(d, dd, cfg, M, sm, &err);
        if (out.empty()) {
          ADD_FAILURE() << s.name() << " " << cfg.name() << " sms=" << sm << " M=" << M << ": " << err;
          if (++*failures > 8) return;
          continue;
        }
        const int64_t bad = compare(d, out, M, &msg);
        if (bad) {
          ADD_FAILURE() << s.name() << " " << cfg.name() << " sms=" << sm << " M=" << M << ": " << bad
                        << " bad elements:" << msg;
          if (++*failures > 8) return;
        }
        if (run_once(d, dd, cfg, M, sm, &err) != out) {
          ADD_FAILURE() << s.name() << " " << cfg.name() << " sms=" << sm << " M=" << M << ": second run differs";
          if (++*failures > 8) return;
        }
      }
}

void check_family(AType a, uint64_t seed0) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  int failures = 0, idx = 0;
  const std::vector<int> ms(std::begin(kMs), std::end(kMs));
  for (BType b : {BType::kU4B8, BType::kU4})
    for (int zmode = 0; zmode < (b == BType::kU4 ? 2 : 1); ++zmode)
      for (int shape = 0; shape < 2; ++shape)
        for (int64_t g : {int64_t{0}, int64_t{-1}, int64_t{64}, int64_t{128}})
          for (int flav = 0; flav < 2; ++flav) {
            Spec s;
            s.a = a;
            s.b = b;
            s.zeros = zmode == 1;
            s.N = shape == 0 ? 272 : 400;
            s.K = shape == 0 ? 768 : 1344;
            s.group_size = g < 0 ? s.K : g;
            if (s.group_size == 128 && s.K % 128 != 0) s.group_size = 192;
            s.integer = flav == 0;
            s.out = (idx % 3 == 2) ? OutType::kBF16 : OutType::kF16;
            s.bias = (idx & 1) != 0;
            s.ch = (idx & 2) != 0;
            s.tok = (idx & 2) != 0 || (idx % 5 == 4);
            s.seed = seed0 + static_cast<uint64_t>(idx++);
            check_spec(s, ms, {0, 2, 5}, &failures);
            if (failures > 8) return;
          }
}

TEST(SmallmFullk, F16) { check_family(AType::kF16, 9100); }
TEST(SmallmFullk, BF16) { check_family(AType::kBF16, 9200); }

TEST(SmallmFullk, RealShape) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  int failures = 0;
  for (AType a : {AType::kF16, AType::kBF16}) {
    Spec s;
    s.a = a;
    s.b = BType::kU4B8;
    s.group_size = 128;
    s.N = 4096;
    s.K = 4096;
    s.seed = 9300 + static_cast<uint64_t>(a);
    check_spec(s, {1, 16}, {0}, &failures);
  }
}

// Long warp ranges (few pretend SMs, K = 4096): the main loop's fast groups, its n-block
// changes on both cursors, ranges across several n-blocks; group sizes 64, 128 (power-of-two
// group steps), K (one group) and 192 (no fast groups).
TEST(SmallmFullk, LongRanges) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  int failures = 0, idx = 0;
  for (AType a : {AType::kF16, AType::kBF16})
    for (int64_t g : {int64_t{64}, int64_t{128}, int64_t{4096}, int64_t{192}}) {
      Spec s;
      s.a = a;
      s.b = (idx % 3 == 2) ? BType::kU4 : BType::kU4B8;
      s.zeros = idx == 5;
      s.group_size = g;
      s.N = 400;
      s.K = g == 192 ? 4032 : 4096;
      s.integer = (idx & 1) != 0;
      s.seed = 9500 + static_cast<uint64_t>(idx++);
      check_spec(s, {1, 5, 16}, {1, 3, 0}, &failures);
    }
}

// A small case of every schedule for compute-sanitizer (memcheck, racecheck): the per-warp
// pipeline is ordered by __syncwarp alone, the reduction by one CTA barrier.
TEST(SmallmFullkSanitize, Small) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  int failures = 0;
  for (AType a : {AType::kF16, AType::kBF16}) {
    Spec s;
    s.a = a;
    s.b = BType::kU4;
    s.zeros = true;
    s.group_size = 64;
    s.N = 272;
    s.K = 768;
    s.seed = 9400 + static_cast<uint64_t>(a);
    check_spec(s, {1, 13}, {0, 2}, &failures);
  }
}

TEST(SmallmFullk, Refusals) {
  GemmParams p{};
  p.M = 1;
  p.N = 272;
  p.K = 768;
  p.lda = 768;
  p.ldo = 272;
  p.a_type = AType::kF16;
  p.b_type = BType::kU4B8;
  p.group_size = 32;
  std::string why;
  EXPECT_FALSE(mixgemm::kernels::fullk_can_implement(p, {8, 16, 1}, &why));
  EXPECT_NE(why.find("group_size"), std::string::npos) << why;
  p.group_size = 128;
  p.a_type = AType::kS8;
  EXPECT_FALSE(mixgemm::kernels::fullk_can_implement(p, {8, 16, 1}, &why));
  p.a_type = AType::kF16;
  EXPECT_FALSE(mixgemm::kernels::fullk_can_implement(p, {8, 10, 1}, &why));
  EXPECT_NE(why.find("not a schedule"), std::string::npos) << why;
  FullkConfig c;
  EXPECT_TRUE(mixgemm::kernels::fullk_parse_name("smallm_fullk_t16_w8_p0", &c));
  EXPECT_EQ(c.name(), "smallm_fullk_t16_w8_p0");
  EXPECT_FALSE(mixgemm::kernels::fullk_parse_name("smallm_fullk_t16_w8_p0x", &c));
  EXPECT_FALSE(mixgemm::kernels::fullk_parse_name("smallm_fullk_t16_w8", &c));
  EXPECT_FALSE(mixgemm::kernels::fullk_parse_name("smallm_t8_w8_o1_p0", &c));
}

// ---- timing report (MIXGEMM_FULLK_TIMING=1) --------------------------------------------
TEST(SmallmFullkTiming, Report) {
  const char* env = std::getenv("MIXGEMM_FULLK_TIMING");
  if (!env || std::string(env) != "1") GTEST_SKIP() << "set MIXGEMM_FULLK_TIMING=1 for the timing report";
  MIXGEMM_SKIP_WITHOUT_GPU();
  int sm = 1, l2 = 0;
  cudaDeviceGetAttribute(&sm, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
  const double copy_bw = 4.3e12;
  const std::pair<int64_t, int64_t> all_shapes[] = {{8192, 21760}, {10240, 8192}, {8192, 8192}, {57344, 8192},
                                                    {8192, 28672}, {4096, 4096},  {6144, 4096}, {28672, 4096},
                                                    {4096, 14336}, {8192, 2048},  {8192, 32768}, {8192, 512}};
  auto env_list = [](const char* name, std::vector<int> dflt) {
    const char* v = std::getenv(name);
    if (!v || !*v) return dflt;
    std::vector<int> out;
    std::stringstream ss(v);
    std::string item;
    while (std::getline(ss, item, ',')) out.push_back(std::atoi(item.c_str()));
    return out;
  };
  const std::vector<int> shape_ids = env_list("MIXGEMM_FULLK_TIMING_SHAPES", {0, 1, 2, 3, 4, 5, 6, 7, 8});
  const std::vector<int> ms = env_list("MIXGEMM_FULLK_TIMING_MS", {1, 8, 16});
  const int kRuns = 30, kRounds = 2, gs = 128;
  for (int si : shape_ids) {
    const auto [N, K] = all_shapes[si];
    const int64_t G = K / gs;
    const size_t wbytes = static_cast<size_t>(N * K / 2), sbytes = static_cast<size_t>(G * N * 2);
    const int copies = static_cast<int>(std::max<int64_t>(2, (3LL * l2 + wbytes - 1) / wbytes + 1));
    std::vector<DevBuf<uint8_t>> w(copies), sc(copies);
    for (int i = 0; i < copies; ++i) {
      w[i] = DevBuf<uint8_t>(wbytes);
      sc[i] = DevBuf<uint8_t>(sbytes);
      ASSERT_NE(w[i].p, nullptr) << "out of memory for " << copies << " weight copies";
      cudaMemset(w[i].p, 0x5A, wbytes);
      cudaMemset(sc[i].p, 0x2C, sbytes);
    }
    DevBuf<uint16_t> a(static_cast<size_t>(64 * K)), out(static_cast<size_t>(64 * N));
    cudaMemset(a.p, 0x3C, 64 * K * 2);
    size_t wsb = 0;
    for (const auto& c : mixgemm::kernels::smallm_configs(AType::kF16, BType::kU4B8))
      wsb = std::max(wsb, mixgemm::kernels::smallm_workspace_bytes(64, N, K, AType::kF16, BType::kU4B8, c, sm));
    DevBuf<uint8_t> ws(wsb + 256);
    cudaMemset(ws.p, 0, wsb + 256);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int M : ms) {
      const auto pick = mixgemm::kernels::smallm_default_config(M, N, K, sm, AType::kF16, BType::kU4B8);
      std::vector<std::string> names = {pick.name()};
      for (const auto& c : mixgemm::kernels::fullk_configs(AType::kF16, BType::kU4B8)) names.push_back(c.name());
      if (const char* only = std::getenv("MIXGEMM_FULLK_TIMING_CFG"))  // name substring (profiling)
        for (auto& nm_ : names)
          if (nm_.find(only) == std::string::npos) nm_.clear();
      std::vector<std::vector<float>> t(names.size());
      GemmParams p{};
      p.M = M;
      p.N = static_cast<int32_t>(N);
      p.K = static_cast<int32_t>(K);
      p.lda = K;
      p.ldo = N;
      p.a_type = AType::kF16;
      p.b_type = BType::kU4B8;
      p.out_type = OutType::kF16;
      p.group_size = gs;
      p.a = a.p;
      p.out = out.p;
      p.workspace = ws.p;
      p.workspace_bytes = wsb;
      p.sm_count = sm;
      for (int round = 0; round < kRounds; ++round)
        for (size_t ci = 0; ci < names.size(); ++ci) {
          FullkConfig fc;
          const bool fullk = ci > 0;
          if (names[ci].empty()) continue;
          if (fullk) mixgemm::kernels::fullk_parse_name(names[ci], &fc);
          std::string why;
          if (fullk && !mixgemm::kernels::fullk_can_implement(p, fc, &why)) continue;
          for (int r = 0; r < kRuns + 2; ++r) {
            p.b = w[r % copies].p;
            p.group_scales = sc[r % copies].p;
            cudaEventRecord(e0);
            if (fullk) mixgemm::kernels::launch_smallm_fullk(p, fc, nullptr);
            else mixgemm::kernels::launch_smallm(p, pick, nullptr);
            cudaEventRecord(e1);
            cudaEventSynchronize(e1);
            float ms_ = 0;
            cudaEventElapsedTime(&ms_, e0, e1);
            if (r >= 2) t[ci].push_back(ms_ * 1000.0f);
          }
        }
      const double floor_us = (wbytes + sbytes + double(M) * K * 2 + double(M) * N * 2) / copy_bw * 1e6;
      for (size_t ci = 0; ci < names.size(); ++ci) {
        if (t[ci].empty()) continue;
        std::sort(t[ci].begin(), t[ci].end());
        const double med = t[ci][t[ci].size() / 2];
        std::printf("FULLK_TIME N=%lld K=%lld M=%d cfg=%s median_us=%.2f floor_us=%.2f pct_of_floor=%.1f%s\n",
                    static_cast<long long>(N), static_cast<long long>(K), M, names[ci].c_str(), med, floor_us,
                    100.0 * floor_us / med, ci == 0 ? " smallm_pick" : "");
      }
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  }
}

}  // namespace
