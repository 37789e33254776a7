// smallm_kernel_params.h - what the small-M launcher derives from GemmParams and
// hands to the kernel as one __grid_constant__ parameter (plain data only).
//
// Work decomposition (docs/design-smallm.md):
//   stripe  = the n-rows one CTA covers at once: warps * kNBW * 16 rows
//   row     = one k-block of one stripe (each warp streams kNBW 512-byte blocks per row)
//   U       = stripes * KBn rows, linearized stripe-major (u = stripe * KBn + kb)
//   CTA c of C (per token tile) streams rows [c*U/C, (c+1)*U/C): an even split of the
//   whole block grid over all CTAs (stream-K), so no SM idles whatever the shape.
#pragma once

#include <cstdint>

#include "kernels/fast_div.h"
#include "kernels/smallm/smallm_partition.h"

namespace mixgemm::kernels::smallm {

// Compile-time shape of the pipeline, shared by the kernel and the host geometry.
// n-blocks per warp and row: 2 halves the ldmatrix traffic per weight byte (4: s7-round2,
// slower on every shape but one, with spills).
#ifndef MIXGEMM_SMALLM_NBW  // experiment builds only (-D)
#define MIXGEMM_SMALLM_NBW 2
#endif
inline constexpr int kNBW = MIXGEMM_SMALLM_NBW;
// Rows per chunk: one CTA barrier, one staged activation/scale tile and one producer pass per
// chunk. TM 8/16 (decode): 8 rows, half the per-chunk work per weight byte of 4 rows
// (bench/results/2026-11-30-h200/s7-round2/: 3-11% faster at M = 1 on every measured layer,
// 9-10% at M = 16 on the Llama-3-8B ones). TM 32/64 unroll their chunk, so they keep 4.
// Stages: activation/scale tiles in flight, (stages - 1) chunks ahead of the compute. With
// 8-row chunks 2 stages stage as far ahead in k as 3 stages of 4-row chunks did, in less
// shared memory (at group size 128 every TM 8 schedule still fits, and every TM 16 one but
// t16_w4_o4).
#ifndef MIXGEMM_SMALLM_STAGES_CK8  // experiment builds only (-D)
#define MIXGEMM_SMALLM_STAGES_CK8 2
#endif
inline constexpr int chunk_rows_of(int token_tile) { return token_tile <= 16 ? 8 : 4; }
inline constexpr int stages_of(int token_tile) { return token_tile <= 16 ? MIXGEMM_SMALLM_STAGES_CK8 : 3; }

// Cluster split-K (TM 8/16): at most this many CTAs per stripe form one cluster and reduce
// their partials through distributed shared memory (smallm_epilogue.cuh, cluster_reduce; the
// host's choice: smallm_geometry.h). 8 is the portable limit: clusters of up to 16 are
// allowed on sm_90 as a non-portable size, but at 1-4 CTAs per SM too few of them are resident
// at once on an H200 (a GPC holds 16-18 SMs), and the launcher then falls back to the plain
// split (s8-cluster). 0 turns it off.
#ifndef MIXGEMM_SMALLM_CLUSTER_MAX  // experiment builds only (-D)
#define MIXGEMM_SMALLM_CLUSTER_MAX 8
#endif
inline constexpr int kMaxClusterCtas = MIXGEMM_SMALLM_CLUSTER_MAX;
static_assert(kMaxClusterCtas >= 0 && kMaxClusterCtas <= 16, "cluster size");

// Threads per CTA of smallm_reduce_kernel (one per 16-byte piece of a partial tile).
inline constexpr int kReduceThreads = 128;

// How the group scales / zero points are looked up (kernel-uniform).
enum ScaleMode : int32_t {
  kScaleNone = 0,   // no group scales and no zero points
  kScaleBlock = 1,  // one group per k-block row: group_size % KB == 0 (64, 128, 256, K, ...)
  kScaleStep = 2,   // groups smaller than / not aligned to a k-block: one lookup per 16 k
};

// The kernel variant of a launch: its scale mode and whether the weights are unsigned (u4 / u8
// with zero points or none, value q) or biased (u4b8 / u8b128, value q - bias). Each variant is
// its own kernel (smallm_instance) but at TM 8, whose one kernel holds all six (kSmallmAnyVariant).
inline constexpr int kSmallmVariants = 6;
inline constexpr int kSmallmAnyVariant = -1;
inline constexpr int smallm_variant_of(int mode, bool b_unsigned) { return mode * 2 + (b_unsigned ? 1 : 0); }

struct SmallmKernelParams {
  const uint8_t* a;        // activations [M][lda]
  const uint8_t* b;        // prepacked weights
  const uint8_t* scales;   // [G][N] group scales, or null
  const uint8_t* zeros;    // [G][N] prepacked zero points, or null
  const float* ch;         // [N] or null
  const float* tok;        // [M] or null
  const uint8_t* bias;     // [N] out type, or null
  uint8_t* out;            // [M][ldo] out type
  int32_t* counters;       // workspace: [MT][stripes] arrival counters (zero between calls)
  uint8_t* partials;       // workspace: [MT][2*C][tile] f32 / s32 partial tiles
  uint8_t* parts;          // gemm_partial_sums: [parts_count][M][N] f32 / s32 raw sums (out unused), or null

  int64_t lda_bytes;       // activation row stride in bytes
  int64_t ldo;             // output row stride in elements
  RowPartition part;       // U = stripes * KBn rows over C = gridDim.x CTAs (smallm_partition.h)

  int32_t M, N, K;
  int32_t NB;              // N / 16
  int32_t KBn;             // K / KB
  int32_t stripes;         // ceil(NB / (warps * kNBW))
  int32_t gs;              // group size in k (K when there is one group)
  FastDiv gs_div;          // k / gs without a division instruction (fast_div.h)
  int32_t g_rows;          // scale rows staged per chunk (0 in kScaleNone)
  int32_t stage_bytes;     // bytes of one shared-memory stage
  int32_t act_bytes;       // bytes of the activation tile of one stage
  int32_t srow_bytes;      // bytes of one staged scale row (stripe columns x scale bytes)
  int32_t srow_pieces_log2;  // log2(srow_bytes / 16): 32 W rows x 1-2 bytes is a power of two
  int32_t tile_bytes;      // bytes of one partial tile (stripe rows x TM x 4)
  int32_t mode;            // ScaleMode
  int32_t l2_ahead;        // weight chunks bulk-prefetched into L2 beyond the shared ring (0: off)
  int32_t ring_rows;       // CTA rows in the shared weight ring (>= kCK)
  int32_t ring_off;        // byte offset of the weight ring in dynamic shared memory (128-aligned)
  int32_t bar_off;         // byte offset of the ring's ring_rows mbarriers (8-aligned)
  int32_t cluster;         // >= 2: cluster split-K, S CTAs per stripe = one cluster (C = stripes x S;
                           // the reduction runs through DSMEM, no workspace); 0: off
  int32_t parts_count;     // gemm_partial_sums: S of parts (smallm_geometry.h, make_partial_sums_geometry)
  int32_t pdl_wait;        // 1: launched as a programmatic dependent: griddepcontrol.wait before the
                           // first read of a / tok (the weight ring is filled before it)
  int32_t deferred;        // 1: a segment that does not cover its stripe stores its partial tile
                           // and leaves (no counter, fence or reduction); smallm_reduce_kernel,
                           // launched after the kernel, sums each stripe's partials (cluster 0 only)
  uint8_t has_scales;
  uint8_t has_zeros;
  uint8_t b_unsigned;      // u4/u8 (value q) vs u4b8/u8b128 (value q - bias)
  uint8_t out_bf16;
};

}  // namespace mixgemm::kernels::smallm
