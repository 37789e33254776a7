// Session 84: the e4m3 plans (schedule and row split, as a full build plans them) over the bench's five model sets at
// tp 1 / 2 / 4 / 8, e4m3 x u4b8 g128 and per-channel, M = 1..256 and 264..4096 step 8.
#include <cstdio>
#include "core/dispatch.h"
#include "core/problem.h"
#include "kernels/sm90/sm90.h"
#include "mixgemm/scalar_type.h"
#include "bench/shapes.h"
using namespace mixgemm;
using namespace mixgemm::types;
int main() {
  struct T { const char* name; TypeConfig t; int64_t g; };
  const T types[] = {{"e4m3.g128", {e4m3, u4b8, f16, false, f16}, 128}, {"e4m3.gch", {e4m3, u4b8, f16, false, f16}, -1}};
  for (const auto& m : bench::model_sets())
    for (int tp : {1, 2, 4, 8}) {
      std::vector<bench::Shape> layers;
      try { layers = bench::model_layers(m, tp); } catch (...) { continue; }
      for (const auto& s : layers)
        for (const T& t : types)
          for (int64_t M = 1; M <= 4096; M += M < 256 ? 1 : 8) {
            const GemmProblem p{M, s.N, s.K, t.t, t.g < 0 ? s.K : t.g};
            const auto all = kernels::sm90_all_configs(core::to_kernel(t.t.a), core::to_kernel_b(t.t.b));
            std::string pick;
            long long head = 0;
            try { pick = core::choose_among(p, 132, all); head = core::choose_row_split_among(p, 132, all); }
            catch (...) { pick = "refused"; }
            std::printf("%s@tp%d %lld %lld %s %lld %s split %lld\n", s.name.c_str(), tp, (long long)s.N, (long long)s.K,
                        t.name, (long long)M, pick.c_str(), head);
          }
    }
}
