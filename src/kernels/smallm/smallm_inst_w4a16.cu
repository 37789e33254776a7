// smallm_inst_w4a16.cu - kernel instances: 4-bit weights, activations F16 / BF16,
// token tiles 8, 16, 32, 64.
#include "kernels/smallm/smallm_gemm.cuh"
#include "kernels/smallm/smallm_instances.h"

#ifdef MIXGEMM_SMALLM_TRACE
#include <cstdio>
#endif

namespace mixgemm::kernels::smallm {

SmallmKernelFn smallm_kernel_w4a16(AType a, int token_tile, int variant) {
  if (a == AType::kF16) return smallm_instance<AType::kF16, 4>(token_tile, variant);
  if (a == AType::kBF16) return smallm_instance<AType::kBF16, 4>(token_tile, variant);
  return nullptr;
}

SmallmKernelFn smallm_reduce_a16(AType a, int token_tile) {
  if (a == AType::kF16) return smallm_reduce_instance<AType::kF16>(token_tile);
  if (a == AType::kBF16) return smallm_reduce_instance<AType::kBF16>(token_tile);
  return nullptr;
}

#ifdef MIXGEMM_SMALLM_TRACE
// The trace of this translation unit's kernels (smallm_trace.cuh).
void smallm_trace_dump(const char* path, const char* tag) {
  static unsigned long long h[kTraceMaxCtas][kTraceSlots];
  cudaDeviceSynchronize();
  cudaMemcpyFromSymbol(h, g_smallm_trace, sizeof(h));
  static long long cyc[kTraceMaxCtas][kCycWarps][kCycAccounts];
  cudaMemcpyFromSymbol(cyc, g_smallm_cycles, sizeof(cyc));
  static unsigned smid[kTraceMaxCtas];
  cudaMemcpyFromSymbol(smid, g_smallm_smid, sizeof(smid));
  if (FILE* f = std::fopen(path, "a")) {
    for (int c = 0; c < kTraceMaxCtas; ++c) {
      if (h[c][kTraceEntry] == 0) continue;  // no such CTA in the last launch
      std::fprintf(f, "%s %d", tag, c);
      for (int i = 0; i < kTraceSlots; ++i) std::fprintf(f, " %llu", h[c][i]);
      for (int w = 0; w < kCycWarps; ++w)
        for (int a = 0; a < kCycAccounts; ++a) std::fprintf(f, " %lld", cyc[c][w][a]);
      std::fprintf(f, " %u\n", smid[c]);
    }
    std::fclose(f);
  }
  static const unsigned long long zero[kTraceMaxCtas][kTraceSlots] = {};
  cudaMemcpyToSymbol(g_smallm_trace, zero, sizeof(zero));
  static const long long zero_cyc[kTraceMaxCtas][kCycWarps][kCycAccounts] = {};
  cudaMemcpyToSymbol(g_smallm_cycles, zero_cyc, sizeof(zero_cyc));
}
#endif

}  // namespace mixgemm::kernels::smallm
