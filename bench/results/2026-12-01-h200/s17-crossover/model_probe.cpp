// Model-vs-measured for the smallm / sm90 choice at M <= 24 (session 17 probe).
#include <cstdio>
#include <string>
#include "kernels/sm90/sm90.h"
#include "kernels/smallm/smallm.h"
using namespace mixgemm::kernels;
int main() {
  struct S { const char* n; long N, K; } shapes[] = {
    {"seed", 8192, 21760}, {"llama2-70b/qkv", 10240, 8192}, {"llama2-70b/o", 8192, 8192},
    {"llama2-70b/gate_up", 57344, 8192}, {"llama2-70b/down", 8192, 28672},
    {"llama3-8b/qkv", 6144, 4096}, {"llama3-8b/o", 4096, 4096}, {"llama3-8b/gate_up", 28672, 4096},
    {"llama3-8b/down", 4096, 14336}};
  struct T { const char* n; AType a; } types[] = {{"f16", AType::kF16}, {"bf16", AType::kBF16}, {"s8", AType::kS8}, {"e4m3", AType::kE4M3}};
  for (auto& t : types) for (auto& s : shapes) for (long M : {1, 2, 4, 8, 12, 16, 24}) {
    Sm90Config big;
    auto cands = sm90_configs(t.a, BType::kU4B8);
    bool ok = sm90_pick(M, s.N, s.K, 132, t.a, BType::kU4B8, 128, cands, &big);
    SmallmConfig sm = smallm_default_config(M, s.N, s.K, 132, t.a, BType::kU4B8);
    double ts = smallm_predicted_us(M, s.N, s.K, 132, t.a, BType::kU4B8, sm);
    double tb = ok ? sm90_predicted_us(M, s.N, s.K, 132, t.a, BType::kU4B8, big) : -1;
    printf("%s %s %ld %s %.2f %s %.2f\n", t.n, s.n, M, sm.name().c_str(), ts, ok ? big.name().c_str() : "-", tb);
  }
}
