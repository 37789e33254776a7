// fullk_kernel_params.h - what the fullk launcher (fullk_launch.cu) hands to the
// whole-column small-M kernel (fullk_gemm.cuh) as one __grid_constant__ parameter, and
// the shared-memory constants both sides use.
#pragma once

#include <cstdint>

#include "kernels/smallm/smallm_kernel_params.h"  // ScaleMode

namespace mixgemm::kernels::smallm {

// Shared memory of a CTA: the token rows of its tile, whole K, each row 2K + 16 bytes (the 8
// row addresses of an ldmatrix matrix then fall in 8 different bank groups), then two
// partial-tile areas of W x kNT x 512 bytes (the warps' first and last segments).
inline constexpr int kFullkMaxThreads = 512;  // 16 warps, one CTA per SM (<= 128 registers)
inline constexpr int64_t kFullkMaxSmem = 227 * 1024;  // dynamic shared memory of one CTA

// What the dequantization reads beside the weights (one kernel each): nothing (no groups,
// no zero points), group scales, or zero points (with or without group scales; u4 only).
enum FullkVariant : int { kFullkPlain = 0, kFullkScaled = 1, kFullkZeroed = 2 };

// Items in flight per warp (the register ring): 16 warps x 8 x 512 B = 64 KB of weights per
// SM; 6 with zero points (their ring has 4 more registers per slot) and for TM 16 (its B
// fragments and accumulators are twice as many): 8 spilled there.
inline constexpr int fullk_depth(int variant, int n_tiles) { return variant == kFullkZeroed || n_tiles == 2 ? 6 : 8; }

inline constexpr int64_t fullk_act_stride(int64_t K) { return 2 * K + 16; }

struct FullkParams {
  const uint8_t* a;       // activations [M][lda]
  const uint8_t* b;       // prepacked weights
  const uint8_t* scales;  // [G][N] group scales, or null
  const uint8_t* zeros;   // [G][N] prepacked zero points, or null
  const float* ch;        // [N] or null
  const float* tok;       // [M] or null
  const uint8_t* bias;    // [N] out type, or null
  uint8_t* out;           // [M][ldo] out type
  int64_t lda_bytes;      // activation row stride in bytes
  int64_t ldo;            // output row stride in elements
  int32_t M, N, K;
  int32_t NB;             // N / 16
  int32_t KBn;            // K / 64
  int32_t C;              // CTAs per token tile (gridDim.x): CTA c owns n-blocks [c NB / C, (c+1) NB / C)
  int32_t gkb;            // k-blocks per scale group (group size / 64); 1 << 30 without groups
  int32_t gshift;         // log2(gkb) when gkb is a power of two, 30 with one group per column
                          // (or none), -1 otherwise (no fast groups in the main loop)
  int32_t gmask;          // gkb - 1 for a power of two, else 0x7fffffff
  int32_t act_stride;     // bytes of one staged token row (fullk_act_stride)
  int32_t red_off;        // byte offset of the partial-tile areas (16-byte aligned)
  uint8_t l2_prefetch;    // 1: L2 prefetch of the weight blocks a ring depth beyond the ring
  uint8_t has_scales;
  uint8_t has_zeros;
  uint8_t b_unsigned;     // u4 (value q) vs u4b8 (value q - 8)
  uint8_t out_bf16;
};

}  // namespace mixgemm::kernels::smallm
