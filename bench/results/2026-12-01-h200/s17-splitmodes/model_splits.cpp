#include <cstdio>
#include "kernels/sm90/sm90.h"
using namespace mixgemm::kernels;
int main() {
  struct S { const char* n; long N, K; } shapes[] = {{"seed", 8192, 21760}, {"qkv", 10240, 8192}, {"o", 8192, 8192}, {"gate_up", 57344, 8192}, {"down", 8192, 28672}};
  for (auto& s : shapes) for (long M : {128, 256, 512, 1024, 2048, 4096, 8192}) {
    Sm90Config big; auto c = sm90_configs(AType::kF16, BType::kU4B8);
    sm90_pick(M, s.N, s.K, 132, AType::kF16, BType::kU4B8, 128, c, &big);
    auto a = sm90_split(M, s.N, s.K, big, 132, Sm90SplitMode::kAuto);
    auto k = sm90_split(M, s.N, s.K, big, 132, Sm90SplitMode::kSplitK);
    auto st = sm90_split(M, s.N, s.K, big, 132, Sm90SplitMode::kStream);
    double ta = sm90_predicted_us(M, s.N, s.K, 132, AType::kF16, BType::kU4B8, big);
    printf("%-8s M=%5ld %-36s auto{whole %ld s %d st %d} %.1fus | splitk{whole %ld s %d} | stream{whole %ld st %d}\n", s.n, M, big.name().c_str(), a.whole, a.splits, a.stream, ta, k.whole, k.splits, st.whole, st.stream);
  }
}
