// mixgemm/l2_prefetch.h - bring a weight range into L2 ahead of the GEMM that reads it.
//
// A decode step alternates GEMMs, which stream their weights from HBM, with work that barely
// touches HBM (attention over a short cache, norms, RoPE, SiLU, residual adds): during that
// work the memory system idles. prefetch_l2 issued right after GEMM i for the weights of
// GEMM i+1 lets those bytes travel into L2 while the other kernels run, so GEMM i+1 finds
// them there (docs/design.md, "L2 prefetch across layers"). It is a hint: it never changes a
// result, only where the bytes come from.
#pragma once

#include <cstddef>
#include <cstdint>

typedef struct CUstream_st* cudaStream_t;

namespace mixgemm {

// Launches one short kernel on `stream` whose threads issue asynchronous L2 prefetches
// (cp.async.bulk.prefetch.L2, 4 KB each) over [ptr, ptr + bytes) and exit: the kernel ends
// once the requests are issued, the fills complete in the background while later kernels on
// the stream run. At most `budget_bytes` are requested: when the range is larger, 4 KB
// pieces evenly spread over the whole range are taken (piece j of P when
// floor((j + 1) B / P) > floor(j B / P), B = budget pieces), so every part of a later
// GEMM's split finds the same share in L2. The range is rounded inward to 16-byte
// boundaries (bulk prefetches need them); nothing outside it is touched and nothing is
// written. bytes == 0 or budget_bytes < 16 launches nothing.
//
// No allocation, no host synchronization, safe inside CUDA graph capture. Throws
// mixgemm::Error (nothing launched) when ptr is null with bytes > 0, is not device memory
// of the current device, or the current device is not sm_90 (Hopper).
void prefetch_l2(const void* ptr, size_t bytes, size_t budget_bytes, cudaStream_t stream);

}  // namespace mixgemm
