// per measured point (type N K M one shape): the one launch's pick, its split, the model's time; then measured / model.
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include "core/dispatch.h"
#include "core/problem.h"
#include "kernels/sm90/sm90.h"
#include "mixgemm/gemm.h"
using namespace mixgemm;
using namespace mixgemm::types;
int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream s(line);
    std::string t, shape; long N, K, M; double one;
    s >> t >> N >> K >> M >> one >> shape;
    TypeConfig tc = t == "f16" ? TypeConfig{f16, u4b8, f16, false, f16}
                  : t == "s8"  ? TypeConfig{s8, u4b8, u8, false, f16}
                               : TypeConfig{e4m3, u4b8, f16, false, f16};
    const auto a = core::to_kernel(tc.a);
    const auto b = core::to_kernel_b(tc.b);
    const auto all = kernels::sm90_all_configs(a, b);
    kernels::Sm90Config c; double t1 = 0;
    kernels::sm90_pick(M, N, K, 132, a, b, 128, all, &c, &t1);
    const auto sp = kernels::sm90_split(M, N, K, c, 132, a, b);
    const long tiles = ((N + c.tile_n - 1) / c.tile_n) * ((M + c.tile_t - 1) / c.tile_t);
    std::printf("%s %s %ld %ld %ld %dx%d tiles %ld whole %ld splits %d stream %d model %.1f meas %.1f ratio %.3f live %.1f\n", t.c_str(),
                shape.c_str(), N, K, M, c.tile_n, c.tile_t, tiles, (long)sp.whole, sp.splits, sp.stream, t1, one, one / t1, kernels::sm90_stream_live_bytes(M, N, K, c, a, b, 0, 132) / 1048576.0);
  }
}
