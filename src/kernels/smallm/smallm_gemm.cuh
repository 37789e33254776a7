// smallm_gemm.cuh - the small-M (decode) mixed-input GEMM kernel template.
//
//   out[M,N] = A[M,K] @ W[K,N],  M <= 64 per token tile, weights prepacked (layout.h)
//
// The problem runs transposed: weight rows n are the MMA M dimension (16 per block),
// tokens are the MMA N dimension (8 per n-tile), k is the MMA K. At decode sizes
// the kernel reads every weight byte exactly once and does little else, so the
// design first serves one goal: keep enough weight loads in flight on every SM for
// the entire kernel (with the shared ring below, 64-128 KB per SM). Measured on the
// H200, it is then bound by instruction issue (dequantization), not DRAM. See
// docs/design-smallm.md for the reasoning and the numbers; in short:
//
// * Work: the grid of k-block "rows" (stripe, kb) is split evenly over the CTAs
//   (stream-K). A stripe is warps * kNBW n-blocks; each warp consumes kNBW
//   adjacent 512-byte blocks per row (the CTA row: 4-8 KB contiguous).
// * Weights: one 1-D bulk copy (cp.async.bulk, TMA engine, no tensor map) per CTA row
//   into a shared-memory ring of ring_rows rows (up to 128 KB), completing on one
//   mbarrier per slot, issued by warp 0 (one lane per row) ring_rows rows ahead; a slot
//   is refilled after the chunk barrier that follows its last read. Each lane reads its
//   16-byte fragment with one conflict-free ld.shared.v4.
// * Activations (and the stripe's group scales / zero points) of each chunk are
//   staged in shared memory by cp.async, kStages-1 chunks ahead, and read as MMA B
//   fragments with ldmatrix, shared by all warps (each warp owns other n-rows).
// * Split-K reduction: a CTA that holds only part of a stripe's k-range writes its
//   f32 (s32) partial tile to the workspace and bumps the stripe's counter; the
//   last to arrive sums all partials of the stripe in fixed CTA (= k) order (its
//   own from registers at its place in that order), applies the epilogue and
//   resets the counter to 0. Deterministic, no spin-waits, graph-safe.
//   Cluster split-K (p.cluster = S >= 2, small layers): the S CTAs of a stripe are one
//   thread-block cluster and sum their partials through distributed shared memory,
//   each CTA a slice of the tile, in the same order (cluster_reduce).
//
// The pieces, one role a file (each a struct over the same tile parameters):
//   smallm_common.cuh    SmallmTraits (the tile's compile-time plan), the chunk walk, SmallmCommon
//                        (element types, per-thread context, the weight ring's cursors)
//   smallm_staging.cuh   SmallmStaging: warp 0's weight ring, the activation / scale stages, e4m3's
//                        f16 pass
//   smallm_mainloop.cuh  SmallmMainloop: one chunk's rows (row waits, conversion, mma.sync)
//   smallm_epilogue.cuh  SmallmEpilogue: segment ends (output, split-K reductions, partial sums) and
//                        the deferred reduction grid's body
//   this file            SmallmCta (the chunk loop, the kernel body), the kernel entries and the
//                        instance tables
// The host side: smallm_launch.cu, smallm_geometry.h / smallm_partition.h, smallm_heuristic.cpp.
#pragma once

#include <cstdint>

#include "kernels/ptx/mma.cuh"
#include "kernels/ptx/sm90.cuh"
#include "kernels/smallm/smallm_common.cuh"
#include "kernels/smallm/smallm_epilogue.cuh"
#include "kernels/smallm/smallm_mainloop.cuh"
#include "kernels/smallm/smallm_staging.cuh"
#include "kernels/smallm/smallm_trace.cuh"

namespace mixgemm::kernels::smallm {

// One CTA: the staging of smallm_staging.cuh, the row loop of smallm_mainloop.cuh and the segment
// ends of smallm_epilogue.cuh, chunk by chunk over the CTA's range of rows.
template <AType A, int kWBits, int kTM>
struct SmallmCta : SmallmCommon<A, kWBits, kTM> {
  using Base = SmallmCommon<A, kWBits, kTM>;
  using typename Base::Tr;
  using typename Base::Acc;
  using typename Base::Ctx;
  using typename Base::RingPos;
  using typename Base::Producer;
  using Base::kNT;
  using Base::kSB;
  using Base::kActStride;
  using Base::kCK;
  using Base::kStages;
  using Staging = SmallmStaging<A, kWBits, kTM>;
  using Mainloop = SmallmMainloop<A, kWBits, kTM>;
  using Epilogue = SmallmEpilogue<A, kWBits, kTM>;

  static __device__ __forceinline__ void zero_acc(Acc (&acc)[kNBW][kNT][4]) {
#pragma unroll
    for (int b = 0; b < kNBW; ++b)
#pragma unroll
      for (int nt = 0; nt < kNT; ++nt)
#pragma unroll
        for (int i = 0; i < 4; ++i) acc[b][nt][i] = Acc(0);
  }

  // ---- the chunk loop of one variant (kMode, kUns), from the CTA's first chunk to its end --
  template <int kMode, bool kUns>
  static __device__ __forceinline__ void chunk_loop(const SmallmKernelParams& p, const Ctx& x, Chunk cur,
                                                    Producer& pr, RingPos& rp, Acc (&acc)[kNBW][kNT][4],
                                                    int nrows, int64_t u0, int* s_flag) {
    int seg_kb0 = cur.kb;  // first k-block of the current segment
    int stage = 0;
    bool first = true;  // only for the trace (dead code without MIXGEMM_SMALLM_TRACE)
    CycleTrace ct;      // likewise
    ct.start();
    while (cur.rows > 0) {
      const Chunk nxt = next_chunk<kCK>(cur, p.KBn);
      // One barrier per chunk. Before it: this thread's copies of chunk `cur` landed (the
      // groups committed so far are chunks <= it + kStages - 2). After it: everyone's did,
      // and every thread has finished the previous chunk, so its stage (it - 1) % kStages =
      // (it + kStages - 1) % kStages may take chunk it + kStages - 1, its ring rows may be
      // refilled, and s_flag / e4m3's f16 buffer may be rewritten.
      ptx::cp_async_wait<kStages - 2>();
      __syncthreads();
      ct.lap(kCycBarrier);
      if (first) smallm_trace(kTraceFirstStage);
      first = false;
      Staging::load_stage(p, x, kStages == 3 ? next_chunk<kCK>(nxt, p.KBn) : nxt, stage == 0 ? kStages - 1 : stage - 1);
      ptx::cp_async_commit();
      if constexpr (Tr::kConvertA) {
        // The f16 buffer was last read in the previous chunk, which every thread finished
        // before the barrier above.
        Staging::convert_stage(p, x, cur, stage);
        __syncthreads();
      }
      ct.lap(kCycStage);

      // Every row before this chunk has been consumed by all warps (the barrier above
      // follows the previous chunk's last reads): their slots may be refilled.
      if (x.warp == 0) Staging::produce(p, x, pr, min(nrows - cur.left + p.ring_rows, nrows), nrows, u0);
      ct.lap(kCycProduce);
      const long long row_wait = Mainloop::template compute_chunk<kMode, kUns>(p, x, acc, rp, stage, cur);
      ct.lap(kCycRows);
      ct.move(kCycRows, kCycRowWait, row_wait);

      const bool stripe_end = cur.kb + cur.rows == p.KBn;
      if (nxt.rows == 0) {  // the CTA's last segment ends here; the ring is dead from now on
        smallm_trace(kTraceFinalSegment);
        // Final reduction: all fragments (4 for TM 64) and several contributors at once:
        // 8 for TM 8 (16 loads of 16 B per lane in flight), 2 for TM 16 (4 spilled). Small
        // shapes have 9-17 contributors per stripe, each batch one dependent L2 round trip
        // (~0.19 us per contributor in the fitted time model); the additions keep their order.
        Epilogue::template finish_segment<(kTM >= 64 ? 4 : 8), (kTM >= 32 ? 1 : kTM == 16 ? 2 : 8), true>(
            p, x, acc, cur.stripe, seg_kb0 == 0 && stripe_end, s_flag);
        ct.lap(kCycSegment);
        break;
      }
      if (stripe_end) {  // a segment ends inside the range (CTA-uniform)
        Epilogue::template finish_segment<2, 1, false>(p, x, acc, cur.stripe, seg_kb0 == 0, s_flag);
        zero_acc(acc);
        seg_kb0 = 0;  // any following segment starts a stripe
        ct.lap(kCycSegment);
      }
      cur = nxt;
      stage = stage + 1 == kStages ? 0 : stage + 1;
    }
    ct.dump();
  }

  // ---- the kernel body ------------------------------------------------------------------
  // kVariant = smallm_variant_of(mode, b_unsigned): the kernel holds that variant's chunk loop
  // only (TM >= 16; until session 63 those tiles switched per chunk inside one loop).
  // kVariant = kSmallmAnyVariant (TM 8): one kernel holds all six chunk loops and switches once,
  // on p. A TM 8 kernel per variant measured 1.04-1.06x slower on the large f16 g128 layers:
  // ptxas wraps its row wait in a convergence region (BSSY / BSYNC, YIELD, WARPSYNC: 160 SASS
  // instructions per row against 153), though 2-4% faster on the small ones (smaller code).
  // docs/design-smallm.md, "Session 63".
  template <int kVariant>
  static __device__ __forceinline__ void run(const SmallmKernelParams& p) {
    extern __shared__ __align__(128) uint8_t smem[];
    __shared__ int s_flag;

    // A deferred split-K's reduction grid may take the SM resources our CTAs free as they exit
    // (it waits for this grid's completion before it reads anything). At entry: in CUDA graphs
    // every later point measured slower (0.5-6%), and stream-launched, a trigger right after the
    // prologue cost the rows 6-10% (docs/design-smallm.md, "Session 61").
    if (p.deferred) ptx::griddep_launch_dependents();
    smallm_trace(kTraceEntry);
    Ctx x;
    x.lane = threadIdx.x & 31;
    x.warp = threadIdx.x >> 5;
    x.W = blockDim.x >> 5;
    x.c = blockIdx.x;
    x.C = gridDim.x;
    x.mt = blockIdx.y;
    // floor(c U / C) without a 64-bit division (smallm_partition.h); gridDim.x == part.C.
    const int64_t u0 = row_start(p.part, x.c);
    const int64_t u1 = row_start(p.part, x.c + 1);
    smallm_trace(kTraceRowRange);
    if (u0 >= u1) return;  // the host keeps C <= U, so this does not happen
    x.m_base = x.mt * kTM;
    x.m_rem = min(kTM, p.M - x.m_base);
    x.smem = smem;
    x.smem_u32 = ptx::smem_u32(smem);
    {
      // ldmatrix lane address: x4: row (lane&7) + 8*(lane>>4) (n-tile pair), +16 bytes for
      // lanes 8..15 / 24..31 (b1); x2: row lane&7, +16 for lanes 8..15.
      const int row = (x.lane & 7) + (kNT >= 2 ? 8 * (x.lane >> 4) : 0);
      x.ldm_lane = row * kActStride + ((x.lane >> 3) & 1) * 16;
    }
    x.col_off = (x.warp * kNBW * 16 + (x.lane >> 2)) * kSB;
    x.policy = ptx::policy_evict_first();
    x.ring_u32 = x.smem_u32 + p.ring_off;
    x.bar_u32 = x.smem_u32 + p.bar_off;
    x.row_bytes = x.W * kNBW * layout::kBlockBytes;
    const int nrows = static_cast<int>(u1 - u0);

    // Token rows past M stay zero in every stage (the MMA columns they feed are not stored,
    // but zeros keep the partial tiles finite and the sanitizer quiet).
    if (x.m_rem < kTM) {
      // The MMA-side buffers: every stage, or e4m3's single f16 buffer behind them.
      const int st_first = Tr::kConvertA ? kStages : 0;
      const int st_last = Tr::kConvertA ? kStages : kStages - 1;
      for (int st = st_first; st <= st_last; ++st) {
        uint8_t* base = smem + st * p.stage_bytes + x.m_rem * kActStride;
        const int n16 = (kTM - x.m_rem) * kActStride / 16;
        for (int i = threadIdx.x; i < n16; i += blockDim.x)
          reinterpret_cast<uint4*>(base)[i] = make_uint4(0, 0, 0, 0);
      }
    }

    smallm_trace(kTraceZeroFill);
    Chunk cur = first_chunk<kCK>(u0, u1, p.part);
    // Warp 0 fills the weight ring while the other warps request the first kStages - 1
    // activation/scale stages (in parallel, so that the ring requests do not wait ~0.5-0.9 us
    // for warp 0's share of the stage requests: s7-round1).
    Producer pr{0, 0, cur.stripe, cur.kb};
    if (x.warp == 0) {
      if (x.lane < p.ring_rows) ptx::mbar_init(x.bar_u32 + x.lane * 8, 1);
      ptx::mbar_fence_init();
      __syncwarp();
      Staging::produce(p, x, pr, min(p.ring_rows, nrows), nrows, u0);
    }
    // A programmatic dependent launch (GemmArgs::programmatic_dependent_launch): the weights
    // are in flight; the activations and token scales are the previous kernel's output.
    if (p.pdl_wait) ptx::griddep_wait();
    {
      Chunk ld = cur;
#pragma unroll
      for (int s = 0; s < kStages - 1; ++s) {
        Staging::load_stage(p, x, ld, s, 32);
        ptx::cp_async_commit();
        ld = next_chunk<kCK>(ld, p.KBn);
      }
    }
    smallm_trace(kTraceStagesIssued);
    smallm_trace(kTraceRingIssued);
    RingPos rp{0, 0u};

    Acc acc[kNBW][kNT][4];
    zero_acc(acc);

    // The variant (scale mode x weight bias) is kernel-uniform: each chunk loop keeps its
    // accumulators in place, with no dispatch per chunk.
    smallm_trace(kTraceChunkLoop);
    static_assert(kVariant == kSmallmAnyVariant ? kTM == 8 : (kVariant >= 0 && kVariant < kSmallmVariants),
                  "smallm variant: one per kernel, or all of them at TM 8");
    if constexpr (kVariant != kSmallmAnyVariant) {
      chunk_loop<kVariant / 2, (kVariant % 2) != 0>(p, x, cur, pr, rp, acc, nrows, u0, &s_flag);
    } else switch (smallm_variant_of(p.mode, p.b_unsigned)) {
      case 0: chunk_loop<kScaleNone, false>(p, x, cur, pr, rp, acc, nrows, u0, &s_flag); break;
      case 1: chunk_loop<kScaleNone, true>(p, x, cur, pr, rp, acc, nrows, u0, &s_flag); break;
      case 2: chunk_loop<kScaleBlock, false>(p, x, cur, pr, rp, acc, nrows, u0, &s_flag); break;
      case 3: chunk_loop<kScaleBlock, true>(p, x, cur, pr, rp, acc, nrows, u0, &s_flag); break;
      case 4: chunk_loop<kScaleStep, false>(p, x, cur, pr, rp, acc, nrows, u0, &s_flag); break;
      default: chunk_loop<kScaleStep, true>(p, x, cur, pr, rp, acc, nrows, u0, &s_flag); break;
    }
    ptx::cp_async_wait<0>();  // no copy may outlive the CTA's shared memory
    smallm_trace(kTraceExit);
  }
};

template <AType A, int kWBits, int kTM, int kVariant>
__global__ void __launch_bounds__(kMaxWarps * 32, kTM <= 16 ? 2 : 1)
    smallm_kernel(const __grid_constant__ SmallmKernelParams p) {
  SmallmCta<A, kWBits, kTM>::template run<kVariant>(p);
}

// The deferred split-K reduction of the kernels with activation A and token tile kTM (its code
// does not depend on the weight bits: SmallmEpilogue<A, 4, kTM> serves every weight type).
template <AType A, int kTM>
__global__ void __launch_bounds__(kReduceThreads) smallm_reduce_kernel(const __grid_constant__ SmallmKernelParams p) {
  SmallmEpilogue<A, 4, kTM>::reduce_run(p);
}

template <AType A>
void (*smallm_reduce_instance(int token_tile))(SmallmKernelParams) {
  switch (token_tile) {
    case 8: return smallm_reduce_kernel<A, 8>;
    case 16: return smallm_reduce_kernel<A, 16>;
    case 32: return smallm_reduce_kernel<A, 32>;
    case 64: return smallm_reduce_kernel<A, 64>;
    default: return nullptr;
  }
}

// The kernel of one variant (smallm_variant_of: scale mode x weight bias) for a token tile.
template <AType A, int kBits, int kTM>
void (*smallm_variant_instance(int variant))(SmallmKernelParams) {
  switch (variant) {
    case 0: return smallm_kernel<A, kBits, kTM, 0>;
    case 1: return smallm_kernel<A, kBits, kTM, 1>;
    case 2: return smallm_kernel<A, kBits, kTM, 2>;
    case 3: return smallm_kernel<A, kBits, kTM, 3>;
    case 4: return smallm_kernel<A, kBits, kTM, 4>;
    case 5: return smallm_kernel<A, kBits, kTM, 5>;
    default: return nullptr;
  }
}

// The instance for (activation A, weight bits, token tile, variant); null for a tile or variant
// that is not built. Each smallm_inst_*.cu instantiates it for its own (A, bits) family only. One
// kernel per variant at TM >= 16 (a launch's code is one chunk loop beside the prologue), one
// kernel for all variants at TM 8 (run's comment says why).
template <AType A, int kBits>
void (*smallm_instance(int token_tile, int variant))(SmallmKernelParams) {
  switch (token_tile) {
    case 8:
      if (variant < 0 || variant >= kSmallmVariants) return nullptr;
      return smallm_kernel<A, kBits, 8, kSmallmAnyVariant>;
    case 16: return smallm_variant_instance<A, kBits, 16>(variant);
    case 32: return smallm_variant_instance<A, kBits, 32>(variant);
    case 64: return smallm_variant_instance<A, kBits, 64>(variant);
    default: return nullptr;
  }
}

}  // namespace mixgemm::kernels::smallm
