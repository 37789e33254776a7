// smallm_inst_w4a8.cu - kernel instances: 4-bit weights, activations S8 / E4M3,
// token tiles 8, 16, 32, 64.
#include "kernels/smallm/smallm_gemm.cuh"
#include "kernels/smallm/smallm_instances.h"

namespace mixgemm::kernels::smallm {

namespace {
template <AType A>
SmallmKernelFn pick(int tm) {
  switch (tm) {
    case 8: return smallm_kernel<A, 4, 8>;
    case 16: return smallm_kernel<A, 4, 16>;
    case 32: return smallm_kernel<A, 4, 32>;
    case 64: return smallm_kernel<A, 4, 64>;
    default: return nullptr;
  }
}
}  // namespace

SmallmKernelFn smallm_kernel_w4a8(AType a, int token_tile) {
  if (a == AType::kS8) return pick<AType::kS8>(token_tile);
  if (a == AType::kE4M3) return pick<AType::kE4M3>(token_tile);
  return nullptr;
}

}  // namespace mixgemm::kernels::smallm
