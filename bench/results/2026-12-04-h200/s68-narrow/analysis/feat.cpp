// Session 68: features of every measured point for the narrow-layer fit: per smallm config its geometry, and sm90's
// pick with its ranked and kModelA16 times. usage: ./feat TABLE.csv > feat.csv
// build (from the repository root): g++ -std=c++20 -O1 -Isrc -Iinclude -I<build>/generated -I/usr/local/cuda/include \
//   feat.cpp <build>/libmixgemm.a -L/usr/local/cuda/lib64 -lcudart -lpthread -ldl
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>
#include "kernels/smallm/smallm.h"
#include "kernels/smallm/smallm_geometry.h"
#include "kernels/sm90/sm90.h"
using namespace mixgemm::kernels;
int main(int argc, char** argv) {
  std::set<std::tuple<std::string, long, long, std::string, long>> pts;
  std::ifstream f(argv[1]); std::string line; std::getline(f, line);
  while (std::getline(f, line)) {
    std::vector<std::string> c; std::stringstream ss(line); std::string x;
    while (std::getline(ss, x, ',')) c.push_back(x);
    if (c.size() < 16 || c[6] != "mixgemm") continue;
    pts.insert({c[1], std::stol(c[2]), std::stol(c[3]), c[7].substr(0, c[7].find('.')), std::stol(c[4])});
  }
  printf("shape,N,K,ty,M,sched,C,R,MT,stripes,aligned,rows,tile_bytes,t_model,t_rank,t_a16\n");
  for (auto& [sh, N, K, ty, M] : pts) {
    const AType a = ty == "s8" ? AType::kS8 : ty == "e4m3" ? AType::kE4M3 : AType::kF16;
    const BType b = BType::kU4B8;
    for (const SmallmConfig& cfg : smallm_configs(a, b)) {
      const auto g = smallm_host::make_geometry(M, N, K, a, b, 128, false, cfg, 132);
      printf("%s,%ld,%ld,%s,%ld,%s,%ld,%ld,%ld,%ld,%d,%ld,%ld,%.4f,,\n", sh.c_str(), N, K, ty.c_str(), M, cfg.name().c_str(),
             (long)g.C, (long)smallm_host::ceil_sqrt(g.KBn), (long)g.MT, (long)g.stripes, (int)g.stripe_aligned,
             (long)((g.U + g.C - 1) / g.C), (long)g.tile_bytes, smallm_predicted_us(M, N, K, 132, a, b, cfg));
    }
    Sm90Config big; double tr = 0;
    const auto all = sm90_all_configs(a, b);
    if (sm90_pick(M, N, K, 132, a, b, 128, all, &big, &tr))
      printf("%s,%ld,%ld,%s,%ld,%s,,,,,,,,,%.4f,%.4f\n", sh.c_str(), N, K, ty.c_str(), M, big.name().c_str(), tr,
             sm90_predicted_us(M, N, K, 132, a, b, big));
  }
}
