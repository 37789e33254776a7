// mixgemm/layout.h - the prepacked weight layout's index map, defined once.
//
// The GEMM runs transposed (out^T = W^T x A^T): the weights are the tensor-core
// A operand, one weight row n of W^T is one MMA row, and k is the MMA column.
// The A-operand fragment of `mma.sync.m16n8k16` (16-bit MMA) and of
// `mma.sync.m16n8k32` (8-bit MMA) is, warp by warp, also the register fragment
// of Hopper's `wgmma ... m64nNk16/k32` (warp w of the warpgroup owns rows
// 16w..16w+15), so one layout serves the small-M (mma.sync) and large-M (wgmma)
// kernels alike.
//
// Unit of the layout: a *block* of 16 rows (n) x KB columns (k), 512 bytes, in
// which lane l (0..31) of a warp owns the 16 bytes at [16*l, 16*l+16): one
// 128-bit load gives a thread its whole fragment for the block.
//
//   weight bits | MMA operand | KB (k per block) | k-steps per block | bytes/lane/k-step
//   ------------+-------------+------------------+-------------------+------------------
//        4      |   16-bit    |        64        |   4 (k16 each)    |  4 (one u32 word)
//        8      |   16-bit    |        32        |   2 (k16 each)    |  8
//        4      |    8-bit    |        64        |   2 (k32 each)    |  8
//        8      |    8-bit    |        32        |   1 (k32)         | 16
//
// Blocks are stored k-block-major, n-block-minor:
//   block(kb, nb) starts at byte  ((kb * (N/16)) + nb) * 512
// so the blocks of any run of consecutive n at one kb are contiguous (a 128 x KB
// wgmma tile is one 4 KiB bulk copy), and a warp streaming one n-block along K
// advances by N/16 * 512 bytes per block.
//
// Inside a lane's 16 bytes, k-step s of the block occupies bytes
// [s*B, (s+1)*B) with B = 16 / (k-steps per block). Within a k-step the lane
// holds fragment elements e = 0..E-1 (E = 8 for 16-bit MMA, 16 for 8-bit MMA):
//
//   16-bit MMA (m16n8k16 A):          8-bit MMA (m16n8k32 A):
//     e 0,1: row g,   col 2t+e          e  0..3 : row g,   col 4t+e
//     e 2,3: row g+8, col 2t+e-2        e  4..7 : row g+8, col 4t+e-4
//     e 4,5: row g,   col 2t+8+e-4      e  8..11: row g,   col 16+4t+e-8
//     e 6,7: row g+8, col 2t+8+e-6      e 12..15: row g+8, col 16+4t+e-12
//   with g = l / 4, t = l % 4.
//
// Where element e sits inside the k-step's bytes:
//   4-bit, 16-bit MMA: the k-step is one u32 word; element e is nibble
//     p = (e / 2) + 4 * (e % 2)      i.e. nibbles hold elements [0,2,4,6,1,3,5,7]
//     so (w & 0x000F000F) yields elements (0,1) as the low nibbles of the two
//     16-bit halves, (w & 0x00F000F0) elements (2,3), and after w >>= 8 the same
//     two masks yield (4,5) and (6,7): the register pairs a0..a3 of the fragment.
//   everything else: natural order. 4-bit/8-bit MMA: element e is nibble e % 8
//     of u32 word e / 8 (a `prmt` LUT lookup turns nibbles 0..3 / 4..7 of a word
//     into the four bytes of one fragment register). 8-bit weights: element e is
//     byte e.
// A nibble p of a u32 word is bits [4p, 4p+4); words are little-endian.
//
// Shape rules: N % 16 == 0 and K % KB == 0 (KB = 64 for 4-bit, 32 for 8-bit
// weights). Kernels may demand more; gemm() says so when they do.
//
// Only weights are reordered. Group scales stay row-major [K/group_size][N] in
// their scalar type; zero points of 16-bit-activation configurations are
// converted by prepack to pre-multiplied form (see docs/semantics.md).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define MIXGEMM_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define MIXGEMM_HOST_DEVICE inline
#endif

namespace mixgemm::layout {

inline constexpr int kBlockRows = 16;      // n per block
inline constexpr int kBlockBytes = 512;    // 32 lanes x 16 bytes
inline constexpr int kLaneBytes = 16;

// Which of the four layouts: weight bits x MMA operand bits.
struct Kind {
  int weight_bits;  // 4 or 8
  int mma_bits;     // 16 (f16/bf16 activations) or 8 (s8/e4m3 activations)

  MIXGEMM_HOST_DEVICE constexpr int block_k() const { return weight_bits == 4 ? 64 : 32; }
  MIXGEMM_HOST_DEVICE constexpr int mma_k() const { return mma_bits == 16 ? 16 : 32; }
  MIXGEMM_HOST_DEVICE constexpr int ksteps() const { return block_k() / mma_k(); }
  MIXGEMM_HOST_DEVICE constexpr int elems_per_kstep() const { return mma_bits == 16 ? 8 : 16; }
  MIXGEMM_HOST_DEVICE constexpr int bytes_per_kstep() const { return kLaneBytes / ksteps(); }
};

inline constexpr Kind kW4M16{4, 16};
inline constexpr Kind kW8M16{8, 16};
inline constexpr Kind kW4M8{4, 8};
inline constexpr Kind kW8M8{8, 8};

// Position of one weight inside the prepacked buffer.
struct Position {
  int64_t byte;  // byte offset from the start of the buffer
  int shift;     // bit offset inside that byte (0 or 4 for 4-bit weights, 0 for 8-bit)
};

// Fragment coordinates of (row r, col c) inside one 16 x mma_k tile:
// returns the lane and the element index e (see the table above).
struct FragmentSlot {
  int lane;
  int elem;
};

MIXGEMM_HOST_DEVICE constexpr FragmentSlot fragment_slot(Kind kind, int r, int c) {
  const int g = r & 7;
  const int hi_row = r >> 3;  // 0: row g, 1: row g+8
  if (kind.mma_bits == 16) {
    const int hi_col = c >> 3;  // 0: cols 0..7, 1: cols 8..15
    const int t = (c & 7) >> 1;
    return {g * 4 + t, hi_col * 4 + hi_row * 2 + (c & 1)};
  } else {
    const int hi_col = c >> 4;  // 0: cols 0..15, 1: cols 16..31
    const int t = (c & 15) >> 2;
    return {g * 4 + t, hi_col * 8 + hi_row * 4 + (c & 3)};
  }
}

// Inverse of fragment_slot: (lane, elem) -> (row, col) inside the tile.
struct TileCoord {
  int r;
  int c;
};
MIXGEMM_HOST_DEVICE constexpr TileCoord fragment_coord(Kind kind, int lane, int e) {
  const int g = lane >> 2, t = lane & 3;
  if (kind.mma_bits == 16) {
    return {g + 8 * ((e >> 1) & 1), 2 * t + (e & 1) + 8 * (e >> 2)};
  } else {
    return {g + 8 * ((e >> 2) & 1), 4 * t + (e & 3) + 16 * (e >> 3)};
  }
}

// Bit position of fragment element e within its k-step's bytes.
MIXGEMM_HOST_DEVICE constexpr int element_bit(Kind kind, int e) {
  if (kind.weight_bits == 4 && kind.mma_bits == 16) {
    const int nibble = (e >> 1) + 4 * (e & 1);
    return 4 * nibble;
  }
  return e * kind.weight_bits;
}

// The index map: weight (k, n) of a K x N matrix -> its place in the buffer.
MIXGEMM_HOST_DEVICE constexpr Position position(Kind kind, int64_t N, int64_t k, int64_t n) {
  const int64_t kb = k / kind.block_k();
  const int64_t nb = n / kBlockRows;
  const int kin = static_cast<int>(k % kind.block_k());
  const int step = kin / kind.mma_k();
  const int c = kin % kind.mma_k();
  const int r = static_cast<int>(n % kBlockRows);
  const FragmentSlot slot = fragment_slot(kind, r, c);
  const int bit = step * kind.bytes_per_kstep() * 8 + element_bit(kind, slot.elem);
  const int64_t block = kb * (N / kBlockRows) + nb;
  return {block * kBlockBytes + slot.lane * kLaneBytes + (bit >> 3), bit & 7};
}

// Size in bytes of the prepacked buffer for a K x N weight matrix.
MIXGEMM_HOST_DEVICE constexpr int64_t prepacked_bytes(Kind kind, int64_t K, int64_t N) {
  return K * N * kind.weight_bits / 8;
}

}  // namespace mixgemm::layout
