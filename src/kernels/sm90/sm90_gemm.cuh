// sm90_gemm.cuh - the Hopper (sm_90a) mixed-input GEMM kernel template: 16-bit
// activations x 4-/8-bit prepacked weights on register-A wgmma.
//
//   out[M,N] = A[M,K] @ W[K,N], run transposed: out^T = W^T A^T
//
// The weights are wgmma's A operand, from registers: each consumer warp reads its
// 16-row block of the prepacked layout (one 16-byte shared load per lane and 64 k,
// include/mixgemm/layout.h), converts it in registers to the 16-bit A fragment
// (kernels/convert/), and feeds m64nTNk16 wgmma. The activations are the B operand,
// straight from shared memory (TMA, 128-byte swizzle, K-major).
//
// The pieces, one role a file (each a struct over the same tile parameters):
//   sm90_common.cuh    Sm90Traits (the stage ring's shared-memory plan), Sm90Common (element
//                      types, the CTA's work units, the consumer context), the compile switches
//   sm90_producer.cuh  Sm90Producer: WG0, the TMA loads and the e4m3 table warps
//   sm90_mainloop.cuh  Sm90Mainloop: a consumer's A fragments and wgmma over one unit's k-range
//   sm90_epilogue.cuh  Sm90Epilogue: split-K / stream-K partials, scales and bias, TMA stores
//   this file          Sm90Cta (barriers, the warpgroups' roles, the variant switch), the kernel
//                      entry and sm90_info (the kernels of one generated instance)
// The host side: sm90_launch.cu (checks, tensor maps, launch), sm90_partition.h (work units),
// sm90_heuristic.cpp (the tile and split choice).
//
// CTA = 3 warpgroups (384 threads), warp-specialized:
//   WG0 producer: one thread issues, per 64-k block, the TMA tensor load of the
//       activation tile and 1-D bulk copies (TMA engine) of the weight blocks (the
//       kTileN/16 blocks of one k-block are contiguous in the layout: one copy) and of
//       the group-scale / zero-point rows, into a kStages-deep ring, each stage
//       completing on its `full` mbarrier; it waits on the stage's `empty` mbarrier
//       before refilling it. The narrow tiles' stages (kBlockIssue) hold two
//       consecutive 64-k blocks (Sm90Traits::kPair): one wait and one release per two.
//       Warps 1..3 (e4m3 with one group row per block only, except the wide tile's GPTQ
//       kernel, whose consumers build their own) build the stage's per-group weight
//       tables (build_tables). Gives its registers away (setmaxnreg 56).
//   WG1, WG2 consumers (cooperative): both work on the same tile, each on kTileN/2
//       weight rows (kMW m64 atoms), sharing the activation tile. setmaxnreg 224.
// Mainloop of a consumer, per 64-k block i (A fragments double-buffered in registers):
//       fence; issue the 4 wgmma (k16 steps) of block i on F[i%2]; commit
//       wait_group<1>         -> block i-1 done: its stage is free (arrive `empty`) and
//                                so is F[(i+1)%2]
//       wait `full`(i+1) (kPair: only when block i+1 opens a stage); load + convert
//       block i+1 into F[(i+1)%2]
// so the conversion of block i+1 runs while the tensor cores work on block i. (The
// 128 x 256 tile has registers for one k16 step of fragments ahead only: mainloop.)
// e4m3 on these block-issue tiles: every 4th block opens a new wgmma chain after the previous
// one is added into f32 registers (promotion, P = 256 k: sm90_e4m3_promotion_k); 128 x 256 does not.
// Persistent: the grid is at most one CTA per SM; CTA c runs units c, c+C, ... (a unit is
// a tile, or one k-range of a tile: split-K when the tiles do not fill the SMs, and for the
// tiles of a partial last wave; or stream-K, one contiguous range of k-blocks per CTA across
// tiles: sm90_partition.h). The k-parts of a tile write f32 partial tiles to the workspace;
// the last to arrive (atomic counter) sums all of them in ascending k (fixed:
// deterministic), applies the epilogue and re-zeroes the counter. No spin-waits, no
// allocation: graph-safe.
// Epilogue: out = RN_out(fma(acc, RN_f32(tok[m] * ch[n]), bias[n])) (docs/semantics.md),
// staged through shared memory by stmatrix as [token][64 weight rows] boxes (128B swizzle)
// and written by TMA stores (one per box, clipped at M and N) while the consumers go on.
#pragma once

#include <cstdint>

#include "kernels/ptx/mma.cuh"
#include "kernels/ptx/sm90.cuh"
#include "kernels/sm90/sm90_common.cuh"
#include "kernels/sm90/sm90_epilogue.cuh"
#include "kernels/sm90/sm90_instances.h"
#include "kernels/sm90/sm90_mainloop.cuh"
#include "kernels/sm90/sm90_producer.cuh"

namespace mixgemm::kernels::sm90 {

// One CTA: the producer warpgroup of sm90_producer.cuh and the two consumer warpgroups of
// sm90_mainloop.cuh and sm90_epilogue.cuh on one shared-memory stage ring.
template <AType A, int kWBits, int kTileN, int kTileT>
struct Sm90Cta : Sm90Common<A, kWBits, kTileN, kTileT> {
  using Base = Sm90Common<A, kWBits, kTileN, kTileT>;
  using typename Base::Tr;
  using typename Base::Acc;
  using typename Base::Ctx;
  using Base::kMW;
  using Base::kAcc;
  using Base::kStages;
  using Base::kTableThreads;
  using Base::part_of;
  using Base::unit_of;
  using Producer = Sm90Producer<A, kWBits, kTileN, kTileT>;
  using Mainloop = Sm90Mainloop<A, kWBits, kTileN, kTileT>;
  using Epilogue = Sm90Epilogue<A, kWBits, kTileN, kTileT>;

  // A consumer's whole persistent loop for one variant.
  template <bool kUns, int kMode>
  static __device__ __forceinline__ void consume(const Ctx& c, const Sm90KernelParams& p, int* s_flag) {
    int stage = 0;
    uint32_t phase = 0;
    Acc acc[kMW][kAcc];
    for (int u = blockIdx.x; u < p.units; u += gridDim.x) {
      // Only the block count (and, for kTablesPerGroup, the first block's place in its group)
      // go into the mainloop; the epilogue recomputes the unit's coordinates (registers are
      // scarce with 128 accumulators).
      const Sm90UnitPos q = sm90_unit_pos(u, part_of(p));
      const int nk = q.kb1 - q.kb0;
      if (nk == 0) continue;  // stream-K: past this CTA's range
      if (c.ctid == 0) sm90_mark(p, 2);  // first unit's mainloop entered
      Mainloop::template mainloop<kUns, kMode>(c, p, nk, q.kb0, acc, stage, phase);
      if (c.ctid == 0) sm90_mark(p, 4);  // first unit's mainloop done
      if (c.ctid == 0) sm90_mark<false>(p, 14);  // last unit's mainloop done
      Epilogue::epilogue(c, p, unit_of(p, u), acc, s_flag);
      if (c.ctid == 0) sm90_mark<false>(p, 8);  // last unit's epilogue done
    }
    if (c.ctid == 0) ptx::bulk_wait_group<0>();  // the output stores are complete before the CTA ends
    if (c.ctid == 0) sm90_mark<false>(p, 9);  // consumer exit
  }

  // kVariant (Sm90Variant): kSm90VariantAny reads the variant from the parameters; the wide
  // tile's extra kernels fix it at compile time (sm90_info).
  template <int kVariant>
  static __device__ __forceinline__ void run(const Sm90KernelParams& p) {
    extern __shared__ uint8_t smem_raw[];
    __shared__ int s_flag;
    // 1024-byte aligned base: the 128B-swizzle atoms of the activation tiles need it.
    const uint32_t raw = ptx::smem_u32(smem_raw);
    const uint32_t base = (raw + 1023u) & ~1023u;
    const uint32_t full0 = base + Tr::kOffBar;
    const uint32_t empty0 = full0 + kStages * 8;
    const uint32_t tab0 = full0 + 2 * kStages * 8;
    const int wg = threadIdx.x / 128;
    if (threadIdx.x == 0) sm90_mark(p, 0);  // entry

    if (threadIdx.x == 0) {
      for (int s = 0; s < kStages; ++s) {
        ptx::mbar_init(full0 + s * 8, 1);                    // the producer's arrive + tx bytes
        ptx::mbar_init(empty0 + s * 8, 128 * kConsumerWGs);  // one arrival per consumer thread
        if constexpr (Tr::kTables) ptx::mbar_init(tab0 + s * 8, kTableThreads);  // one per table thread
      }
      ptx::mbar_fence_init();
      ptx::prefetch_tensormap(&p.act_map);
      if constexpr (Tr::kTailBox)
        if (p.tail_tt >= 0) ptx::prefetch_tensormap(&p.act_tail_map);
      ptx::prefetch_tensormap(&p.out_map);
      sm90_mark(p, 10);  // barriers initialized
    }
    __syncthreads();

    if (wg == 0) {
      ptx::setmaxnreg_dec<kProducerRegs>();
      if (threadIdx.x == 0) {
        sm90_mark(p, 11);  // producer starts
        Producer::produce(p, base, full0, empty0);
        sm90_mark<false>(p, 1);  // producer: every load issued
      } else if (threadIdx.x >= 32 && Mainloop::template use_tables<kSm90ScaleAny>(p)) {
        // Warps 1..3: the tables (the per-channel kernel has no group rows; the GPTQ kernel's
        // consumers build their own: kTablesPerGroup).
        if constexpr (kVariant != kSm90VariantPlain && kVariant != kSm90VariantGptq)
          Producer::build_tables(p, base, full0, tab0, threadIdx.x - 32);
      }
      return;
    }
    ptx::setmaxnreg_inc<kConsumerRegs>();
    if (threadIdx.x == 128) sm90_mark(p, 13);  // consumers start
    Ctx c;
    c.ctid = threadIdx.x - 128;
    c.base = base;
    c.wofs = Tr::kOffW + Mainloop::block_of(c, 0) * layout::kBlockBytes + c.lane() * 16;
    c.sofs = (Mainloop::block_of(c, 0) * 16 + (c.lane() >> 2)) * Tr::kSB;
    if constexpr (Tr::kA8) {  // 16-bit activations: pinning took the f16 wide tile 1-4% longer (s18-pinofs)
      c.wofs = ptx::pin(c.wofs);
      c.sofs = ptx::pin(c.sofs);
    } else if constexpr ((kVariant == kSm90VariantGptq && Mainloop::template kUnitForm<false, kSm90ScaleBlock>) ||
                         (kVariant == kSm90VariantAwq && Mainloop::template kUnitForm<true, kSm90ScaleBlock>)) {
      // The wide tile's GPTQ (AWQ) kernel with the unit form reads the scales only at group starts, where
      // ptxas, at the 168-register cap, re-derived sofs from the thread index (7 instructions);
      // pinned: a group start 15 instructions instead of 21, the block's straight path 91 (92).
      c.sofs = ptx::pin(c.sofs);
    }
    // Kernel-uniform variant: one compiled consumer per (weight bias, scale mode), each with
    // its own accumulators (a switch per unit with shared accumulators made ptxas move them
    // between the variants' register assignments and serialize every wgmma: C7515).
    if constexpr (kVariant == kSm90VariantGptq) {
      // The wide tile's GPTQ kernel (sm90_info): biased weights, one group row per 64-k
      // block, flags known at compile time.
      consume<false, kSm90ScaleBlock>(c, p, &s_flag);
      return;
    } else if constexpr (kVariant == kSm90VariantPlain) {
      // The wide tile's per-channel kernel (sm90_info): biased weights, no group scales.
      consume<false, kSm90ScaleNone>(c, p, &s_flag);
      return;
    } else if constexpr (kVariant == kSm90VariantAwq) {
      // The wide tile's AWQ kernel (sm90_info): u4 weights, one group row per 64-k block; whether
      // the group scales and the zero points are present is read at run time (per block, or per
      // group with the unit form).
      consume<true, kSm90ScaleBlock>(c, p, &s_flag);
      return;
    } else if constexpr (!Tr::kBlockIssue && !Tr::kA8) {
      consume<false, kSm90ScaleAny>(c, p, &s_flag);
      return;
    } else if constexpr (Tr::kA8Wide) {
      consume<false, kSm90ScaleAny>(c, p, &s_flag);  // bias and scale mode read at run time
      return;
    } else {
      switch (p.mode * 2 + (p.b_unsigned ? 1 : 0)) {
        case 0: consume<false, kSm90ScaleNone>(c, p, &s_flag); break;
        case 1: consume<true, kSm90ScaleNone>(c, p, &s_flag); break;
        case 2: consume<false, kSm90ScaleBlock>(c, p, &s_flag); break;
        case 3: consume<true, kSm90ScaleBlock>(c, p, &s_flag); break;
        case 4: consume<false, kSm90ScaleStep>(c, p, &s_flag); break;
        default: consume<true, kSm90ScaleStep>(c, p, &s_flag); break;
      }
    }
  }
};

template <AType A, int kWBits, int kTileN, int kTileT, int kVariant = kSm90VariantAny>
__global__ void __launch_bounds__(kThreads, 1) sm90_kernel(const __grid_constant__ Sm90KernelParams p) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  Sm90Cta<A, kWBits, kTileN, kTileT>::template run<kVariant>(p);
#endif
}

// The kernels of one generated instance. The wide 16-bit tile (128 x 256) reads the weight
// bias and the scale mode at run time: one copy of its mainloop fits 168 registers, two
// spill (172 bytes). So the variant GPTQ checkpoints use (u4b8 with group scales, one group
// row per 64-k block) gets a kernel of its own with compile-time flags: at M = 8192 the
// run-time flags cost ~12 of ~45 warp instructions per k16 step (ncu, s9-profile) and the
// tensor pipe ran at 82% against cuBLAS's 94%. The launcher picks fn_gptq for that variant.
// e4m3's wide tile gets one too (its run-time-flag consumer branched on the weight bias, the
// zero points and the scale mode per k32 step: 15% of its warp instructions were branches,
// ncu s10-profile); s8's too since the grouped s8 tile stopped being producer-bound (block
// loop 96 SASS instructions against 334, 0.80-0.86x the time at M >= 1024, s15-khi; before the
// producer change it gained nothing, s15-s8gptq); ptxas spills 4 bytes in its epilogue, outside
// the mainloop. The 8-bit-activation wide tiles also get a per-channel kernel
// (biased weights, no group scales: QQQ's per-channel W4A8): 0.92-0.98x the time for e4m3,
// 0.93-1.01x for s8 (s10-plainab); the 16-bit one measured 0.93-1.07x (no gain), so it has none.
// With MIXGEMM_SM90_AWQ_KERNEL=1 (the default since session 72) the 16-bit wide tile also gets one for
// u4 with one group row per 64-k block (AWQ: group scales and zero points, their presence read per
// block): its block loop is 128 SASS instructions against the run-time-flag loop's 359 (all variants'
// branches; 92 + 26 per group start with the unit form), 168 registers, no spills.
template <AType A, int kWBits, int kTileN, int kTileT>
Sm90KernelInfo sm90_info() {
  using Tr = Sm90Traits<A, kWBits, kTileN, kTileT>;
  Sm90KernelInfo info{sm90_kernel<A, kWBits, kTileN, kTileT>, Tr::kSmemBytes, nullptr, nullptr, nullptr};
  if constexpr (!Tr::kBlockIssue)
    info.fn_gptq = sm90_kernel<A, kWBits, kTileN, kTileT, kSm90VariantGptq>;
  if constexpr (Tr::kA8Wide) info.fn_plain = sm90_kernel<A, kWBits, kTileN, kTileT, kSm90VariantPlain>;
  if constexpr (MIXGEMM_SM90_AWQ_KERNEL && !Tr::kBlockIssue && !Tr::kA8 && kWBits == 4)
    info.fn_awq = sm90_kernel<A, kWBits, kTileN, kTileT, kSm90VariantAwq>;
  return info;
}

}  // namespace mixgemm::kernels::sm90
