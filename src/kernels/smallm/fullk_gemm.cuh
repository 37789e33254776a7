// fullk_gemm.cuh - the whole-column small-M kernel ("fullk"): each CTA owns whole 16-row
// n-blocks over the full K, its warps split that work along K, and the CTA sums the warps'
// parts in shared memory. No partial tile leaves the CTA: no workspace, no counters, no
// second pass, and no CTA-wide barrier inside the main loop.
//
//   out[M,N] = A[M,K] @ W[K,N],  M <= 8 * kNT per token tile, weights prepacked (layout.h)
//
// Why it exists (docs/design-smallm.md, "Session 14"): the stream-K kernel of
// smallm_gemm.cuh splits a stripe's K over 8-17 CTAs on the Llama-3-8B layers, and its
// launch ends with a split-K reduction (partial stores, a release fence, a ticket, the
// last CTA loading every partial: 3-5 us); its chunk loop pays a CTA barrier, a staging pass
// and a producer pass per 8 rows. Here a warp streams its own items through its own
// cp.async pipeline:
//
// * Work: CTA c of C (per token tile) owns n-blocks [c NB / C, (c+1) NB / C) (whole columns,
//   +-1 n-block per CTA: the split is even to within one n-block, ~3% on the real shapes).
//   Its items (n-block, k-block), n-block-major, T = n-blocks x KBn, are split evenly over
//   the W warps: warp w takes items [w T / W, (w+1) T / W), a run along K that may cross
//   into the next n-block.
// * Pipeline (per warp, kDepth slots of its own shared memory): item i's slot receives the
//   lane's 16 weight bytes (cp.async, L2 evict-first), the block's 16 group scales (and
//   zero points), and the token rows' 128 activation bytes of the k-block (cp.async.ca:
//   the warps of a CTA read the same k-blocks of the activations), committed as one group;
//   the warp waits for group i with kDepth - 1 groups in flight. Only __syncwarp orders
//   the lanes (a lane reads scales and activations other lanes copied, and the slot is
//   refilled after the reads).
// * Compute: the lane's fragment (one ld.shared.v4), the B fragments by ldmatrix (token
//   rows padded to 144 bytes: the 8 row addresses of a matrix hit 8 bank groups), the
//   exact dequantization of convert_16bit.cuh, 4 mma.sync per block and n-tile.
// * Reduction: a segment (the warp's part of one n-block) that is the whole n-block goes
//   straight to the epilogue. Otherwise it is the warp's first segment (partial stored in
//   the CTA's first-segment area) or its last one (stored in the warp's own dead pipeline
//   slots at the end). After one CTA barrier the n-blocks with several contributors are
//   summed in warp order (= ascending k): deterministic for a given (shape, C, W).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "kernels/convert/convert_16bit.cuh"
#include "kernels/gemm_params.h"
#include "kernels/ptx/mma.cuh"
#include "kernels/ptx/ptx.cuh"
#include "kernels/ptx/sm90.cuh"
#include "kernels/smallm/fullk_kernel_params.h"
#include "mixgemm/layout.h"

namespace mixgemm::kernels::smallm {

template <AType A, int kNT>
struct FullkCta {
  static_assert(A == AType::kF16 || A == AType::kBF16, "fullk: 16-bit activations");
  static_assert(kNT == 1 || kNT == 2, "token tile 8 or 16");
  static constexpr int kTM = 8 * kNT;
  static constexpr int kDepth = fullk_depth(kNT);
  using T16 = std::conditional_t<A == AType::kBF16, __nv_bfloat16, __half>;
  static constexpr uint32_t kOne2 = A == AType::kBF16 ? 0x3F803F80u : 0x3C003C00u;  // (1, 1)
  static_assert(layout::kBlockBytes == 512 && layout::kLaneBytes == 16, "one 16-byte fragment per lane");

  // Where the next item to issue (or consume) lies. woff: byte offset of the lane's weight
  // piece; aoff: byte offset of the k-block in a token row; g / r: the k-block's group and
  // its k-blocks into that group (group-scale lookups).
  struct Cursor {
    int nb, kb, g, r;
    int64_t woff;
    int aoff;
  };

  static __device__ __forceinline__ Cursor cursor_at(const FullkParams& p, int nb, int kb, int lane) {
    Cursor c;
    c.nb = nb;
    c.kb = kb;
    c.g = kb / p.gkb;  // once per warp
    c.r = kb - c.g * p.gkb;
    c.woff = ((static_cast<int64_t>(kb) * p.NB + nb) << 9) + lane * 16;
    c.aoff = kb * 128;
    return c;
  }

  static __device__ __forceinline__ void advance(const FullkParams& p, Cursor& c, int lane) {
    if (++c.kb == p.KBn) {  // next n-block, k-block 0
      ++c.nb;
      c.kb = 0;
      c.g = 0;
      c.r = 0;
      c.woff = (static_cast<int64_t>(c.nb) << 9) + lane * 16;
      c.aoff = 0;
    } else {
      if (++c.r == p.gkb) {
        c.r = 0;
        ++c.g;
      }
      c.woff += static_cast<int64_t>(p.NB) << 9;
      c.aoff += 128;
    }
  }

  // One item's copies into slot `sa` (one commit group, committed by the caller).
  // a_lane: the lane's token row (m_base + lane / 8) and 16-byte piece (lane % 8).
  template <int kMode>
  static __device__ __forceinline__ void issue(const FullkParams& p, uint32_t sa, const Cursor& c, int lane,
                                               const uint8_t* a_lane, int mrows, uint64_t policy) {
    ptx::cp_async16_hint(sa + kFullkSlotW + lane * 16, p.b + c.woff, policy);
    if constexpr (kMode != kScaleNone) {
      // Lanes 0, 1: the 16 scales of the n-block's rows (2 x 16 bytes); 2, 3: the zero points.
      if (lane < 4) {
        const bool z = lane >= 2;
        if (z ? p.has_zeros : p.has_scales) {
          const uint8_t* src = (z ? p.zeros : p.scales) +
                               ((static_cast<int64_t>(c.g) * p.N + c.nb * 16) << 1) + (lane & 1) * 16;
          ptx::cp_async16_zfill(sa + kFullkSlotS + lane * 16, src, true);
        }
      }
    }
#pragma unroll
    for (int i = 0; i < 2 * kNT; ++i) {  // token rows lane / 8 + 4 i, 8 pieces of 16 bytes each
      if ((lane >> 3) + 4 * i < mrows)
        ptx::cp_async16_ca(sa + kFullkSlotA + ((lane >> 3) + 4 * i) * kFullkArow + (lane & 7) * 16,
                           a_lane + 4 * i * p.lda_bytes + c.aoff);
    }
  }

  // out[m, n] = RN_out(fma(acc, RN_f32(tok[m] * ch[n]), bias[n])) for the fragment of n-tile
  // nt of n-block nb (registers {0,1}: row g, tokens 2t, 2t+1; {2,3}: row g+8), as
  // smallm_gemm.cuh's store_frag.
  static __device__ __forceinline__ void store(const FullkParams& p, int nb, int nt, const float (&v)[4], int lane,
                                               int m_base) {
    const int g = lane >> 2, t = lane & 3;
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
      const int m = m_base + nt * 8 + 2 * t + e;
      if (m >= p.M) continue;
      const float tv = p.tok ? p.tok[m] : 1.0f;
      unsigned short* row = reinterpret_cast<unsigned short*>(p.out) + static_cast<int64_t>(m) * p.ldo + nb * 16 + g;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const float r = __fmaf_rn(v[2 * h + e], __fmul_rn(tv, chv[h]), bv[h]);
        row[8 * h] = p.out_bf16 ? __bfloat16_as_ushort(__float2bfloat16_rn(r)) : __half_as_ushort(__float2half_rn(r));
      }
    }
  }

  static __device__ __forceinline__ void mma(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
    if constexpr (A == AType::kBF16) ptx::mma_bf16_16816(d, a, b0, b1);
    else ptx::mma_f16_16816(d, a, b0, b1);
  }

  // The warp's items [i0, i1) of the CTA's n-blocks starting at nb_lo.
  template <int kMode, bool kUns>
  static __device__ __forceinline__ void stream(const FullkParams& p, uint8_t* smem, int warp, int lane, int nb_lo,
                                                int64_t i0, int64_t i1, int m_base, int mrows) {
    const int n = static_cast<int>(i1 - i0);
    if (n <= 0) return;
    const uint32_t base = ptx::smem_u32(smem) + warp * kDepth * p.slot_bytes;
    const uint64_t policy = ptx::policy_evict_first();
    const uint8_t* a_lane = p.a + static_cast<int64_t>(m_base + (lane >> 3)) * p.lda_bytes + (lane & 7) * 16;
    const int nb0 = nb_lo + static_cast<int>(i0 / p.KBn), kb0 = static_cast<int>(i0 % p.KBn);
    Cursor ic = cursor_at(p, nb0, kb0, lane);
#pragma unroll
    for (int j = 0; j < kDepth; ++j) {
      if (j < n) {
        issue<kMode>(p, base + j * p.slot_bytes, ic, lane, a_lane, mrows, policy);
        advance(p, ic, lane);
      }
      ptx::cp_async_commit();  // empty groups keep the wait count uniform
    }
    // ldmatrix row addresses: matrix q = lane / 8 (k bytes 16 q of the 64-byte half h),
    // token row nt * 8 + lane % 8, or row 0 past the live rows (those columns of the MMA
    // are never stored, so any finite data will do).
    uint32_t arow[kNT];
#pragma unroll
    for (int nt = 0; nt < kNT; ++nt) {
      const int r = nt * 8 + (lane & 7);
      arow[nt] = kFullkSlotA + (r < mrows ? r : 0) * kFullkArow + (lane >> 3) * 16;
    }
    const int g8 = lane >> 2;  // fragment row g (and g + 8)
    float acc[kNT][4];
#pragma unroll
    for (int nt = 0; nt < kNT; ++nt)
#pragma unroll
      for (int i = 0; i < 4; ++i) acc[nt][i] = 0.0f;
    int cnb = nb0, ckb = kb0, seg_kb0 = kb0;
    bool first = true;
    int slot = 0;
    for (int j = 0; j < n; ++j) {
      ptx::cp_async_wait<kDepth - 1>();
      __syncwarp();  // every lane's copies of item j have landed
      const uint32_t sa = base + slot * p.slot_bytes;
      const uint4 wv = ptx::lds128(sa + kFullkSlotW + lane * 16);
      uint32_t bf[kNT][8];  // (b0, b1) of k-steps 0..3
#pragma unroll
      for (int nt = 0; nt < kNT; ++nt)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          uint32_t r4[4];
          ptx::ldmatrix_x4(r4, sa + arow[nt] + h * 64);
#pragma unroll
          for (int q = 0; q < 4; ++q) bf[nt][4 * h + q] = r4[q];
        }
      uint32_t s0 = kOne2, s1 = kOne2, z0 = 0, z1 = 0;
      if constexpr (kMode != kScaleNone) {
        if (!kUns || p.has_scales) {
          s0 = ptx::lds16(sa + kFullkSlotS + g8 * 2);
          s1 = ptx::lds16(sa + kFullkSlotS + 16 + g8 * 2);
          s0 |= s0 << 16;
          s1 |= s1 << 16;
        }
        if (kUns && p.has_zeros) {
          z0 = ptx::lds16(sa + kFullkSlotS + 32 + g8 * 2);
          z1 = ptx::lds16(sa + kFullkSlotS + 48 + g8 * 2);
          z0 |= z0 << 16;
          z1 |= z1 << 16;
        }
      }
      __syncwarp();  // the slot's reads are done before any lane refills it
      if (j + kDepth < n) {
        issue<kMode>(p, sa, ic, lane, a_lane, mrows, policy);
        advance(p, ic, lane);
      }
      ptx::cp_async_commit();
      const uint32_t wd[4] = {wv.x, wv.y, wv.z, wv.w};
#pragma unroll
      for (int s = 0; s < 4; ++s) {  // word s = k-step s (layout.h)
        uint32_t f[4];
        if constexpr (kUns) convert::cvt_u4_frag16<T16>(wd[s], f);
        else convert::cvt_u4b8_frag16<T16>(wd[s], f);
        if constexpr (kMode != kScaleNone) {
          if constexpr (kUns) convert::scale_zero_frag16_x2<T16>(f, s0, s1, z0, z1);
          else convert::scale_frag16_x2<T16>(f, s0, s1);
        }
#pragma unroll
        for (int nt = 0; nt < kNT; ++nt) mma(acc[nt], f, bf[nt][2 * s], bf[nt][2 * s + 1]);
      }
      if (ckb == p.KBn - 1 || j == n - 1) {  // the end of a segment (warp-uniform)
        if (seg_kb0 == 0 && ckb == p.KBn - 1) {
#pragma unroll
          for (int nt = 0; nt < kNT; ++nt) store(p, cnb, nt, acc[nt], lane, m_base);
        } else {
          // The first segment to the CTA's first-segment area; a later partial one is the
          // last (middle segments are whole) and goes to this warp's own slots, dead now:
          // every real copy was waited for (the groups after item n - 1 are empty).
          const uint32_t dst =
              first ? ptx::smem_u32(smem) + p.red_off + warp * kNT * 512 : base;
#pragma unroll
          for (int nt = 0; nt < kNT; ++nt)
            ptx::sts128(dst + nt * 512 + lane * 16,
                        make_uint4(__float_as_uint(acc[nt][0]), __float_as_uint(acc[nt][1]),
                                   __float_as_uint(acc[nt][2]), __float_as_uint(acc[nt][3])));
        }
#pragma unroll
        for (int nt = 0; nt < kNT; ++nt)
#pragma unroll
          for (int i = 0; i < 4; ++i) acc[nt][i] = 0.0f;
        first = false;
        seg_kb0 = 0;
      }
      if (++ckb == p.KBn) {
        ckb = 0;
        ++cnb;
      }
      if (++slot == kDepth) slot = 0;
    }
  }

  static __device__ __forceinline__ void run(const FullkParams& p) {
    extern __shared__ __align__(128) uint8_t smem[];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, W = blockDim.x >> 5;
    const int m_base = blockIdx.y * kTM;
    const int mrows = min(p.M - m_base, kTM);
    const int64_t c = blockIdx.x;
    const int nb_lo = static_cast<int>(c * p.NB / p.C), nb_hi = static_cast<int>((c + 1) * p.NB / p.C);
    const int64_t T = static_cast<int64_t>(nb_hi - nb_lo) * p.KBn;
    const int64_t i0 = warp * T / W, i1 = (warp + 1) * T / W;
    // Kernel-uniform variant switch (one loop per variant, no per-item branch).
    if (p.mode == kScaleNone) {
      if (p.b_unsigned) stream<kScaleNone, true>(p, smem, warp, lane, nb_lo, i0, i1, m_base, mrows);
      else stream<kScaleNone, false>(p, smem, warp, lane, nb_lo, i0, i1, m_base, mrows);
    } else {
      if (p.b_unsigned) stream<kScaleBlock, true>(p, smem, warp, lane, nb_lo, i0, i1, m_base, mrows);
      else stream<kScaleBlock, false>(p, smem, warp, lane, nb_lo, i0, i1, m_base, mrows);
    }
    __syncthreads();  // every partial is in shared memory
    // n-blocks with several contributors: warp (j mod W) sums n-block j's parts in warp
    // order. Warp w's part of n-block j is its first segment (first-segment area) when its
    // range starts inside the n-block, else its last one (its own slots).
    const int nbc = nb_hi - nb_lo;
    const uint32_t s0 = ptx::smem_u32(smem);
    for (int j = warp; j < nbc; j += W) {
      const int64_t lo = static_cast<int64_t>(j) * p.KBn, hi = lo + p.KBn;
      int w0 = -1, w1 = -1;
      for (int w = 0; w < W; ++w) {
        const int64_t a = w * T / W, b = (w + 1) * T / W;
        if (a < b && a < hi && b > lo) {
          if (w0 < 0) w0 = w;
          w1 = w;
        }
      }
      if (w0 == w1) continue;  // one warp held the whole n-block and stored it
      float sum[kNT][4];
      for (int w = w0; w <= w1; ++w) {
        if (w * T / W == (w + 1) * T / W) continue;  // an empty range (T < W): no part, no slot
        const uint32_t src = (w * T / W >= lo) ? s0 + p.red_off + w * kNT * 512 : s0 + w * kDepth * p.slot_bytes;
#pragma unroll
        for (int nt = 0; nt < kNT; ++nt) {
          const uint4 v = ptx::lds128(src + nt * 512 + lane * 16);
          const float f[4] = {__uint_as_float(v.x), __uint_as_float(v.y), __uint_as_float(v.z), __uint_as_float(v.w)};
#pragma unroll
          for (int i = 0; i < 4; ++i) sum[nt][i] = w == w0 ? f[i] : sum[nt][i] + f[i];
        }
      }
#pragma unroll
      for (int nt = 0; nt < kNT; ++nt) store(p, nb_lo + j, nt, sum[nt], lane, m_base);
    }
  }
};

template <AType A, int kNT>
__global__ void __launch_bounds__(kFullkMaxThreads, 1) smallm_fullk_kernel(const __grid_constant__ FullkParams p) {
  FullkCta<A, kNT>::run(p);
}

}  // namespace mixgemm::kernels::smallm
