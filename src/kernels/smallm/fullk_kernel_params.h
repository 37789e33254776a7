// fullk_kernel_params.h - what the fullk launcher (fullk_launch.cu) hands to the
// whole-column small-M kernel (fullk_gemm.cuh) as one __grid_constant__ parameter, and
// the shared-memory constants both sides use.
#pragma once

#include <cstdint>

#include "kernels/smallm/smallm_kernel_params.h"  // ScaleMode

namespace mixgemm::kernels::smallm {

// One pipeline slot of a warp (one item = one 512-byte block of one n-block x k-block):
//   [0, 512)    the warp's 32 fragments (16 bytes per lane)
//   [512, 544)  the group scales of the n-block's 16 rows, [544, 576) its zero points
//   [576, ...)  the token rows' 128 bytes of the k-block, rows padded to 144 bytes so the
//               8 row addresses of an ldmatrix matrix fall in 8 different bank groups
inline constexpr int kFullkSlotW = 0;
inline constexpr int kFullkSlotS = 512;
inline constexpr int kFullkSlotA = 576;
inline constexpr int kFullkArow = 144;
inline constexpr int kFullkMaxThreads = 512;  // 16 warps, one CTA per SM (<= 128 registers)

// Slots per warp (items in flight, kDepth - 1 while one is consumed): 8 for TM 8 (16 warps x
// 8 x 512 B = 64 KB of weights in flight per SM), 4 for TM 16 (its slots are 2.3x larger).
inline constexpr int fullk_depth(int n_tiles) { return n_tiles == 1 ? 8 : 4; }

inline constexpr int fullk_slot_bytes(int token_rows) { return kFullkSlotA + token_rows * kFullkArow; }

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
  int32_t slot_bytes;     // bytes of one pipeline slot (fullk_slot_bytes of the tile's token rows)
  int32_t red_off;        // byte offset of the first-segment partials (warps x kNT x 512 bytes)
  int32_t mode;           // kScaleNone or kScaleBlock
  uint8_t has_scales;
  uint8_t has_zeros;
  uint8_t b_unsigned;     // u4 (value q) vs u4b8 (value q - 8)
  uint8_t out_bf16;
};

}  // namespace mixgemm::kernels::smallm
