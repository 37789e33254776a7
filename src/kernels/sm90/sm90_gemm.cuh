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

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "kernels/convert/convert_16bit.cuh"
#include "kernels/convert/convert_8bit.cuh"
#include "kernels/gemm_params.h"
#include "kernels/ptx/mma.cuh"
#include "kernels/ptx/sm90.cuh"
#include "kernels/ptx/wgmma_rs.cuh"
#include "kernels/sm90/sm90_instances.h"
#include "kernels/sm90/sm90_kernel_params.h"
#include "kernels/sm90/sm90_partition.h"
#include "mixgemm/layout.h"

// The unit form (Sm90Cta::kUnitForm: f16 / bf16 x u4b8 and u4 with or without zero points, f16 x u8b128
// and u8, one group row per 64-k block, on the block-issue tiles and the 128 x 256 tile's GPTQ and AWQ
// kernels; docs/design-sm90.md "The unit form"). Where it is compiled in:
//   2 (default): where it measured faster (session 72, bench/results/2026-12-05-h200/s72-awq/): the
//      128 x 128 tile with f16 and u4 + zero points or 8-bit weights (0.94-0.97x the time at
//      M = 128..1024); u4b8 and bf16 there, the other tiles and the 128 x 256 kernels measured
//      0.98-1.03x (s71-unitform/, s72-awq/), so they keep the base form;
//   1: every tile and weight type it covers (to test and time it everywhere);
//   0: nowhere (every kernel's SASS is the base form's).
#ifndef MIXGEMM_SM90_UNIT_FORM
#define MIXGEMM_SM90_UNIT_FORM 2
#endif
// The 16-bit wide tile's AWQ kernel (sm90_info: u4 with one group row per 64-k block, the variant fixed
// at compile time, as the GPTQ kernel). Default 1 since session 72: 0.92-0.98x the run-time-flag
// kernel's time for f16 / bf16 u4 g128 at M = 256..2048 (s72-awq/); 0 compiles the instances without it.
#ifndef MIXGEMM_SM90_AWQ_KERNEL
#define MIXGEMM_SM90_AWQ_KERNEL 1
#endif

namespace mixgemm::kernels::sm90 {

inline constexpr int kKBlock = 64;          // k per pipeline stage (one 4-bit layout block)
inline constexpr int kConsumerWGs = 2;      // cooperative: two consumer warpgroups per tile
inline constexpr int kThreads = 128 * (1 + kConsumerWGs);
inline constexpr int kProducerRegs = 56;    // 128*56 + 256*224 = 64512 <= 65536
inline constexpr int kConsumerRegs = 224;
inline constexpr int kSmemPerBlock = 227 * 1024;  // sm_90 opt-in maximum
inline constexpr int kMaxStages = 16;  // small tiles: enough weight bytes in flight to stream at M <= 32

__host__ __device__ constexpr int round_up(int x, int m) { return (x + m - 1) / m * m; }

template <AType A, int kWBits, int kTileN, int kTileT>
struct Sm90Traits {
  static_assert(kWBits == 4 || kWBits == 8, "4- or 8-bit weights");
  // 8-bit activations (s8, e4m3: W4A8) run k32 wgmma steps on 8-bit A fragments.
  static constexpr bool kA8 = A == AType::kS8 || A == AType::kE4M3;
  static_assert(!kA8 || kWBits == 4, "8-bit activations take 4-bit weights");
  static_assert(kTileN == 128 || kTileN == 256, "64 or 128 weight rows per consumer warpgroup");
  static_assert(kTileT == 16 || kTileT == 32 || kTileT == 64 || kTileT == 128 || kTileT == 256, "wgmma N (tokens)");
  static constexpr bool kBF16 = A == AType::kBF16;
  static constexpr int kEB = kA8 ? 1 : 2;                    // activation bytes
  static constexpr int kKStep = kA8 ? 32 : 16;               // k per wgmma
  static constexpr int kSteps = kKBlock / kKStep;            // wgmma steps per 64-k block
  static constexpr int kRowBytes = kKBlock * kEB;            // activation tile row: 128 or 64 B
  static constexpr int kSB = A == AType::kS8 ? 1 : 2;        // bytes per group scale / zero
  // The generated register-A wgmma of this activation type (WgmmaRS's first parameter).
  static constexpr int kWgmmaKind = A == AType::kF16 ? 0 : A == AType::kBF16 ? 1 : A == AType::kS8 ? 2 : 3;
  static constexpr int kMW = kTileN / (64 * kConsumerWGs);  // m64 atoms per consumer warpgroup
  static constexpr int kAcc = kTileT / 2;                    // f32 accumulators per atom and thread
  static constexpr int kLayoutKb = kWBits == 4 ? 1 : 2;      // layout k-blocks (KB 64 / 32) per stage
  // Issue granularity (see mainloop): a whole 64-k block (4 wgmma, one fence) where the
  // accumulators leave registers for two blocks of fragments, else one k16 step.
  // (kMW * kAcc <= 64: sm90_block_issue, the one definition the host reads too.)
  static constexpr bool kBlockIssue = sm90_block_issue(kTileN, kTileT);
  // e4m3 on the block-issue tiles: a new wgmma chain every kPromoteBlocks blocks, the finished one
  // added into f32 registers (mainloop; sm90_e4m3_promotion_k). 0: no promotion.
  static constexpr int kPromoteBlocks = A == AType::kE4M3 && kBlockIssue ? MIXGEMM_SM90_E4M3_PROMOTE_BLOCKS : 0;
  // Independent accumulator chains per atom (kBlockIssue only): k16 step s accumulates into
  // set s % kAccSets, summed in set order after the unit's last block. A narrow wgmma
  // (m64n32k16, m64n64k16) is short next to its latency, so one chain of dependent steps
  // leaves the tensor cores idle; 4 (32 tokens) or 2 (64 tokens) chains overlap.
  static constexpr int kAccSets = kMW > 1 ? 1 : kTileT == 32 ? 4 : kTileT == 64 ? 2 : 1;
  // Step S of a block accumulates into set S % kAccSets, so with more sets than steps the sets past the steps
  // would be summed unwritten (a 32-token one-atom tile of 8-bit activations: 2 k32 steps per block, 4 sets;
  // not generated).
  static_assert(kAccSets <= kSteps, "every accumulator set gets a k step of each block");
  // 8-bit activations on the k-step mainloop (128 x 256): one compiled consumer with
  // run-time flags (two copies of its mainloop spill), as the 16-bit 128 x 256 tile.
  static constexpr bool kA8Wide = kA8 && !kBlockIssue;
  static constexpr int kNBlk = kTileN / 16;                  // 16-row layout blocks per tile
  // One stage: activation tile (1024-aligned for the 128B swizzle), weights, scale rows,
  // zero rows (up to 4 group rows each: group size 16).
  static constexpr int kActBytes = kTileT * kRowBytes;
  static constexpr int kWBytes = kNBlk * layout::kBlockBytes * kLayoutKb;
  static constexpr int kSRowBytes = kTileN * kSB;
  static constexpr int kSBytes = 4 * kSRowBytes;
  // A partial last token tile loads its rows through act_tail_map (produce_v; sm90_tail_box).
  static constexpr bool kTailBox = sm90_tail_box(kTileT, kEB);
  // e4m3 with one group row per 64-k block (kSm90ScaleBlock): per weight row, the 16 possible
  // e4m3 weights of the stage's group (16 bytes, built by the table warps: Sm90Cta::build_tables;
  // unused by the wide tile's GPTQ kernel, whose consumers build their tables in registers).
  static constexpr bool kTables = A == AType::kE4M3;
  static constexpr int kTBytes = kTables ? kTileN * 16 : 0;
  static constexpr int kOffW = kActBytes;
  static constexpr int kOffS = kOffW + kWBytes;
  static constexpr int kOffZ = kOffS + kSBytes;
  static constexpr int kOffT = kOffZ + kSBytes;
  // One 64-k block's share of a stage (activation box, weights, group rows, tables).
  static constexpr int kSubBytes = round_up(kOffT + kTBytes, 1024);
  // Blocks per stage: the narrow tiles (kBlockIssue) put two consecutive 64-k blocks of a unit
  // in one stage (two sub-stages of kSubBytes, one `full` and one `empty` barrier), so their
  // consumers wait for a stage and release it once per two blocks, and the second block's
  // shared loads follow the first's without a barrier wait. A unit with an odd block count
  // ends on a stage holding one block. e4m3's table warps build both blocks' tables before
  // they arrive on the stage's `tables` barrier.
  static constexpr int kPair = kBlockIssue ? 2 : 1;
  static constexpr int kStageBytes = kPair * kSubBytes;
  // Epilogue staging: the output tile as kTileN / 64 boxes of [kTileT tokens][64 columns] 16-bit,
  // 128-byte rows with the 128B swizzle (16-byte chunk c of token row r at chunk c ^ (r & 7)): the
  // layout the TMA store of out_map reads, and the 8 rows of a stmatrix store hit 8 bank groups.
  static constexpr int kEpiBoxBytes = kTileT * 128;
  static constexpr int kEpiBytes = (kTileN / 64) * kEpiBoxBytes;
  static constexpr int kBarBytes = (kTables ? 3 : 2) * kMaxStages * 8 + 16;  // full, empty (, tables)
  static constexpr int kStagesFit = (kSmemPerBlock - 1024 - kEpiBytes - kBarBytes) / kStageBytes;
  static constexpr int kStages = kStagesFit < kMaxStages ? kStagesFit : kMaxStages;
  static_assert(kStages >= 2, "at least double buffering");
  static_assert(kStages * kPair <= 32 || !kTailBox, "the tail box tracks each block slot of the stages in 32 bits");
  static constexpr int kOffEpi = kStages * kStageBytes;
  static constexpr int kOffBar = kOffEpi + kEpiBytes;
  static constexpr int kSmemBytes = 1024 + kOffBar + kBarBytes;  // + slack to align to 1024
  static_assert(kSmemBytes <= kSmemPerBlock, "shared memory");
  // The activation box is whole swizzle atoms (8 rows of kRowBytes: 1024 B for 16-bit, 512 B for 8-bit
  // activations) and every (sub-)stage starts 1024-aligned.
  static_assert(kActBytes % (8 * kRowBytes) == 0 && kSubBytes % 1024 == 0 && kStageBytes % 1024 == 0,
                "swizzle atoms stay aligned");
  static_assert(kTileN % 64 == 0 && kOffEpi % 1024 == 0 && kEpiBoxBytes % 1024 == 0, "epilogue boxes stay aligned");
};

// Diagnostic timeline (-DMIXGEMM_SM90_TRACE only; nothing without it): %globaltimer (ns) at
// milestones of a CTA into p.trace[blockIdx.x * 16 + slot]. kFirst: only the earliest time of a
// launch counts (the launcher fills the buffer with ones before a traced launch; red.global.min),
// else the last one (a store). Neither waits for memory: until session 34 a kFirst mark read the
// slot back first, and that global round trip (~0.3-1 us at a launch's start) delayed the marking
// thread, so the prologue marks of s22-trace/ and s34-trace/ are late by the marks before them.
template <bool kFirst = true>
__device__ __forceinline__ void sm90_mark(const Sm90KernelParams& p, int slot) {
#ifdef MIXGEMM_SM90_TRACE
  if (p.trace) {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    unsigned long long* d = p.trace + blockIdx.x * 16 + slot;
    if constexpr (kFirst) atomicMin(d, t);  // result unused: a fire-and-forget reduction
    else *d = t;
  }
#else
  (void)p;
  (void)slot;
#endif
}

template <AType A, int kWBits, int kTileN, int kTileT>
struct Sm90Cta {
  using Tr = Sm90Traits<A, kWBits, kTileN, kTileT>;
  using T16 = std::conditional_t<Tr::kBF16, __nv_bfloat16, __half>;
  using Acc = std::conditional_t<A == AType::kS8, int32_t, float>;  // s32 for int8 (exact), else f32
  static constexpr bool kIntAcc = std::is_same_v<Acc, int32_t>;
  // The register-A wgmma of a consumer variant. e4m3 activations with biased weights and no
  // group scales (QQQ's per-channel W4A8) give the weights to the wgmma as e5m2 (kind 4,
  // .e5m2.e4m3): q - 8 is exact in both formats, so the products are the same, and
  // cvt_u4x4_e5m2_b8 needs no lookup tables (the e4m3 tables' registers were rematerialized
  // by ptxas in every step of the wide tile's loop: 115 SASS instructions per block against
  // s8's 88).
  template <bool kUns, int kMode>
  static constexpr bool kE5m2Weights = A == AType::kE4M3 && !kUns && kMode == kSm90ScaleNone;
  template <bool kUns, int kMode>
  using Wgmma = ptx::WgmmaRS<kE5m2Weights<kUns, kMode> ? 4 : Tr::kWgmmaKind, kTileT>;
  static constexpr int kMW = Tr::kMW, kAcc = Tr::kAcc, kStages = Tr::kStages;
  // The wide tile's split-K reduction issues this many float4 loads per part together
  // (epilogue). 2 and 4 compile to the same registers (ptxas: 0-8 bytes kept in local memory
  // across the reduction); 8 keeps 12-16 bytes.
  static constexpr int kWideReduceBatch = 4;
  // 1.0 in the scale type: bf16, u8 integer (s8, QQQ), else f16.
  static constexpr uint32_t kOne = Tr::kBF16 ? 0x3F80u : (A == AType::kS8 ? 1u : 0x3C00u);

  template <class T>
  static __device__ __forceinline__ T as16(uint32_t bits) {
    if constexpr (std::is_same_v<T, __half>) return __ushort_as_half(static_cast<unsigned short>(bits));
    else return __ushort_as_bfloat16(static_cast<unsigned short>(bits));
  }
  static __device__ __forceinline__ uint32_t word(const uint4& v, int i) {
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
  }

  struct Unit {
    int nsplit, part, slot, s0, step, skip, nt, tt, kb0, kb1;  // sm90_partition.h; part < 0: a whole tile
  };
  static __device__ __forceinline__ const Sm90Part& part_of(const Sm90KernelParams& p) { return p.part; }
  static __device__ __forceinline__ Unit unit_of(const Sm90KernelParams& p, int u) {
    const Sm90UnitPos q = sm90_unit_pos(u, part_of(p));
    Unit x;
    x.nsplit = q.nsplit;
    x.part = q.part;
    x.slot = q.slot;
    x.s0 = q.slot0;
    x.step = q.slot_step;
    x.skip = q.slot_skip;
    // Weight-row tiles fastest: concurrent CTAs share the activations.
    x.tt = static_cast<int>(sm90_div(static_cast<uint32_t>(q.tile), static_cast<uint32_t>(p.n_tiles), p.n_tiles_div));
    x.nt = q.tile - x.tt * p.n_tiles;
    x.kb0 = q.kb0;
    x.kb1 = q.kb1;
    return x;
  }

  // ---- producer: one thread fills the stage ring --------------------------------------------
  // Per 64-k block: wait for the stage to be free, then the activation tile (TMA), the tile's
  // weight blocks (bulk) and its group-scale / zero-point rows (bulk), all completing on the
  // stage's `full` barrier. The narrow tiles consume a block in ~1000 cycles, and this single
  // thread is on their critical path: ncu (bench/results/2026-11-30-h200/s9-profile/) found
  // it never waiting for a free stage at M = 64..256 while the consumers waited for data, so
  // the loop carries its addresses forward instead of recomputing them (the group row was a
  // 32-bit division per block, ~25 dependent instructions with MUFU/I2F latency).
  //
  // The loop is compiled per staging variant (kRows: group rows per block, 0 without group
  // scales or zero points, 1 in kSm90ScaleBlock; -1 for groups of 16 / 32, rows and flags read
  // from the parameters; kScales, kZeros: which rows are copied when kRows >= 0). With the
  // variant read from the parameters inside the loop, the grouped path was ~100 SASS
  // instructions per block for this one thread, with constant-bank reloads of p.srows / p.gs on
  // its dependent chain, and s8 g128 on the 128 x 256 tile (a block every ~512 cycles at
  // M = 8192) took 1.25-1.3x the time of per-channel even with the consumer's group-scale work
  // removed (session 15, s15-producer/): the producer set the pace.
  template <int kRows, bool kScales, bool kZeros>
  static __device__ __forceinline__ void produce_v(const Sm90KernelParams& p, uint32_t base,
                                                   uint32_t full0, uint32_t empty0) {
    constexpr bool kGrouped = kRows != 0;
    const uint64_t policy = ptx::policy_evict_normal();
    const int64_t wstep = p.b_kstride * Tr::kLayoutKb;                // weight bytes per 64-k block
    const int64_t gstep = static_cast<int64_t>(p.N) * Tr::kSB;       // bytes per group row
    const int gs = p.gs;
    const int srows = kRows > 0 ? kRows : p.srows;
    // Which rows are copied: fixed for kRows >= 0, from the parameters otherwise.
    const bool cs = kRows >= 0 ? kScales : static_cast<bool>(p.has_scales);
    const bool cz = kRows >= 0 ? kZeros : static_cast<bool>(p.has_zeros);
    int stage = 0;
    uint32_t phase = 0;
    // The block slots of the stage ring (stage * kPair + sub) whose rows past M a full box of the
    // last token tile has zero-filled (kTailBox, below): bit s for slot s.
    [[maybe_unused]] uint32_t zeroed = 0;
    for (int u = blockIdx.x; u < p.units; u += gridDim.x) {
      const Unit x = unit_of(p, u);
      const int nb0 = x.nt * Tr::kNBlk;
      const int nbv = min(Tr::kNBlk, p.NB - nb0);  // valid 16-row blocks (last weight tile)
      const uint32_t wbytes = static_cast<uint32_t>(nbv) * layout::kBlockBytes;
      const uint32_t sbytes = static_cast<uint32_t>(nbv) * 16 * Tr::kSB;  // 16 rows per block
      const int n0 = nb0 * 16;
      uint32_t tx = Tr::kActBytes + wbytes * Tr::kLayoutKb;
      if (kGrouped && cs) tx += sbytes * srows;
      if (kGrouped && cz) tx += sbytes * srows;
      // Weights of block kb at b + kb * wstep + nb0 * 512 (+ l * b_kstride for the second
      // layout block of 8-bit weights).
      const uint8_t* wsrc = p.b + x.kb0 * wstep + static_cast<int64_t>(nb0) * layout::kBlockBytes;
      // Group rows: g = k / gs for the block's first k, gk = k % gs, carried from block to
      // block (one division per unit); soff = byte offset of row g, column n0.
      int gk = 0;
      int64_t soff = 0;
      if constexpr (kGrouped) {
        const int k0 = x.kb0 * kKBlock;
        const int g = static_cast<int>(sm90_div(static_cast<uint32_t>(k0), static_cast<uint32_t>(gs), p.gs_div));
        gk = k0 - g * gs;
        soff = g * gstep + static_cast<int64_t>(n0) * Tr::kSB;
      }
      // The last token tile of an M that is not a multiple of kTileT (kTailBox): its M % kTileT rows
      // only (act_tail_map) into a block slot whose rows past M a full box has zero-filled before.
      // TMA zero-fills a full box's rows past M at a cost that grows with those rows (with the exact
      // box the 256-token tile takes 0.68-0.97x the time at M = 320, s52-tail/; 128 x 128 0.58-0.87x
      // at M = 24 / 48, s64-tailbox/), and rows left as a stage held them (nonzero) made f16 up to 9%
      // slower than zeros do (s52-tail/call1: power, most likely). So a CTA's first tail block in
      // each slot loads the full box, and its later ones the exact box, which keeps those zeros: a
      // CTA's units run in tile order, the last token tile's last (sm90_partition.h), so no other
      // tile's rows come after them. Only the accumulator columns of tokens >= M see those rows, and
      // the epilogue never stores them: the box changes no output.
      // This single thread sets the narrow tiles' pace (above): with the slot test in every block's
      // path, 128 x 64 s8 took 1.05-1.12x the time even at M = 128 / 256, where no tile has a tail
      // (s64-tailbox/, as 128 x 128 in session 52). So the blocks run in segments of one map and
      // byte count: a unit without a tail is one segment, through the block loop a tile without
      // the tail box has (the same SASS: checked with scripts/local_sass.sh); a tail unit's blocks
      // are one-block segments until every slot is zeroed, then one segment through the exact box.
      // (The block's code as a lambda called from three loops changed the SASS of every producer,
      // tail box or not, by 5-15 instructions per loop.)
      for (int kb = x.kb0; kb < x.kb1;) {
        const CUtensorMap* amap = &p.act_map;
        uint32_t tx0 = tx;    // a block's bytes
        uint32_t tx1 = tx;    // the next block's, when it shares the stage (kPair 2)
        int kb_end = x.kb1;  // the segment's end
        if constexpr (Tr::kTailBox) {
          if (x.tt == p.tail_tt) {
            constexpr uint32_t kAllSlots =
                Tr::kStages * Tr::kPair == 32 ? ~0u : (1u << (Tr::kStages * Tr::kPair)) - 1u;
            const uint32_t exact_tx = tx - Tr::kActBytes + p.tail_act_bytes;
            if (zeroed == kAllSlots) {
              amap = &p.act_tail_map;
              tx0 = tx1 = exact_tx;
            } else {
              const int slot = stage * Tr::kPair + (Tr::kPair == 2 ? (kb - x.kb0) & 1 : 0);
              const bool exact = ((zeroed >> slot) & 1u) != 0;
              // The next block's slot, read only for the first block of a pair (& 31: the second
              // block's slot + 1 may be 32).
              const bool next_exact = Tr::kPair == 2 && ((zeroed >> ((slot + 1) & 31)) & 1u) != 0;
              if (exact) amap = &p.act_tail_map;
              tx0 = exact ? exact_tx : tx;
              tx1 = next_exact ? exact_tx : tx;
              kb_end = kb + 1;
              zeroed |= 1u << slot;  // a full box zero-fills it; an exact box keeps its zeros
            }
          }
        }
        for (; kb < kb_end; ++kb) {
          const int sub = Tr::kPair == 2 ? (kb - x.kb0) & 1 : 0;  // the block's place in its stage
          const uint32_t full = full0 + stage * 8;
          if (sub == 0) {
            ptx::mbar_wait_parity(empty0 + stage * 8, phase ^ 1u);
            ptx::mbar_arrive_expect_tx(full, Tr::kPair == 2 && kb + 1 < x.kb1 ? tx0 + tx1 : tx0);
          }
          const uint32_t st = base + stage * Tr::kStageBytes + sub * Tr::kSubBytes;
          ptx::tma_load_2d(st, amap, kb * kKBlock, x.tt * kTileT, full);
#pragma unroll
          for (int l = 0; l < Tr::kLayoutKb; ++l)
            ptx::bulk_g2s(st + Tr::kOffW + l * Tr::kNBlk * layout::kBlockBytes, wsrc + l * p.b_kstride, wbytes,
                          full, policy);
          if (kb == x.kb0) sm90_mark(p, 12);  // producer: first stage's loads issued (a unit's first block)
          wsrc += wstep;
          if constexpr (kGrouped) {
            for (int r = 0; r < srows; ++r) {
              const int64_t off = soff + r * gstep;
              if (cs) ptx::bulk_g2s(st + Tr::kOffS + r * Tr::kSRowBytes, p.scales + off, sbytes, full, policy);
              if (cz) ptx::bulk_g2s(st + Tr::kOffZ + r * Tr::kSRowBytes, p.zeros + off, sbytes, full, policy);
            }
            if constexpr (kRows == 1) {
              // One group row per block (gs a multiple of 64): the row moves on every gs / 64 blocks.
              gk += kKBlock;
              if (gk == gs) {
                gk = 0;
                soff += gstep;
              }
            } else {
              gk += kKBlock;
              while (gk >= gs) {  // 64 / gs times for groups of 16 / 32
                gk -= gs;
                soff += gstep;
              }
            }
          }
          if (sub == Tr::kPair - 1 || kb + 1 == x.kb1) {
            if (++stage == kStages) {
              stage = 0;
              phase ^= 1u;
            }
          }
        }
        if constexpr (!Tr::kTailBox) break;  // one segment: the compiler keeps the plain block loop
      }
    }
  }
  static __device__ __forceinline__ void produce(const Sm90KernelParams& p, uint32_t base,
                                                 uint32_t full0, uint32_t empty0) {
    if (p.mode == kSm90ScaleNone) {
      produce_v<0, false, false>(p, base, full0, empty0);
    } else if (p.mode == kSm90ScaleBlock) {
      if (p.has_scales && p.has_zeros) produce_v<1, true, true>(p, base, full0, empty0);
      else if (p.has_scales) produce_v<1, true, false>(p, base, full0, empty0);
      else if (p.has_zeros) produce_v<1, false, true>(p, base, full0, empty0);
      else produce_v<1, false, false>(p, base, full0, empty0);
    } else {
      produce_v<-1, false, false>(p, base, full0, empty0);  // groups of 16 / 32: rows and flags from p
    }
  }

  // ---- table warps: the per-group e4m3 weight tables ----------------------------------------
  // e4m3 activations with one group row per 64-k block: RN_e4m3sat(RN_f16((q - 8) s)) (or
  // RN_f16(q s + zs)) takes ~10 instructions per 4 weights in the consumer (prmt, 2 lop3,
  // 2 sub, 2 mul.f16x2, 2 cvt e4m3x2, prmt: 80 of the wide tile's 126 per block and thread).
  // A (row, group) has only 16 possible results, so warps 1..3 of the producer warpgroup (idle
  // otherwise) compute them once per stage and row, with the converter's two roundings
  // (convert::e4m3_gscale_table: bit-identical), into the stage's table area, and the consumers
  // convert by lookup (convert::lut16x8: 5.5 instructions per 4 weights, no f16 arithmetic).
  // Per stage: wait `full` (the scale / zero rows have landed), 128 or 256 rows over 96
  // threads, then every table thread arrives on the stage's `tables` barrier, which the
  // consumers wait for after `full`. The tables of a stage are rewritten only after its next
  // `full`, i.e. after the consumers released it (their lookups precede their release).
  static constexpr int kTableThreads = 96;
  // The wide tile's GPTQ kernel (kSm90VariantGptq: kSm90ScaleBlock on the k-step mainloop, u4b8)
  // has no table warps: its consumers build the two tables they use (rows g, g+8 of each atom)
  // in registers, once per group, in the group's first block (or the unit's first), and keep
  // them for the group's other blocks (build_reg_tables: 2 scale loads and ~40 instructions per
  // group and thread, under the previous block's last wgmma). No table warps, no `tables`
  // barrier, no table stores or loads in shared memory: 0.97-0.99x the time of the table warps'
  // tables at M = 256..8192 (s20-regtables/). Building the next group's tables a step earlier,
  // from a scale row staged beside the group's last block, gained nothing more (s20-lookahead/).
  template <int kMode>
  static constexpr bool kTablesPerGroup = Tr::kTables && !Tr::kBlockIssue && kMode == kSm90ScaleBlock;
  // Blocks left in the current group, the block kb included (gkb = group size / 64).
  static __device__ __forceinline__ int group_blocks_left(int kb, int gkb) { return gkb - kb % gkb; }
  // Whether a consumer of variant kMode converts by the tables (kTablesPerGroup: its own; else it
  // waits for the table warps' ones: wait_stage).
  template <int kMode>
  static __device__ __forceinline__ bool use_tables(const Sm90KernelParams& p) {
    if constexpr (!Tr::kTables) return false;
    else if constexpr (kMode == kSm90ScaleBlock) return true;
    else if constexpr (kMode == kSm90ScaleAny) return p.mode == kSm90ScaleBlock;
    else return false;
  }
  // The tables of one stage: this table thread's rows tt, tt + 96, ... (2 or 3, unrolled so that
  // their loads and conversions overlap), from the stage's group-scale / zero row.
  static __device__ __forceinline__ void build_stage_tables(uint32_t st, int tt, bool hs, bool hz, int32_t bias) {
    constexpr int kRowsPer = (kTileN + kTableThreads - 1) / kTableThreads;
    uint32_t sb[kRowsPer], zb[kRowsPer];
#pragma unroll
    for (int j = 0; j < kRowsPer; ++j) {
      const int row = tt + j * kTableThreads;
      const bool ok = row < kTileN;
      sb[j] = hs && ok ? ptx::lds16(st + Tr::kOffS + row * 2) : kOne;
      zb[j] = hz && ok ? ptx::lds16(st + Tr::kOffZ + row * 2) : 0u;
    }
#pragma unroll
    for (int j = 0; j < kRowsPer; ++j) {
      const int row = tt + j * kTableThreads;
      if (row < kTileN)
        ptx::sts128(st + Tr::kOffT + row * 16,
                    convert::e4m3_gscale_table(__ushort_as_half(static_cast<unsigned short>(sb[j])),
                                               __ushort_as_half(static_cast<unsigned short>(zb[j])), hz, bias));
    }
  }
  // A table thread's loop over the CTA's units, stage by stage as the producer fills them.
  static __device__ __forceinline__ void build_tables(const Sm90KernelParams& p, uint32_t base, uint32_t full0,
                                                      uint32_t tab0, int tt) {
    const bool uns = p.b_unsigned;
    const bool hs = !uns || p.has_scales, hz = uns && p.has_zeros;
    const int32_t bias = uns ? 0 : 8;
    int stage = 0;
    uint32_t phase = 0;
    for (int u = blockIdx.x; u < p.units; u += gridDim.x) {
      const Sm90UnitPos q = sm90_unit_pos(u, part_of(p));
      const int nk = q.kb1 - q.kb0;
      for (int i = 0; i < nk; i += Tr::kPair) {  // a stage: kPair blocks (a unit's odd last: one)
        ptx::mbar_wait_parity(full0 + stage * 8, phase);
        const uint32_t st = base + stage * Tr::kStageBytes;
        build_stage_tables(st, tt, hs, hz, bias);
        if (Tr::kPair == 2 && i + 1 < nk) build_stage_tables(st + Tr::kSubBytes, tt, hs, hz, bias);
        ptx::mbar_arrive(tab0 + stage * 8);
        if (++stage == kStages) {
          stage = 0;
          phase ^= 1u;
        }
      }
    }
  }

  // ---- consumer ------------------------------------------------------------------------------
  // Per-thread constants of a consumer, kept minimal (the 128 x 256 tile has no register
  // to spare): everything else is derived from these two.
  struct Ctx {
    int ctid;       // 0..255 over both consumer warpgroups
    uint32_t base;  // shared window address of the 1024-aligned dynamic shared memory
    // This thread's byte offsets inside a stage, for atom 0 (w_of / s_of add the atom):
    // wofs: its 16 bytes of its weight block (kOffW + block_of(c, 0) * kBlockBytes + lane * 16);
    // sofs: its row-g entry of a staged group row ((block_of(c, 0) * 16 + g) * kSB).
    // Set once per CTA; pinned (ptx::pin) for 8-bit activations, where ptxas otherwise re-derived
    // them from the thread index in every 64-k block of the wide tile (~12 instructions between
    // the stage wait and the loads; pinned: s8 g128 0.97-0.99x, e4m3 per-channel 0.94-0.97x the
    // time at M = 1024 / 8192, s18-pinofs).
    uint32_t wofs, sofs;
    __device__ __forceinline__ int cwg() const { return ctid >> 7; }         // consumer warpgroup
    __device__ __forceinline__ int warp() const { return (ctid >> 5) & 3; }  // warp in the warpgroup
    __device__ __forceinline__ int lane() const { return ctid & 31; }
    __device__ __forceinline__ uint32_t full0() const { return base + Tr::kOffBar; }
    __device__ __forceinline__ uint32_t empty0() const { return base + Tr::kOffBar + kStages * 8; }
    __device__ __forceinline__ uint32_t tab0() const { return base + Tr::kOffBar + 2 * kStages * 8; }
  };

  // Wait until stage `stage` may be read: its loads have landed (`full`) and, where the
  // consumer converts by tables, its tables are built.
  template <int kMode>
  static __device__ __forceinline__ void wait_stage(const Ctx& c, const Sm90KernelParams& p, int stage,
                                                    uint32_t phase) {
    ptx::mbar_wait_parity(c.full0() + stage * 8, phase);
    if (!kTablesPerGroup<kMode> && use_tables<kMode>(p)) ptx::mbar_wait_parity(c.tab0() + stage * 8, phase);
  }

  // The weights of one stage for this thread (16 bytes per atom; 8-bit weights: the first
  // of two layout blocks) and the scale / zero of rows g and g+8 (load_sz) when one group row
  // serves the whole block.
  struct BlockRegs {
    uint4 v[kMW];
    uint32_t s0[kMW], s1[kMW], z0[kMW], z1[kMW];
    uint4 tg[kMW], tg8[kMW];  // e4m3 in kSm90ScaleBlock: the tables of rows g, g+8 (use_tables)
    // kUnitForm: the unit form's bases of rows g | g+8 (2^(u+9), kept through the work unit) and
    // the group's factors S2, C2 (set at the group's first block, kept for its others).
    uint32_t base2[kMW], S2[kMW], C2[kMW];
  };

  static __device__ __forceinline__ int block_of(const Ctx& c, int mw) {
    return (c.cwg() * kMW + mw) * 4 + c.warp();  // this warp's 16-row layout block in the tile
  }
  // The stage offsets of atom mw (Ctx::wofs, Ctx::sofs): atom mw is 4 layout blocks further.
  static __device__ __forceinline__ uint32_t w_of(const Ctx& c, int mw) { return c.wofs + mw * 4 * layout::kBlockBytes; }
  static __device__ __forceinline__ uint32_t s_of(const Ctx& c, int mw) { return c.sofs + mw * 64 * Tr::kSB; }
  // The stage offset of row g's table of atom mw (row g+8's is 128 bytes further): 16 bytes per
  // row where the scale has 2 (kSB = 2 for e4m3).
  static __device__ __forceinline__ uint32_t t_of(const Ctx& c, int mw) {
    return Tr::kOffT + c.sofs * 8 + mw * 64 * 16;
  }
  // The tables of rows g, g+8 of atom mw.
  static __device__ __forceinline__ void load_tables(const Ctx& c, uint32_t st, int mw, uint4& tg, uint4& tg8) {
    const uint32_t ta = st + t_of(c, mw);
    tg = ptx::lds128(ta);
    tg8 = ptx::lds128(ta + 128);
  }
  // kTablesPerGroup (u4b8 weights): the tables of rows g, g+8 (RN_e4m3sat(RN_f16((q - 8) s))),
  // built by the warp: its 16 rows' tables are 64 words, so lane L builds half L & 1 (words 2h,
  // 2h+1: convert::e4m3_gscale_table_half, 4 add + 4 mul.f16x2 + 4 cvt) of row L >> 1 of its layout block
  // from one scale load, stores them in the stage's table area (unused by this kernel otherwise:
  // only this warp writes and reads these 256 bytes), and every thread loads its two rows'
  // tables back (2 lds128). ~20 instructions per group and thread instead of ~44
  // (e4m3_gscale_table_v twice). Session 22 (s22-warptables/): with the early load below 0.96-0.98x
  // the time at M = 256..8192; without it 1.00-1.01x (the store / load round trip then sits in
  // front of the next block's first conversion). s21-quad/: the same split through shuffles was slower.
  static __device__ __forceinline__ void build_reg_tables(const Ctx& c, uint32_t st, int mw, uint4& tg, uint4& tg8) {
    const int lane = c.lane(), g = lane >> 2;
    // Row L >> 1 of the warp's block: its scale (kSB bytes per row) and its table (16 bytes per
    // row, half h at byte 8h: lane L at 8L from the block's first row).
    const uint32_t s = ptx::lds16(st + Tr::kOffS + s_of(c, mw) + ((lane >> 1) - g) * Tr::kSB);
    uint32_t w0, w1;
    convert::e4m3_gscale_table_half<8>(splat(s), lane & 1, w0, w1);
    const uint32_t tbase = st + t_of(c, mw) - g * 16;
    __syncwarp();  // the previous lookups of this area (an earlier group's) are done
    ptx::sts64(tbase + lane * 8, w0, w1);
    __syncwarp();
    load_tables(c, st, mw, tg, tg8);
  }
  // Four registers of k32 step s of atom mw by the tables (use_tables).
  static __device__ __forceinline__ void dequant_k32_tables(const BlockRegs& r, const uint4& tg, const uint4& tg8,
                                                            int mw, int s, uint32_t (&f)[4]) {
    convert::lut16x8(word(r.v[mw], 2 * s), tg, tg8, f[0], f[1]);
    convert::lut16x8(word(r.v[mw], 2 * s + 1), tg, tg8, f[2], f[3]);
  }
  static __device__ __forceinline__ uint32_t splat(uint32_t b16) { return ptx::prmt(b16, 0u, 0x1010u); }

  // Scale / zero of this thread's rows g, g+8 in staged group row `row` (1.0 / 0 when absent):
  //   f16/bf16 activations and e4m3: the raw 16-bit scale and prepacked zero in the low half
  //   (convert::scale_frag16_lo and the e4m3 converters splat them in their operands);
  //   s8: the u8 integer group scale sg in s, and in z the offset s8_gscale_offset(z * sg)
  //       (z * sg is prepacked; 8 * sg for u4b8, 0 for u4 without zero points).
  template <bool kUns>
  static __device__ __forceinline__ void load_sz(const Sm90KernelParams& p, uint32_t st, uint32_t sofs, int row,
                                                 uint32_t& s0, uint32_t& s1, uint32_t& z0, uint32_t& z1) {
    const uint32_t off = row * Tr::kSRowBytes + sofs;  // sofs = s_of(c, mw)
    constexpr uint32_t k8 = 8 * Tr::kSB;  // row g+8
    if constexpr (A == AType::kS8) {
      s0 = (!kUns || p.has_scales) ? ptx::lds8(st + Tr::kOffS + off) : 1u;
      s1 = (!kUns || p.has_scales) ? ptx::lds8(st + Tr::kOffS + off + k8) : 1u;
      const uint32_t zs0 = (kUns && p.has_zeros) ? ptx::lds8(st + Tr::kOffZ + off) : (kUns ? 0u : 8u * s0);
      const uint32_t zs1 = (kUns && p.has_zeros) ? ptx::lds8(st + Tr::kOffZ + off + k8) : (kUns ? 0u : 8u * s1);
      z0 = convert::s8_gscale_offset(zs0);
      z1 = convert::s8_gscale_offset(zs1);
      return;
    } else {
      // Biased weights (u4b8, u8b128) never carry zero points, so in a grouped mode they
      // always have scales. The raw 16 bits: the f16x2 / bf16x2 operations splat them in their
      // operand (convert::scale_frag16_lo), the e4m3 converters themselves.
      if (!kUns || p.has_scales) {
        s0 = ptx::lds16(st + Tr::kOffS + off);
        s1 = ptx::lds16(st + Tr::kOffS + off + k8);
      } else {
        s0 = s1 = kOne;
      }
      if (kUns) {
        if (p.has_zeros) {
          z0 = ptx::lds16(st + Tr::kOffZ + off);
          z1 = ptx::lds16(st + Tr::kOffZ + off + k8);
        } else {
          z0 = z1 = 0;
        }
      }
    }
  }

  // One k32 step of 4-bit weights for 8-bit activations (W4A8): words 2s (k 0..15 of the
  // step) and 2s+1 (k 16..31); nibbles 0..3 of a word are row g (k 4t..4t+3), 4..7 row g+8
  // (layout.h), i.e. registers 0/1 of the m16n8k32 A fragment from word 2s, 2/3 from 2s+1.
  template <bool kUns, int kMode>
  static __device__ __forceinline__ void dequant_k32(uint32_t x, uint32_t y, uint32_t s0, uint32_t s1, uint32_t z0,
                                                     uint32_t z1, const Sm90KernelParams& p, uint32_t (&f)[4]) {
    constexpr int32_t kBias = kUns ? 0 : 8;
    // Registers 1, 3 (row g+8) are nibbles 4..7 of their word: the converters' kHi selects
    // them without a shift; the per-channel e4m3 tables index with bits [0,16), so it shifts.
    auto one = [&](auto hi, uint32_t w) -> uint32_t {
      constexpr bool kHi = decltype(hi)::value;
      [[maybe_unused]] const uint32_t sg = kHi ? s1 : s0, zg = kHi ? z1 : z0;  // grouped modes only
      if constexpr (A == AType::kS8) {
        // w8 = (q - B) or, with group scales, (q - z) * sg: exact int8 (semantics.md, QQQ).
        if constexpr (kMode == kSm90ScaleNone) return convert::cvt_u4x4_s8<kHi>(w, kBias);
        else return convert::cvt_u4x4_s8_gscale_pre<kHi>(w, sg, zg);
      } else {
        // e4m3: exact e4m3(q - B); with group scales RN_e4m3sat(RN_f16((q-B)*s)) or
        // RN_e4m3sat(RN_f16(q*s + zs)) (zs = 0 without zeros, s = 1 without scales).
        if constexpr (kE5m2Weights<kUns, kMode>) {
          return convert::cvt_u4x4_e5m2_b8<kHi>(w);  // e5m2(q - 8): see Wgmma
        } else if constexpr (kMode == kSm90ScaleNone) {
          return convert::cvt_u4x4_e4m3(kHi ? w >> 16 : w, kBias);
        } else {
          const __half sh = __ushort_as_half(static_cast<unsigned short>(sg));
          const __half zh = __ushort_as_half(static_cast<unsigned short>(zg));
          return convert::cvt_u4x4_e4m3_gscale_bias<kHi>(w, sh, zh, kUns && p.has_zeros, kBias);
        }
      }
    };
    f[0] = one(std::false_type{}, x);
    f[1] = one(std::true_type{}, x);
    f[2] = one(std::false_type{}, y);
    f[3] = one(std::true_type{}, y);
  }

  template <bool kUns, int kMode>
  static __device__ __forceinline__ void load_block_v(const Sm90KernelParams& p, const Ctx& c, uint32_t st,
                                                      BlockRegs& r, bool tabs = true) {
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) {
      r.v[mw] = ptx::lds128(st + w_of(c, mw));
      if constexpr (kTablesPerGroup<kMode>) {  // e4m3, wide tile: the group's tables, built here
        static_assert(!kUns, "the wide tile's GPTQ kernel: u4b8 weights");
        if (tabs) build_reg_tables(c, st, mw, r.tg[mw], r.tg8[mw]);  // else: the group's, kept
      } else if constexpr (kMode == kSm90ScaleBlock && Tr::kTables) {  // e4m3: the tables replace them
        load_tables(c, st, mw, r.tg[mw], r.tg8[mw]);
      } else if constexpr (kMode == kSm90ScaleBlock && !kUnitForm<kUns, kMode>) {  // unit form: unit_group_start
        load_sz<kUns>(p, st, s_of(c, mw), 0, r.s0[mw], r.s1[mw], r.z0[mw], r.z1[mw]);
      }
    }
  }

  // Step s of the stage's block (k16 steps 0..3, or k32 steps 0..1 for 8-bit activations)
  // -> the A fragment of each of this thread's atoms.
  // The variant (kUns: u4/u8 vs u4b8/u8b128; kMode: Sm90ScaleMode) is a template parameter:
  // with no run-time branch inside, the compiler interleaves the conversions of all steps
  // (measured: run-time flags here cost ~2.5x the instructions of the conversion itself).
  template <bool kUns, int kMode>
  static __device__ __forceinline__ void dequant_step_v(const Sm90KernelParams& p, const Ctx& c, uint32_t st,
                                                        BlockRegs& r, int s, uint32_t (&F)[kMW][4]) {
    if constexpr (Tr::kA8) {
#pragma unroll
      for (int mw = 0; mw < kMW; ++mw) {
        if constexpr (Tr::kTables && kMode == kSm90ScaleBlock) {
          dequant_k32_tables(r, r.tg[mw], r.tg8[mw], mw, s, F[mw]);
          continue;
        }
        uint32_t s0 = r.s0[mw], s1 = r.s1[mw], z0 = r.z0[mw], z1 = r.z1[mw];
        if constexpr (kMode == kSm90ScaleStep)  // group size 32: staged row (32 s) / gs
          load_sz<kUns>(p, st, s_of(c, mw), s * 32 / p.gs, s0, s1, z0, z1);
        dequant_k32<kUns, kMode>(word(r.v[mw], 2 * s), word(r.v[mw], 2 * s + 1), s0, s1, z0, z1, p, F[mw]);
      }
    } else {
#pragma unroll
      for (int mw = 0; mw < kMW; ++mw) {
        uint32_t (&f)[4] = F[mw];
        // kUnitForm: w * 2^u, one fma per register with the group's S2, C2 (no scale step below).
        if constexpr (kWBits == 4) {
          // word s of the lane's 16 bytes is k16 step s (layout.h)
          if constexpr (kUnitForm<kUns, kMode>) {
            convert::cvt_u4_unit_frag16<T16>(word(r.v[mw], s), r.S2[mw], r.C2[mw], f);
            continue;
          }
          if constexpr (kUns) convert::cvt_u4_frag16<T16>(word(r.v[mw], s), f);
          else convert::cvt_u4b8_frag16<T16>(word(r.v[mw], s), f);
        } else {
          // 8-bit: layout k-block s/2 (32 k), its k16 step s%2 = words 2(s%2), 2(s%2)+1; the
          // second layout block replaces the first in the same registers (saves 4 per atom).
          if (s == 2)
            r.v[mw] = ptx::lds128(st + w_of(c, mw) + Tr::kNBlk * layout::kBlockBytes);
          const uint4& v = r.v[mw];
          const uint2 w2 = make_uint2(word(v, 2 * (s & 1)), word(v, 2 * (s & 1) + 1));
          if constexpr (kUnitForm<kUns, kMode>) {
            convert::cvt_u8_unit_frag16<T16>(w2, r.S2[mw], r.C2[mw], f);
            continue;
          }
          if constexpr (kUns) convert::cvt_u8_frag16<T16>(w2, f);
          else convert::cvt_u8b128_frag16<T16>(w2, f);
        }
        if constexpr (kMode != kSm90ScaleNone) {
          uint32_t s0 = r.s0[mw], s1 = r.s1[mw], z0 = r.z0[mw], z1 = r.z1[mw];
          if constexpr (kMode == kSm90ScaleStep)  // group size 16 or 32: staged row (16 s) / gs
            load_sz<kUns>(p, st, s_of(c, mw), s * 16 / p.gs, s0, s1, z0, z1);

          // u4/u8: RN(q*s + zs) (zs = 0 without zeros, s = 1 without scales);
          // u4b8/u8b128: RN((q-B)*s) (biased weights never carry zeros).
          if constexpr (kUns) convert::scale_zero_frag16_lo<T16>(f, s0, s1, z0, z1);
          else convert::scale_frag16_lo<T16>(f, s0, s1);
        }
      }
    }
  }

  // kMode == kSm90ScaleAny: the variant is read from the parameters at every call (a
  // warp-uniform switch). The 128 x 256 tile uses it: one compiled copy of its mainloop
  // (six copies spill its 128 accumulators), and at that tile size the tensor cores, not
  // the conversion, set the pace.
  template <bool kUns, int kMode>
  static __device__ __forceinline__ void load_block(const Sm90KernelParams& p, const Ctx& c, uint32_t st,
                                                    BlockRegs& r, bool tabs = true) {
    if constexpr (kMode != kSm90ScaleAny) {
      load_block_v<kUns, kMode>(p, c, st, r, tabs);
    } else {
      // Run-time flags: the weights, and in kSm90ScaleBlock the raw 16-bit scale / zero of
      // rows g, g+8 (1.0 / 0 when absent), splatted per step by scale_frag16. 8-bit
      // activations: s8 loads the block's scale / zero (one group per 64-k block in
      // kSm90ScaleBlock) once here for both k32 steps; kSm90ScaleStep and e4m3 read them
      // per step (dequant_step_any_a8).
#pragma unroll
      for (int mw = 0; mw < kMW; ++mw) {
        r.v[mw] = ptx::lds128(st + w_of(c, mw));
        if constexpr (Tr::kA8) {
          // s8 only: e4m3 spills 80 bytes with the 4 extra live registers (ptxas, sm_90a).
          if (A == AType::kS8 && p.mode == kSm90ScaleBlock) {
            r.z0[mw] = r.z1[mw] = 0;  // e4m3 u4b8: load_sz leaves the (unused) zeros alone
            if (p.b_unsigned) load_sz<true>(p, st, s_of(c, mw), 0, r.s0[mw], r.s1[mw], r.z0[mw], r.z1[mw]);
            else load_sz<false>(p, st, s_of(c, mw), 0, r.s0[mw], r.s1[mw], r.z0[mw], r.z1[mw]);
          }
          continue;
        }
        r.s0[mw] = r.s1[mw] = kOne;
        r.z0[mw] = r.z1[mw] = 0;
        if (p.mode == kSm90ScaleBlock) {
          const uint32_t off = s_of(c, mw);  // 16-bit scales: kSB = 2
          if (p.has_scales) { r.s0[mw] = ptx::lds16(st + Tr::kOffS + off); r.s1[mw] = ptx::lds16(st + Tr::kOffS + off + 16); }
          if (p.has_zeros) { r.z0[mw] = ptx::lds16(st + Tr::kOffZ + off); r.z1[mw] = ptx::lds16(st + Tr::kOffZ + off + 16); }
        }
      }
    }
  }
  template <bool kUns, int kMode>
  static __device__ __forceinline__ void dequant_step(const Sm90KernelParams& p, const Ctx& c, uint32_t st,
                                                      BlockRegs& r, int s, uint32_t (&F)[kMW][4]) {
    if constexpr (kMode != kSm90ScaleAny) {
      dequant_step_v<kUns, kMode>(p, c, st, r, s, F);
    } else if constexpr (Tr::kA8) {
      dequant_step_any_a8(p, c, st, r, s, F);
    } else {
      dequant_step_any(p, c, st, r, s, F);
    }
  }

  // Run-time flags for 8-bit activations (the 128 x 256 tile: one compiled consumer, since
  // two copies of its mainloop spill): k32 step s of every atom, the weight bias and the
  // scale mode read from the parameters (warp-uniform branches), the group scale / zero of
  // rows g, g+8 from load_block (one group per block) or loaded for this step (group size
  // 32). The same operations as dequant_k32.
  static __device__ __forceinline__ void dequant_step_any_a8(const Sm90KernelParams& p, const Ctx& c, uint32_t st,
                                                             BlockRegs& r, int s, uint32_t (&F)[kMW][4]) {
    const bool uns = p.b_unsigned;
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) {
      const uint32_t x = word(r.v[mw], 2 * s), y = word(r.v[mw], 2 * s + 1);
      const uint32_t src[4] = {x, x >> 16, y, y >> 16};  // the e4m3 tables index with bits [0,16)
      const uint32_t wrd[4] = {x, x, y, y};              // the others select the half (kHi = i & 1)
      uint32_t (&f)[4] = F[mw];
      if (p.mode == kSm90ScaleNone) {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          if constexpr (A == AType::kS8) {
            // per byte q - B as int8: (q + 128 - B) ^ 0x80 (as cvt_u4x4_s8; no carries)
            const uint32_t u = i & 1 ? convert::spread_nibbles<true>(wrd[i]) : convert::spread_nibbles(wrd[i]);
            f[i] = (u + (uns ? 0x80808080u : 0x78787878u)) ^ 0x80808080u;
          } else {
            // e4m3(q - B) by table (cvt_u4x4_e4m3's two tables, chosen at run time)
            f[i] = convert::lut16x4(src[i], uns ? 0x44403800u : 0xCACCCED0u, uns ? 0x4E4C4A48u : 0xB8C0C4C8u,
                                    uns ? 0x53525150u : 0x44403800u, uns ? 0x57565554u : 0x4E4C4A48u);
          }
        }
      } else if (use_tables<kSm90ScaleAny>(p)) {
        uint4 tg, tg8;  // e4m3, one group row per block: the tables (loaded per step here)
        load_tables(c, st, mw, tg, tg8);
        dequant_k32_tables(r, tg, tg8, mw, s, f);
      } else {
        // kSm90ScaleBlock: the block's lookup from load_block; kSm90ScaleStep (group size
        // 32): staged row (32 s) / gs, this step's.
        uint32_t s0, s1, z0 = 0, z1 = 0;
        if (A != AType::kS8 || p.mode == kSm90ScaleStep) {
          // Only groups of 32 span two rows of a block; in kSm90ScaleBlock the block's group
          // is row 0 (a division here for every mode, as from session 5 to 9, is an integer
          // division per k32 step in e4m3's hot loop).
          const int row = p.mode == kSm90ScaleStep ? s * 32 / p.gs : 0;
          if (uns) load_sz<true>(p, st, s_of(c, mw), row, s0, s1, z0, z1);
          else load_sz<false>(p, st, s_of(c, mw), row, s0, s1, z0, z1);
        } else {
          s0 = r.s0[mw], s1 = r.s1[mw], z0 = r.z0[mw], z1 = r.z1[mw];
        }
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          const bool row8 = i & 1;  // registers 1, 3: row g+8
          if constexpr (A == AType::kS8) {
            f[i] = row8 ? convert::cvt_u4x4_s8_gscale_pre<true>(wrd[i], s1, z1)
                        : convert::cvt_u4x4_s8_gscale_pre(wrd[i], s0, z0);
          } else {
            const __half sc = __ushort_as_half(static_cast<unsigned short>(row8 ? s1 : s0));
            const __half zc = __ushort_as_half(static_cast<unsigned short>(row8 ? z1 : z0));
            const bool hz = uns && p.has_zeros;
            f[i] = row8 ? convert::cvt_u4x4_e4m3_gscale_bias<true>(wrd[i], sc, zc, hz, uns ? 0 : 8)
                        : convert::cvt_u4x4_e4m3_gscale_bias(wrd[i], sc, zc, hz, uns ? 0 : 8);
          }
        }
      }
    }
  }

  // Run-time flags, flat (the fewest live registers): the same operations as dequant_step_v
  // for 16-bit activations, each chosen by a warp-uniform branch.
  static __device__ __forceinline__ void dequant_step_any(const Sm90KernelParams& p, const Ctx& c, uint32_t st,
                                                          BlockRegs& r, int s, uint32_t (&F)[kMW][4]) {
    static_assert(!Tr::kA8, "8-bit activations take dequant_step_any_a8");
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) {
      uint32_t (&f)[4] = F[mw];
      if constexpr (kWBits == 4) {
        if (p.b_unsigned) convert::cvt_u4_frag16<T16>(word(r.v[mw], s), f);
        else convert::cvt_u4b8_frag16<T16>(word(r.v[mw], s), f);
      } else {
        if (s == 2)
          r.v[mw] = ptx::lds128(st + w_of(c, mw) + Tr::kNBlk * layout::kBlockBytes);
        const uint4& v = r.v[mw];
        const uint2 w2 = make_uint2(word(v, 2 * (s & 1)), word(v, 2 * (s & 1) + 1));
        if (p.b_unsigned) convert::cvt_u8_frag16<T16>(w2, f);
        else convert::cvt_u8b128_frag16<T16>(w2, f);
      }
      if (p.mode != kSm90ScaleNone) {
        uint32_t s0 = r.s0[mw], s1 = r.s1[mw], z0 = r.z0[mw], z1 = r.z1[mw];
        if (p.mode == kSm90ScaleStep) {  // group size 16 or 32: staged row (16 s) / gs
          const uint32_t off = static_cast<uint32_t>(s * 16 / p.gs) * Tr::kSRowBytes + s_of(c, mw);
          if (p.has_scales) { s0 = ptx::lds16(st + Tr::kOffS + off); s1 = ptx::lds16(st + Tr::kOffS + off + 16); }
          if (p.has_zeros) { z0 = ptx::lds16(st + Tr::kOffZ + off); z1 = ptx::lds16(st + Tr::kOffZ + off + 16); }
        }
        if (p.b_unsigned)
          convert::scale_zero_frag16<T16>(f, as16<T16>(s0), as16<T16>(s1), as16<T16>(z0), as16<T16>(z1));
        else
          convert::scale_frag16<T16>(f, as16<T16>(s0), as16<T16>(s1));
      }
    }
  }

  // One k16 step on every atom: m64 x kTileT x 16 per atom, A from registers.
  template <class W>
  static __device__ __forceinline__ void issue(Acc (&acc)[kMW][kAcc], const uint32_t (&F)[kMW][4],
                                               uint64_t desc, bool first) {
    ptx::wgmma_fence();  // the fragment registers were just written
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) W::run(acc[mw], F[mw], desc, first ? 0 : 1);
    ptx::wgmma_commit();
  }

  // k16 step S of a block (kBlockIssue): accumulator set S % kAccSets, chosen at compile time.
  template <class W, int S, int kSets, int kMore>
  static __device__ __forceinline__ void block_step(Acc (&acc)[kMW][kAcc], Acc (&more)[kMore][kMW][kAcc],
                                                    const uint32_t (&F)[kMW][4], uint64_t desc, bool first) {
    constexpr int kSet = S % kSets;
    const int scale_d = (first && S < kSets) ? 0 : 1;
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) {
      if constexpr (kSet == 0) W::run(acc[mw], F[mw], desc + 2 * S, scale_d);
      else W::run(more[kSet - 1][mw], F[mw], desc + 2 * S, scale_d);
    }
  }

  // Promotion (kPromoteBlocks > 0): the finished chain's sets added into tot, in fixed order
  // ((tot + set 0) + set 1) + ...: deterministic. f32 adds, round to nearest.
  template <int kSets, int kMore>
  static __device__ __forceinline__ void promote(Acc (&tot)[kMW][kAcc], const Acc (&acc)[kMW][kAcc],
                                                 const Acc (&more)[kMore][kMW][kAcc]) {
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw)
#pragma unroll
      for (int j = 0; j < kAcc; ++j) {
        Acc v = tot[mw][j] + acc[mw][j];
#pragma unroll
        for (int set = 1; set < kSets; ++set) v += more[set - 1][mw][j];
        tot[mw][j] = v;
      }
  }

  // This thread is done with the stage: every consumer thread arrives (the `empty` count is
  // 32 per consumer warp), each arrival a release of its own shared-memory reads of the stage,
  // so all of them happen before the producer's refill. With one arrival per warp (lane 0)
  // racecheck reported the refill of a wrapped ring against lanes 1..31's reads (s11; their
  // values had been consumed, no result changed); a __syncwarp before lane 0's arrival made
  // the wide tile spill.
  static __device__ __forceinline__ void release(const Ctx& c, int stage) {
    ptx::mbar_arrive(c.empty0() + stage * 8);
  }

  static __device__ __forceinline__ void advance(int& stage, uint32_t& phase) {
    if (++stage == kStages) {
      stage = 0;
      phase ^= 1u;
    }
  }

  // ---- the unit form ---------------------------------------------------------------------------
  // 4-bit weights with 16-bit group scales, one group row per 64-k block, on the block-issue
  // mainloop (u4b8: C = -8 s 2^u; u4 with or without zero points: C = zs 2^u, s = 1 without group
  // scales, the run-time flags p.has_scales / p.has_zeros read at group starts only): each
  // fragment register in one fma (convert::cvt_u4_unit_frag16: lop3 + fma) instead of an exact
  // sub and a mul (u4: a sub and an fma), computing w * 2^u bit for bit, where 2^u (the unit
  // form's unit, one per weight row, not a work unit) is carried by the row's f32 accumulators
  // (convert_16bit.cuh, "the unit form"). The block loop is paced by its instruction count
  // (docs/design-sm90.md, session 28), so the scales are also loaded and turned into the factors
  // S2, C2 once per group (unit_group_start) instead of every block. On the 128 x 256 tile only its
  // GPTQ kernel (u4b8) and, where built, its AWQ kernel (u4) have it, the tile's kMode ==
  // kSm90ScaleBlock consumers (its other kernel reads the variant at run time), in the k-step
  // mainloop: that tile is tensor-core bound, and what it can gain is the power of the ALU work it
  // no longer does. 8-bit weights (u8b128: C = -128 s 2^u; u8: C = zs 2^u) with f16 only
  // (convert::cvt_u8_unit_frag16, prmt + fma: a byte does not fit under bf16's mantissa).
  // The switch's policy (MIXGEMM_SM90_UNIT_FORM above): 1 everywhere, 2 the 128 x 128 tile with f16 for
  // unsigned weights (u4 with zero points or scales only, u8) and 8-bit ones (u8b128). Not bf16: it
  // measured 0.997x there, and its domain has one more condition (docs/semantics.md 4.1).
  template <bool kUns>
  static constexpr bool kUnitFormHere =
      MIXGEMM_SM90_UNIT_FORM == 1 || (MIXGEMM_SM90_UNIT_FORM == 2 && kTileN == 128 && kTileT == 128 &&
                                      !Tr::kBF16 && (kUns || kWBits == 8));
  template <bool kUns, int kMode>
  static constexpr bool kUnitForm = kUnitFormHere<kUns> && !Tr::kA8 && convert::kUnitFormWeights<T16, kWBits> &&
                                    kMode == kSm90ScaleBlock;

  // Multiplies row half h (0: row g, 1: row g+8) of atom mw of one accumulator set by f: registers
  // 4j + 2h + e (the comment above epilogue). Exact: f is a power of two.
  static __device__ __forceinline__ void scale_row_half(Acc (&set)[kMW][kAcc], int mw, int h, float f) {
#pragma unroll
    for (int j = 0; j < kAcc / 4; ++j) {
      set[mw][4 * j + 2 * h] *= f;
      set[mw][4 * j + 2 * h + 1] *= f;
    }
  }

  // The rare path of a group start: a scale of the warp is outside its row's window. Every row of
  // the warp moves to the unit of its scale (convert::unit_rebase_half), in window or not: the
  // path is warp-uniform and multiplies all of the thread's accumulator registers whatever their
  // factors, so keeping the in-window rows' units would add a select per row and save nothing;
  // the move is exact for them too (a power of two), to the unit a rebase picks for their scale
  // (unit::base_for_scale). Rare for typical scales: a work unit's first group where base0's window
  // misses a scale, zero or subnormal scales (each of their groups), a scale ~4x below or ~8x above
  // the one its row's unit was picked for (f16). kMoveAcc (every group start but the mainloop's first block's,
  // whose accumulators are not yet written: the first wgmma of each set overwrites them) moves the
  // accumulators, after wgmma_wait<0>: the previous block's wgmma, which write them, are still in
  // flight while the next block is converted.
  template <bool kMoveAcc, int kSets, int kMore>
  static __device__ __forceinline__ void unit_rebase(const uint32_t (&s2)[kMW], uint32_t (&t2)[kMW], BlockRegs& r,
                                                     Acc (&acc)[kMW][kAcc], Acc (&more)[kMore][kMW][kAcc]) {
    if constexpr (kMoveAcc) ptx::wgmma_wait<0>();
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const float f = convert::unit_rebase_half<T16>(s2[mw], r.base2[mw], h);
        if constexpr (kMoveAcc) {
          scale_row_half(acc, mw, h, f);
#pragma unroll
          for (int set = 1; set < kSets; ++set) scale_row_half(more[set - 1], mw, h, f);
        }
      }
      t2[mw] = convert::unit_t<T16>(s2[mw], r.base2[mw]);
    }
  }

  // A block that starts a group (or the work unit's first block, wherever it lies in its group):
  // the scales of rows g, g+8 of each atom, their t = s * base and window test, the rebase where
  // any lane of the warp has a scale out of window (a vote: the branch stays warp-uniform), and
  // the group's factors S2, C2. u4 (kUns): s = 1.0 without group scales, and C2 = zs 2^u from the
  // zero terms (0 without zero points) and the bases after any rebase; the zeros are loaded only
  // after the rebase decision, so that they are not held through the rare path.
  template <bool kUns, bool kMoveAcc, int kSets, int kMore>
  static __device__ __forceinline__ void unit_group_start(const Sm90KernelParams& p, const Ctx& c, uint32_t st,
                                                          BlockRegs& r, Acc (&acc)[kMW][kAcc],
                                                          Acc (&more)[kMore][kMW][kAcc]) {
    uint32_t s2[kMW], t2[kMW];
    uint32_t in_window = 1;
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) {
      const uint32_t sa = st + Tr::kOffS + s_of(c, mw);  // row g; row g+8 is 8 * 2 bytes further
      s2[mw] = (kUns && !p.has_scales) ? (kOne | (kOne << 16)) : ptx::lds16(sa) | (ptx::lds16(sa + 16) << 16);
      t2[mw] = convert::unit_t<T16>(s2[mw], r.base2[mw]);
      in_window &= convert::unit_in_window<T16>(t2[mw]);
    }
    if (!__all_sync(0xffffffffu, in_window)) unit_rebase<kMoveAcc, kSets>(s2, t2, r, acc, more);
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) {
      convert::unit_factors<T16, kWBits>(t2[mw], r.S2[mw], r.C2[mw]);
      if constexpr (kUns) {
        const uint32_t za = st + Tr::kOffZ + s_of(c, mw);  // as the scales
        const uint32_t zs2 = p.has_zeros ? ptx::lds16(za) | (ptx::lds16(za + 16) << 16) : 0u;
        r.C2[mw] = convert::unit_zero_term<T16>(zs2, r.base2[mw]);
      }
    }
  }

  // After the mainloop (the sets summed into acc): each row's accumulators x 2^-u, back to real
  // values for everything that reads them (split-K partials, epilogue). Exact: a power of two.
  static __device__ __forceinline__ void unit_leave(const BlockRegs& r, Acc (&acc)[kMW][kAcc]) {
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw)
#pragma unroll
      for (int h = 0; h < 2; ++h) scale_row_half(acc, mw, h, convert::unit_value_factor<T16>(r.base2[mw], h));
  }

  // One unit's k-range; returns with all wgmma complete and every stage released.
  //
  // kBlockIssue (token tiles <= 128): per 64-k block i, one fence and the block's 4 wgmma
  // (back to back on the same accumulators: the tensor cores chain them without a round
  // trip), one commit; then wait_group<1> (block i-1 done: its stage and fragment buffer are
  // free) and convert block i+1 into the other buffer while block i runs. A fence per k16
  // step instead measured ~225 cycles per step whatever the tile (each fence waits for the
  // previous wgmma to retire), i.e. latency-bound below 128 x 256.
  //
  // Otherwise (128 x 256: 128 accumulators leave no registers for two blocks of fragments; the
  // consumers' code is allocated up to setmaxnreg's 224 (ptxas reports the launch's 168; the SASS
  // uses R0..R221: bench/results/2026-12-05-cpu/s78-regs/)) per k16 step with two buffers:
  // issue step q, wait_group<1>, convert step q+1. At this tile size each step is long
  // (m64n256k16 per warpgroup) and the kernel is tensor-core bound.
  template <bool kUns, int kMode>
  static __device__ __forceinline__ void mainloop(const Ctx& c, const Sm90KernelParams& p, const int nk, const int kb0,
                                                  Acc (&acc)[kMW][kAcc], int& stage, uint32_t& phase) {
    using W = Wgmma<kUns, kMode>;
    BlockRegs r;
    wait_stage<kMode>(c, p, stage, phase);
    if (c.ctid == 0) sm90_mark(p, 3);  // first unit's first stage landed
    uint32_t st = c.base + stage * Tr::kStageBytes;
    load_block<kUns, kMode>(p, c, st, r);
    int prev = -1;  // stage of the previous block, until all its wgmma are known done
    if constexpr (Tr::kBlockIssue) {
      constexpr int kSets = Tr::kAccSets;
      Acc more[kSets > 1 ? kSets - 1 : 1][kMW][kAcc];  // sets 1.. (set 0 is acc)
      // Promotion (e4m3, kPromoteBlocks > 0): tot is the f32 sum of the finished chains. A block that
      // opens a chain (every kPromoteBlocks-th block of the work unit, counted from its first) waits for
      // the previous block's wgmma (wgmma_wait<0>: its conversion has run under them, so the wait is
      // short where the conversion paces the loop), adds every set into tot and overwrites the sets.
      constexpr int kPB = Tr::kPromoteBlocks;
      static_assert(kPB == 0 || !kUnitForm<kUns, kMode>, "the unit form is for 16-bit activations only");
      Acc tot[kPB > 0 ? kMW : 1][kPB > 0 ? kAcc : 1];
      if constexpr (kPB > 0) {
#pragma unroll
        for (int mw = 0; mw < kMW; ++mw)
#pragma unroll
          for (int j = 0; j < kAcc; ++j) tot[mw][j] = 0.0f;
      }
      uint32_t F[2][4][kMW][4];
      // kUnitForm: every work unit starts its rows at the unit form's first unit (base0), with a
      // group start at its first block wherever that lies in its group; uleft: blocks left in the
      // group of the block being converted, that block included (gkb = group size / 64).
      constexpr bool kUnitFormOn = kUnitForm<kUns, kMode>;
      [[maybe_unused]] const int gkb = kUnitFormOn ? p.gs / kKBlock : 1;
      [[maybe_unused]] int uleft = kUnitFormOn ? group_blocks_left(kb0, gkb) : 1;
      if constexpr (kUnitFormOn) {
#pragma unroll
        for (int mw = 0; mw < kMW; ++mw) r.base2[mw] = convert::kUnit<T16>.base0;
        unit_group_start<kUns, false, kSets>(p, c, st, r, acc, more);
      }
#pragma unroll
      for (int s = 0; s < Tr::kSteps; ++s) dequant_step<kUns, kMode>(p, c, st, r, s, F[0][s]);
      for (int i = 0; i < nk; i += 2) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {  // unrolled by two: the buffer index is static
          if (h == 1 && i + 1 >= nk) break;
          const uint64_t desc = ptx::smem_desc_swizzled<Tr::kRowBytes>(st);
          // Block i+h opens a promotion chain (i is even: for 4, every other pair's first block).
          const bool opens = kPB == 1 || (kPB == 2 && h == 0) || (kPB == 4 && h == 0 && (i & 2) == 0);
          if constexpr (kPB > 0) {
            if (opens && i + h > 0) {
              ptx::wgmma_wait<0>();  // block i+h-1 done: the chain is complete
              promote<kSets>(tot, acc, more);
            }
          }
          ptx::wgmma_fence();
          // The first use of every set overwrites it (with promotion: of every chain).
          const bool first = kPB > 0 ? opens : i + h == 0;
          block_step<W, 0, kSets>(acc, more, F[h][0], desc, first);
          block_step<W, 1, kSets>(acc, more, F[h][1], desc, first);
          if constexpr (Tr::kSteps == 4) {
            block_step<W, 2, kSets>(acc, more, F[h][2], desc, first);
            block_step<W, 3, kSets>(acc, more, F[h][3], desc, first);
          }
          ptx::wgmma_commit();
          // 128 tokens: the next block's weights and scales are loaded before waiting for block
          // i+h-1 (`r` is free once block i+h was converted), so the stage wait and the
          // shared-memory latency run under the wgmma wait instead of in front of the
          // conversion. Measured (s16-earlyload, one run): 128 x 128 0.97-1.00x the time at
          // M = 128 / 256 for f16 g128, per-channel and s8 g128; 256 x 64 at M = 32 / 64
          // 1.00-1.04x (s8 slower), so the 64-token tiles keep the load after the wait.
          constexpr bool kEarlyNext = kTileT == 128;
          const int cur = stage;
          const bool has_next = i + h + 1 < nk;
          auto next = [&] {
            if (Tr::kPair == 2 && h == 0) {
              st += Tr::kSubBytes;  // the stage's second block: landed with the first
            } else {
              advance(stage, phase);
              wait_stage<kMode>(c, p, stage, phase);
              st = c.base + stage * Tr::kStageBytes;
            }
            load_block<kUns, kMode>(p, c, st, r);
          };
          if (kEarlyNext && has_next) next();
          ptx::wgmma_wait<1>();  // block i+h-1 done
          // kPair: block i+h-1 is the previous stage's last block only when h == 0.
          if ((Tr::kPair == 1 || h == 0) && prev >= 0) release(c, prev);
          prev = cur;
          if (has_next) {
            if (!kEarlyNext) next();
            if constexpr (kUnitFormOn) {
              // A group start, tested by a vote: the branch is warp-uniform to ptxas whatever the
              // code around it. Session 69's code had its wgmma descriptors moved off the uniform
              // datapath by a plain branch on the counter (32 more R2UR per loop); this one compiles
              // without them either way (CUDA 13.0), the vote costing one instruction per block.
              --uleft;
              if (__any_sync(0xffffffffu, uleft == 0)) {  // block i+h+1 starts a group
                uleft = gkb;
                unit_group_start<kUns, true, kSets>(p, c, st, r, acc, more);
              }
            }
#pragma unroll
            for (int s = 0; s < Tr::kSteps; ++s) dequant_step<kUns, kMode>(p, c, st, r, s, F[h ^ 1][s]);
          }
        }
      }
      ptx::wgmma_wait<0>();
      release(c, prev);
      advance(stage, phase);
      if constexpr (kPB > 0) {
        promote<kSets>(tot, acc, more);  // the last chain
#pragma unroll
        for (int mw = 0; mw < kMW; ++mw)
#pragma unroll
          for (int j = 0; j < kAcc; ++j) acc[mw][j] = tot[mw][j];
      } else {
        // Fixed order (set 1, 2, 3 into set 0): deterministic.
#pragma unroll
        for (int set = 1; set < kSets; ++set)
#pragma unroll
          for (int mw = 0; mw < kMW; ++mw)
#pragma unroll
            for (int j = 0; j < kAcc; ++j) acc[mw][j] += more[set - 1][mw][j];
      }
      if constexpr (kUnitFormOn) unit_leave(r, acc);
    } else {
      uint32_t F[2][kMW][4];
      // The next block's weights are loaded right after the current block's last conversion
      // (below), except for grouped e4m3, whose per-step scale lookups made that conversion
      // long: there the early wait for the next stage delayed the last wgmma (measured in one
      // run, s9-e4m3ab: without it e4m3 g128 0.93-0.98x the time at M = 256..8192, s8
      // unchanged). With the consumers' register tables (kTablesPerGroup) loading early was
      // neutral (0.99 / 1.02 / 0.99x at M = 256 / 1024 / 8192, s21-early/), so it stays late.
      // The step after whose conversion the next block's weights and scales are loaded.
      // e4m3 per-channel (e5m2 weights, no scales) loads early since session 21: 0.97-0.98x
      // the time at M = 256..8192 (s21-early/; s10-e4m3ab, with the older e4m3 converter,
      // had measured ~1.02).
      // The GPTQ kernel's warp-built tables load early too (a whole k32 step of slack for their
      // store / load round trip; s22-warptables/: the early load is where their gain comes from).
      constexpr int kLoadStep = A != AType::kE4M3 || kMode == kSm90ScaleNone || kTablesPerGroup<kMode>
                                    ? Tr::kSteps - 2
                                    : Tr::kSteps - 1;
      // kTablesPerGroup: blocks left in the group of the block being converted (block 0 loaded
      // its tables above, whatever its place in its group).
      // (kUnitForm: gkb unsigned, one shift where ptxas recomputes it at a group start.)
      [[maybe_unused]] const int gkb = kUnitForm<kUns, kMode> ? static_cast<int>(static_cast<uint32_t>(p.gs) / kKBlock)
                                       : kTablesPerGroup<kMode> ? p.gs / kKBlock
                                                                : 1;
      [[maybe_unused]] int left = kTablesPerGroup<kMode> ? group_blocks_left(kb0, gkb) : 1;
      // kUnitForm (the GPTQ and AWQ kernels): as on the block-issue tiles, every work unit starts its rows at
      // base0 with a group start at its first block; uleft counts the blocks left in the group of
      // the block being converted. A later group start runs before the next block's first
      // conversion (step kSteps - 1, below), after this block's last wgmma was issued: a rebase
      // waits for it (wgmma_wait<0>), since every wgmma issued so far carries the old units.
      // One accumulator set: `none` stands for the block-issue tiles' further sets (never used).
      [[maybe_unused]] int uleft = kUnitForm<kUns, kMode> ? group_blocks_left(kb0, gkb) : 1;
      [[maybe_unused]] Acc none[1][kMW][kAcc];
      if constexpr (kUnitForm<kUns, kMode>) {
#pragma unroll
        for (int mw = 0; mw < kMW; ++mw) r.base2[mw] = convert::kUnit<T16>.base0;
        unit_group_start<kUns, false, 1>(p, c, st, r, acc, none);
      }
      dequant_step<kUns, kMode>(p, c, st, r, 0, F[0]);
      for (int i = 0; i < nk; ++i) {
        const uint64_t desc = ptx::smem_desc_swizzled<Tr::kRowBytes>(st);  // the stage's activation tile
#pragma unroll
        for (int s = 0; s < Tr::kSteps; ++s) {  // 4 k16 steps, or 2 k32 steps (8-bit)
          issue<W>(acc, F[s & 1], desc + 2 * s, i == 0 && s == 0);
          ptx::wgmma_wait<1>();  // step q-1 done: F[(s+1)&1] is free
          if (s == 0 && prev >= 0) {  // the previous block's last step done: its stage is free
            release(c, prev);
            prev = -1;
          }
          if (s < Tr::kSteps - 1) dequant_step<kUns, kMode>(p, c, st, r, s + 1, F[(s + 1) & 1]);
          if (s == kLoadStep && i + 1 < nk) {
            // The block's registers are dead once its last step is converted, so (kLoadStep =
            // kSteps - 2) the next block is loaded a step early and its shared-memory latency
            // runs under this block's last wgmma (ncu, M = 8192: the next block's first
            // conversion waited on this load, 5.5% of the stall samples). Not for e4m3
            // (kLoadStep = kSteps - 1): its per-step scale lookups make the conversion long,
            // and the early wait for the next stage delayed the last wgmma (s9-e4m3ab: 2-7%).
            // The stage stays held until this block's last wgmma is known done (prev).
            prev = stage;
            advance(stage, phase);
            wait_stage<kMode>(c, p, stage, phase);
            st = c.base + stage * Tr::kStageBytes;
            if constexpr (kTablesPerGroup<kMode>) {
              // block i + 1 starts a group: its tables (build_reg_tables)
              if (--left == 0) left = gkb;
              load_block<kUns, kMode>(p, c, st, r, left == gkb);
            } else {
              load_block<kUns, kMode>(p, c, st, r);
            }
          }
          if (s == Tr::kSteps - 1 && i + 1 < nk) {
            if constexpr (kUnitForm<kUns, kMode>) {
              --uleft;
              if (__any_sync(0xffffffffu, uleft == 0)) {  // block i + 1 starts a group (a vote, as above)
                uleft = gkb;
                unit_group_start<kUns, true, 1>(p, c, st, r, acc, none);
              }
            }
            dequant_step<kUns, kMode>(p, c, st, r, 0, F[0]);
          }
        }
      }
      ptx::wgmma_wait<0>();
      if (prev >= 0) release(c, prev);
      release(c, stage);
      advance(stage, phase);
      if constexpr (kUnitForm<kUns, kMode>) unit_leave(r, acc);
    }
  }

  // ---- epilogue --------------------------------------------------------------------------------
  // Partials travel as 32-bit patterns (f32, or s32 for int8: summed exactly as integers).
  static __device__ __forceinline__ float bits(Acc v) {
    if constexpr (std::is_same_v<Acc, int32_t>) return __int_as_float(v);
    else return v;
  }
  static __device__ __forceinline__ Acc unbits(float v) {
    if constexpr (std::is_same_v<Acc, int32_t>) return __float_as_int(v);
    else return v;
  }
  // The accumulator as the epilogue's f32 (docs/semantics.md: s32 -> f32 round to nearest).
  static __device__ __forceinline__ float to_f32(Acc v) {
    if constexpr (std::is_same_v<Acc, int32_t>) return __int2float_rn(v);
    else return v;
  }

  // Accumulator register (mw, 4j + 2h + e): weight row n = (cwg*kMW + mw)*64 + 16*warp + g + 8h,
  // token m = 8j + 2t + e of the tile.
  static __device__ __forceinline__ void epilogue(const Ctx& c, const Sm90KernelParams& p, const Unit& x,
                                                  Acc (&acc)[kMW][kAcc], int* s_flag) {
    const int g = c.lane() >> 2, t = c.lane() & 3;
    const int n0 = x.nt * kTileN, m0 = x.tt * kTileT;
    // The accumulator columns j (tokens 8j..8j+7) this CTA sums, scales and stores: all of them,
    // except in the two-part exchange (below), where each part takes one half.
    int jlo = 0, jhi = kTileT / 8;
    if (x.part >= 0) {
      // A split tile (sm90_partition.h).
      constexpr int kJ = kTileT / 8;
      constexpr int64_t kTileFloats = int64_t{kTileN} * kTileT;
      // This CTA's own partial is still in `acc`: the last arriver adds the other parts to it
      // instead of reloading it wherever that gives the same bits as the in-order sum
      // p0 + p1 + ...: when it is part 0 (the order is unchanged), when there are two parts
      // (p1 + p0 == p0 + p1: IEEE addition is commutative) and for s32 partials (exact
      // integers, any order). Otherwise (f32, three or more parts, not part 0) every part is
      // loaded as before.
      const bool keep = kIntAcc || x.nsplit == 2 || x.slot == x.s0;
      // Who takes the arrival ticket before storing its partial (below), so that the last arriver
      // stores nothing where it keeps its partial. The wide tile (128 x 256), split or streamed:
      // 0.94-0.95x the time on 70B qkv at M = 256 with 8-bit activations (stream-K), 0.98-0.99x
      // on 70B o (two parts), neutral elsewhere (s30-arrive/). Every streamed tile: its last
      // contributor is the CTA whose range begins in it, which reaches it at the very end, long
      // after the others published (0.95-0.97x where the narrow tiles stream, s31-stream/). Not
      // the narrow tiles' split-K tiles: their parts (up to 16) end together, and the last
      // arriver's wait for the slowest one's stores was 1.00-1.04x slower than storing first.
      constexpr bool kArriveFirst = !Tr::kBlockIssue;
      const bool arrive_first = kArriveFirst || p.part.stream > 0;
      // The exchange (below): tiles of one m64 atom per warpgroup whose token halves are output
      // store boxes (sm90_out_box_tokens): 128 x 256 and 128 x 128.
      constexpr bool kCanExchange = kMW == 1 && kTileT >= 128 && 2 * sm90_out_box_tokens(kTileT) == kTileT;
      // Partial tile in fragment order: float4 (mw, j) of consumer thread ctid at
      // ((mw * kTileT/8 + j) * 256 + ctid): every store and load is a coalesced 4 KB row.
      // The narrow tiles' partials hold only the tile's token columns below M (jv: the columns j with a token
      // 8j < M - m0): the columns past M are TMA's zero fill, and their output rows are clipped. At M = 32 on the
      // 64-token tiles that halves the partial bytes each part stores and the last arriver loads: 0.97-0.98x the
      // time at M = 24 / 32 (down to 0.93x; s56-partialcols/). The wide tile keeps its compile-time bounds (a
      // run-time test per batch kept its loads from issuing early, s31).
      const int jv = Tr::kBlockIssue ? min(kJ, (p.M - m0 + 7) >> 3) : kJ;
      // store_partial_cols(lo, hi): only the columns j in [lo, hi) (the exchange's halves) below jv.
      auto store_partial_cols = [&](int lo, int hi) {
        float4* mine = reinterpret_cast<float4*>(p.partials + static_cast<int64_t>(x.slot) * kTileFloats);
#pragma unroll
        for (int mw = 0; mw < kMW; ++mw)
#pragma unroll
          for (int j = 0; j < kJ; ++j)
            if (j >= lo && j < hi && j < jv)
              __stcg(mine + (mw * kJ + j) * 256 + c.ctid,
                     make_float4(bits(acc[mw][4 * j]), bits(acc[mw][4 * j + 1]), bits(acc[mw][4 * j + 2]),
                                 bits(acc[mw][4 * j + 3])));
      };
      auto store_partial = [&] { store_partial_cols(0, kJ); };
      // Release and acquire by consumer thread 0 alone (as smallm, s12-tailfence): a consumer
      // barrier orders every thread's partial stores before thread 0's fence, which makes them
      // visible device-wide before the counter moves; the last arriver's fence after it has
      // seen every other part's count orders their partials before the next barrier, and so
      // before every thread's loads. (A fence in each of the 256 threads, MEMBAR.SC.GPU, held
      // 5% of the 64-token tile's stall samples, s9-profile2.)
      constexpr int kPublished = 1 << 16;
      int* const ctr = p.counters + x.part;
      if (kCanExchange && p.split_exchange && x.nsplit == 2 && p.part.stream == 0) {
        // The two-part exchange (split-K tiles in two parts, which end at about the same
        // time). Where both parts have arrived, part pi (0: the tile's first k-half) sums,
        // scales and stores token half pi of the tile: it stores the other half of its
        // partial, loads the partner's half pi and keeps its own in registers. Each CTA
        // then moves half a partial tile (64 KB on 128 x 256) instead of the last arriver's
        // whole-tile load after the other's whole-tile store, and stages and copies out half
        // the tile: the steps after the mainloop, which at M = 256 and K = 8192 were ~8 us of
        // a ~35 us launch on 128 x 256, are halved and run on both CTAs at once. Same sums
        // (two parts: p0 + p1 == p1 + p0).
        // The counter: arrivals (+1, bits 0..15), publishes (+kPublished, bits 16..29) and
        // kLeft (bit 30). No part waits for one that has not arrived: the first arriver,
        // after storing the other half, claims "leave" (CAS 1 -> 1 | kLeft) if its partner
        // is still absent, then stores its own half too, publishes once and is done; the
        // partner, arriving to find kLeft, is the classic last arriver (it waits for that
        // publish, then reduces the whole tile). Otherwise both publish their halves; the
        // second to publish resets the counter (it saw the other's publish), the first polls
        // until both published or the counter is reset.
        constexpr int kLeft = 1 << 30, kPubMask = 0x3fff << 16;
        enum : int { kFirst = 0, kSecond = 1, kAfterLeaver = 2, kFirstLeft = 3 };  // kFirstLeft: tests (below)
        const int pi = x.slot != x.s0 ? 1 : 0;
        const int hlo = pi * (kJ / 2), hhi = hlo + kJ / 2;  // this part's half
        const int olo = (kJ / 2) - hlo, ohi = olo + kJ / 2;  // the partner's half
        if (c.ctid == 0) {
          const int old = atomicAdd(ctr, 1);
          int role = (old & 0xffff) == 0 ? kFirst : (old & kLeft) ? kAfterLeaver : kSecond;
          // Tests (split_exchange 2): the first arriver decides at once and almost always leaves.
          if (role == kFirst && p.split_exchange == 2 && atomicCAS(ctr, 1, 1 | kLeft) == 1) role = kFirstLeft;
          *s_flag = role;
        }
        ptx::named_barrier_sync(1, 256);
        const int role = *s_flag;
        if (role == kAfterLeaver) {
          // The partner left: wait for its whole partial, then reduce the whole tile below.
          if (c.ctid == 0) {
            while ((ptx::ld_acquire_gpu(ctr) & kPubMask) != kPublished) {
            }
            atomicExch(ctr, 0);  // leave the workspace zeroed
            __threadfence();
            sm90_mark(p, 5);
          }
          ptx::named_barrier_sync(1, 256);
        } else {
          store_partial_cols(olo, ohi);  // the half the partner finalizes
          ptx::named_barrier_sync(1, 256);
          if (c.ctid == 0) {
            __threadfence();
            bool leave = role == kFirstLeft;
            if (role == kFirst) leave = atomicCAS(ctr, 1, 1 | kLeft) == 1;
            if (!leave) {
              const int old = atomicAdd(ctr, kPublished);
              if ((old & kPubMask) != 0) {
                atomicExch(ctr, 0);  // the partner published first: both halves are out
              } else {
                for (;;) {
                  const int v = ptx::ld_acquire_gpu(ctr);
                  if ((v & kPubMask) == 2 * kPublished || v == 0) break;
                }
              }
              __threadfence();
              sm90_mark(p, 5);
            }
            *s_flag = leave;  // every thread read the role before the barrier above
          }
          ptx::named_barrier_sync(1, 256);
          if (*s_flag) {
            // Leaving: the own half too, then one publish of the whole partial.
            store_partial_cols(hlo, hhi);
            ptx::named_barrier_sync(1, 256);
            if (c.ctid == 0) {
              __threadfence();
              atomicAdd(ctr, kPublished);
              sm90_mark(p, 5);
            }
            return;
          }
          jlo = hlo;
          jhi = hhi;
        }
      } else if (arrive_first) {
        // Arrive first, store after (the counter has two fields, three with the exchange): thread 0
        // takes the arrival ticket (+1, low 16 bits) before any partial is stored, so the last
        // arriver knows it is last before it stores; a part that is not last stores its
        // partial, then publishes it (+kPublished). The last arriver skips its own store where
        // it keeps its partial in registers (`keep`; otherwise its threads read their own
        // stores back) and waits (ld.acquire) until every other part is published. It waits
        // only for parts that have already arrived, i.e. CTAs that are running and have
        // nothing but their stores before their publish: no dependence on CTAs that are not
        // resident (a grid larger than the GPU, a partitioned GPU). (Thread 0 may take the
        // ticket before the other consumer warps leave the mainloop: that only decides who
        // is last.)
        if (c.ctid == 0) *s_flag = (atomicAdd(ctr, 1) & (kPublished - 1)) == x.nsplit - 1;
        ptx::named_barrier_sync(1, 256);
        const bool last = *s_flag;
        if (!last || !keep) store_partial();
        if (!last) {
          ptx::named_barrier_sync(1, 256);
          if (c.ctid == 0) {
            __threadfence();
            atomicAdd(ctr, kPublished);
            sm90_mark(p, 5);  // partial stored and published
          }
          return;
        }
        if (c.ctid == 0) {
          const int done = (x.nsplit - 1) * kPublished + x.nsplit;
          while (ptx::ld_acquire_gpu(ctr) != done) {
          }
          atomicExch(ctr, 0);  // leave the workspace zeroed
          __threadfence();
          sm90_mark(p, 5);  // every other part published
        }
        ptx::named_barrier_sync(1, 256);
      } else {
        // Store, then arrive (the narrow tiles' split-K tiles): every part stores its partial; the last to
        // take the ticket finds all of them stored.
        store_partial();
        ptx::named_barrier_sync(1, 256);
        if (c.ctid == 0) {
          __threadfence();
          const int old = atomicAdd(ctr, 1);
          const int last = old == x.nsplit - 1;
          if (last) {
            atomicExch(ctr, 0);  // leave the workspace zeroed
            __threadfence();
          }
          *s_flag = last;
        }
        ptx::named_barrier_sync(1, 256);
        if (c.ctid == 0) sm90_mark(p, 5);  // partial stored, ticket taken
        if (!*s_flag) return;
      }
      // Sum in split order 0, 1, ... (ascending k), whoever arrives last: deterministic.
      // Part sp's partial is at slot s0 + sp * step, less `skip` for sp >= 1 (Unit): 32-bit
      // float4 offsets from part 0's (registers are scarce here).
      constexpr int kTile4 = static_cast<int>(kTileFloats / 4);
      const float4* tiles = reinterpret_cast<const float4*>(p.partials + static_cast<int64_t>(x.s0) * kTileFloats);
      // `own`: the float4 offset from part 0's of the part not to load (its slot less part 0's,
      // sm90_partial_slot), -1 for none.
      const int own = keep ? (x.slot - x.s0) * kTile4 : -1;
      // Calls f with the exchange's token half as a compile-time constant (0, 1), or -1 for the
      // whole tile: the reductions below skip the other half's batches at compile time.
      auto by_half = [&](auto&& f) {
        if (kCanExchange && jhi - jlo != kJ) {
          if (jlo == 0) f(std::integral_constant<int, 0>{});
          else f(std::integral_constant<int, 1>{});
        } else {
          f(std::integral_constant<int, -1>{});
        }
      };
      if constexpr (Tr::kBlockIssue) {
        // The narrow tiles: the thread's kQ float4s in batches of 8; per part, a batch's 8 loads
        // are issued together, then added: one L2 round trip per part and batch. (Summing each
        // float4 over all parts before the next, as the wide tile does below, put a float4's
        // 2-3 part loads in a runtime-count loop, one behind the other.)
        constexpr int kQ = kMW * kJ;
        constexpr int kB = kQ < 8 ? kQ : 8;
        static_assert(kQ % kB == 0 && (!kCanExchange || (kJ / 2) % kB == 0), "whole batches, in whole token halves");
        // H: the exchange's token half (compile-time, as for the wide tile below), -1 for all.
        // kClip (jv < kJ: a partial last token tile): the loads of the columns past M are skipped; a whole
        // tile's reduction has no such predicate (two copies, chosen once per tile).
        auto reduce = [&](auto half, auto clip) {
          constexpr int H = decltype(half)::value;
          constexpr bool kClip = decltype(clip)::value;
          const int lim = kClip ? jv : kJ;
#pragma unroll
          for (int q0 = 0; q0 < kQ; q0 += kB) {
            if (H >= 0 && (q0 % kJ < H * (kJ / 2) || q0 % kJ >= (H + 1) * (kJ / 2))) continue;
            Acc s4[kB][4];
#pragma unroll
            for (int b = 0; b < kB; ++b) {
              if (own >= 0) {
#pragma unroll
                for (int e = 0; e < 4; ++e) s4[b][e] = acc[(q0 + b) / kJ][4 * ((q0 + b) % kJ) + e];
              } else {
                float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
                if ((q0 + b) % kJ < lim) v = __ldcg(tiles + (q0 + b) * 256 + c.ctid);
                s4[b][0] = unbits(v.x); s4[b][1] = unbits(v.y); s4[b][2] = unbits(v.z); s4[b][3] = unbits(v.w);
              }
            }
#pragma unroll 1
            for (int sp = own >= 0 ? 0 : 1; sp < x.nsplit; ++sp) {
              const int off = sp == 0 ? 0 : (sp * x.step - x.skip) * kTile4;
              if (off == own) continue;
              const float4* part = tiles + off;
              float4 v[kB];
#pragma unroll
              for (int b = 0; b < kB; ++b)
                v[b] = (q0 + b) % kJ < lim ? __ldcg(part + (q0 + b) * 256 + c.ctid) : make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
              for (int b = 0; b < kB; ++b) {
                s4[b][0] += unbits(v[b].x); s4[b][1] += unbits(v[b].y);
                s4[b][2] += unbits(v[b].z); s4[b][3] += unbits(v[b].w);
              }
            }
#pragma unroll
            for (int b = 0; b < kB; ++b)
#pragma unroll
              for (int e = 0; e < 4; ++e) acc[(q0 + b) / kJ][4 * ((q0 + b) % kJ) + e] = s4[b][e];
          }
        };
        if (jv == kJ) by_half([&](auto half) { reduce(half, std::false_type{}); });
        else by_half([&](auto half) { reduce(half, std::true_type{}); });
      } else {
        // The wide tile (128 accumulators; a batch held beside them as above spilled 4-52
        // bytes): the accumulators keep this CTA's part (own >= 0), or part 0 loads straight
        // into them, all kQ float4s in flight (their values were stored above), then per part a
        // batch of kWideReduceBatch loads is issued together and added in place. Same bits as
        // part 0 + 1 + 2 + ... per element (the `keep` cases above).
        constexpr int kQ = kMW * kJ;
        constexpr int kB = kWideReduceBatch;
        static_assert(kQ % kB == 0 && (kJ / 2) % kB == 0, "whole batches, in whole token halves");
        if (own < 0) {
#pragma unroll
          for (int q = 0; q < kQ; ++q) {
            const float4 v = __ldcg(tiles + q * 256 + c.ctid);
            Acc* a = &acc[q / kJ][4 * (q % kJ)];
            a[0] = unbits(v.x); a[1] = unbits(v.y); a[2] = unbits(v.z); a[3] = unbits(v.w);
          }
        }
        // Adds one part's partial: its token half H (0, 1: the exchange loads the partner's half
        // of the tile only) or all of it (H = -1). H is a compile-time constant, so the skipped
        // batches vanish after unrolling; a run-time test per batch, branch or predicate, kept
        // the compiler from issuing the next batches' loads early (8-bit 1.02-1.15x the time at
        // M = 192..512, s31-exchange/).
        auto add_part = [&](const float4* part, auto half) {
          constexpr int H = decltype(half)::value;
#pragma unroll
          for (int q0 = 0; q0 < kQ; q0 += kB) {
            if (H >= 0 && (q0 % kJ < H * (kJ / 2) || q0 % kJ >= (H + 1) * (kJ / 2))) continue;
            float4 v[kB];
#pragma unroll
            for (int b = 0; b < kB; ++b) v[b] = __ldcg(part + (q0 + b) * 256 + c.ctid);
#pragma unroll
            for (int b = 0; b < kB; ++b) {
              Acc* a = &acc[(q0 + b) / kJ][4 * ((q0 + b) % kJ)];
              a[0] += unbits(v[b].x); a[1] += unbits(v[b].y); a[2] += unbits(v[b].z); a[3] += unbits(v[b].w);
            }
          }
        };
#pragma unroll 1
        for (int sp = own >= 0 ? 0 : 1; sp < x.nsplit; ++sp) {
          const int off = sp == 0 ? 0 : (sp * x.step - x.skip) * kTile4;
          if (off == own) continue;
          const float4* part = tiles + off;
          by_half([&](auto half) { add_part(part, half); });
        }
      }
    }

    if (c.ctid == 0 && x.part >= 0) sm90_mark(p, 6);  // split tile reduced (last arriver)
    const uint32_t epi = c.base + Tr::kOffEpi;
    if (c.ctid == 0) ptx::bulk_wait_group_read<0>();  // the previous unit's TMA stores have read the buffer
    ptx::named_barrier_sync(1, 256);  // ... before anyone writes it again
    // Staging by stmatrix (session 22): the 8 x 8 block (j, h) of accumulators (weight rows
    // 8h..8h+7 of the warp's 16, tokens 8j..8j+7) is the m8n8 fragment stmatrix takes (lane
    // (g, t): row g, tokens 2t, 2t+1 = registers 4j+2h, 4j+2h+1), packed in pairs by one cvt,
    // and .trans stores it as 8 token rows of 16 bytes ([token][weight row], as the copy-out
    // reads). One stmatrix.x4 per two j: 8 values of a thread per instruction instead of one
    // st.shared.u16 each, and the token scales loaded once per token instead of once per
    // (token, h). Lane L addresses row L & 7 of matrix L >> 3 = (j + (L >> 4), h = (L >> 3) & 1).
    // The values and roundings are the same: RN_out(fma(acc, RN(tok * ch), bias)) per element.
    // (The trace of s22-trace/: the u16-store staging took ~5 us per 128 x 256 tile.)
    const int lr = c.lane() & 7, li = c.lane() >> 3;
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) {
      const int nb = (c.cwg() * kMW + mw) * 64 + c.warp() * 16;  // the warp's 16 weight rows
      float chv[2], bv[2];
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int n = n0 + nb + g + 8 * h;
        const bool nv = n < p.N;
        chv[h] = (p.ch && nv) ? __ldg(p.ch + n) : 1.0f;
        bv[h] = 0.0f;
        if (p.bias && nv) {
          const unsigned short bb = __ldg(reinterpret_cast<const unsigned short*>(p.bias) + n);
          bv[h] = p.out_bf16 ? __bfloat162float(__ushort_as_bfloat16(bb)) : __half2float(__ushort_as_half(bb));
        }
      }
      // Chunk q = (nb + 8 h) / 8 of the tile: box q / 8, chunk q % 8 of its 128-byte row, swizzled
      // with the token row's low bits (8 (j + jj) + lr: lr).
      const int q = nb / 8 + (li & 1);
      const uint32_t lane_addr = epi + (q >> 3) * Tr::kEpiBoxBytes + (8 * (li >> 1) + lr) * 128 + (((q & 7) ^ lr) << 4);
#pragma unroll
      for (int j = 0; j < kTileT / 8; j += 2) {
        uint32_t r[2][2];  // [j - j0][h]
#pragma unroll
        for (int jj = 0; jj < 2; ++jj) {
          float tv[2];
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            const int m = m0 + 8 * (j + jj) + 2 * t + e;
            tv[e] = (p.tok && m < p.M) ? __ldg(p.tok + m) : 1.0f;
          }
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const int a = 4 * (j + jj) + 2 * h;
            const float r0 = __fmaf_rn(to_f32(acc[mw][a]), __fmul_rn(tv[0], chv[h]), bv[h]);
            const float r1 = __fmaf_rn(to_f32(acc[mw][a + 1]), __fmul_rn(tv[1], chv[h]), bv[h]);
            r[jj][h] = p.out_bf16 ? ptx::cvt_bf16x2_f32(r0, r1) : ptx::cvt_f16x2_f32(r0, r1);
          }
        }
        // The exchange stages its own token half only. Only the store is predicated: with the
        // whole iteration skipped, the token-scale loads were issued one pair of j at a time
        // (8-bit activations 1.04-1.15x the time at M = 192..512, s31-exchange/).
        if (j >= jlo && j < jhi) ptx::stmatrix_x4_trans(lane_addr + 8 * j * 128, r[0][0], r[0][1], r[1][0], r[1][1]);
      }
    }
    ptx::fence_proxy_async_shared();  // the staged tile, written through the generic proxy, for the TMA
    ptx::named_barrier_sync(1, 256);
    if (c.ctid == 0) {
      sm90_mark(p, 7);  // first unit's output staged in shared memory
      sm90_mark<false>(p, 15);  // last unit's output staged
      // Copy-out by TMA stores (session 23, replacing 16-byte stores by the 256 consumer threads):
      // the engine writes the boxes while the consumers go on to the next unit; rows past M and
      // columns past N are clipped. The staging buffer is reused only after
      // bulk_wait_group_read (the next unit's epilogue, above), the kernel ends after bulk_wait_group.
      // Box (b, h): 64 columns x kOutT tokens; the exchange stores its token half only.
      constexpr int kOutT = sm90_out_box_tokens(kTileT);
#pragma unroll
      for (int b = 0; b < kTileN / 64; ++b)
#pragma unroll
        for (int h = 0; h < kTileT / kOutT; ++h)
          if (n0 + 64 * b < p.N && m0 + h * kOutT < p.M && h * kOutT >= 8 * jlo && h * kOutT < 8 * jhi)
            ptx::tma_store_2d(&p.out_map, epi + b * Tr::kEpiBoxBytes + h * kOutT * 128, n0 + 64 * b, m0 + h * kOutT);
      ptx::bulk_commit_group();
    }
  }

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
      mainloop<kUns, kMode>(c, p, nk, q.kb0, acc, stage, phase);
      if (c.ctid == 0) sm90_mark(p, 4);  // first unit's mainloop done
      if (c.ctid == 0) sm90_mark<false>(p, 14);  // last unit's mainloop done
      epilogue(c, p, unit_of(p, u), acc, s_flag);
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
        produce(p, base, full0, empty0);
        sm90_mark<false>(p, 1);  // producer: every load issued
      } else if (threadIdx.x >= 32 && use_tables<kSm90ScaleAny>(p)) {
        // Warps 1..3: the tables (the per-channel kernel has no group rows; the GPTQ kernel's
        // consumers build their own: kTablesPerGroup).
        if constexpr (kVariant != kSm90VariantPlain && kVariant != kSm90VariantGptq)
          build_tables(p, base, full0, tab0, threadIdx.x - 32);
      }
      return;
    }
    ptx::setmaxnreg_inc<kConsumerRegs>();
    if (threadIdx.x == 128) sm90_mark(p, 13);  // consumers start
    Ctx c;
    c.ctid = threadIdx.x - 128;
    c.base = base;
    c.wofs = Tr::kOffW + block_of(c, 0) * layout::kBlockBytes + c.lane() * 16;
    c.sofs = (block_of(c, 0) * 16 + (c.lane() >> 2)) * Tr::kSB;
    if constexpr (Tr::kA8) {  // 16-bit activations: pinning took the f16 wide tile 1-4% longer (s18-pinofs)
      c.wofs = ptx::pin(c.wofs);
      c.sofs = ptx::pin(c.sofs);
    } else if constexpr ((kVariant == kSm90VariantGptq && kUnitForm<false, kSm90ScaleBlock>) ||
                         (kVariant == kSm90VariantAwq && kUnitForm<true, kSm90ScaleBlock>)) {
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
