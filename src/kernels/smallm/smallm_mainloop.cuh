// smallm_mainloop.cuh - a smallm CTA's row loop over one chunk (smallm_gemm.cuh has the overview):
// each warp waits for a weight row in the ring, converts its blocks to mma.sync A fragments (group
// scales / zero points from the staged rows) and multiplies them with the staged tokens (ldmatrix B
// fragments) into its accumulators.
#pragma once

#include "kernels/convert/convert_16bit.cuh"
#include "kernels/convert/convert_8bit.cuh"
#include "kernels/convert/fragment_words.cuh"
#include "kernels/ptx/mma.cuh"
#include "kernels/ptx/sm90.cuh"
#include "kernels/smallm/smallm_common.cuh"
#include "kernels/smallm/smallm_trace.cuh"

namespace mixgemm::kernels::smallm {

// Raw bits of the scale and zero of rows g and g+8 for one lookup (16-bit values
// zero-extended, or u8; for s8 z0/z1 hold the cvt_u4x4_s8_gscale_pre offsets).
struct RowSZ {
  uint32_t s0, s1, z0, z1;
};

template <AType A, int kWBits, int kTM>
struct SmallmMainloop : SmallmCommon<A, kWBits, kTM> {
  using Base = SmallmCommon<A, kWBits, kTM>;
  using typename Base::Tr;
  using typename Base::Acc;
  using typename Base::T16;
  using typename Base::Ctx;
  using typename Base::RingPos;
  using Base::kKB;
  using Base::kKS;
  using Base::kNT;
  using Base::kSB;
  using Base::kActStride;
  using Base::kCK;
  using Base::kStages;
  // 1.0 in the scale type (f16 for f16 and e4m3 activations, bf16, or the integer 1).
  static constexpr uint32_t kOne =
      A == AType::kBF16 ? 0x3F80u : (A == AType::kS8 ? 1u : 0x3C00u);

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
        const uint32_t w = convert::word(v, s);
        if constexpr (kUns) convert::cvt_u4_frag16<T>(w, f);
        else convert::cvt_u4b8_frag16<T>(w, f);
      } else {
        const uint2 w2 = convert::word_pair(v, s);
        if constexpr (kUns) convert::cvt_u8_frag16<T>(w2, f);
        else convert::cvt_u8b128_frag16<T>(w2, f);
      }
      if constexpr (kMode != kScaleNone) {
        // u4/u8: RN(q*s + zs) (zs = 0 without zeros, s = 1 without scales);
        // u4b8/u8b128: RN((q-B)*s) (biased weights never carry zeros).
        if constexpr (kUns) {
          convert::scale_zero_frag16<T>(f, convert::as16<T>(szA.s0), convert::as16<T>(szA.s1), convert::as16<T>(szA.z0),
                                        convert::as16<T>(szA.z1));
        } else {
          convert::scale_frag16<T>(f, convert::as16<T>(szA.s0), convert::as16<T>(szA.s1));
        }
      }
    } else if constexpr (A == AType::kE4M3) {
      // 16-k group s: exact q - B in f16 (that is e4m3(q - B): |q - B| <= 15), then for
      // group scales w = RN_e4m3sat(RN_f16(w16)) (docs/semantics.md) back in f16 (exact).
      cvt_u4_e4m3order_f16<kUns ? 0 : 8>(convert::word(v, s), f);
      if constexpr (kMode != kScaleNone) {
        // u4: RN_f16(q*s + zs) with zs = 0 without zeros (fma with +0 equals the mul up
        // to the sign of a zero weight, which no sum can see); u4b8: RN_f16((q-8)*s).
        if constexpr (kUns) {
          convert::scale_zero_frag16<__half>(f, convert::as16<__half>(szA.s0), convert::as16<__half>(szA.s1),
                                             convert::as16<__half>(szA.z0), convert::as16<__half>(szA.z1));
        } else {
          convert::scale_frag16<__half>(f, convert::as16<__half>(szA.s0), convert::as16<__half>(szA.s1));
        }
#pragma unroll
        for (int i = 0; i < 4; ++i) f[i] = ptx::cvt_f16x2_e4m3x2(ptx::cvt_e4m3x2_f16x2(f[i]));
      }
    } else {
      // s8, 4-bit weights, IMMA k32: words 2s (k 0..15 of the step) and 2s+1 (k 16..31);
      // reg0 = nibbles 0..3 (row g), reg1 = nibbles 4..7 (row g+8) of each word.
      const uint32_t x = convert::word(v, 2 * s), y = convert::word(v, 2 * s + 1);
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
};

}  // namespace mixgemm::kernels::smallm
