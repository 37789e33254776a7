// smallm_staging.cuh - what brings a chunk's operands into a smallm CTA's shared memory
// (smallm_gemm.cuh has the overview): warp 0's bulk copies of weight rows into the ring, the
// cp.async stages of activations and group scales / zero points, and e4m3's f16 conversion pass.
#pragma once

#include "kernels/ptx/mma.cuh"
#include "kernels/ptx/ptx.cuh"
#include "kernels/ptx/sm90.cuh"
#include "kernels/smallm/smallm_common.cuh"

namespace mixgemm::kernels::smallm {

template <AType A, int kWBits, int kTM>
struct SmallmStaging : SmallmCommon<A, kWBits, kTM> {
  using Base = SmallmCommon<A, kWBits, kTM>;
  using typename Base::Ctx;
  using typename Base::Producer;
  using Base::kKB;
  using Base::kSB;
  using Base::kActStride;
  using Base::kStageStride;
  using Base::kKbBytesG;
  using Base::kCK;
  using Base::kStages;

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
  // A columns 2t, 2t+1 (reg0/reg1) and 2t+8, 2t+9 (reg2/reg3); the weight converter
  // (SmallmMainloop::cvt_u4_e4m3order_f16) puts k 4t, 4t+2 in reg0 (row g) and k 4t+1, 4t+3
  // in reg2. The same k order must reach B: ldmatrix hands lane (g, t) the f16 at positions
  // 2t, 2t+1 (b0) and 2t+8, 2t+9 (b1) of each 16-k group, so the f16 of k 4t+i goes to position
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
};

}  // namespace mixgemm::kernels::smallm
