// Session 109: which k-split gemm() and gemm_partial_sums() run for the fuzz problems whose partial sums had other
// bits than gemm() (fuzz-901.log, fuzz-1201.log), on 132 SMs. CPU only, from the repository root:
//   g++ -std=c++17 -Isrc -Iinclude bench/results/2026-12-07-h100/s109-fuzz/split_check.cpp -o /tmp/split_check && /tmp/split_check
#include "kernels/smallm/smallm_geometry.h"
#include <cstdio>
using namespace mixgemm::kernels; using namespace mixgemm::kernels::smallm_host;
void show(const char* tag, int64_t M,int64_t N,int64_t K,AType a,BType b,int64_t gs,bool z,SmallmConfig c){
  Geometry g=make_geometry(M,N,K,a,b,gs,z,c,132); Geometry p=make_partial_sums_geometry(M,N,K,a,b,gs,z,c,132);
  std::printf("%s: gemm C=%lld cluster=%lld stripes=%lld KBn=%lld | psums C=%lld cluster=%lld parts=%lld\n",tag,(long long)g.C,(long long)g.cluster,(long long)g.stripes,(long long)g.KBn,(long long)p.C,(long long)p.cluster,(long long)p.parts);}
int main(){
  show("993  f16.u8+z.g32 6896x1216 M5 t8w8o1",5,6896,1216,AType::kF16,BType::kU8,32,true,{8,8,1,0});
  show("1225 f16.u8+z.g0 6448x3520 M3 t8w8o1",3,6448,3520,AType::kF16,BType::kU8,0,true,{8,8,1,0});
  show("1262 f16.u8+z.g64 3728x2560 M1 t8w8o1",1,3728,2560,AType::kF16,BType::kU8,64,true,{8,8,1,0});
  show("1370 bf16.u8b128.g16 7792x3456 M1 t8w4o4",1,7792,3456,AType::kBF16,BType::kU8B128,16,false,{8,4,4,0});
  show("1410 bf16.u4+z.g2048 6896x2048 M8 t8w8o1",8,6896,2048,AType::kBF16,BType::kU4,2048,true,{8,8,1,0});
  show("1563 bf16.u8b128.g32 7200x1888 M7 t8w8o1",7,7200,1888,AType::kBF16,BType::kU8B128,32,false,{8,8,1,0});
  show("1490 bf16.u8b128.g16 6624x2720 M1 t8w8o1",1,6624,2720,AType::kBF16,BType::kU8B128,16,false,{8,8,1,0});
}
