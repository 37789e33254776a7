// smallm_common.cuh - what the roles of one smallm CTA share (smallm_gemm.cuh has the overview):
// the tile's compile-time plan (SmallmTraits), the walk over a CTA's chunks, and SmallmCommon: the
// element types and the per-thread context, the weight ring's cursors.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "kernels/gemm_params.h"
#include "kernels/smallm/smallm_kernel_params.h"
#include "kernels/smallm/smallm_partition.h"
#include "mixgemm/layout.h"

namespace mixgemm::kernels::smallm {

// Fixed schedule constants (the tunables that need no recompilation are runtime).
// n-blocks per warp (kNBW), rows per chunk and activation/scale stages per token tile
// (chunk_rows_of / stages_of, as SmallmTraits::kCK / kStages): smallm_kernel_params.h.
inline constexpr int kMaxWarps = 8;  // blockDim.x <= 256

template <AType A, int kWBits, int kTM>
struct SmallmTraits {
  static constexpr int kCK = chunk_rows_of(kTM);   // k-block rows per chunk
  static constexpr int kStages = stages_of(kTM);  // activation/scale stages, kStages-1 chunks ahead
  static_assert(kStages == 2 || kStages == 3, "the staging cursor of chunk_loop");
  // f16/bf16 activations use f16/bf16 HMMA m16n8k16; s8 uses IMMA m16n8k32. e4m3 also
  // runs on f16 HMMA: sm_90 has no native mma.sync for fp8 (ptxas emulates it with
  // per-MMA conversions and two HMMAs), so the kernel converts the activations to f16
  // once per CTA and chunk, and the weights straight into f16 fragments.
  static constexpr bool kMma16 = A != AType::kS8;
  static constexpr bool kA16 = A == AType::kF16 || A == AType::kBF16;
  static constexpr bool kConvertA = A == AType::kE4M3;  // e4m3 -> f16 staging pass
  static constexpr layout::Kind kKind{kWBits, kA16 ? 16 : 8};  // the prepacked layout
  static constexpr int kKB = kKind.block_k();           // k per block: 64 (4-bit), 32 (8-bit)
  static constexpr int kKS = kKB / (kMma16 ? 16 : 32);  // MMA k-steps per block
  static constexpr int kEBg = kA16 ? 2 : 1;             // activation bytes in global memory
  static constexpr int kEBs = kMma16 ? 2 : 1;           // activation bytes as the MMA reads them
  static constexpr int kKbBytes = kKB * kEBs;           // MMA-side bytes per token per k-block
  static constexpr int kKbBytesG = kKB * kEBg;          // global bytes per token per k-block
  // Padded shared row of one token: stride % 128 == 16 puts the 8 row addresses of
  // an ldmatrix 8x8 matrix in 8 different 16-byte bank groups (conflict-free).
  static constexpr int kActStride = kCK * kKbBytes + 16;
  // Row stride of the cp.async staging area (= kActStride unless e4m3 is converted).
  static constexpr int kStageStride = kCK * kKbBytesG + 16;
  static constexpr int kNT = kTM / 8;           // MMA n-tiles (8 tokens each)
  static constexpr int kSB = A == AType::kS8 ? 1 : 2;  // bytes per scale / zero element
  using Acc = std::conditional_t<A == AType::kS8, int32_t, float>;

  // Every MMA k-step consumes 32 bytes of each token row: 16 k x 2 B or 32 k x 1 B.
  static_assert(kKS * 32 == kKbBytes, "k-step byte width");
  static_assert(kActStride % 128 == 16, "ldmatrix rows must hit distinct bank groups");
  static_assert(kConvertA || kStageStride == kActStride, "staging is the MMA buffer");
  static_assert(kTM == 8 || kTM == 16 || kTM == 32 || kTM == 64, "token tile");
  static_assert(kWBits == 4 || kA16, "8-bit weights need 16-bit activations");
  static_assert(layout::kBlockBytes == 32 * 16 && layout::kLaneBytes == 16,
                "one 128-bit load per lane is one block's fragment");
  static_assert(kKind.bytes_per_kstep() * kKind.ksteps() == 16, "a lane's 16 bytes cover the block");
  // 4 u32 words per lane and block: word i holds k [16i, 16i+16) for 4-bit weights with
  // either MMA (layout.h: one k16 step per word, or half a k32 step per word).
  static_assert(kWBits != 4 || kKB / 16 == 4, "word i <-> k16 group i");
};

// One chunk: up to kCK consecutive k-block rows of one stripe inside the CTA's range.
struct Chunk {
  int32_t stripe;
  int32_t kb;      // first k-block
  int32_t rows;    // rows of this chunk; 0: past the end of the CTA's range
  int32_t left;    // rows of the CTA's range from this chunk's first row to the end
};

template <int kCK>
__host__ __device__ __forceinline__ int32_t chunk_rows(int32_t kb, int32_t left, int32_t KBn) {
  // Chunks never cross a stripe: a segment (one stripe's part of the range) is cut
  // into chunks from its own start.
  return min(min(kCK, left), KBn - kb);
}

template <int kCK>
__host__ __device__ __forceinline__ Chunk first_chunk(int64_t u0, int64_t u1, const RowPartition& part) {
  const int32_t KBn = part.KBn;
  Chunk c;
  c.stripe = stripe_of_row(part, u0);
  c.kb = static_cast<int32_t>(u0 - static_cast<int64_t>(c.stripe) * KBn);
  c.left = static_cast<int32_t>(u1 - u0);  // a CTA's share of U fits in int32 (host check)
  c.rows = chunk_rows<kCK>(c.kb, c.left, KBn);
  return c;
}

template <int kCK>
__host__ __device__ __forceinline__ Chunk next_chunk(const Chunk& c, int32_t KBn) {
  Chunk n;
  n.left = c.left - c.rows;
  n.kb = c.kb + c.rows;
  n.stripe = c.stripe;
  if (n.kb == KBn) {  // the stripe's k-range is done: continue at the next stripe, kb 0
    n.kb = 0;
    ++n.stripe;
  }
  n.rows = n.left > 0 ? chunk_rows<kCK>(n.kb, n.left, KBn) : 0;
  return n;
}

// The CTA of a row, the start of a CTA's range: smallm_partition.h (no 64-bit division).

// The types and per-thread state that the staging (smallm_staging.cuh), the mainloop
// (smallm_mainloop.cuh), the epilogue (smallm_epilogue.cuh) and the CTA (smallm_gemm.cuh) all read.
template <AType A, int kWBits, int kTM>
struct SmallmCommon {
  using Tr = SmallmTraits<A, kWBits, kTM>;
  using Acc = typename Tr::Acc;
  static constexpr int kKB = Tr::kKB, kKS = Tr::kKS, kNT = Tr::kNT, kSB = Tr::kSB;
  static constexpr int kActStride = Tr::kActStride, kKbBytes = Tr::kKbBytes;
  static constexpr int kStageStride = Tr::kStageStride, kKbBytesG = Tr::kKbBytesG;
  static constexpr int kCK = Tr::kCK, kStages = Tr::kStages;
  using T16 = std::conditional_t<A == AType::kBF16, __nv_bfloat16, __half>;

  // ---- per-thread constants of one CTA -------------------------------------------
  struct Ctx {
    int lane, warp, W;
    int c, C, mt;
    int m_base, m_rem;
    uint32_t smem_u32;     // shared window address of the dynamic smem
    uint8_t* smem;
    uint32_t ldm_lane;     // lane part of the ldmatrix address inside a stage
    int col_off;           // byte offset of this lane's (row g) scale in a staged scale row, block 0
    uint64_t policy;
    uint32_t ring_u32;     // shared address of the weight ring
    uint32_t bar_u32;      // shared address of its mbarriers (one per ring row)
    int row_bytes;         // bytes of one CTA row: W * kNBW blocks
  };

  // Weight ring cursor (all threads: consumer side; warp 0 also the producer side).
  struct RingPos {
    int slot;         // ring slot of the next row to consume
    uint32_t phase;   // parity of that slot's current use
  };
  struct Producer {
    int r;            // next CTA row (0 .. nrows) to bulk-copy
    int slot;         // its ring slot
    int stripe, kb;   // its coordinates
  };
};

}  // namespace mixgemm::kernels::smallm
