// Session 84: the plans (schedule, row split head) of s84-ab's points and of the full e4m3 plan set, for comparing
// main's kModelE4M3 variants: base (1.56), two18 (1.8 everywhere), and the merged form (1.8, narrow 1.56).
#include <cstdio>
#include "core/dispatch.h"
#include "core/problem.h"
#include "kernels/sm90/sm90.h"
#include "mixgemm/scalar_type.h"
#include "bench/shapes.h"
using namespace mixgemm; using namespace mixgemm::types;
int main() {
  const TypeConfig t{e4m3, u4b8, f16, false, f16};
  const auto all = kernels::sm90_all_configs(core::to_kernel(t.a), core::to_kernel_b(t.b));
  auto one = [&](const char* name, long N, long K, long M, long g) {
    if (K % 128) return;
    const GemmProblem p{M, N, K, t, g < 0 ? K : g};
    const long head = (long)core::choose_row_split_among(p, 132, all);
    std::string tail = "-";
    if (head > 0) tail = core::choose_among(GemmProblem{M - head, N, K, t, g < 0 ? K : g}, 132, all);
    std::printf("%s %ld %ld %s %ld %s split %ld+%s\n", name, N, K, g < 0 ? "gch" : "g128", M, core::choose_among(p, 132, all).c_str(),
                head, tail.c_str());
  };
  const long ab[][2] = {{8192, 21760}, {3072, 4096}, {8192, 7168}, {7168, 8192}, {16384, 6656}, {3584, 4096},
                        {4608, 16384}, {16384, 4096}, {14336, 4096}, {1536, 4096}, {9216, 16384}};
  for (auto& s : ab) for (long g : {128L, -1L}) for (long M : {24, 32, 48, 64, 160, 192, 288, 1088}) one("ab", s[0], s[1], M, g);
  for (const auto& m : bench::model_sets()) for (int tp : {1, 2, 4, 8}) {
    std::vector<bench::Shape> layers;
    try { layers = bench::model_layers(m, tp); } catch (...) { continue; }
    for (const auto& s : layers) for (long g : {128L, -1L}) for (long M = 1; M <= 4096; M += M < 256 ? 1 : 8)
      one((s.name + "@tp" + std::to_string(tp)).c_str(), s.N, s.K, M, g);
  }
}
