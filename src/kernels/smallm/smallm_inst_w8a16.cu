// smallm_inst_w8a16.cu - kernel instances: 8-bit weights, activations F16 / BF16,
// token tiles 8, 16, 32, 64.
#include "kernels/smallm/smallm_gemm.cuh"
#include "kernels/smallm/smallm_instances.h"

namespace mixgemm::kernels::smallm {

namespace {
template <AType A>
SmallmKernelFn pick(int tm) {
  switch (tm) {
    case 8: return smallm_kernel<A, 8, 8>;
    case 16: return smallm_kernel<A, 8, 16>;
    case 32: return smallm_kernel<A, 8, 32>;
    case 64: return smallm_kernel<A, 8, 64>;
    default: return nullptr;
  }
}
}  // namespace

SmallmKernelFn smallm_kernel_w8a16(AType a, int token_tile) {
  if (a == AType::kF16) return pick<AType::kF16>(token_tile);
  if (a == AType::kBF16) return pick<AType::kBF16>(token_tile);
  return nullptr;
}

}  // namespace mixgemm::kernels::smallm
