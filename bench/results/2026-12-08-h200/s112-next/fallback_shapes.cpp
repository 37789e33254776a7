// Which decode picks on common model layers plan a cluster geometry beyond the cluster counts the devices are known
// to hold at one CTA per SM? Session 112, CPU only: the library's heuristic and geometry
// at 132 SMs on Llama-2-7B / 13B / 70B, Llama-3-8B / 405B, Qwen2-7B / 72B and the seed, tensor parallel 1 / 2 / 4 / 8
// (column-parallel layers split N, o and down split K), M = 1..16, seven type configs. Flagged: a cluster geometry at
// one CTA per SM (over ~113 KB of shared memory) with more stripes than clusters of its size were seen resident
// (f16-output random-data fuzz draws of sessions 106-110 with >= 20 000 outputs that matched gemm()'s bits at the same
// split, where a reordered f32 sum would almost surely flip some output: 4 x 32, 5 x 24, 6 x 22; split_predict.txt).
// Sizes 2, 3, 7 and 8 have no such draw (8 x 16 fell back in session 8, docs/design-smallm.md), so every launch of
// theirs at one CTA per SM is flagged.
// Build and run from the repository root, after a build of the library in $B:
//   g++ -std=c++17 -Isrc -Iinclude -Itests bench/results/2026-12-08-h200/s112-next/fallback_shapes.cpp \
//     $B/libmixgemm.a -L/usr/local/cuda/lib64 -lcudart -lcuda -o /tmp/fallback_shapes && /tmp/fallback_shapes
#include <cstdio>
#include <string>
#include <vector>
#include "common/problem_draw.h"
#include "kernels/smallm/smallm.h"
#include "kernels/smallm/smallm_geometry.h"
#include "mixgemm/gemm.h"
using namespace mixgemm;
using namespace mixgemm::test;
namespace sh = mixgemm::kernels::smallm_host;
struct L { const char* name; int64_t N, K; };
int main() {
  std::vector<L> base = {
      {"llama2-7b qkv", 12288, 4096}, {"llama2-7b o", 4096, 4096}, {"llama2-7b gate_up", 22016, 4096}, {"llama2-7b down", 4096, 11008},
      {"llama3-8b qkv", 6144, 4096}, {"llama3-8b o", 4096, 4096}, {"llama3-8b gate_up", 28672, 4096}, {"llama3-8b down", 4096, 14336},
      {"llama2-13b qkv", 15360, 5120}, {"llama2-13b o", 5120, 5120}, {"llama2-13b gate_up", 27648, 5120}, {"llama2-13b down", 5120, 13824},
      {"llama2-70b qkv", 10240, 8192}, {"llama2-70b o", 8192, 8192}, {"llama2-70b gate_up", 57344, 8192}, {"llama2-70b down", 8192, 28672},
      {"qwen2-7b qkv", 4608, 3584}, {"qwen2-7b o", 3584, 3584}, {"qwen2-7b gate_up", 37888, 3584}, {"qwen2-7b down", 3584, 18944},
      {"qwen2-72b qkv", 10240, 8192}, {"qwen2-72b gate_up", 59136, 8192}, {"qwen2-72b down", 8192, 29568},
      {"llama3-405b qkv", 18432, 16384}, {"llama3-405b o", 16384, 16384}, {"llama3-405b gate_up", 106496, 16384}, {"llama3-405b down", 16384, 53248},
      {"seed", 8192, 21760}};
  struct T { AType a; BType b; int64_t gs; const char* n; };
  const T types[] = {{AType::kF16, BType::kU4B8, 128, "f16 g128"}, {AType::kBF16, BType::kU4B8, 128, "bf16 g128"},
                     {AType::kS8, BType::kU4B8, 128, "s8 g128"}, {AType::kE4M3, BType::kU4B8, 128, "e4m3 g128"},
                     {AType::kF16, BType::kU4B8, 0, "f16 ch"}, {AType::kS8, BType::kU4B8, 0, "s8 ch"},
                     {AType::kF16, BType::kU8B128, 128, "f16 u8 g128"}};
  int points = 0, clustered = 0, flagged = 0;
  for (const L& l : base)
    for (int tp : {1, 2, 4, 8}) {
      // column-parallel layers split N, row-parallel (o, down) split K
      const bool row = std::string(l.name).find(" o") != std::string::npos || std::string(l.name).find("down") != std::string::npos;
      const int64_t N = row ? l.N : l.N / tp, K = row ? l.K / tp : l.K;
      for (const T& t : types)
        for (int M = 1; M <= 16; ++M) {
          if (t.gs && K % t.gs) continue;
          const GemmProblem p = problem_of(t.a, t.b, false, OutType::kF16, M, N, K, t.gs);
          std::string plan;
          try { plan = describe_plan(p, 132); } catch (...) { continue; }
          ++points;
          kernels::SmallmConfig cfg;
          if (!kernels::smallm_parse_name(plan, &cfg)) continue;
          const sh::Geometry g = sh::make_geometry(M, N, K, t.a, t.b, t.gs, false, cfg, 132);
          if (g.cluster < 2) continue;
          ++clustered;
          const bool one_per_sm = g.smem_bytes > 114 * 1024;  // two CTAs need <= ~113 KB each
          const int64_t known[9] = {0, 0, 0, 0, 32, 24, 22, 0, 0};  // seen resident at one CTA per SM (0: no draw)
          if (one_per_sm && g.stripes > known[g.cluster]) {
            ++flagged;
            const sh::Geometry off = sh::make_geometry(M, N, K, t.a, t.b, t.gs, false, cfg, 132, kernels::SmallmCluster::kOff);
            std::printf("%-20s tp%d %-11s M=%2d N=%6lld K=%6lld %s: cluster %lld x %lld stripes, smem %lld; fallback "
                        "C=%lld\n", l.name, tp, t.n, M, (long long)N, (long long)K, plan.c_str(), (long long)g.cluster,
                        (long long)g.stripes, (long long)g.smem_bytes, (long long)off.C);
          }
        }
    }
  std::printf("%d decode points, %d planned as cluster split-K, %d beyond the cluster counts seen resident\n", points,
              clustered, flagged);
}
