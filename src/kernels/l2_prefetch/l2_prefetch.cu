// l2_prefetch.cu - mixgemm::prefetch_l2: asynchronous L2 prefetch of a weight range, and its
// host launcher, side by side (include/mixgemm/l2_prefetch.h says what it is for).
//
// The range is cut into 4 KB pieces; piece j goes to CTA j mod G, thread (j / G) mod T of it,
// so even a small range (an 8 MB layer: 2048 pieces) is spread over every SM's TMA engine
// instead of queueing on a few. A thread issues one cp.async.bulk.prefetch.L2 per piece it
// owns and the CTA exits: a bulk prefetch has no completion to wait for, the L2 fills it
// started finish after the grid is gone. When the budget is below the range, piece j is taken
// iff floor((j + 1) B / P) != floor(j B / P): B of the P pieces, evenly spaced (a GEMM that
// splits its weights over all SMs then finds the same share of each SM's part in L2).
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "core/check.h"
#include "kernels/ptx/mma.cuh"
#include "kernels/ptx/sm90.cuh"
#include "mixgemm/error.h"
#include "mixgemm/l2_prefetch.h"

namespace mixgemm::kernels {

namespace {

constexpr uint32_t kPieceBytes = 4096;
constexpr int kThreads = 128;

struct L2PrefetchParams {
  const char* base;   // 16-byte aligned
  uint64_t bytes;     // multiple of 16
  uint64_t pieces;    // ceil(bytes / kPieceBytes)
  uint64_t budget;    // pieces to take, <= pieces
};

__global__ void __launch_bounds__(kThreads) l2_prefetch_kernel(const L2PrefetchParams p) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  // Whatever follows may start at once (it is correct either way: this grid writes nothing).
  ptx::griddep_launch_dependents();
  const uint64_t G = gridDim.x;
  for (uint64_t j = blockIdx.x + G * threadIdx.x; j < p.pieces; j += G * kThreads) {
    if (p.budget < p.pieces && ((j + 1) * p.budget) / p.pieces == (j * p.budget) / p.pieces) continue;
    const uint64_t off = j * kPieceBytes;
    const uint64_t left = p.bytes - off;
    ptx::bulk_prefetch_l2(p.base + off, static_cast<uint32_t>(left < kPieceBytes ? left : kPieceBytes));
  }
#endif
}

}  // namespace
}  // namespace mixgemm::kernels

namespace mixgemm {

void prefetch_l2(const void* ptr, size_t bytes, size_t budget_bytes, cudaStream_t stream) {
  constexpr const char* kWhere = "prefetch_l2";
  MIXGEMM_REQUIRE(ptr != nullptr || bytes == 0, kWhere,
                  "ptr is null with bytes=" << bytes << "; accepted: a device pointer, or bytes = 0");
  MIXGEMM_REQUIRE(bytes < (uint64_t{1} << 44), kWhere, "bytes=" << bytes << "; accepted: below 2^44");
  // Round inward to 16-byte boundaries: bulk prefetches need them, and nothing outside the
  // caller's range may be touched.
  const uintptr_t lo = (reinterpret_cast<uintptr_t>(ptr) + 15) & ~uintptr_t{15};
  const uintptr_t end = (reinterpret_cast<uintptr_t>(ptr) + bytes) & ~uintptr_t{15};
  if (bytes == 0 || end <= lo || budget_bytes < 16) return;

  int dev = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e != cudaSuccess)
    throw Error(ErrorCode::kCudaError, std::string("mixgemm::prefetch_l2: no usable CUDA device (cudaGetDevice: ") +
                                           cudaGetErrorString(e) + ")");
  int major = 0, sms = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
    throw Error(ErrorCode::kCudaError, "mixgemm::prefetch_l2: cannot query device " + std::to_string(dev));
  if (major != 9)
    throw Error(ErrorCode::kNotSupported, "mixgemm::prefetch_l2: device " + std::to_string(dev) +
                                              " is sm_" + std::to_string(major) + "x; accepted: sm_90 (Hopper)");
  cudaPointerAttributes attr{};
  e = cudaPointerGetAttributes(&attr, ptr);
  if (e != cudaSuccess) (void)cudaGetLastError();
  MIXGEMM_REQUIRE(e == cudaSuccess && (attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged) &&
                      (attr.type == cudaMemoryTypeManaged || attr.device == dev),
                  kWhere, "ptr is not device memory of the current device " << dev
                                                                            << "; accepted: a device pointer");

  kernels::L2PrefetchParams p;
  p.base = reinterpret_cast<const char*>(lo);
  p.bytes = end - lo;
  p.pieces = (p.bytes + kernels::kPieceBytes - 1) / kernels::kPieceBytes;
  const uint64_t want = (uint64_t{budget_bytes} + kernels::kPieceBytes - 1) / kernels::kPieceBytes;
  p.budget = want < p.pieces ? want : p.pieces;
  // One CTA per SM at most, fewer when the range has fewer pieces than that.
  const uint64_t grid = p.pieces < static_cast<uint64_t>(sms) ? p.pieces : static_cast<uint64_t>(sms);
  kernels::l2_prefetch_kernel<<<static_cast<unsigned>(grid), kernels::kThreads, 0, stream>>>(p);
  e = cudaGetLastError();
  if (e != cudaSuccess)
    throw Error(ErrorCode::kCudaError, std::string("mixgemm::prefetch_l2: launch failed: ") + cudaGetErrorString(e));
}

}  // namespace mixgemm
