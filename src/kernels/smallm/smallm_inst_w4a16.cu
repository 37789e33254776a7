// smallm_inst_w4a16.cu - kernel instances: 4-bit weights, activations F16 / BF16,
// token tiles 8, 16, 32, 64.
#include "kernels/smallm/smallm_gemm.cuh"
#include "kernels/smallm/smallm_instances.h"

namespace mixgemm::kernels::smallm {

SmallmKernelFn smallm_kernel_w4a16(AType a, int token_tile) {
  if (a == AType::kF16) return smallm_instance<AType::kF16, 4>(token_tile);
  if (a == AType::kBF16) return smallm_instance<AType::kBF16, 4>(token_tile);
  return nullptr;
}

}  // namespace mixgemm::kernels::smallm
