#include "kernels/sm90/sm90.h"
#include <cstdio>
using namespace mixgemm::kernels;
int main() {
  struct L { const char* n; long N, K; } ls[] = {
    {"13312x16384",13312,16384},{"15360x5120",15360,5120},{"16384x4096",16384,4096},{"16384x6656",16384,6656},
    {"27648x5120",27648,5120},{"4608x16384",4608,16384},{"5120x13824",5120,13824},{"59136x8192",59136,8192},
    {"8192x29568",8192,29568},{"9216x16384",9216,16384},{"70b/down",8192,28672},{"70b/gate_up",57344,8192},
    {"70b/o",8192,8192},{"70b/qkv",10240,8192},{"seed",8192,21760},{"8b/gate_up",28672,4096},{"8b/down",4096,14336}};
  Sm90Config c; c.tile_n = 256; c.tile_t = 16;
  for (auto& l : ls) {
    long tiles = (l.N + 255) / 256;
    Sm90Split s = sm90_split(16, l.N, l.K, c, 132, AType::kS8, BType::kU4B8);
    long units = s.stream ? s.stream + s.whole : s.whole + (tiles - s.whole) * s.splits;
    std::printf("%-12s tiles %4ld whole %4ld splits %2d stream %3d  units %4ld waves %.2f kblocks/tile %ld\n", l.n, tiles, (long)s.whole, s.splits, s.stream, units, units / 132.0, l.K / 64);
  }
}
