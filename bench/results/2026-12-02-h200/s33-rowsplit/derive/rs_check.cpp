// Offline: core::choose_row_split_among (the real rule) for "type N K M" lines on stdin -> "type N K M head".
#include <cstdio>
#include <cstring>
#include "core/dispatch.h"
#include "core/problem.h"
#include "mixgemm/gemm.h"
using namespace mixgemm;
using namespace mixgemm::types;
int main() {
  char t[16]; long N, K, M;
  while (scanf("%15s %ld %ld %ld", t, &N, &K, &M) == 4) {
    ScalarType a = !strcmp(t, "f16") ? f16 : !strcmp(t, "bf16") ? bf16 : !strcmp(t, "s8") ? s8 : e4m3;
    TypeConfig tc{a, u4b8, a == s8 ? u8 : a == bf16 ? bf16 : f16, false, a == bf16 ? bf16 : f16};
    GemmProblem p{M, N, K, tc, 128};
    auto all = kernels::sm90_all_configs(core::to_kernel(a), core::to_kernel_b(u4b8));
    printf("%s %ld %ld %ld %ld\n", t, N, K, M, (long)core::choose_row_split_among(p, 132, all));
  }
}
