// Session 87, CPU only: for the partial-sum fuzz draws of s87-fuzz-partial (seeds 12000.. and 20000..), which
// problems gemm() would launch with another partition than gemm_partial_sums (before the device-only cluster
// residency check). Built against a local tree whose sm90 instances were s8.u4 only, so 16-bit and e4m3 picks that the
// full build gives to sm90 (no partial-sum form) appear here as smallm. Output: psgeom-cpu.txt.
//   nvcc -std=c++17 -O2 -arch=sm_90a --expt-relaxed-constexpr -Isrc -Iinclude -Itests -o psgeom psgeom.cu \
//     <build>/libmixgemm.a -lgtest -lgtest_main -lcuda
#include "gpu/test_gemm_fuzz.cu"
#include "kernels/smallm/smallm.h"
#include "kernels/smallm/smallm_geometry.h"
namespace sh = mixgemm::kernels::smallm_host;
TEST(FuzzHost, PsGeometry) {
  for (uint64_t base : {12000ull, 20000ull}) {
    int with = 0, differ = 0;
    for (int c = 0; c < 300; ++c) {
      Draw dr = draw_case(base + 500000 + c);
      dr.M = 1 + (dr.M - 1) % 16;
      const GemmProblem p = dr.spec.problem(dr.M);
      if (partial_sums_count(p) == 0) continue;
      ++with;
      const std::string plan = describe_plan(p, 132);
      mixgemm::kernels::SmallmConfig cfg;
      if (!mixgemm::kernels::smallm_parse_name(plan, &cfg)) { printf("not smallm %s\n", plan.c_str()); continue; }
      const auto& s = dr.spec;
      auto ps = sh::make_partial_sums_geometry(dr.M, s.N, s.K, s.a, s.b, s.group_size, s.zeros, cfg, 132);
      auto g = sh::make_geometry(dr.M, s.N, s.K, s.a, s.b, s.group_size, s.zeros, cfg, 132, mixgemm::kernels::SmallmCluster::kAuto);
      const int64_t gC = g.cluster >= 2 ? g.C : std::min<int64_t>(g.C, int64_t{cfg.ctas_per_sm} * 132);
      const bool same = ps.C == gC && ps.C == g.C && ps.cluster == g.cluster;
      if (!same || ps.cluster != g.cluster) {
        ++differ;
        printf("seed %llu %s M=%d plan %s: ps C=%lld cluster=%lld parts=%lld | gemm C=%lld (cut %lld) cluster=%lld\n",
               (unsigned long long)(base + c), s.name().c_str(), dr.M, plan.c_str(), (long long)ps.C, (long long)ps.cluster,
               (long long)ps.parts, (long long)g.C, (long long)gC, (long long)g.cluster);
      }
    }
    printf("base %llu: %d with parts, %d with another geometry in gemm (before residency)\n", (unsigned long long)base, with, differ);
  }
}
