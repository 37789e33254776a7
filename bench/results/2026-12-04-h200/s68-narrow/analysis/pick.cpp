// Session 68: the dispatcher's pick at every (shape, type, M) of a bench table, with the sm90 tiles of the device build
// (128 x 64, 256 x 64). usage: ./pick TABLE.csv > picks.csv
// build (from the repository root): g++ -std=c++20 -O1 -Isrc -Iinclude -I<build>/generated -I/usr/local/cuda/include \
//   pick.cpp <build>/libmixgemm.a -L/usr/local/cuda/lib64 -lcudart -lpthread -ldl
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>
#include "core/dispatch.h"
#include "core/problem.h"
#include "kernels/sm90/sm90.h"
#include "mixgemm/scalar_type.h"
using namespace mixgemm;
using namespace mixgemm::types;
int main(int argc, char** argv) {
  std::set<std::tuple<std::string, long, long, std::string, long>> pts;
  std::ifstream f(argv[1]); std::string line; std::getline(f, line);
  while (std::getline(f, line)) {
    std::vector<std::string> c; std::stringstream ss(line); std::string x;
    while (std::getline(ss, x, ',')) c.push_back(x);
    if (c.size() < 16 || c[6] != "mixgemm") continue;
    pts.insert({c[1], std::stol(c[2]), std::stol(c[3]), c[7].substr(0, c[7].find('.')), std::stol(c[4])});
  }
  printf("shape,tp,N,K,type,M,schedule\n");
  for (auto& [sh, N, K, ty, M] : pts) {
    GemmProblem p{};
    p.M = M; p.N = N; p.K = K;
    p.types = ty == "f16" ? TypeConfig{f16, u4b8, f16, false, f16} : ty == "s8" ? TypeConfig{s8, u4b8, u8, false, f16}
                                                                             : TypeConfig{e4m3, u4b8, f16, false, f16};
    p.group_size = 128;
    std::vector<kernels::Sm90Config> sm90;
    for (auto& c : kernels::sm90_all_configs(core::to_kernel(p.types.a), core::to_kernel_b(p.types.b)))
      if ((c.tile_n == 128 || c.tile_n == 256) && c.tile_t == 64) sm90.push_back(c);
    printf("%s,1,%ld,%ld,%s,%ld,%s\n", sh.c_str(), N, K, ty.c_str(), M, core::choose_among(p, 132, sm90).c_str());
  }
}
