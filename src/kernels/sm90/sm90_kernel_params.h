// sm90_kernel_params.h - what the sm90 launcher derives from GemmParams and hands
// to the kernel as one __grid_constant__ parameter (plain data + the TMA descriptor).
//
// Work decomposition (docs/design.md, "sm90 family"):
//   tile   = kTileN weight rows x kTileT tokens of the output (transposed problem)
//   unit   = a whole tile, or one k-range of a split or streamed tile (sm90_partition.h):
//            the first `whole` tiles run whole, each other tile in `splits` k-parts,
//            split-minor, so the parts of a tile run on neighbouring CTAs at the same time;
//            or (stream-K) the other tiles' k-blocks in one contiguous range per CTA
//   CTA c of a persistent grid of C runs units c, c + C, c + 2C, ...
#pragma once

#include <cuda.h>  // CUtensorMap (a plain 128-byte struct; no driver call here)

#include <cstdint>

#include "kernels/fast_div.h"
#include "kernels/sm90/sm90_partition.h"

namespace mixgemm::kernels::sm90 {

// How the group scales / zero points are staged and looked up (kernel-uniform).
enum Sm90ScaleMode : int32_t {
  kSm90ScaleNone = 0,   // no group scales, no zero points
  kSm90ScaleBlock = 1,  // one group row per 64-k block (group size a multiple of 64, or K)
  kSm90ScaleStep = 2,   // group size 16 or 32: 64/gs group rows per block, one per k16 step
  kSm90ScaleAny = -1,   // kernel-internal: the mode is read from the parameters at run time
};

// Token rows per TMA store box of the output (the host's out_map and the epilogue's copy-out):
// tiles of 128 tokens or more store each 64-column box as two token halves, so that a CTA can
// copy out one half alone (the two-part exchange, Sm90KernelParams::split_exchange).
constexpr int sm90_out_box_tokens(int tile_t) { return tile_t >= 128 ? tile_t / 2 : tile_t; }

// The exact TMA box for a partial last token tile (act_tail_map, below): the host encodes it when a
// full box would zero-fill at least kSm90TailFillBytes per 64-k block past M (sm90_tail_box_for), and
// Sm90Traits::kTailBox compiles its use in the tiles where that can happen (sm90_tail_box). TMA's zero
// fill costs time that grows with the bytes it fills. Measured with the exact box (s64-tailbox/):
// 128 x 128 0.68 / 0.74 / 0.79x the time (f16) and 0.85 / 0.90 / 0.87x (s8) at M = 24 / 48 / 160
// (13-10 KB / 6.5-5 KB filled); 128 x 64 f16 0.96x at M = 24 (5 KB) and 0.99x at M = 160 (4 KB), but
// 1.06x at M = 48 (2 KB: the producer's slot test, sm90_producer.cuh, costs more than the fill it saves);
// the 256-token tile since session 52 (s52-tail/). So the 64-token tile with 8-bit activations (at most
// 63 rows x 64 bytes) never takes it, and its kernels compile to the SASS they had before.
constexpr int kSm90TailFillBytes = 4096;
// Whether a launch with M tokens loads its last token tile through the exact box.
constexpr bool sm90_tail_box_for(int tile_t, int act_bytes, int64_t M) {
  return M % tile_t != 0 && (tile_t - M % tile_t) * act_bytes * 64 >= kSm90TailFillBytes;
}
// Whether any M does (M = 1 leaves the most rows past M).
constexpr bool sm90_tail_box(int tile_t, int act_bytes) { return sm90_tail_box_for(tile_t, act_bytes, 1); }
static_assert(!sm90_tail_box(64, 1) && sm90_tail_box(64, 2) && sm90_tail_box(128, 1), "the tiles with the exact box");
static_assert(sm90_tail_box_for(64, 2, 24) && sm90_tail_box_for(64, 2, 96) && !sm90_tail_box_for(64, 2, 48) &&
                  sm90_tail_box_for(128, 1, 160) && !sm90_tail_box_for(128, 1, 96) && !sm90_tail_box_for(256, 2, 512),
              "the exact box from 4 KB of zero fill per block: f16 32 rows, 8-bit 64 rows");

// Whether a tile issues whole 64-k blocks (Sm90Traits::kBlockIssue): its accumulators (kTileN / 128 m64
// atoms per consumer warpgroup x kTileT / 2 f32 per atom and thread) leave registers for two blocks of A
// fragments. Every tile but 128 x 256 (128 accumulators) and 256 x 128.
constexpr bool sm90_block_issue(int tile_n, int tile_t) { return (tile_n / 128) * (tile_t / 2) <= 64; }

// e4m3 promotion (docs/semantics.md 5.2, `P`): Hopper's fp8 wgmma adds a chain's products into a
// reduced-precision accumulator (e8m13, truncating); without promotion a whole k-range of a work unit is
// one chain, whose error bound is finite only to K = 4096. On the block-issue tiles the e4m3 consumers
// start a new chain every MIXGEMM_SM90_E4M3_PROMOTE_BLOCKS 64-k blocks and add the finished one into f32
// registers (sm90_mainloop.cuh, Sm90Mainloop::mainloop): P = 64 * that many k. 0 compiles them without promotion.
// The 128 x 256 tile has no registers for a second accumulator set and never promotes.
#ifndef MIXGEMM_SM90_E4M3_PROMOTE_BLOCKS
#define MIXGEMM_SM90_E4M3_PROMOTE_BLOCKS 4
#endif
static_assert(MIXGEMM_SM90_E4M3_PROMOTE_BLOCKS == 0 || MIXGEMM_SM90_E4M3_PROMOTE_BLOCKS == 1 ||
                  MIXGEMM_SM90_E4M3_PROMOTE_BLOCKS == 2 || MIXGEMM_SM90_E4M3_PROMOTE_BLOCKS == 4,
              "promotion every 1, 2 or 4 blocks (the mainloop is unrolled by two), or none");
// The promotion interval P in k of an e4m3 sm90 tile in this build (0: the whole k-range is one chain).
constexpr int sm90_e4m3_promotion_k(int tile_n, int tile_t) {
  return sm90_block_issue(tile_n, tile_t) ? 64 * MIXGEMM_SM90_E4M3_PROMOTE_BLOCKS : 0;
}
static_assert(!sm90_block_issue(128, 256) && !sm90_block_issue(256, 128) && sm90_block_issue(256, 64) &&
                  sm90_block_issue(128, 128) && sm90_block_issue(256, 16),
              "the k-step mainloop's tiles: 128 x 256, 256 x 128");

// Which variant a kernel is compiled for: Any reads the weight bias and the scale mode from
// the parameters; the wide tile (128 x 256) has extra kernels with them fixed (sm90_info).
enum Sm90Variant : int32_t {
  kSm90VariantAny = 0,
  kSm90VariantGptq = 1,   // biased weights (u4b8 / u8b128), kSm90ScaleBlock, no zero points
  kSm90VariantPlain = 2,  // biased weights, kSm90ScaleNone (per-channel: channel scales only), 8-bit activations
  kSm90VariantAwq = 3,    // 4-bit unsigned weights (u4), kSm90ScaleBlock (AWQ: group scales and zero points),
                          // 16-bit activations; not built with MIXGEMM_SM90_AWQ_KERNEL=0
};

struct Sm90KernelParams {
  CUtensorMap act_map;    // activations [M][lda] 16-bit, box 64 k x kTileT tokens, 128B swizzle
  CUtensorMap out_map;    // output [M][ldo] 16-bit, box 64 columns x sm90_out_box_tokens(kTileT) tokens, 128B swizzle (epilogue store)
  const uint8_t* b;       // prepacked weights
  const uint8_t* scales;  // [G][N] 16-bit group scales, or null
  const uint8_t* zeros;   // [G][N] prepacked zero points (16-bit), or null
  const float* ch;        // [N] or null
  const float* tok;       // [M] or null
  const uint8_t* bias;    // [N] out type, or null
  uint8_t* out;           // [M][ldo] out type
  int32_t* counters;      // workspace: [tiles - whole] arrival (+1) / publish (+1 << 16) counters (zero between calls), splits > 1 or stream-K
  float* partials;        // workspace: split-K [tiles - whole][splits], stream-K [2 * stream] tiles of kTileN * kTileT f32

  int64_t ldo;            // output row stride in elements
  int64_t b_kstride;      // bytes between layout k-blocks: N/16 * 512

  int32_t M, N, K;
  int32_t NB;             // N / 16
  int32_t n_tiles, t_tiles, tiles, units;
  // The work split (sm90_partition.h): whole tiles, split-K parts or stream-K, K / 64 pipeline
  // k-blocks, with its divisors computed on the host (sm90_make_part).
  Sm90Part part;
  FastDiv n_tiles_div;    // of n_tiles (when >= 2): a unit's tile -> (weight-row tile, token tile)
  int32_t gs;             // group size in k (K for one group per column)
  FastDiv gs_div;         // of gs (when >= 2): the producer's first group row
  int32_t srows;          // group rows staged per k-block (1, 2 or 4), 0 in kSm90ScaleNone
  int32_t mode;           // Sm90ScaleMode
  uint8_t has_scales;
  uint8_t has_zeros;
  uint8_t b_unsigned;     // u4/u8 (value q) vs u4b8/u8b128 (value q - bias)
  uint8_t out_bf16;
  // Two-part split-K tiles of the 128 x 256 and 128 x 128 tiles (sm90_epilogue.cuh): 0 the
  // last arriver reduces the whole tile; 1 the two parts exchange token halves when both have arrived;
  // 2 (tests) as 1, but the first arriver decides at once, so it almost always leaves.
  uint8_t split_exchange;
  // The last token tile when a full box would zero-fill enough rows past M (sm90_tail_box_for):
  // the same activations with a box of 64 k x (M % tile_t) tokens, which the producer loads once a
  // CTA's stages hold zeros past M (sm90_producer.cuh). TMA zero-fills a full box's rows past M at a
  // cost: at M = 320 (192 such rows in the second token tile) s8 took up to 1.46x, f16 up to
  // 1.31x the time of the exact box (bench/results/2026-12-03-h200/s52-tail/). Last in the
  // struct, so that the other tiles' kernels read every other field where they did before.
  int32_t tail_tt;          // the token tile loaded through act_tail_map (t_tiles - 1), or -1: none
  uint32_t tail_act_bytes;  // its activation bytes per 64-k block: (M % tile_t) rows
  CUtensorMap act_tail_map;
#ifdef MIXGEMM_SM90_TRACE
  unsigned long long* trace;  // diagnostic build: [grid][16] %globaltimer marks, or null (sm90_mark, sm90_common.cuh)
#endif
};

}  // namespace mixgemm::kernels::sm90
