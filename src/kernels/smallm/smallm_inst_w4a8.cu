// smallm_inst_w4a8.cu - kernel instances: 4-bit weights, activations S8 / E4M3,
// token tiles 8, 16, 32, 64.
#include "kernels/smallm/smallm_gemm.cuh"
#include "kernels/smallm/smallm_instances.h"

namespace mixgemm::kernels::smallm {

SmallmKernelFn smallm_kernel_w4a8(AType a, int token_tile, int variant) {
  if (a == AType::kS8) return smallm_instance<AType::kS8, 4>(token_tile, variant);
  if (a == AType::kE4M3) return smallm_instance<AType::kE4M3, 4>(token_tile, variant);
  return nullptr;
}

SmallmKernelFn smallm_reduce_a8(AType a, int token_tile) {
  if (a == AType::kS8) return smallm_reduce_instance<AType::kS8>(token_tile);
  if (a == AType::kE4M3) return smallm_reduce_instance<AType::kE4M3>(token_tile);
  return nullptr;
}

}  // namespace mixgemm::kernels::smallm
