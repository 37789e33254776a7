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
  const T types[] = {{"f16.g128", {f16, u4b8, f16, false, f16}, 128}, {"bf16.g128", {bf16, u4b8, bf16, false, bf16}, 128},
                     {"f16.gch", {f16, u4b8, f16, false, f16}, -1}, {"s8.g128", {s8, u4b8, u8, false, f16}, 128},
                     {"e4m3.g128", {e4m3, u4b8, f16, false, f16}, 128}, {"e4m3.gch", {e4m3, u4b8, f16, false, f16}, -1}};
  for (const auto& m : bench::model_sets())
    for (int tp : {1, 2, 4, 8}) {
      std::vector<bench::Shape> layers;
      try { layers = bench::model_layers(m, tp); } catch (...) { continue; }
      for (const auto& s : layers)
        for (const T& t : types)
          for (int64_t M = 1; M <= 64; ++M) {
            const GemmProblem p{M, s.N, s.K, t.t, t.g < 0 ? s.K : t.g};
            const auto all = kernels::sm90_all_configs(core::to_kernel(t.t.a), core::to_kernel_b(t.t.b));
            std::string pick;
            try { pick = core::choose_among(p, 132, all); } catch (...) { pick = "refused"; }
            std::printf("%s@tp%d %lld %lld %s %lld %s\n", s.name.c_str(), tp, (long long)s.N, (long long)s.K, t.name,
                        (long long)M, pick.c_str());
          }
    }
}
