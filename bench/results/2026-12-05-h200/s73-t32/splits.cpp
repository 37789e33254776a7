// s73-t32: the split sm90_split (kAuto, 132 SMs) gives each narrow tile on the #6 shapes, at the largest M it covers.
// Built on this machine against the library built with t32.patch (any build works: sm90_split is host arithmetic):
//   g++ -std=c++17 -I src -I include splits.cpp <build>/libmixgemm.a -L/usr/local/cuda/lib64 -lcudart -o splits
#include <cstdio>
#include "kernels/sm90/sm90.h"
using namespace mixgemm::kernels;
int main() {
  struct S { const char* n; long N, K; } shapes[] = {{"seed", 8192, 21760}, {"70b-qkv", 10240, 8192}, {"70b-o", 8192, 8192},
                                                    {"70b-gateup", 57344, 8192}, {"70b-down", 8192, 28672}};
  int tiles[][2] = {{256, 64}, {256, 32}, {384, 32}, {256, 16}, {384, 16}, {256, 8}, {384, 8}};
  for (auto& s : shapes)
    for (auto& t : tiles) {
      Sm90Config c{t[0], t[1]};
      const long M = t[1] <= 8 ? 8 : t[1] <= 16 ? 16 : 32;
      Sm90Split sp = sm90_split(M, s.N, s.K, c, 132);
      long nt = (s.N + t[0] - 1) / t[0];
      long units = sp.stream ? sp.stream : sp.whole + (nt - sp.whole) * sp.splits;
      std::printf("%-11s %3dx%-3d M=%2ld tiles=%3ld whole=%3ld splits=%2d stream=%3d units=%4ld  kb/unit=%.1f\n", s.n, t[0], t[1], M, nt,
                  (long)sp.whole, sp.splits, sp.stream, units, sp.stream ? double(nt * (s.K / 64)) / sp.stream : double(s.K / 64) / sp.splits);
    }
}
