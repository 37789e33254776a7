// Session 53 scratch: the sm90 picks against measured per-tile times (points.txt rows:
// type N K M us128x64 us128x128 us128x256 us256x64 [heur] [shape]).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include "kernels/sm90/sm90.h"
using namespace mixgemm::kernels;
int main(int argc, char** argv) {
  std::ifstream in(argv[1]);
  const bool verbose = argc > 2;
  std::string line;
  const std::vector<Sm90Config> cands = {{128, 64}, {128, 128}, {128, 256}, {256, 64}};
  std::map<std::string, std::pair<double, int>> by;  // type/M -> log sum, n
  std::map<std::string, std::pair<double, int>> byt;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string t, shape;
    long N, K, M;
    double us[4], heur = 0;
    s >> t >> N >> K >> M >> us[0] >> us[1] >> us[2] >> us[3] >> heur >> shape;
    AType a = t == "f16" ? AType::kF16 : t == "bf16" ? AType::kBF16 : t == "s8" ? AType::kS8 : AType::kE4M3;
    std::vector<Sm90Config> timed;
    std::vector<double> tu;
    for (int i = 0; i < 4; ++i) if (us[i] > 0) { timed.push_back(cands[i]); tu.push_back(us[i]); }
    Sm90Config pick;
    if (!sm90_pick(M, N, K, 132, a, BType::kU4B8, 128, timed, &pick)) continue;
    double best = 1e30, got = 0;
    for (size_t i = 0; i < timed.size(); ++i) {
      best = std::min(best, tu[i]);
      if (timed[i].tile_n == pick.tile_n && timed[i].tile_t == pick.tile_t) got = tu[i];
    }
    const double r = got / best;
    auto& e = by[t + " M=" + std::to_string(M)]; e.first += std::log(r); e.second++;
    auto& f = byt[t]; f.first += std::log(r); f.second++;
    if (verbose && r > 1.05) std::printf("  %s %s N=%ld K=%ld M=%ld pick %dx%d %.3f\n", t.c_str(), shape.c_str(), N, K, M, pick.tile_n, pick.tile_t, r);
  }
  for (auto& [k, v] : by) std::printf("%-14s %.3f\n", k.c_str(), std::exp(v.first / v.second));
  for (auto& [k, v] : byt) std::printf("ALL %-10s %.4f over %d\n", k.c_str(), std::exp(v.first / v.second), v.second);
}
