// Session 54 scratch: per measured point, the row split rule's choice and the sm90 model's parts.
// in: type N K M one s256 s128 shape ; out: the same + rule_head t_one [h256 th tt tt16] [h128 th tt tt16]
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include "core/dispatch.h"
#include "core/problem.h"
#include "kernels/sm90/sm90.h"
#include "mixgemm/gemm.h"
using namespace mixgemm;
using namespace mixgemm::types;
int main(int argc, char** argv) {
  std::ifstream in(argv[1]);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string t, shape;
    long N, K, M;
    double one, s256, s128;
    s >> t >> N >> K >> M >> one >> s256 >> s128 >> shape;
    TypeConfig tc = t == "f16" ? TypeConfig{f16, u4b8, f16, false, f16}
                  : t == "s8"  ? TypeConfig{s8, u4b8, u8, false, f16}
                               : TypeConfig{e4m3, u4b8, f16, false, f16};
    const auto a = core::to_kernel(tc.a);
    const auto b = core::to_kernel_b(tc.b);
    const auto all = kernels::sm90_all_configs(a, b);
    const int64_t head = core::choose_row_split_among(GemmProblem{M, N, K, tc, 128}, 132, all);
    kernels::Sm90Config c;
    double t1 = 0;
    kernels::sm90_pick(M, N, K, 132, a, b, 128, all, &c, &t1);
    std::printf("%s %ld %ld %ld %.2f %.2f %.2f %s %ld %.2f %d", t.c_str(), N, K, M, one, s256, s128, shape.c_str(), (long)head, t1,
                c.tile_t);
    for (long unit : {256L, 128L}) {
      const long h = M - M % unit, tl = M - h;
      double th = -1, tt = -1, tt16 = -1;
      if (h >= 128 && tl >= 32) {
        kernels::sm90_pick(h, N, K, 132, a, b, 128, all, &c, &th);
        kernels::sm90_pick(tl, N, K, 132, a, b, 128, all, &c, &tt);
        kernels::sm90_pick(tl, N, K, 132, kernels::AType::kF16, b, 128, kernels::sm90_all_configs(kernels::AType::kF16, b), &c,
                           &tt16);
      }
      std::printf(" %ld %.2f %.2f %.2f", h, th, tt, tt16);
    }
    std::printf("\n");
  }
}
