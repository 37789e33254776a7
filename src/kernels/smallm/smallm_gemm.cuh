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
#include "kernels/smallm/smallm_kernel_params.h"
#include "kernels/smallm/smallm_partition.h"
#include "kernels/smallm/smallm_trace.cuh"
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

// Raw bits of the scale and zero of rows g and g+8 for one lookup (16-bit values
// zero-extended, or u8; for s8 z0/z1 hold the cvt_u4x4_s8_gscale_pre offsets).
struct RowSZ {
  uint32_t s0, s1, z0, z1;
};

template <AType A, int kWBits, int kTM>
struct SmallmCta {
  using Tr = SmallmTraits<A, kWBits, kTM>;
  using Acc = typename Tr::Acc;
  static constexpr int kKB = Tr::kKB, kKS = Tr::kKS, kNT = Tr::kNT, kSB = Tr::kSB;
  static constexpr int kActStride = Tr::kActStride, kKbBytes = Tr::kKbBytes;
  static constexpr int kStageStride = Tr::kStageStride, kKbBytesG = Tr::kKbBytesG;
  static constexpr int kCK = Tr::kCK, kStages = Tr::kStages;
  using T16 = std::conditional_t<A == AType::kBF16, __nv_bfloat16, __half>;
  // 1.0 in the scale type (f16 for f16 and e4m3 activations, bf16, or the integer 1).
  static constexpr uint32_t kOne =
      A == AType::kBF16 ? 0x3F80u : (A == AType::kS8 ? 1u : 0x3C00u);

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

  // k-step i (0..3) of a 4-bit/16-bit-MMA lane fragment is word i; 8-bit fragments
  // use words 2s, 2s+1. Indices are compile-time after unrolling.
  static __device__ __forceinline__ uint32_t word(const uint4& v, int i) {
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
  }

  template <class T>
  static __device__ __forceinline__ T as16(uint32_t bits) {
    if constexpr (std::is_same_v<T, __half>) {
      return __ushort_as_half(static_cast<unsigned short>(bits));
    } else {
      return __ushort_as_bfloat16(static_cast<unsigned short>(bits));
    }
  }

  // ---- shared-memory staging of one chunk ------------------------------------------
  // Activations: token rows [m_base, m_base + m_rem) x k [kb*KB, (kb+rows)*KB), 16-byte
  // pieces, row-major with the padded stride. Token rows >= m_rem are zero (set once).
  // Scales / zeros: the group rows that intersect the chunk's k-range, the stripe's
  // columns, row-major [g - g_lo][column].
  // Threads [t0, blockDim.x) issue the copies (t0 = 32 in the prologue, where warp 0 fills
  // the weight ring meanwhile; 0 elsewhere).
  static __device__ __forceinline__ void load_stage(const SmallmKernelParams& p, const Ctx& x,
                                                    const Chunk& ch, int stage, int t0 = 0) {
    if (ch.rows == 0) return;
    const uint32_t st = x.smem_u32 + stage * p.stage_bytes;
    constexpr int kPieces = kCK * kKbBytesG / 16;  // 16-byte pieces per token row and chunk
    const int valid = ch.rows * (kKbBytesG / 16);
    const uint8_t* src0 = p.a + static_cast<int64_t>(x.m_base) * p.lda_bytes +
                          static_cast<int64_t>(ch.kb) * kKbBytesG;
    const int tid = static_cast<int>(threadIdx.x) - t0, nthr = static_cast<int>(blockDim.x) - t0;
    if (tid < 0) return;
    for (int i = tid; i < x.m_rem * kPieces; i += nthr) {
      const int m = i / kPieces, pc = i % kPieces;
      if (pc < valid) {
        ptx::cp_async16_zfill(st + m * kStageStride + pc * 16, src0 + m * p.lda_bytes + pc * 16, true);
      }
    }
    if (p.mode != kScaleNone) {
      const int k0 = ch.kb * kKB;
      const int g_lo = static_cast<int>(fast_div(k0, p.gs_div));  // k0 / gs
      const int ng = static_cast<int>(fast_div(k0 + ch.rows * kKB - 1, p.gs_div)) - g_lo + 1;  // <= g_rows
      const int pieces = p.srow_bytes >> 4;  // a power of two (launcher): r = i / pieces is a shift
      const int n0 = ch.stripe * (p.srow_bytes / kSB);  // stripe's first column
      int vcols = p.N - n0;
      if (vcols > p.srow_bytes / kSB) vcols = p.srow_bytes / kSB;
      const int vpieces = (vcols * kSB) >> 4;  // N % 16 == 0, so whole pieces
#pragma unroll
      for (int z = 0; z < 2; ++z) {
        const uint8_t* base = z == 0 ? p.scales : p.zeros;
        if (z == 0 ? !p.has_scales : !p.has_zeros) continue;
        const uint32_t dst = st + p.act_bytes + z * p.g_rows * p.srow_bytes;
        for (int i = tid; i < ng * pieces; i += nthr) {
          const int r = i >> p.srow_pieces_log2, pc = i & (pieces - 1);
          if (pc < vpieces) {
            const uint8_t* src =
                base + (static_cast<int64_t>(g_lo + r) * p.N + n0) * kSB + pc * 16;
            ptx::cp_async16_zfill(dst + r * p.srow_bytes + pc * 16, src, true);
          }
        }
      }
    }
  }

  // ---- e4m3 only: staged e4m3 activations -> f16 MMA buffer, k permuted ---------------
  // The 4-bit/8-bit-MMA weight layout gives lane t the k columns 4t..4t+3 of each 16-k
  // group (word of the fragment). Run on an f16 HMMA, those four k must be the lane's
  // A columns 2t, 2t+1 (reg0/reg1) and 2t+8, 2t+9 (reg2/reg3); the weight converter below
  // puts k 4t, 4t+2 in reg0 (row g) and k 4t+1, 4t+3 in reg2. The same k order must
  // reach B: ldmatrix hands lane (g, t) the f16 at positions 2t, 2t+1 (b0) and 2t+8,
  // 2t+9 (b1) of each 16-k group, so the f16 of k 4t+i goes to position
  //   i = 0 -> 2t,  i = 2 -> 2t+1,  i = 1 -> 2t+8,  i = 3 -> 2t+9,
  // i.e. output word t = (k 4t, k 4t+2) and word 4+t = (k 4t+1, k 4t+3) of input word t.
  static __device__ __forceinline__ void convert_stage(const SmallmKernelParams& p, const Ctx& x,
                                                       const Chunk& ch, int stage) {
    const uint8_t* raw = x.smem + stage * p.stage_bytes;
    uint8_t* dst = x.smem + kStages * p.stage_bytes;
    constexpr int kGroups = kCK * kKB / 16;  // 16-k groups per token row and chunk
    const int valid = ch.rows * (kKB / 16);
    for (int i = threadIdx.x; i < x.m_rem * kGroups; i += blockDim.x) {
      const int m = i / kGroups, grp = i % kGroups;
      if (grp >= valid) continue;
      const uint4 r = *reinterpret_cast<const uint4*>(raw + m * kStageStride + grp * 16);
      const uint32_t w[4] = {r.x, r.y, r.z, r.w};
      uint32_t o[8];
#pragma unroll
      for (int t = 0; t < 4; ++t) {
        // prmt with a zero second operand: byte0 <- w.byte0/1, byte1 <- w.byte2/3.
        o[t] = ptx::cvt_f16x2_e4m3x2(ptx::prmt(w[t], 0u, 0x4420u));
        o[4 + t] = ptx::cvt_f16x2_e4m3x2(ptx::prmt(w[t], 0u, 0x4431u));
      }
      uint4* d = reinterpret_cast<uint4*>(dst + m * kActStride + grp * 32);
      d[0] = make_uint4(o[0], o[1], o[2], o[3]);
      d[1] = make_uint4(o[4], o[5], o[6], o[7]);
    }
  }

  // 4 nibbles of one 16-k group (word w: nibbles 0..3 row g, 4..7 row g+8, k 4t+i in
  // nibble i) -> the f16 HMMA A fragment in the k order of convert_stage:
  //   f[0] = (q0, q2) row g, f[2] = (q1, q3) row g, f[1] = (q4, q6), f[3] = (q5, q7) row g+8,
  // each q - kBias exactly (magic-number f16: 0x6400|q = 1024+q, 0x5400|q<<4 = 64+q).
  template <int kBias>
  static __device__ __forceinline__ void cvt_u4_e4m3order_f16(uint32_t w, uint32_t (&f)[4]) {
    constexpr uint32_t kLoSub = kBias == 0 ? 0x64006400u : 0x64086408u;  // 1024 + B
    constexpr uint32_t kHiSub = kBias == 0 ? 0x54005400u : 0x54805480u;  // 64 + B
    const uint32_t lo = ptx::prmt(w, 0u, 0x4140u);  // {0, q3q2, 0, q1q0}
    const uint32_t hi = ptx::prmt(w, 0u, 0x4342u);  // {0, q7q6, 0, q5q4}
    f[0] = ptx::sub_f16x2(ptx::lop3<ptx::kLutAndOr>(lo, 0x000F000Fu, 0x64006400u), kLoSub);
    f[2] = ptx::sub_f16x2(ptx::lop3<ptx::kLutAndOr>(lo, 0x00F000F0u, 0x54005400u), kHiSub);
    f[1] = ptx::sub_f16x2(ptx::lop3<ptx::kLutAndOr>(hi, 0x000F000Fu, 0x64006400u), kLoSub);
    f[3] = ptx::sub_f16x2(ptx::lop3<ptx::kLutAndOr>(hi, 0x00F000F0u, 0x54005400u), kHiSub);
  }

  // ---- B fragments of one k-step: tokens of all n-tiles, 16 (32) k -------------------
  // ldmatrix matrix (nt, h) = token rows 8nt..8nt+7, bytes [32*step + 16h, +16) of each;
  // register h of n-tile nt is the mma's b_h. x4 covers n-tiles 2q, 2q+1 (lanes 8i..8i+7
  // address matrix i = 2*(nt - 2q) + h); x2 (one n-tile) uses lanes 0..15.
  static __device__ __forceinline__ void load_b(uint32_t (&bf)[kNT][2], uint32_t stage_ldm,
                                                int step_byte) {
    if constexpr (kNT == 1) {
      uint32_t r[2];
      ptx::ldmatrix_x2(r, stage_ldm + step_byte);
      bf[0][0] = r[0];
      bf[0][1] = r[1];
    } else {
#pragma unroll
      for (int q = 0; q < kNT / 2; ++q) {
        uint32_t r[4];
        ptx::ldmatrix_x4(r, stage_ldm + q * 16 * kActStride + step_byte);
        bf[2 * q][0] = r[0];
        bf[2 * q][1] = r[1];
        bf[2 * q + 1][0] = r[2];
        bf[2 * q + 1][1] = r[3];
      }
    }
  }

  // ---- scale / zero lookup for staged group row gl, block b --------------------------
  template <bool kUns>
  static __device__ __forceinline__ RowSZ load_sz(const SmallmKernelParams& p, const uint8_t* sc,
                                                  int gl, int b) {
    // sc: stage scale region + this lane's column (row g) for block 0; rows g+8 are
    // 8 columns further; block b 16 columns further.
    const uint8_t* sp = sc + gl * p.srow_bytes + b * 16 * kSB;
    const uint8_t* zp = sp + p.g_rows * p.srow_bytes;
    RowSZ r;
    // Biased weights (u4b8, u8b128) never carry zero points, so in a grouped mode they
    // always have scales: no runtime test for them.
    const bool has_s = !kUns || p.has_scales;
    const bool has_z = kUns && p.has_zeros;
    if constexpr (kSB == 2) {
      r.s0 = has_s ? *reinterpret_cast<const uint16_t*>(sp) : kOne;
      r.s1 = has_s ? *reinterpret_cast<const uint16_t*>(sp + 16) : kOne;
      r.z0 = has_z ? *reinterpret_cast<const uint16_t*>(zp) : 0u;
      r.z1 = has_z ? *reinterpret_cast<const uint16_t*>(zp + 16) : 0u;
    } else {
      // s8: integer group scale sg (1 without group scales) and the pre-multiplied zero
      // zsg = z*sg (prepacked), 8*sg for u4b8, 0 for u4 without zeros.
      r.s0 = has_s ? sp[0] : 1u;
      r.s1 = has_s ? sp[8] : 1u;
      const uint32_t zs0 = has_z ? zp[0] : (kUns ? 0u : 8u * r.s0);
      const uint32_t zs1 = has_z ? zp[8] : (kUns ? 0u : 8u * r.s1);
      r.z0 = convert::s8_gscale_offset(zs0);
      r.z1 = convert::s8_gscale_offset(zs1);
    }
    return r;
  }

  // ---- weights -> A fragment of k-step s -----------------------------------------------
  // szA: lookup for the k-step's first 16 k, szB: its second 16 k (s8 k32 steps only).
  template <int kMode, bool kUns>
  static __device__ __forceinline__ void dequant(const uint4& v, int s, const RowSZ& szA,
                                                 const RowSZ& szB, uint32_t (&f)[4]) {
    if constexpr (Tr::kA16) {
      using T = T16;
      if constexpr (kWBits == 4) {
        const uint32_t w = word(v, s);
        if constexpr (kUns) convert::cvt_u4_frag16<T>(w, f);
        else convert::cvt_u4b8_frag16<T>(w, f);
      } else {
        const uint2 w2 = make_uint2(word(v, 2 * s), word(v, 2 * s + 1));
        if constexpr (kUns) convert::cvt_u8_frag16<T>(w2, f);
        else convert::cvt_u8b128_frag16<T>(w2, f);
      }
      if constexpr (kMode != kScaleNone) {
        // u4/u8: RN(q*s + zs) (zs = 0 without zeros, s = 1 without scales);
        // u4b8/u8b128: RN((q-B)*s) (biased weights never carry zeros).
        if constexpr (kUns) {
          convert::scale_zero_frag16<T>(f, as16<T>(szA.s0), as16<T>(szA.s1), as16<T>(szA.z0),
                                        as16<T>(szA.z1));
        } else {
          convert::scale_frag16<T>(f, as16<T>(szA.s0), as16<T>(szA.s1));
        }
      }
    } else if constexpr (A == AType::kE4M3) {
      // 16-k group s: exact q - B in f16 (that is e4m3(q - B): |q - B| <= 15), then for
      // group scales w = RN_e4m3sat(RN_f16(w16)) (docs/semantics.md) back in f16 (exact).
      cvt_u4_e4m3order_f16<kUns ? 0 : 8>(word(v, s), f);
      if constexpr (kMode != kScaleNone) {
        // u4: RN_f16(q*s + zs) with zs = 0 without zeros (fma with +0 equals the mul up
        // to the sign of a zero weight, which no sum can see); u4b8: RN_f16((q-8)*s).
        if constexpr (kUns) {
          convert::scale_zero_frag16<__half>(f, as16<__half>(szA.s0), as16<__half>(szA.s1),
                                             as16<__half>(szA.z0), as16<__half>(szA.z1));
        } else {
          convert::scale_frag16<__half>(f, as16<__half>(szA.s0), as16<__half>(szA.s1));
        }
#pragma unroll
        for (int i = 0; i < 4; ++i) f[i] = ptx::cvt_f16x2_e4m3x2(ptx::cvt_e4m3x2_f16x2(f[i]));
      }
    } else {
      // s8, 4-bit weights, IMMA k32: words 2s (k 0..15 of the step) and 2s+1 (k 16..31);
      // reg0 = nibbles 0..3 (row g), reg1 = nibbles 4..7 (row g+8) of each word.
      const uint32_t x = word(v, 2 * s), y = word(v, 2 * s + 1);
      if constexpr (kMode == kScaleNone) {
        constexpr int32_t kBias = kUns ? 0 : 8;
        f[0] = convert::cvt_u4x4_s8(x, kBias);
        f[1] = convert::cvt_u4x4_s8<true>(x, kBias);  // nibbles 4..7: cvt(x >> 16) without the shift
        f[2] = convert::cvt_u4x4_s8(y, kBias);
        f[3] = convert::cvt_u4x4_s8<true>(y, kBias);
      } else {
        f[0] = convert::cvt_u4x4_s8_gscale_pre(x, szA.s0, szA.z0);
        f[1] = convert::cvt_u4x4_s8_gscale_pre<true>(x, szA.s1, szA.z1);
        f[2] = convert::cvt_u4x4_s8_gscale_pre(y, szB.s0, szB.z0);
        f[3] = convert::cvt_u4x4_s8_gscale_pre<true>(y, szB.s1, szB.z1);
      }
    }
  }

  static __device__ __forceinline__ void mma(Acc (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    if constexpr (A == AType::kBF16) {
      ptx::mma_bf16_16816(d, a, b[0], b[1]);
    } else if constexpr (A == AType::kS8) {
      ptx::mma_s8_16832(d, a, b[0], b[1]);
    } else {  // f16, and e4m3 converted to f16
      ptx::mma_f16_16816(d, a, b[0], b[1]);
    }
  }

  // ---- weight producer (warp 0): bulk-copy CTA rows into the shared ring -------------
  // Row (stripe, kb) of the CTA = W*kNBW contiguous 512-byte blocks at ((kb*NB)+nb0)*512
  // (layout.h): one bulk copy of up to 8 KB, completing on the slot's mbarrier. Rows
  // [pr.r, limit) are issued, row pr.r + l by lane l (limit - pr.r <= ring_rows <= 32), so
  // the producer costs warp 0 one pass instead of one per row (warp 0 is on the critical
  // path: every chunk ends with a barrier). A slot is only reissued after the chunk
  // barrier that follows the last read of its previous row, so no "empty" barrier is
  // needed. With l2_ahead > 0 each issued row r also bulk-prefetches row r + l2_ahead*kCK
  // into L2 (measured slower: the extra warp-0 work costs more than it brings).
  static __device__ __forceinline__ void produce(const SmallmKernelParams& p, const Ctx& x, Producer& pr,
                                                 int limit, int nrows, int64_t u0) {
    const int n = limit - pr.r;
    if (n <= 0) return;
    const int nbw = x.W * kNBW;
    if (x.lane < n) {
      int kb = pr.kb + x.lane, stripe = pr.stripe;
      while (kb >= p.KBn) {  // at most once unless KBn < 32
        kb -= p.KBn;
        ++stripe;
      }
      const int slot = pr.slot + x.lane >= p.ring_rows ? pr.slot + x.lane - p.ring_rows : pr.slot + x.lane;
      const int nb0 = stripe * nbw;
      const uint32_t bytes = static_cast<uint32_t>(min(nbw, p.NB - nb0)) << 9;
      const uint32_t bar = x.bar_u32 + slot * 8;
      ptx::mbar_arrive_expect_tx(bar, bytes);
      ptx::bulk_g2s(x.ring_u32 + slot * x.row_bytes,
                    p.b + ((static_cast<int64_t>(kb) * p.NB + nb0) << 9), bytes, bar, x.policy);
      if (p.l2_ahead > 0) {
        const int rr = pr.r + x.lane + p.l2_ahead * kCK;
        if (rr >= p.ring_rows && rr < nrows) {  // rows < ring_rows: the first fill copies them
          const int u = static_cast<int>(u0) + rr;  // U < 2^31 (host check)
          const int st = stripe_of_row(p.part, u), kbp = u - st * p.KBn;
          const int n0 = st * nbw;
          ptx::bulk_prefetch_l2(p.b + ((static_cast<int64_t>(kbp) * p.NB + n0) << 9),
                                static_cast<uint32_t>(min(nbw, p.NB - n0)) << 9);
        }
      }
    }
    pr.r = limit;
    pr.slot += n;
    if (pr.slot >= p.ring_rows) pr.slot -= p.ring_rows;
    pr.kb += n;
    while (pr.kb >= p.KBn) {
      pr.kb -= p.KBn;
      ++pr.stripe;
    }
  }

  // ---- one chunk: wait for its rows in the shared ring and consume them ----------------
  // Returns the cycles spent waiting for rows (trace builds; 0 otherwise).
  template <int kMode, bool kUns>
  static __device__ __forceinline__ long long compute_chunk(const SmallmKernelParams& p, const Ctx& x,
                                                       Acc (&acc)[kNBW][kNT][4], RingPos& rp,
                                                       int stage, const Chunk& cur) {
    // e4m3 reads its converted f16 buffer (behind the stages), the others the stage itself.
    const uint32_t stage_ldm =
        x.smem_u32 + (Tr::kConvertA ? kStages : stage) * p.stage_bytes + x.ldm_lane;
    const uint8_t* sc = x.smem + stage * p.stage_bytes + p.act_bytes + x.col_off;
    // This lane's 16 bytes of block b inside a ring row; warps past N (last stripe: the
    // row holds only nvalid blocks) read the last valid block: their rows are never stored.
    const int nvalid = min(x.W * kNBW, p.NB - cur.stripe * (x.W * kNBW));
    int boff[kNBW];
#pragma unroll
    for (int b = 0; b < kNBW; ++b) boff[b] = (min(x.warp * kNBW + b, nvalid - 1) << 9) + x.lane * 16;

    // Group tracking: gl = (k / gs) - g_lo for the current k, r = k % gs, advanced by
    // the k-width of each lookup (KB per row in kScaleBlock, 16 per unit in kScaleStep).
    int gl = 0, r = 0;
    if constexpr (kMode != kScaleNone) {
      const int k0 = cur.kb * kKB;
      r = k0 - static_cast<int>(fast_div(k0, p.gs_div)) * p.gs;  // k0 % gs
    }
    // TM 8 keeps rows a loop (not unrolled): the unrolled chunk was ~4x the code, and the
    // instruction fetch of that code was the largest stall under ncu (whose launches start
    // with cold instruction caches); in the bench it measured the same, with 23% less code.
    // TM 16 unrolls by 2 (two rows per trip, ~310 SASS instructions for f16 g128): fully
    // unrolled, its 8-row chunk was 1231 instructions (154 per row, as many per weight as
    // unrolled by 2), and in CUDA graphs by 2 takes 0.94-0.95x the time at M = 12 / 16 (f16 / s8
    // g128; 0.87-0.95x on the small layers, whose launches pay the most for fetching the code),
    // 0.99x event-timed. Larger tiles unroll the chunk. docs/design-smallm.md, "Session 5",
    // "Session 62".
    constexpr int kUnroll = kTM == 8 ? 1 : (kTM == 16 ? 2 : kCK);
    long long row_wait = 0;
#pragma unroll kUnroll
    for (int j = 0; j < kCK; ++j) {
      if (j >= cur.rows) break;
      // Row j: wait for its bulk copy (per row, not per chunk: waiting for the whole
      // chunk up front measured slower, docs/design-smallm.md), then one 16-byte shared
      // load per block.
      uint4 wv[kNBW];
      const long long tw = trace_clock();
      ptx::mbar_wait_parity(x.bar_u32 + rp.slot * 8, rp.phase);
      row_wait += trace_clock() - tw;
      {
        const uint8_t* row = x.smem + p.ring_off + rp.slot * x.row_bytes;
#pragma unroll
        for (int b = 0; b < kNBW; ++b) wv[b] = *reinterpret_cast<const uint4*>(row + boff[b]);
      }
      if (++rp.slot == p.ring_rows) {
        rp.slot = 0;
        rp.phase ^= 1u;
      }
      RowSZ szb[kNBW] = {};
      if constexpr (kMode == kScaleBlock) {
#pragma unroll
        for (int b = 0; b < kNBW; ++b) szb[b] = load_sz<kUns>(p, sc, gl, b);
        r += kKB;
        if (r >= p.gs) { r -= p.gs; ++gl; }  // gs % KB == 0: lands exactly on gs
      }
#pragma unroll
      for (int s = 0; s < kKS; ++s) {
        uint32_t bf[kNT][2];
        load_b(bf, stage_ldm, (j * kKS + s) * 32);
        RowSZ szA[kNBW], szB[kNBW];
#pragma unroll
        for (int b = 0; b < kNBW; ++b) szA[b] = szB[b] = szb[b];
        if constexpr (kMode == kScaleStep) {
          constexpr int kUnitsPerStep = Tr::kMma16 ? 1 : 2;  // 16-k lookups per k-step
#pragma unroll
          for (int uu = 0; uu < kUnitsPerStep; ++uu) {
#pragma unroll
            for (int b = 0; b < kNBW; ++b) {
              const RowSZ t = load_sz<kUns>(p, sc, gl, b);
              if (uu == 0) szA[b] = t;
              else szB[b] = t;
            }
            r += 16;
            if (r >= p.gs) { r -= p.gs; ++gl; }  // gs % 16 == 0
          }
        }
#pragma unroll
        for (int b = 0; b < kNBW; ++b) {
          uint32_t f[4];
          dequant<kMode, kUns>(wv[b], s, szA[b], szB[b], f);
#pragma unroll
          for (int nt = 0; nt < kNT; ++nt) mma(acc[b][nt], f, bf[nt]);
        }
      }
    }
    return row_wait;
  }

  static __device__ __forceinline__ void zero_acc(Acc (&acc)[kNBW][kNT][4]) {
#pragma unroll
    for (int b = 0; b < kNBW; ++b)
#pragma unroll
      for (int nt = 0; nt < kNT; ++nt)
#pragma unroll
        for (int i = 0; i < 4; ++i) acc[b][nt][i] = Acc(0);
  }

  // ---- epilogue of one accumulator fragment (block b, n-tile nt) --------------------------
  // out[m, n] = RN_out(fma(acc, RN_f32(tok[m] * ch[n]), bias[n])); fragment registers
  // {0,1}: row n = g, tokens 2t, 2t+1; {2,3}: row g+8.
  static __device__ __forceinline__ void store_frag(const SmallmKernelParams& p, const Ctx& x,
                                                    int stripe, int b, int nt, const Acc (&v)[4]) {
    const int nb = stripe * (x.W * kNBW) + x.warp * kNBW + b;
    if (nb >= p.NB) return;  // warp-uniform: the last stripe's blocks past N
    const int g = x.lane >> 2, t = x.lane & 3;
    // Column factors once per row h, token factors and the output row once per token e:
    // the same operations per element as the formula above, less code (the epilogue is
    // inlined at every segment end).
    float chv[2], bv[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int n = nb * 16 + g + 8 * h;
      chv[h] = p.ch ? p.ch[n] : 1.0f;
      bv[h] = 0.0f;
      if (p.bias) {
        const unsigned short bb = reinterpret_cast<const unsigned short*>(p.bias)[n];
        bv[h] = p.out_bf16 ? __bfloat162float(__ushort_as_bfloat16(bb)) : __half2float(__ushort_as_half(bb));
      }
    }
#pragma unroll
    for (int e = 0; e < 2; ++e) {
      const int m = x.m_base + nt * 8 + 2 * t + e;
      if (m >= p.M) continue;
      const float tv = p.tok ? p.tok[m] : 1.0f;
      unsigned short* row = reinterpret_cast<unsigned short*>(p.out) + static_cast<int64_t>(m) * p.ldo + nb * 16 + g;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        float a;
        if constexpr (A == AType::kS8) a = __int2float_rn(v[2 * h + e]);
        else a = v[2 * h + e];
        const float r = __fmaf_rn(a, __fmul_rn(tv, chv[h]), bv[h]);
        row[8 * h] = p.out_bf16 ? __bfloat16_as_ushort(__float2bfloat16_rn(r)) : __half_as_ushort(__float2half_rn(r));
      }
    }
  }

  static __device__ __forceinline__ uint32_t acc_bits(Acc v) {
    if constexpr (A == AType::kS8) return static_cast<uint32_t>(v);
    else return __float_as_uint(v);
  }
  static __device__ __forceinline__ Acc acc_from_bits(uint32_t u) {
    if constexpr (A == AType::kS8) return static_cast<int32_t>(u);
    else return __uint_as_float(u);
  }

  // Partial tile layout: fragment order, one 16-byte vector per (block, n-tile, lane):
  // index ((warp*kNBW + b) * kNT + nt) * 32 + lane, so every lane stores / loads 16
  // contiguous bytes and a warp 512 (coalesced), and the reducing CTA (same shape)
  // finds each of its registers at the same place in every contributor's tile.
  static __device__ __forceinline__ int tile_index(const Ctx& x, int b, int nt) {
    return ((x.warp * kNBW + b) * kNT + nt) * 32 + x.lane;
  }
  // Whether this lane's fragment of n-tile nt holds a live token (tokens nt*8 + 2t, +1 of the
  // tile, t = lane % 4): partial tiles carry only those pieces (at M = 1, 8 lanes of 32), the
  // others are neither stored nor loaded (their sums are never stored: store_frag).
  static __device__ __forceinline__ bool lane_live(const Ctx& x, int nt) {
    return nt * 8 + 2 * (x.lane & 3) < x.m_rem;
  }

  // ---- cluster split-K: the reduction through distributed shared memory ----------------
  // With p.cluster = S >= 2 the launcher cut the grid into one cluster of S CTAs per stripe
  // (C = stripes x S, blockIdx.x = stripe * S + rank): rank r holds k-part r of the stripe,
  // a single segment, and arrives here with it. Instead of the workspace round trips
  // (partial store, fence, counter atomic, and one CTA loading all S partials), every CTA
  // writes its partial tile into its own dead weight ring, in the workspace's fragment
  // order (tile_index), and after one cluster barrier rank r reduces the 16-byte pieces
  // [r P / S, (r + 1) P / S) of the tile (P = W * kNBW * kNT * 32 pieces) by reading them
  // from ranks 0, 1, ..., S - 1 in that order: ascending k, as the workspace path sums
  // its contributors, so the result is deterministic and equals what the workspace path
  // gives for the same k-parts (the plain split cuts K elsewhere, so its bits can differ
  // within the rounding the tests allow). A second cluster barrier keeps each CTA's shared
  // memory alive until its peers have read it.
  static __device__ __forceinline__ void cluster_reduce(const SmallmKernelParams& p, const Ctx& x,
                                                        const Acc (&acc)[kNBW][kNT][4], int stripe) {
    const uint32_t tile = x.smem_u32 + p.ring_off;  // ring_rows >= kNT rows hold the tile
    __syncthreads();  // every warp is past its last ring read: the ring is dead
#pragma unroll
    for (int b = 0; b < kNBW; ++b)
#pragma unroll
      for (int nt = 0; nt < kNT; ++nt)
        ptx::sts128(tile + tile_index(x, b, nt) * 16,
                    make_uint4(acc_bits(acc[b][nt][0]), acc_bits(acc[b][nt][1]), acc_bits(acc[b][nt][2]),
                               acc_bits(acc[b][nt][3])));
    ptx::cluster_sync();
    smallm_trace(kTraceReduce);
    const int S = p.cluster;
    const int r = static_cast<int>(ptx::cluster_ctarank());
    const int P = x.W * kNBW * kNT * 32;
    const int i1 = (r + 1) * P / S;
    for (int i = r * P / S + threadIdx.x; i < i1; i += blockDim.x) {
      uint4 w[kMaxClusterCtas > 0 ? kMaxClusterCtas : 1];
#pragma unroll
      for (int q = 0; q < kMaxClusterCtas; ++q)
        if (q < S) w[q] = ptx::ld_shared_cluster128(ptx::mapa_shared(tile + i * 16, q));
      Acc sum[4];
#pragma unroll
      for (int q = 0; q < kMaxClusterCtas; ++q) {
        if (q >= S) break;
        const Acc v[4] = {acc_from_bits(w[q].x), acc_from_bits(w[q].y), acc_from_bits(w[q].z),
                          acc_from_bits(w[q].w)};
#pragma unroll
        for (int e = 0; e < 4; ++e) sum[e] = q == 0 ? v[e] : sum[e] + v[e];
      }
      // Piece i = ((warp * kNBW + b) * kNT + nt) * 32 + lane (tile_index): its owner's epilogue.
      Ctx y = x;
      y.lane = i & 31;
      const int f = i >> 5;
      y.warp = f / (kNBW * kNT);
      store_frag(p, y, stripe, (f / kNT) % kNBW, f % kNT, sum);
    }
    ptx::cluster_sync();
  }

  // ---- partial sums for the caller (gemm_partial_sums) -----------------------------------
  // p.parts set (smallm_geometry.h, make_partial_sums_geometry: the cluster geometry launched
  // without clusters, or the schedule's stream-K partition): every segment, whole stripe or not,
  // writes its raw accumulators (f32; s32 for s8), no epilogue, to parts[r][m][n] (row stride N,
  // part stride M * N), r = its CTA's place among the CTAs that meet the stripe, in ascending
  // order (in the cluster geometry CTA stripe * S + r). The stripe's last CTA also writes zeros to
  // parts n .. S - 1 when only n < S CTAs meet it. The caller sums r = 0, 1, ..., S - 1 in that
  // order, the order of the workspace split's reductions and of cluster_reduce, and applies the
  // epilogue. Only live tokens and columns below N are written: every element of [S, M, N]
  // exactly once.
  static __device__ __forceinline__ void store_partial_sum(const SmallmKernelParams& p, const Ctx& x,
                                                           const Acc (&acc)[kNBW][kNT][4], int stripe) {
    const int64_t su0 = static_cast<int64_t>(stripe) * p.KBn;  // stripe's rows [su0, su0 + KBn)
    const int c_first = cta_of_row(p.part, su0);
    const int r = x.c - c_first;
    // Parts [r, r_end): this CTA's own, then the zero parts if it is the stripe's last CTA.
    const int r_end = x.c == cta_of_row(p.part, su0 + p.KBn - 1) ? p.parts_count : r + 1;
    const int g = x.lane >> 2, t = x.lane & 3;
    for (int q = r; q < r_end; ++q) {
      uint32_t* part = reinterpret_cast<uint32_t*>(p.parts) + static_cast<int64_t>(q) * p.M * p.N;
#pragma unroll
      for (int b = 0; b < kNBW; ++b) {
        const int nb = stripe * (x.W * kNBW) + x.warp * kNBW + b;
        if (nb >= p.NB) continue;  // warp-uniform: the last stripe's blocks past N
#pragma unroll
        for (int nt = 0; nt < kNT; ++nt)
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            const int m = x.m_base + nt * 8 + 2 * t + e;
            if (m >= p.M) continue;
            uint32_t* row = part + static_cast<int64_t>(m) * p.N + nb * 16 + g;
            // Fragment element 2h + e: token m, column nb * 16 + g + 8h (store_frag's map).
            __stcg(row, q == r ? acc_bits(acc[b][nt][e]) : 0u);
            __stcg(row + 8, q == r ? acc_bits(acc[b][nt][2 + e]) : 0u);
          }
      }
    }
  }

  // Partial-tile slots (workspace, per token tile): 2c holds CTA c's first segment (it starts
  // at the CTA's first row), 2c + 1 its last one, when its range started in an earlier stripe.
  // Middle segments are whole stripes (no slot). CTA cc owns rows [cc U / C, (cc + 1) U / C);
  // su0 = the first row of the stripe.
  static __device__ __forceinline__ int slot_of(const RowPartition& part, int64_t su0, int cc) {
    return 2 * cc + (row_start(part, cc) < su0 ? 1 : 0);
  }
  // This thread's live pieces of a partial tile, in fragment order (tile_index).
  static __device__ __forceinline__ void store_partial(const Ctx& x, const uint8_t* tile,
                                                       const Acc (&acc)[kNBW][kNT][4]) {
    uint4* mine = reinterpret_cast<uint4*>(const_cast<uint8_t*>(tile));
#pragma unroll
    for (int b = 0; b < kNBW; ++b)
#pragma unroll
      for (int nt = 0; nt < kNT; ++nt)
        if (lane_live(x, nt))
          __stcg(mine + tile_index(x, b, nt), make_uint4(acc_bits(acc[b][nt][0]), acc_bits(acc[b][nt][1]),
                                                         acc_bits(acc[b][nt][2]), acc_bits(acc[b][nt][3])));
  }

  // ---- end of one stripe segment: output directly, or the split-K reduction -----------
  // kRedGroup fragments x kRedBatch contributors: partial loads in flight together.
  // kFinal: the CTA's last segment, at the kernel's end (where the counter peek may apply).
  template <int kRedGroup, int kRedBatch, bool kFinal>
  static __device__ __forceinline__ void finish_segment(const SmallmKernelParams& p, const Ctx& x,
                                                        const Acc (&acc)[kNBW][kNT][4], int stripe,
                                                        bool full, int* s_flag) {
    if constexpr (kTM <= 16) {  // TM 32 / 64 have no partial-sum form (smallm_geometry.h)
      if (p.parts) {  // kernel-uniform: the caller sums the parts
        store_partial_sum(p, x, acc, stripe);
        return;
      }
    }
    if (full) {  // this CTA holds the stripe's whole k-range
#pragma unroll
      for (int b = 0; b < kNBW; ++b)
#pragma unroll
        for (int nt = 0; nt < kNT; ++nt) store_frag(p, x, stripe, b, nt, acc[b][nt]);
      return;
    }
    if constexpr (kFinal && kTM <= 16) {  // TM 32/64 never cluster (smallm_geometry.h)
      if (p.cluster >= 2) {  // kernel-uniform: the CTA's only segment
        cluster_reduce(p, x, acc, stripe);
        return;
      }
    }
    const int64_t su0 = static_cast<int64_t>(stripe) * p.KBn;  // stripe's rows [su0, su0 + KBn)
    const uint8_t* tiles = p.partials + static_cast<int64_t>(x.mt) * 2 * x.C * p.tile_bytes;
    if (p.deferred) {  // kernel-uniform: smallm_reduce_kernel sums the partials after this grid
      store_partial(x, tiles + static_cast<int64_t>(slot_of(p.part, su0, x.c)) * p.tile_bytes, acc);
      return;
    }
    const int c_first = cta_of_row(p.part, su0);
    const int c_last = cta_of_row(p.part, su0 + p.KBn - 1);
    auto slot_of = [&](int cc) { return SmallmCta::slot_of(p.part, su0, cc); };
    int* cnt = p.counters + static_cast<int64_t>(x.mt) * p.stripes + stripe;
    const int n = c_last - c_first + 1;
    // Peek first, where it is likely to pay: the kernel's final segment of a CTA that starts
    // a stripe shared with one other CTA, whose part of the stripe was the start of its
    // range and finished long ago. If that CTA has arrived, this one is the last: nobody
    // reads its partial, so it skips the store, the release fence and the atomic (two
    // dependent L2 round trips on the kernel's tail) and reduces at once. (With middle
    // contributors, CTAs that spend their whole range in the stripe and end with it, the
    // peek mostly fails and would only add a round trip.) Otherwise the release protocol
    // below decides, as before. Either way the sum is the same ascending-CTA-order sum:
    // bitwise identical results.
    bool last_by_peek = false;
    if (kFinal && n == 2 && x.c == c_first) {  // CTA-uniform
      if (threadIdx.x == 0) {
        const bool last = ptx::ld_acquire_gpu(cnt) == 1;
        if (last) *cnt = 0;  // nobody else touches it in this launch: zero for the next one
        *s_flag = last;
      }
      __syncthreads();
      last_by_peek = *s_flag;
    }
    if (!last_by_peek) {
      store_partial(x, tiles + static_cast<int64_t>(slot_of(x.c)) * p.tile_bytes, acc);
      // Release and acquire by thread 0 alone (the pattern of a grid barrier): the CTA
      // barrier orders every thread's partial store before thread 0's fence, which makes them
      // visible device-wide before the counter moves (cumulativity); if this CTA is the last,
      // thread 0's fence after the atomic orders the other contributors' partials before the
      // second barrier, and so before every thread's loads below.
      __syncthreads();
      if (threadIdx.x == 0) {
        __threadfence();
        if (kFinal) smallm_trace(kTraceFenced);
        const int old = atomicAdd(cnt, 1);
        if (kFinal) smallm_trace(kTraceTicket);
        const int last = old == n - 1;
        if (last) {
          atomicExch(cnt, 0);  // leave the workspace zeroed for the next call
          __threadfence();
        }
        *s_flag = last;
      }
      __syncthreads();
      smallm_trace(kTraceReleased);
      if (!*s_flag) return;
    }
    smallm_trace(kTraceReduce);
    // Both ways here acquired in thread 0 before a CTA barrier: the fence after the atomic
    // above, or the peek's ld.acquire.
    // Sum in fixed contributor order c_first..c_last (ascending k), own registers at
    // their place: the same additions in the same order whoever arrives last. The last
    // stripe of every CTA is reduced at the very end of the kernel (its CTA is typically
    // the last to arrive), so this latency is on the critical path: per contributor, the
    // loads of kRG fragments are in flight together, i.e. (fragments / kRG) x contributors
    // dependent L2 round trips. The kernel's final reduction runs after the weight ring
    // is dead and takes large groups; mid-kernel ones keep kRG small (the ring is live).
    constexpr int kFr = kNBW * kNT;
    if constexpr (kFinal && kTM <= 16) {
      // Final reduction staged through the weight ring, which is dead now (every warp has
      // passed a barrier after its last ring read): each lane cp.asyncs its 16-byte pieces of
      // up to `cap` contributors into its own shared slots, waits once, and sums them in the
      // same ascending order as below: one L2 round trip per `cap` contributors instead of
      // one per 8 (TM 8) or 2 (TM 16). cap >= 2: ring_rows >= kCK rows of W * kNBW blocks.
      constexpr int kWarpBytes = kFr * 512;  // one contributor's fragments, one warp
      const int cap = (p.ring_rows * x.row_bytes) / (x.W * kWarpBytes);
      const int off = p.ring_off + x.warp * cap * kWarpBytes + x.lane * 16;  // this lane's slots
      Acc sum[kFr][4];
      for (int cc0 = c_first; cc0 <= c_last; cc0 += cap) {
        const int nb = min(cap, c_last - cc0 + 1);
        for (int q = 0; q < nb; ++q) {
          const int cc = cc0 + q;
          if (cc == x.c) continue;
          const uint4* src = reinterpret_cast<const uint4*>(tiles + static_cast<int64_t>(slot_of(cc)) * p.tile_bytes);
#pragma unroll
          for (int f = 0; f < kFr; ++f)  // dead pieces: zero-filled, no global read
            ptx::cp_async16_zfill(x.smem_u32 + off + (q * kFr + f) * 512, src + tile_index(x, f / kNT, f % kNT),
                                  lane_live(x, f % kNT));
        }
        ptx::cp_async_commit();
        ptx::cp_async_wait<0>();  // this lane's own copies: visible to this lane
        if (cc0 == c_first) smallm_trace(kTraceRedLoaded);
        for (int q = 0; q < nb; ++q) {
          const int cc = cc0 + q;
#pragma unroll
          for (int f = 0; f < kFr; ++f) {
            Acc v[4];
            if (cc == x.c) {
#pragma unroll
              for (int i = 0; i < 4; ++i) v[i] = acc[f / kNT][f % kNT][i];
            } else {
              const uint4 w = *reinterpret_cast<const uint4*>(x.smem + off + (q * kFr + f) * 512);
              v[0] = acc_from_bits(w.x);
              v[1] = acc_from_bits(w.y);
              v[2] = acc_from_bits(w.z);
              v[3] = acc_from_bits(w.w);
            }
#pragma unroll
            for (int i = 0; i < 4; ++i) sum[f][i] = cc == c_first ? v[i] : sum[f][i] + v[i];
          }
        }
      }
      smallm_trace(kTraceRedSummed);
#pragma unroll
      for (int f = 0; f < kFr; ++f) store_frag(p, x, stripe, f / kNT, f % kNT, sum[f]);
      smallm_trace(kTraceRedStored);
      return;
    }
    constexpr int kRG = kFr < kRedGroup ? kFr : kRedGroup;
    constexpr int kCB = kRedBatch;
#pragma unroll
    for (int f0 = 0; f0 < kFr; f0 += kRG) {
      Acc sum[kRG][4];
      for (int cc0 = c_first; cc0 <= c_last; cc0 += kCB) {
        // Issue the loads of up to kCB contributors, then add them in order.
        uint4 w[kCB][kRG];
#pragma unroll
        for (int q = 0; q < kCB; ++q) {
          const int cc = cc0 + q;
          if (cc <= c_last && cc != x.c) {
            const uint4* src = reinterpret_cast<const uint4*>(
                tiles + static_cast<int64_t>(slot_of(cc)) * p.tile_bytes);
#pragma unroll
            for (int r = 0; r < kRG; ++r)
              w[q][r] = lane_live(x, (f0 + r) % kNT) ? __ldcg(src + tile_index(x, (f0 + r) / kNT, (f0 + r) % kNT))
                                                      : make_uint4(0, 0, 0, 0);
          }
        }
#pragma unroll
        for (int q = 0; q < kCB; ++q) {
          const int cc = cc0 + q;
          if (cc > c_last) break;
          Acc v[kRG][4];
#pragma unroll
          for (int r = 0; r < kRG; ++r) {
            if (cc == x.c) {
#pragma unroll
              for (int i = 0; i < 4; ++i) v[r][i] = acc[(f0 + r) / kNT][(f0 + r) % kNT][i];
            } else {
              v[r][0] = acc_from_bits(w[q][r].x);
              v[r][1] = acc_from_bits(w[q][r].y);
              v[r][2] = acc_from_bits(w[q][r].z);
              v[r][3] = acc_from_bits(w[q][r].w);
            }
          }
#pragma unroll
          for (int r = 0; r < kRG; ++r)
#pragma unroll
            for (int i = 0; i < 4; ++i) sum[r][i] = cc == c_first ? v[r][i] : sum[r][i] + v[r][i];
        }
      }
#pragma unroll
      for (int r = 0; r < kRG; ++r) store_frag(p, x, stripe, (f0 + r) / kNT, (f0 + r) % kNT, sum[r]);
    }
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
      load_stage(p, x, kStages == 3 ? next_chunk<kCK>(nxt, p.KBn) : nxt, stage == 0 ? kStages - 1 : stage - 1);
      ptx::cp_async_commit();
      if constexpr (Tr::kConvertA) {
        // The f16 buffer was last read in the previous chunk, which every thread finished
        // before the barrier above.
        convert_stage(p, x, cur, stage);
        __syncthreads();
      }
      ct.lap(kCycStage);

      // Every row before this chunk has been consumed by all warps (the barrier above
      // follows the previous chunk's last reads): their slots may be refilled.
      if (x.warp == 0) produce(p, x, pr, min(nrows - cur.left + p.ring_rows, nrows), nrows, u0);
      ct.lap(kCycProduce);
      const long long row_wait = compute_chunk<kMode, kUns>(p, x, acc, rp, stage, cur);
      ct.lap(kCycRows);
      ct.move(kCycRows, kCycRowWait, row_wait);

      const bool stripe_end = cur.kb + cur.rows == p.KBn;
      if (nxt.rows == 0) {  // the CTA's last segment ends here; the ring is dead from now on
        smallm_trace(kTraceFinalSegment);
        // Final reduction: all fragments (4 for TM 64) and several contributors at once:
        // 8 for TM 8 (16 loads of 16 B per lane in flight), 2 for TM 16 (4 spilled). Small
        // shapes have 9-17 contributors per stripe, each batch one dependent L2 round trip
        // (~0.19 us per contributor in the fitted time model); the additions keep their order.
        finish_segment<(kTM >= 64 ? 4 : 8), (kTM >= 32 ? 1 : kTM == 16 ? 2 : 8), true>(
            p, x, acc, cur.stripe, seg_kb0 == 0 && stripe_end, s_flag);
        ct.lap(kCycSegment);
        break;
      }
      if (stripe_end) {  // a segment ends inside the range (CTA-uniform)
        finish_segment<2, 1, false>(p, x, acc, cur.stripe, seg_kb0 == 0, s_flag);
        zero_acc(acc);
        seg_kb0 = 0;  // any following segment starts a stripe
        ct.lap(kCycSegment);
      }
      cur = nxt;
      stage = stage + 1 == kStages ? 0 : stage + 1;
    }
    ct.dump();
  }

  // ---- the deferred split-K reduction (smallm_reduce_kernel) ------------------------------
  // With p.deferred the kernel above stores every partial segment and leaves; this grid, launched
  // after it on the stream (programmatic dependent launch: it may become resident while the GEMM
  // grid drains, and waits for that grid's completion before reading), sums them. One thread per
  // 16-byte piece of a stripe's partial tile (piece i = ((warp * kNBW + b) * kNT + nt) * 32 + lane:
  // tile_index of the GEMM's thread (warp, lane)): grid (ceil(P / blockDim.x), stripes, MT). The
  // kernel boundary orders the partial stores before these loads, so the GEMM needs no counter,
  // fence or atomic; the sum runs over the stripe's contributors in ascending CTA order (= ascending
  // k), the order of the in-kernel reduction, so the bits are the same.
  static __device__ __forceinline__ void reduce_run(const SmallmKernelParams& p) {
    const int stripe = blockIdx.y;
    const int64_t su0 = static_cast<int64_t>(stripe) * p.KBn;
    const int c_first = cta_of_row(p.part, su0);
    const int c_last = cta_of_row(p.part, su0 + p.KBn - 1);
    if (c_first == c_last) return;  // one CTA held the whole stripe and wrote it
    const int W = p.tile_bytes / (64 * kNBW * kTM);  // tile = 16 kNBW W rows x kTM tokens x 4 B
    const int P = W * kNBW * kNT * 32;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= P) return;
    Ctx y{};
    y.lane = i & 31;
    const int f = i >> 5;
    y.warp = f / (kNBW * kNT);
    y.W = W;
    y.C = p.part.C;
    y.mt = blockIdx.z;
    y.m_base = y.mt * kTM;
    y.m_rem = min(kTM, p.M - y.m_base);
    const int b = (f / kNT) % kNBW, nt = f % kNT;
    if (!lane_live(y, nt)) return;  // never stored, and its sums are never output
    const uint4* tiles = reinterpret_cast<const uint4*>(p.partials + static_cast<int64_t>(y.mt) * 2 * y.C * p.tile_bytes);
    const int64_t tile_vecs = p.tile_bytes / 16;
    constexpr int kBatch = 8;  // contributors whose loads are in flight together
    // The first batch's partial offsets (16-byte units from `tiles`; < 2^31: 2 C tiles of at most
    // 64 KB) depend on the parameters only. They are computed here, while the GEMM grid still
    // runs (as its programmatic dependent, a CTA of this grid starts as soon as an SM has room:
    // where the GEMM's ring fills the shared memory, its 4.6 KB wait for a GEMM CTA to leave),
    // and parked in shared memory: ptxas schedules parameter reads and register arithmetic freely
    // across griddepcontrol.wait, but keeps shared stores before it. Also read here: the tok / ch pointers
    // (not their data), whose constant-bank line also holds the global memory descriptor of the
    // loads below and is the one line the code above does not touch (SASS: ULDC c[0x0][0x208] now
    // comes before ACQBULK). After the wait the chain is loads, sums and stores. Measured:
    // bench/results/2026-12-02-h200/s41-reduce-diag/ (the grid's work after the wait, not its
    // launch, is its cost in CUDA graphs) and s41-redpre/ (0.96-0.98x the launch time).
    __shared__ int32_t s_off[kBatch + 1][kReduceThreads];
#pragma unroll
    for (int q = 0; q < kBatch; ++q)
      s_off[q][threadIdx.x] =
          c_first + q <= c_last ? static_cast<int32_t>(slot_of(p.part, su0, c_first + q) * tile_vecs + i) : 0;
    s_off[kBatch][threadIdx.x] = static_cast<int32_t>(reinterpret_cast<uintptr_t>(p.tok) ^ reinterpret_cast<uintptr_t>(p.ch));
    ptx::griddep_wait();  // the GEMM grid has completed: its partials are visible
    Acc sum[4];
    auto add_batch = [&](int c0, const uint4 (&w)[kBatch]) {
#pragma unroll
      for (int q = 0; q < kBatch; ++q) {
        if (c0 + q > c_last) break;
        const Acc v[4] = {acc_from_bits(w[q].x), acc_from_bits(w[q].y), acc_from_bits(w[q].z),
                          acc_from_bits(w[q].w)};
#pragma unroll
        for (int e = 0; e < 4; ++e) sum[e] = c0 + q == c_first ? v[e] : sum[e] + v[e];
      }
    };
    {
      int32_t off[kBatch];
#pragma unroll
      for (int q = 0; q < kBatch; ++q) off[q] = s_off[q][threadIdx.x];
      uint4 w[kBatch];
#pragma unroll
      for (int q = 0; q < kBatch; ++q)
        if (c_first + q <= c_last) w[q] = __ldcg(tiles + off[q]);
      add_batch(c_first, w);
    }
    for (int c0 = c_first + kBatch; c0 <= c_last; c0 += kBatch) {
      uint4 w[kBatch];
#pragma unroll
      for (int q = 0; q < kBatch; ++q)
        if (c0 + q <= c_last) w[q] = __ldcg(tiles + slot_of(p.part, su0, c0 + q) * tile_vecs + i);
      add_batch(c0, w);
    }
    store_frag(p, y, stripe, b, nt, sum);
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
      produce(p, x, pr, min(p.ring_rows, nrows), nrows, u0);
    }
    // A programmatic dependent launch (GemmArgs::programmatic_dependent_launch): the weights
    // are in flight; the activations and token scales are the previous kernel's output.
    if (p.pdl_wait) ptx::griddep_wait();
    {
      Chunk ld = cur;
#pragma unroll
      for (int s = 0; s < kStages - 1; ++s) {
        load_stage(p, x, ld, s, 32);
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
// does not depend on the weight bits: SmallmCta<A, 4, kTM> serves every weight type).
template <AType A, int kTM>
__global__ void __launch_bounds__(kReduceThreads) smallm_reduce_kernel(const __grid_constant__ SmallmKernelParams p) {
  SmallmCta<A, 4, kTM>::reduce_run(p);
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
