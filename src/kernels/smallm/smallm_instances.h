// smallm_instances.h - the compiled kernel instances, one translation unit per
// (activation kind, weight bits) family so that the slow device compiles run in
// parallel and a change recompiles only what it touches.
#pragma once

#include "kernels/gemm_params.h"
#include "kernels/smallm/smallm_kernel_params.h"

namespace mixgemm::kernels::smallm {

using SmallmKernelFn = void (*)(SmallmKernelParams);

// The __global__ function for (a, token tile, variant = smallm_variant_of(mode, b_unsigned));
// null when not instantiated.
SmallmKernelFn smallm_kernel_w4a16(AType a, int token_tile, int variant);
SmallmKernelFn smallm_kernel_w8a16(AType a, int token_tile, int variant);
SmallmKernelFn smallm_kernel_w4a8(AType a, int token_tile, int variant);

// The deferred split-K reduction grid for activation a and a token tile (any weight type):
// smallm_reduce_a16 in the w4a16 unit (f16, bf16), smallm_reduce_a8 in the w4a8 one (s8, e4m3).
SmallmKernelFn smallm_reduce_a16(AType a, int token_tile);
SmallmKernelFn smallm_reduce_a8(AType a, int token_tile);

}  // namespace mixgemm::kernels::smallm
