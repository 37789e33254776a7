// Offline: the row split's prediction per point (sm90 ranking model, choose_row_split's rule, no margin):
// prints "type N K M one best_head best_ratio head_us tail_us".
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "kernels/sm90/sm90.h"
using namespace mixgemm::kernels;
int main(int argc, char** argv) {
  AType a = !strcmp(argv[1], "f16") ? AType::kF16 : !strcmp(argv[1], "bf16") ? AType::kBF16
          : !strcmp(argv[1], "s8") ? AType::kS8 : AType::kE4M3;
  long N = atol(argv[2]), K = atol(argv[3]);
  auto cands = sm90_configs(a, BType::kU4B8);
  for (int i = 4; i < argc; ++i) {
    long M = atol(argv[i]);
    Sm90Config c; double one = 0;
    sm90_pick(M, N, K, 132, a, BType::kU4B8, 128, cands, &c, &one);
    double best = 1e30, bh = 0, bt = 0, bt16 = 0; long head_best = 0;
    auto c16 = sm90_configs(AType::kF16, BType::kU4B8);
    for (long unit : {256L, 128L}) {
      long head = M - M % unit;
      if (head < 128 || M - head < 32) continue;
      Sm90Config ch, ct; double th = 0, tt = 0;
      sm90_pick(head, N, K, 132, a, BType::kU4B8, 128, cands, &ch, &th);
      sm90_pick(M - head, N, K, 132, a, BType::kU4B8, 128, cands, &ct, &tt);
      if (th + tt < best) {
        best = th + tt; head_best = head; bh = th; bt = tt;
        Sm90Config c6; sm90_pick(M - head, N, K, 132, AType::kF16, BType::kU4B8, 128, c16, &c6, &bt16);
      }
    }
    bool final_rule = head_best && !(c.tile_t >= 128 && M % c.tile_t == 0) && (bh + bt + 6.0) < 0.95 * one;
    printf("%s %ld %ld %ld %.2f %ld %.4f %.2f %.2f %d %d %.2f\n", argv[1], N, K, M, one, head_best, head_best ? best / one : 0.0, bh, bt, c.tile_t, final_rule, bt16);
  }
}
