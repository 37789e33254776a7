// mma.cuh - wrappers for the data-movement and tensor-core instructions of the
// small-M kernels: mma.sync (16-bit, s8, e4m3), ldmatrix, cp.async, and the
// streaming 128-bit global load with cache hints.
//
// One function per PTX instruction (as in ptx.cuh). Shared-memory addresses are
// 32-bit `.shared` window offsets (cvta), which is what ldmatrix / cp.async take
// and saves a 64-bit register pair per address.
#pragma once

#include <cstdint>

namespace mixgemm::kernels::ptx {

// ---- shared-memory addresses -----------------------------------------------------
__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// ---- tensor cores (mma.sync, warp-wide) ------------------------------------------
// A: 16 x 16 (row) 16-bit fragment (4 regs), B: 16 x 8 (col) fragment (2 regs),
// C/D: 16 x 8 f32 (4 regs): d0,d1 row g cols 2t,2t+1; d2,d3 row g+8.
__device__ __forceinline__ void mma_f16_16816(float (&d)[4], const uint32_t (&a)[4],
                                              uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

__device__ __forceinline__ void mma_bf16_16816(float (&d)[4], const uint32_t (&a)[4],
                                               uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// 8-bit: A 16 x 32 (4 regs of 4 bytes), B 32 x 8 (2 regs), s32 accumulate (exact).
__device__ __forceinline__ void mma_s8_16832(int32_t (&d)[4], const uint32_t (&a)[4],
                                             uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// e4m3 x e4m3 -> f32 (sm_89+).
__device__ __forceinline__ void mma_e4m3_16832(float (&d)[4], const uint32_t (&a)[4],
                                               uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// ---- e4m3 -> f16 ------------------------------------------------------------------
// cvt.rn.f16x2.e4m3x2: the e4m3 in bits [0,8) of a becomes the f16 in bits [0,16) of
// the result, bits [8,16) the upper f16. Exact (every e4m3 value is an f16 value).
__device__ __forceinline__ uint32_t cvt_f16x2_e4m3x2(uint32_t a) {
  uint32_t d;
  const uint16_t a16 = static_cast<uint16_t>(a);
  asm("cvt.rn.f16x2.e4m3x2 %0, %1;\n" : "=r"(d) : "h"(a16));
  return d;
}

// ---- ldmatrix ------------------------------------------------------------------
// Each of the 4 (2) 8x8 b16 matrices: lanes 8i..8i+7 give the 16-byte row addresses
// of matrix i; lane l receives row l/4, b16 columns 2(l%4), 2(l%4)+1 of matrix i in
// register i. That is exactly the mma B fragment when the smem rows are B's columns
// (here: token rows of the activations, k contiguous).
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
__device__ __forceinline__ void ldmatrix_x2(uint32_t (&r)[2], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(addr));
}

// ---- cp.async (global -> shared, 16 bytes, L1 bypass) ------------------------------
// src_bytes = 16 copies, 0 zero-fills the 16 destination bytes without reading src
// (src must still be a valid-looking address; callers pass the tensor base).
__device__ __forceinline__ void cp_async16_zfill(uint32_t dst, const void* src, bool valid) {
  const int src_bytes = valid ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
               "r"(src_bytes)
               : "memory");
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
// Waits until at most kPending of this thread's committed groups are still in flight.
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// ---- streaming global loads ----------------------------------------------------------
// L2 policy "evict first" for data read exactly once (the weights), so they do not
// push the activations, scales and reduction partials (re-read by many CTAs) out of L2.
__device__ __forceinline__ uint64_t policy_evict_first() {
  uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;\n" : "=l"(p));
  return p;
}

// 16 bytes, read-only path, no L1 allocation (each byte is used once by one lane),
// L2 evict-first policy, and a 256-byte L2 prefetch hint (a warp's 512-byte block and
// its neighbours are contiguous, so whole 256-byte DRAM bursts are wanted anyway).
// Not volatile: the compiler may schedule it, but it must not drop or merge it.
__device__ __forceinline__ uint4 ldg_stream128(const void* p, uint64_t policy) {
  uint4 v;
  asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4], %5;\n"
      : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
      : "l"(p), "l"(policy));
  return v;
}

// The same load without the 256-byte L2 prefetch hint (mixgemm-bench --stream-read: a plain
// read of every weight byte once).
__device__ __forceinline__ uint4 ldg_nc_evict_first128(const void* p, uint64_t policy) {
  uint4 v;
  asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;\n"
      : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
      : "l"(p), "l"(policy));
  return v;
}

// Asynchronous bulk prefetch of `bytes` (multiple of 16, 16-byte aligned address) from
// global memory into L2 (sm_90). No registers, no shared memory, no completion to wait
// for: it only raises the number of DRAM requests in flight ahead of the register loads.
__device__ __forceinline__ void bulk_prefetch_l2(const void* p, uint32_t bytes) {
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;\n" ::"l"(p), "r"(bytes) : "memory");
}

// ---- mbarrier + 1-D bulk copy (TMA engine, no tensor map; sm_90) ------------------------
// The small-M kernels stream their weights global -> shared with one bulk copy per CTA row
// (4-8 KB), completing on a per-slot mbarrier (transaction bytes), several rows ahead.
__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
// Makes the initialized barriers visible to the async proxy (the bulk copies).
__device__ __forceinline__ void mbar_fence_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
// One arrival that also announces `bytes` of transactions for the current phase.
__device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes)
               : "memory");
}
// Blocks until the phase with parity `parity` of the barrier has completed.
__device__ __forceinline__ void mbar_wait_parity(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n"
      ".reg .pred P1;\n"
      "LAB_WAIT:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
      "@!P1 bra LAB_WAIT;\n"
      "}\n" ::"r"(bar),
      "r"(parity)
      : "memory");
}
// `bytes` (multiple of 16, both addresses 16-byte aligned) global -> shared, completing
// `bytes` transactions on `bar`; L2 policy as for ldg_stream128.
__device__ __forceinline__ void bulk_g2s(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar,
                                         uint64_t policy) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint "
      "[%0], [%1], %2, [%3], %4;\n" ::"r"(dst),
      "l"(src), "r"(bytes), "r"(bar), "l"(policy)
      : "memory");
}
// ld.acquire.gpu: a global int read that orders every later read of this thread after it
// (pairs with a release: __threadfence + atomic, or red.release).
__device__ __forceinline__ int ld_acquire_gpu(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];\n" : "=r"(v) : "l"(p) : "memory");
  return v;
}

}  // namespace mixgemm::kernels::ptx
