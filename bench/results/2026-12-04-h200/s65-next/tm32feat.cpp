// Session 65: per (layer, M, TM 32 / 64 schedule) of an all-schedules CSV, the smallm model's features and the measured
// time: shape type N K M schedule MT ceil(rows per CTA) contributors per_block model_us measured_us. Build as
// ../s63-allsched24-128/analysis/pick_vs_best.cpp (any libmixgemm.a).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include "kernels/smallm/smallm.h"
#include "kernels/smallm/smallm_geometry.h"
using namespace mixgemm::kernels;
int main(int argc, char** argv) {
  std::ifstream f(argv[1]); std::string line; std::getline(f, line);
  while (std::getline(f, line)) {
    std::vector<std::string> c; std::stringstream ss(line); std::string x;
    while (std::getline(ss, x, ',')) c.push_back(x);
    if (c.size() < 16 || c[6] != "mixgemm" || c[15].empty()) continue;
    if (c[12].rfind("smallm_t32", 0) != 0 && c[12].rfind("smallm_t64", 0) != 0) continue;
    SmallmConfig cfg; if (!smallm_parse_name(c[12], &cfg)) continue;
    const long M = std::stol(c[4]), N = std::stol(c[2]), K = std::stol(c[3]);
    const AType a = c[7].rfind("s8", 0) == 0 ? AType::kS8 : AType::kF16;
    const auto g = smallm_host::make_geometry(M, N, K, a, BType::kU4B8, 128, false, cfg, 132);
    const double rpc = double(g.U) / double(g.C);
    const double contributors = rpc < g.KBn ? std::ceil(g.KBn / rpc) + 1.0 : 1.0;
    const int ks = g.KB / 16 / (a == AType::kS8 ? 2 : 1); const int nt = cfg.token_tile / 8;
    const double pb = (56.0 + ks * nt) / (56.0 + 4.0 * nt);
    const double model = smallm_predicted_us(M, N, K, 132, a, BType::kU4B8, cfg);
    printf("%s %s %ld %ld %ld %s %ld %.0f %.3f %.2f %.2f %s\n", c[1].c_str(), c[7].substr(0, c[7].find('.')).c_str(), N, K, M,
           c[12].c_str(), (long)g.MT, std::ceil(rpc), contributors, pb, model, c[15].c_str());
  }
}
