// Session 79's model harness for fit.py: reads "a group_size N K M" lines (a: f16 / bf16 / s8 / e4m3; u4b8 weights)
// and prints, per line: the ranked times of 128 x 64 and 256 x 64 alone (sm90_pick over one candidate: the
// ranking model, unscaled), the heuristic's sm90 pick over every tile, smallm's default schedule and its predicted time.
//   g++ -std=c++20 -O1 -Isrc -Iinclude -I<build>/generated bench/results/2026-12-05-h100/s79-narrow/rank_harness.cpp \
//       <build>/libmixgemm.a -L/usr/local/cuda/lib64 -lcudart -o /tmp/rank_harness
#include <cstdio>
#include <iostream>
#include <string>
#include "kernels/sm90/sm90.h"
#include "kernels/smallm/smallm.h"
using namespace mixgemm::kernels;
int main() {
  std::string a;
  long long N, K, M, g;
  while (std::cin >> a >> g >> N >> K >> M) {
    const AType at = a == "f16" ? AType::kF16 : a == "bf16" ? AType::kBF16 : a == "s8" ? AType::kS8 : AType::kE4M3;
    double t128 = -1, t256 = -1, t = 0;
    Sm90Config out, pick;
    sm90_pick(M, N, K, 132, at, BType::kU4B8, g, {{128, 64}}, &out, &t128);
    sm90_pick(M, N, K, 132, at, BType::kU4B8, g, {{256, 64}}, &out, &t256);
    const auto all = sm90_all_configs(at, BType::kU4B8);
    sm90_pick(M, N, K, 132, at, BType::kU4B8, g, all, &pick, &t);
    const SmallmConfig s = smallm_default_config(M, N, K, 132, at, BType::kU4B8, g);
    printf("%.3f %.3f %s %s %.3f\n", t128, t256, sm90_narrow_token_tile(M, pick, all).name().c_str(),
           s.name().c_str(), smallm_predicted_us(M, N, K, 132, at, BType::kU4B8, s));
  }
}
