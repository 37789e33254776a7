// Session 53 scratch: implied block time per tile where the tile runs whole tiles, no split (session 32's method):
// (us - launch 2 - waves x unit overhead) / (waves x K / 64), waves = ceil(tiles / 132).
#include <algorithm>
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
  const double overhead_us = std::atof(argv[2]);
  std::string line;
  const std::vector<Sm90Config> cands = {{128, 64}, {128, 128}, {128, 256}, {256, 64}};
  std::map<std::string, std::vector<double>> v;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string t, shape;
    long N, K, M;
    double us[4], heur;
    s >> t >> N >> K >> M >> us[0] >> us[1] >> us[2] >> us[3] >> heur >> shape;
    for (int i = 0; i < 4; ++i) {
      if (us[i] <= 0) continue;
      const Sm90Config& c = cands[i];
      const Sm90Split sp = sm90_split(M, N, K, c, 132);
      const long tiles = ((N + c.tile_n - 1) / c.tile_n) * ((M + c.tile_t - 1) / c.tile_t);
      if (sp.splits > 1 || sp.stream > 0) continue;
      const long waves = (tiles + 131) / 132;
      const double ns = (us[i] - 2.0 - waves * overhead_us) / (waves * (K / 64.0)) * 1e3;
      const bool tail = M % c.tile_t != 0;
      char key[64];
      std::snprintf(key, sizeof key, "%s %dx%d %s", t.c_str(), c.tile_n, c.tile_t, tail ? "tail" : "full");
      v[key].push_back(ns);
      if (argc > 3) std::printf("  %s %s M=%ld waves=%ld tiles=%ld: %.0f\n", key, shape.c_str(), M, waves, tiles, ns);
    }
  }
  for (auto& [k, x] : v) {
    std::sort(x.begin(), x.end());
    std::printf("%-22s median %5.0f  [%4.0f, %4.0f] over %zu\n", k.c_str(), x[x.size() / 2], x.front(), x.back(), x.size());
  }
}
