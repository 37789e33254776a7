// Session 53 scratch: the row split and the one-launch pick at the call-3 points, against what ran there.
// rows: type N K M us128x64 us128x128 us128x256 us256x64 heur shape oldsched
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include "core/dispatch.h"
#include "kernels/sm90/sm90.h"
#include "core/problem.h"
#include "mixgemm/gemm.h"
using namespace mixgemm;
using namespace mixgemm::types;
int main(int argc, char** argv) {
  std::ifstream in(argv[1]);
  std::string line;
  const std::vector<kernels::Sm90Config> cands = {{128, 64}, {128, 128}, {128, 256}, {256, 64}};
  double lsum = 0; int n = 0, unknown = 0;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string t, shape, old;
    long N, K, M;
    double us[4], heur;
    s >> t >> N >> K >> M >> us[0] >> us[1] >> us[2] >> us[3] >> heur >> shape >> old;
    TypeConfig tc = t == "f16" ? TypeConfig{f16, u4b8, f16, false, f16} : t == "s8" ? TypeConfig{s8, u4b8, u8, false, f16}
                                                                         : TypeConfig{e4m3, u4b8, f16, false, f16};
    const auto all = kernels::sm90_all_configs(core::to_kernel(tc.a), core::to_kernel_b(tc.b));
    const int64_t head = core::choose_row_split_among(GemmProblem{M, N, K, tc, 128}, 132, all);
    kernels::Sm90Config pick;
    kernels::sm90_pick(M, N, K, 132, core::to_kernel(tc.a), core::to_kernel_b(tc.b), 128, all, &pick);
    std::string sched = head ? "split" + std::to_string(head) : pick.name().substr(5, 7);
    const bool old_split = old.find('[') != std::string::npos;
    double now = -1;
    if (head == 0) for (int i = 0; i < 4; ++i) if (cands[i].tile_n == pick.tile_n && cands[i].tile_t == pick.tile_t) now = us[i];
    if (head != 0 && old_split && old.find("[" + std::to_string(head) + "]") != std::string::npos) now = heur;
    if (now < 0) { ++unknown; std::printf("  ? %s %s M=%ld new %s old %s\n", t.c_str(), shape.c_str(), M, sched.c_str(), old.c_str()); continue; }
    lsum += std::log(now / heur); ++n;
    if (std::fabs(now / heur - 1) > 0.03)
      std::printf("  %s %-20s M=%4ld new %-10s %7.1f old %-62s %7.1f  %.3f\n", t.c_str(), shape.c_str(), M, sched.c_str(), now, old.c_str(), heur, now / heur);
  }
  std::printf("geomean new/old %.4f over %d, %d unknown\n", std::exp(lsum / n), n, unknown);
}
