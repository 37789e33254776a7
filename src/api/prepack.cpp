// prepack.cpp - the public GPU prepack entry: argument checks, then the kernel's launcher
// (src/kernels/prepack/).
#include "mixgemm/prepack.h"

#include <cuda_runtime_api.h>

#include <string>

#include "api/gemm_call.h"
#include "core/check.h"
#include "core/regions.h"
#include "kernels/prepack/prepack.h"
#include "layout/prepack_check.h"
#include "mixgemm/error.h"

namespace mixgemm {

void prepack(const void* src, WeightFormat format, int64_t K, int64_t N, ScalarType b_type, ScalarType a_type,
             void* dst, cudaStream_t stream) {
  constexpr const char* kWhere = "prepack";
  const layout::Kind kind = prepack_detail::check_format(format, K, N, b_type, a_type, kWhere);
  MIXGEMM_REQUIRE(src != nullptr, kWhere,
                  "src is null; accepted: a device pointer to the " << K << " x " << N << " weights in format "
                                                                    << prepack_detail::format_name(format));
  MIXGEMM_REQUIRE(dst != nullptr, kWhere,
                  "dst is null; accepted: a device pointer to prepacked_size(K, N, b_type) = "
                      << layout::prepacked_bytes(kind, K, N) << " bytes");
  MIXGEMM_REQUIRE(reinterpret_cast<uintptr_t>(dst) % 16 == 0, kWhere,
                  "dst is not 16-byte aligned; accepted: a 16-byte aligned device pointer (cudaMalloc gives 256)");
  // The source's bytes: one per weight unpacked, half a byte in GPTQ's / AWQ's int32 words.
  const int64_t src_bytes = format == WeightFormat::kUnpacked ? K * N : K * N / 2;
  MIXGEMM_REQUIRE(!core::regions_overlap(core::span(src, src_bytes),
                                         core::span(dst, static_cast<int64_t>(layout::prepacked_bytes(kind, K, N)))),
                  kWhere, "dst overlaps src; accepted: dst in memory of its own (prepack does not work in place)");
  // A host pointer would fault inside the kernel and leave the context unusable (prepack_cpu
  // takes host memory).
  api::require_device_pointer(src, "src", kWhere);
  api::require_device_pointer(dst, "dst", kWhere);
  api::require_stream_of_current_device(stream, kWhere);
  const cudaError_t err = kernels::launch_prepack(src, format, kind, K, N, dst, stream);
  if (err != cudaSuccess)
    throw Error(ErrorCode::kCudaError, std::string("mixgemm::prepack: kernel launch failed: ") + cudaGetErrorString(err));
}

}  // namespace mixgemm
