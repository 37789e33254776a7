#include "kernels/smallm/smallm_gemm.cuh"
namespace mixgemm::kernels::smallm {
void* keep_tm8() { return reinterpret_cast<void*>(&smallm_kernel<AType::kF16, 4, 8>); }
}
