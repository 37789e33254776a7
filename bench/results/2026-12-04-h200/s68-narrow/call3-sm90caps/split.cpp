# Session 68 call 3: the splits sm90_split chooses today (whole, splits, stream) per narrow layer, M and tile: splits.csv.
# build as ../analysis/pick.cpp.
#include <cstdio>
#include "kernels/sm90/sm90.h"
using namespace mixgemm::kernels;
int main() {
  const long shapes[][2] = {{768,4096},{1152,3584},{1536,4096},{2304,3584},{3072,4096},{1280,8192},{1024,8192},{2304,16384}};
  const int Ms[] = {48,64,96,128,192,256};
  const int tiles[][2] = {{128,64},{256,64},{128,128}};
  for (auto& s : shapes) for (int M : Ms) for (auto& t : tiles) {
    Sm90Config c{t[0], t[1]};
    Sm90Split sp = sm90_split(M, s[0], s[1], c, 132);
    printf("%ldx%ld,%d,%dx%d,%ld,%d,%d\n", s[0], s[1], M, t[0], t[1], (long)sp.whole, sp.splits, sp.stream);
  }
}
