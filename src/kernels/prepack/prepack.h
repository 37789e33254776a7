// prepack.h - the GPU prepack kernel's host launcher (the public entry, mixgemm::prepack, with
// its argument checks, is src/api/prepack.cpp).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "mixgemm/layout.h"
#include "mixgemm/prepack.h"

namespace mixgemm::kernels {

// Launches the prepack grid (one CTA per k-block x 256 columns) for checked arguments on
// `stream`; refuses (mixgemm::Error) a matrix of more than 2^31 - 1 tiles. Returns the launch's
// error (cudaGetLastError after the launch).
cudaError_t launch_prepack(const void* src, WeightFormat format, layout::Kind kind, int64_t K, int64_t N, void* dst,
                           cudaStream_t stream);

}  // namespace mixgemm::kernels
