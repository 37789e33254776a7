#include <cmath>
#include <cstdio>
#include <string>
#include "kernels/smallm/smallm.h"
#include "kernels/smallm/smallm_geometry.h"
using namespace mixgemm::kernels;
int main() {
  struct S { const char* name; long N, K; } shapes[] = {
    {"llama3-8b/qkv",6144,4096},{"llama3-8b/o",4096,4096},{"llama3-8b/gate_up",28672,4096},{"llama3-8b/down",4096,14336},
    {"llama2-7b/qkv",12288,4096},{"llama2-7b/o",4096,4096},{"llama2-7b/gate_up",22016,4096},{"llama2-7b/down",4096,11008},
    {"llama2-70b/qkv",10240,8192},{"llama2-70b/o",8192,8192},{"llama2-70b/gate_up",57344,8192},{"llama2-70b/down",8192,28672},
    {"seed",8192,21760}};
  struct T { const char* n; AType a; } types[] = {{"f16",AType::kF16},{"s8",AType::kS8},{"e4m3",AType::kE4M3}};
  printf("shape,type,M,sched,pred,C,stripes,U,rows_per_cta,contrib,cluster,ring_rows\n");
  for (auto& s : shapes) for (auto& t : types) for (int M : {1, 8, 16})
    for (const SmallmConfig& c : smallm_configs(t.a, BType::kU4B8)) {
      if (c.token_tile > 16) continue;
      auto g = smallm_host::make_geometry(M, s.N, s.K, t.a, BType::kU4B8, 128, false, c, 132);
      double rpc = double(g.U) / g.C;
      double contrib = rpc < g.KBn ? std::ceil(g.KBn / rpc) + 1.0 : 1.0;
      printf("%s,%s,%d,%s,%.3f,%ld,%ld,%ld,%.2f,%.1f,%ld,%ld\n", s.name, t.n, M, c.name().c_str(),
             smallm_predicted_us(M, s.N, s.K, 132, t.a, BType::kU4B8, c), (long)g.C, (long)g.stripes, (long)g.U, rpc, contrib, (long)g.cluster, (long)g.ring_rows);
    }
}
