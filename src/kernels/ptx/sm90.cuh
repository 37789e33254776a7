// sm90.cuh - wrappers for the Hopper-only instructions of the sm90 wgmma kernels:
// TMA tensor loads, wgmma fences / commit / wait, shared-memory matrix descriptors,
// setmaxnreg and named barriers; and the cluster / distributed-shared-memory instructions of
// smallm's cluster split-K. One function per PTX instruction (as ptx.cuh).
// The register-A wgmma itself is generated (kernels/ptx/wgmma_rs.cuh in the build tree:
// one instruction with 4 + TN/2 register operands per token tile).
#pragma once

#include <cuda.h>

#include <cstdint>

namespace mixgemm::kernels::ptx {

// ---- TMA: 2-D tiled tensor load, completing on an mbarrier ---------------------------
// Box of the tensor map at coordinates (c0 innermost, c1) -> shared `dst` (swizzled as the
// map says); elements outside the tensor are zero-filled and still counted in the
// barrier's transaction bytes (the whole box always arrives).
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap* map, int32_t c0,
                                            int32_t c1, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
      "[%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
}

// ---- TMA: 2-D tiled tensor store from shared memory, in a bulk async-group ---------------------
// Shared `src` (laid out / swizzled as the map says) -> the box of the tensor map at (c0, c1);
// elements outside the tensor are not written. The source may be reused after
// bulk_wait_group_read; the generic-proxy writes that produced it must be fenced first
// (fence_proxy_async_shared, by every writing thread, then a barrier).
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, uint32_t src, int32_t c0, int32_t c1) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(
                   reinterpret_cast<uint64_t>(map)),
               "r"(src), "r"(c0), "r"(c1)
               : "memory");
}
__device__ __forceinline__ void bulk_commit_group() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }
// Wait until at most kPending bulk groups of this thread still read their shared source.
template <int kPending>
__device__ __forceinline__ void bulk_wait_group_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(kPending) : "memory");
}
// Wait until at most kPending bulk groups of this thread are incomplete (writes done).
template <int kPending>
__device__ __forceinline__ void bulk_wait_group() {
  asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(kPending) : "memory");
}
// Orders this thread's generic-proxy shared-memory writes before later async-proxy (TMA) reads.
__device__ __forceinline__ void fence_proxy_async_shared() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

__device__ __forceinline__ void prefetch_tensormap(const CUtensorMap* map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

// ---- mbarrier: a plain arrival (count 1, no transaction bytes) --------------------------
__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

// L2 policy "evict normal" (data re-read by other CTAs: large-M weights and activations).
__device__ __forceinline__ uint64_t policy_evict_normal() {
  uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_normal.b64 %0, 1.0;\n" : "=l"(p));
  return p;
}

// ---- wgmma ordering -----------------------------------------------------------------------
// wgmma.fence: register writes before it (the converted A fragments) are visible to the
// wgmma issued after it. Needed before every batch whose A registers were rewritten.
__device__ __forceinline__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
// Closes the batch of wgmma issued since the last commit.
__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
// Waits until at most kPending committed batches are still running (their registers and
// shared-memory operands are free again after this).
template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}

// ---- shared-memory matrix descriptor (wgmma B operand), swizzled, K-major -----------------
// The tile is rows of kRowBytes bytes (64 k of 16-bit or 8-bit values: 128 or 64 bytes),
// 8-row swizzle atoms of 8*kRowBytes bytes, the tile 1024-byte aligned, exactly as TMA's
// 128B / 64B swizzle writes it:
//   bits  0-13  start address >> 4
//   bits 16-29  leading-dimension byte offset >> 4 (unused for swizzled K-major: 1)
//   bits 32-45  stride-dimension byte offset >> 4 = 8 rows * kRowBytes >> 4
//   bits 49-51  base offset (0: atoms are aligned)
//   bits 62-63  layout: 1 = 128-byte swizzle, 2 = 64-byte swizzle
// The wgmma step s of the tile (16 16-bit k or 32 8-bit k: 32 bytes either way) starts
// 32*s bytes further: add 2*s to the descriptor (the swizzle is a function of the address
// bits, so an offset start inside the atom works).
template <int kRowBytes>
__device__ __forceinline__ uint64_t smem_desc_swizzled(uint32_t addr) {
  static_assert(kRowBytes == 128 || kRowBytes == 64, "128B or 64B swizzle");
  constexpr uint64_t kLayout = kRowBytes == 128 ? 1 : 2;
  return static_cast<uint64_t>((addr & 0x3FFFF) >> 4) | (uint64_t{1} << 16) |
         (uint64_t{(8 * kRowBytes) >> 4} << 32) | (kLayout << 62);
}

// ---- registers and barriers ---------------------------------------------------------------
// Hand registers between warpgroups: every thread of the warpgroup executes it.
template <int kRegs>
__device__ __forceinline__ void setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegs));
}
template <int kRegs>
__device__ __forceinline__ void setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegs));
}
// bar.sync on hardware barrier `id` for `threads` threads (a multiple of 32).
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// 16-, 2- and 1-byte shared loads, and a 2-byte store, by window address.
__device__ __forceinline__ uint4 lds128(uint32_t addr) {
  uint4 v;
  asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "r"(addr));
  return v;
}
// stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 (warp-wide): four 8x8 matrices of 16-bit values
// stored transposed. Register i of lane L holds row L/4, columns 2(L%4) and 2(L%4)+1 of matrix i
// (column 2(L%4) in the low half: the mma accumulator layout); lane 8i + r gives the address of
// row r of stored matrix i, which gets column r of register matrix i as 16 contiguous bytes.
__device__ __forceinline__ void stmatrix_x4_trans(uint32_t addr, uint32_t r0, uint32_t r1, uint32_t r2,
                                                  uint32_t r3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), "r"(r0),
               "r"(r1), "r"(r2), "r"(r3)
               : "memory");
}
__device__ __forceinline__ uint32_t lds8(uint32_t addr) {
  uint16_t v;
  asm volatile("ld.shared.u8 %0, [%1];\n" : "=h"(v) : "r"(addr));
  return v;
}
__device__ __forceinline__ uint32_t lds16(uint32_t addr) {
  uint16_t v;
  asm volatile("ld.shared.u16 %0, [%1];\n" : "=h"(v) : "r"(addr));
  return v;
}

// ---- thread-block clusters and distributed shared memory ------------------------------------
// This CTA's rank in its cluster (0 .. cluster size - 1; for a 1-D cluster of S CTAs along x
// it is blockIdx.x % S).
__device__ __forceinline__ uint32_t cluster_ctarank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}
// Cluster-wide barrier, every thread of every CTA of the cluster: shared-memory writes before
// it (release) are visible to the peers' reads after it (acquire), locally and through DSMEM.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n"
               "barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}
// The shared::cluster address of the byte at shared-window address `addr` in CTA `rank`.
__device__ __forceinline__ uint32_t mapa_shared(uint32_t addr, uint32_t rank) {
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(r) : "r"(addr), "r"(rank));
  return r;
}
// 16-byte load from a peer's (or this CTA's) shared memory by shared::cluster address.
__device__ __forceinline__ uint4 ld_shared_cluster128(uint32_t addr) {
  uint4 v;
  asm volatile("ld.shared::cluster.v4.u32 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "r"(addr)
               : "memory");
  return v;
}
// 16-byte store to a peer's (or this CTA's) shared memory by shared::cluster address.
__device__ __forceinline__ void st_shared_cluster128(uint32_t addr, uint4 v) {
  asm volatile("st.shared::cluster.v4.u32 [%0], {%1,%2,%3,%4};\n" ::"r"(addr), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
}
// `bytes` (multiple of 16, 16-byte aligned) from this CTA's shared `src` to shared::cluster `dst`
// (a peer's, by mapa_shared), completing `bytes` transactions on the peer's mbarrier `bar`
// (shared::cluster address): the TMA engine's shared-to-shared copy inside a cluster.
__device__ __forceinline__ void bulk_s2s_cluster(uint32_t dst, uint32_t src, uint32_t bytes, uint32_t bar) {
  asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
                   dst),
               "r"(src), "r"(bytes), "r"(bar)
               : "memory");
}
// 8-byte store to this CTA's shared memory by window address.
__device__ __forceinline__ void sts64(uint32_t addr, uint32_t lo, uint32_t hi) {
  asm volatile("st.shared.v2.u32 [%0], {%1,%2};\n" ::"r"(addr), "r"(lo), "r"(hi) : "memory");
}
// 16-byte store to this CTA's shared memory by window address.
__device__ __forceinline__ void sts128(uint32_t addr, uint4 v) {
  asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};\n" ::"r"(addr), "r"(v.x), "r"(v.y), "r"(v.z),
               "r"(v.w)
               : "memory");
}

// ---- programmatic dependent launch ------------------------------------------------------------
// griddepcontrol.launch_dependents: this CTA lets a grid launched after it on the stream with the
// programmatic-serialization attribute start (its CTAs take SM resources as ours free them). The
// dependent grid sees none of our writes until its griddepcontrol.wait.
__device__ __forceinline__ void griddep_launch_dependents() {
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
}
// griddepcontrol.wait: blocks until every prerequisite grid has completed and its memory
// operations are visible to this thread (a no-op in a grid launched without the attribute).
__device__ __forceinline__ void griddep_wait() { asm volatile("griddepcontrol.wait;\n" ::: "memory"); }

}  // namespace mixgemm::kernels::ptx
