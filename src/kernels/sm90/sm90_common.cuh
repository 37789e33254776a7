// sm90_common.cuh - what the roles of one sm90 CTA share (sm90_gemm.cuh has the overview): the
// compile-time switches, the tile's shared-memory plan (Sm90Traits), the diagnostic trace mark, and
// Sm90Common: the element types, the walk over the CTA's work units and the consumer threads' context.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "kernels/gemm_params.h"
#include "kernels/sm90/sm90_kernel_params.h"
#include "kernels/sm90/sm90_partition.h"
#include "mixgemm/layout.h"


// The unit form (Sm90Mainloop::kUnitForm: f16 / bf16 x u4b8 and u4 with or without zero points, f16 x u8b128
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
  // Issue granularity (Sm90Mainloop::mainloop): a whole 64-k block (4 wgmma, one fence) where the
  // accumulators leave registers for two blocks of fragments, else one k16 step.
  // (kMW * kAcc <= 64: sm90_block_issue, the one definition the host reads too.)
  static constexpr bool kBlockIssue = sm90_block_issue(kTileN, kTileT);
  // e4m3 on the block-issue tiles: a new wgmma chain every kPromoteBlocks blocks, the finished one
  // added into f32 registers (Sm90Mainloop::mainloop; sm90_e4m3_promotion_k). 0: no promotion.
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
  // A partial last token tile loads its rows through act_tail_map (Sm90Producer::produce_v; sm90_tail_box).
  static constexpr bool kTailBox = sm90_tail_box(kTileT, kEB);
  // e4m3 with one group row per 64-k block (kSm90ScaleBlock): per weight row, the 16 possible
  // e4m3 weights of the stage's group (16 bytes, built by the table warps: Sm90Producer::build_tables;
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

// The types and helpers that the producer (sm90_producer.cuh), the consumers' mainloop
// (sm90_mainloop.cuh) and epilogue (sm90_epilogue.cuh) and the CTA (sm90_gemm.cuh) all read.
template <AType A, int kWBits, int kTileN, int kTileT>
struct Sm90Common {
  using Tr = Sm90Traits<A, kWBits, kTileN, kTileT>;
  using T16 = std::conditional_t<Tr::kBF16, __nv_bfloat16, __half>;
  using Acc = std::conditional_t<A == AType::kS8, int32_t, float>;  // s32 for int8 (exact), else f32
  static constexpr bool kIntAcc = std::is_same_v<Acc, int32_t>;
  static constexpr int kMW = Tr::kMW, kAcc = Tr::kAcc, kStages = Tr::kStages;
  // 1.0 in the scale type: bf16, u8 integer (s8, QQQ), else f16.
  static constexpr uint32_t kOne = Tr::kBF16 ? 0x3F80u : (A == AType::kS8 ? 1u : 0x3C00u);

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

  // Threads of the producer warpgroup's table warps (Sm90Producer::build_tables).
  static constexpr int kTableThreads = 96;

  // ---- the consumer threads ------------------------------------------------------------------
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
};

}  // namespace mixgemm::kernels::sm90
