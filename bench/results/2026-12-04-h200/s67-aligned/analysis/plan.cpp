// Prints the dispatcher's pick for the shapes, types and M below (one line each: NxK type M schedule). Build against any
// build's libmixgemm.a (host code): g++ -std=c++20 -O1 -Isrc -Iinclude -I<build>/generated -I/usr/local/cuda/include \
//   plan.cpp <build>/libmixgemm.a -L/usr/local/cuda/lib64 -lcudart -lpthread -ldl -o plan  (session 67)
#include <cstdio>
#include "core/dispatch.h"
#include "core/problem.h"
#include "mixgemm/scalar_type.h"
#include "kernels/sm90/sm90.h"
using namespace mixgemm;
using namespace mixgemm::types;
int main() {
  const long shapes[][2] = {{768,4096},{896,5120},{1152,3584},{1280,8192},{1536,4096},{1920,5120},{2304,3584},{2304,16384},{3072,4096},
    {6144,4096},{4096,4096},{28672,4096},{4096,14336},{8192,21760},{10240,8192},{8192,8192},{57344,8192},{8192,28672},{12288,4096},{4096,11008},{22016,4096}};
  const int Ms[] = {1,4,8,12,16,20,24,32,48,64};
  for (auto& s : shapes) for (int ai = 0; ai < 3; ++ai) for (int M : Ms) {
    GemmProblem p{};
    p.M = M; p.N = s[0]; p.K = s[1];
    p.types = ai == 0 ? TypeConfig{f16, u4b8, f16, false, f16} : ai == 1 ? TypeConfig{s8, u4b8, u8, false, f16} : TypeConfig{e4m3, u4b8, f16, false, f16};
    p.group_size = 128;
    std::printf("%ldx%ld %s %d %s\n", s[0], s[1], ai == 0 ? "f16" : ai == 1 ? "s8" : "e4m3", M, core::choose_among(p, 132, kernels::sm90_all_configs(core::to_kernel(p.types.a), core::to_kernel_b(p.types.b))).c_str());
  }
}
