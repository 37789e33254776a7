// smallm_inst_w8a16.cu - kernel instances: 8-bit weights, activations F16 / BF16,
// token tiles 8, 16, 32, 64.
#include "kernels/smallm/smallm_gemm.cuh"
#include "kernels/smallm/smallm_instances.h"

namespace mixgemm::kernels::smallm {

SmallmKernelFn smallm_kernel_w8a16(AType a, int token_tile, int variant) {
  if (a == AType::kF16) return smallm_instance<AType::kF16, 8>(token_tile, variant);
  if (a == AType::kBF16) return smallm_instance<AType::kBF16, 8>(token_tile, variant);
  return nullptr;
}

}  // namespace mixgemm::kernels::smallm
