// Session 110: which k-split gemm() and gemm_partial_sums() run for the five fuzz problems whose partial sums had
// other bits than gemm() (fuzz-racecheck-2069.log, fuzz-memcheck-2269.log, fuzz-memcheck-2369.log), on 132 SMs,
// from the library's own geometry functions (session 109's ../s109-fuzz/split_check.cpp did the same for its
// seven). CPU only, from the repository root:
//   g++ -std=c++17 -Isrc -Iinclude bench/results/2026-12-07-h100/s110-fuzz/split_check.cpp -o /tmp/split_check && /tmp/split_check
#include "kernels/smallm/smallm_geometry.h"
#include <cstdio>
using namespace mixgemm::kernels;
using namespace mixgemm::kernels::smallm_host;
int main() {
  struct Case { const char* tag; int64_t M, N, K; AType a; BType b; int64_t gs; bool zeros; SmallmConfig c; };
  const Case cases[] = {
      {"2092 bf16.u8+z.g256 6768x1280 M6 t8w8o1", 6, 6768, 1280, AType::kBF16, BType::kU8, 256, true, {8, 8, 1, 0}},
      {"2244 bf16.u8b128.g32 7008x1984 M8 t8w8o1", 8, 7008, 1984, AType::kBF16, BType::kU8B128, 32, false, {8, 8, 1, 0}},
      {"2359 bf16.u8b128.g2464 5296x2464 M8 t8w8o1", 8, 5296, 2464, AType::kBF16, BType::kU8B128, 2464, false, {8, 8, 1, 0}},
      {"2375 bf16.u8.g16 7840x4064 M1 t8w8o2", 1, 7840, 4064, AType::kBF16, BType::kU8, 16, false, {8, 8, 2, 0}},
      {"2432 f16.u8+z.g32 8096x2656 M4 t8w8o1", 4, 8096, 2656, AType::kF16, BType::kU8, 32, true, {8, 8, 1, 0}},
  };
  for (const Case& x : cases) {
    const Geometry g = make_geometry(x.M, x.N, x.K, x.a, x.b, x.gs, x.zeros, x.c, 132);
    const Geometry p = make_partial_sums_geometry(x.M, x.N, x.K, x.a, x.b, x.gs, x.zeros, x.c, 132);
    std::printf("%s: gemm C=%lld cluster=%lld stripes=%lld KBn=%lld | psums C=%lld cluster=%lld parts=%lld\n", x.tag,
                (long long)g.C, (long long)g.cluster, (long long)g.stripes, (long long)g.KBn, (long long)p.C,
                (long long)p.cluster, (long long)p.parts);
  }
}
