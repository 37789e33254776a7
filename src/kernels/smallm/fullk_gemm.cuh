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

// One kernel per (activation type, token tile, weight bias, scale variant): each gets its
// own register allocation (the ring of the zero-point variant is the largest).
template <AType A, int kNT, bool kUns, int kVar>
struct FullkCta {
  static_assert(A == AType::kF16 || A == AType::kBF16, "fullk: 16-bit activations");
  static_assert(kNT == 1 || kNT == 2, "token tile 8 or 16");
  static_assert(kVar == kFullkPlain || kVar == kFullkScaled || (kVar == kFullkZeroed && kUns), "variant");
  static constexpr int kTM = 8 * kNT;
  static constexpr int kDepth = fullk_depth(kVar, kNT);
  using T16 = std::conditional_t<A == AType::kBF16, __nv_bfloat16, __half>;
  static constexpr uint32_t kOne = A == AType::kBF16 ? 0x3F80u : 0x3C00u;
  static_assert(layout::kBlockBytes == 512 && layout::kLaneBytes == 16, "one 16-byte fragment per lane");

  // The register ring: item i's fragment (16 bytes) and the scales / zero points of its
  // rows g and g + 8 (zero-extended 16-bit values, each loaded into its own register: a
  // register that combined them at load time would stall the warp on the load right there)
  // sit in slot i % kDepth.
  static constexpr int kS = kVar == kFullkPlain ? 1 : kDepth;  // scale slots
  static constexpr int kZ = kVar == kFullkZeroed ? kDepth : 1;  // zero-point slots
  struct Ring {
    uint4 w[kDepth];
    uint32_t s[kS], s8[kS];
    uint32_t z[kZ], z8[kZ];
  };

  // The next item to load. wp: the lane's 16 bytes of block (kb, nb); sp: the scale of row g
  // of n-block nb in the k-block's group (zero points at the same offset from p.zeros).
  struct Issue {
    const uint8_t* wp;
    const uint8_t* sp;
    int nb, kb, r;  // r: k-blocks of the group before kb
  };

  // Item loads into slot u: the lane's 16 weight bytes at wp, the scales (zero points) of rows
  // g and g + 8 at sp (sp + zdiff).
  static __device__ __forceinline__ void load_at(const FullkParams& p, Ring& ring, int u, const uint8_t* wp,
                                                 const uint8_t* sp, int64_t zdiff, uint64_t policy) {
    ring.w[u] = ptx::ldg_stream128(wp, policy);
    if (kVar == kFullkScaled || (kVar == kFullkZeroed && p.has_scales)) {
      ring.s[u] = __ldg(reinterpret_cast<const unsigned short*>(sp));
      ring.s8[u] = __ldg(reinterpret_cast<const unsigned short*>(sp + 16));
    }
    if constexpr (kVar == kFullkZeroed) {
      ring.z[u] = __ldg(reinterpret_cast<const unsigned short*>(sp + zdiff));
      ring.z8[u] = __ldg(reinterpret_cast<const unsigned short*>(sp + zdiff + 16));
    }
  }
  static __device__ __forceinline__ void load(const FullkParams& p, Ring& ring, int u, const Issue& is,
                                              int64_t zdiff, uint64_t policy) {
    load_at(p, ring, u, is.wp, is.sp, zdiff, policy);
  }

  static __device__ __forceinline__ void advance(const FullkParams& p, Issue& is, const uint8_t* w_lane,
                                                 const uint8_t* s_lane) {
    if (++is.kb == p.KBn) {  // next n-block, k-block 0, group 0
      ++is.nb;
      is.kb = 0;
      is.r = 0;
      is.wp = w_lane + (static_cast<int64_t>(is.nb) << 9);
      is.sp = s_lane + is.nb * 32;
    } else {
      is.wp += static_cast<int64_t>(p.NB) << 9;
      if (++is.r == p.gkb) {
        is.r = 0;
        is.sp += static_cast<int64_t>(p.N) * 2;
      }
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

  // One item: the fragment of slot u against the staged activations at byte koff of the
  // token rows (k-block kb: koff = 128 kb).
  static __device__ __forceinline__ void compute(const Ring& ring, int u, const uint32_t (&arow)[kNT], int koff,
                                                 float (&acc)[kNT][4]) {
    uint32_t bf[kNT][8];  // (b0, b1) of k-steps 0..3: ldmatrix matrices = k bytes 16 q of each 64-byte half
#pragma unroll
    for (int nt = 0; nt < kNT; ++nt)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        uint32_t r4[4];
        ptx::ldmatrix_x4(r4, arow[nt] + koff + h * 64);
#pragma unroll
        for (int q = 0; q < 4; ++q) bf[nt][4 * h + q] = r4[q];
      }
    uint32_t s0 = 0, s1 = 0, z0 = 0, z1 = 0;
    if constexpr (kVar != kFullkPlain) {
      s0 = ptx::prmt(ring.s[u], 0u, 0x1010u);  // (s_g, s_g)
      s1 = ptx::prmt(ring.s8[u], 0u, 0x1010u);  // (s_g8, s_g8)
    }
    if constexpr (kVar == kFullkZeroed) {
      z0 = ptx::prmt(ring.z[u], 0u, 0x1010u);
      z1 = ptx::prmt(ring.z8[u], 0u, 0x1010u);
    }
    const uint32_t wd[4] = {ring.w[u].x, ring.w[u].y, ring.w[u].z, ring.w[u].w};
#pragma unroll
    for (int s = 0; s < 4; ++s) {  // word s = k-step s (layout.h)
      uint32_t f[4];
      if constexpr (kUns) convert::cvt_u4_frag16<T16>(wd[s], f);
      else convert::cvt_u4b8_frag16<T16>(wd[s], f);
      if constexpr (kVar == kFullkZeroed) convert::scale_zero_frag16_x2<T16>(f, s0, s1, z0, z1);
      else if constexpr (kVar == kFullkScaled) convert::scale_frag16_x2<T16>(f, s0, s1);
#pragma unroll
      for (int nt = 0; nt < kNT; ++nt) mma(acc[nt], f, bf[nt][2 * s], bf[nt][2 * s + 1]);
    }
  }

  // The end of a segment (the warp's part of one n-block): its partial tile goes to slot
  // (n-block - nb_lo) + warp of the CTA's partial area. That index is unique: a later warp's
  // items lie at or after an earlier warp's, so two warps never meet at the same sum.
  static __device__ __forceinline__ void flush(const FullkParams& p, uint32_t smem, int slot, int lane,
                                               float (&acc)[kNT][4]) {
    const uint32_t dst = smem + p.red_off + slot * kNT * 512 + lane * 16;
#pragma unroll
    for (int nt = 0; nt < kNT; ++nt) {
      ptx::sts128(dst + nt * 512, make_uint4(__float_as_uint(acc[nt][0]), __float_as_uint(acc[nt][1]),
                                             __float_as_uint(acc[nt][2]), __float_as_uint(acc[nt][3])));
#pragma unroll
      for (int i = 0; i < 4; ++i) acc[nt][i] = 0.0f;
    }
  }

  // The warp's n items, the first at (nb0, kb0); the ring holds the first kDepth (loaded by
  // the caller before the activation staging), `is` points at item kDepth.
  static __device__ __forceinline__ void stream(const FullkParams& p, uint32_t smem, Ring& ring, Issue& is,
                                                const uint8_t* w_lane, const uint8_t* s_lane, int64_t zdiff,
                                                uint64_t policy, int warp, int lane, int n, int nb0, int kb0,
                                                int nb_lo, int mrows) {
    // ldmatrix row addresses: matrix q = lane / 8 (k bytes 16 q of a 64-byte half), token row
    // nt * 8 + lane % 8, or row 0 past the live rows (those MMA columns are never stored).
    uint32_t arow[kNT];
#pragma unroll
    for (int nt = 0; nt < kNT; ++nt) {
      const int r = nt * 8 + (lane & 7);
      arow[nt] = smem + (r < mrows ? r : 0) * p.act_stride + (lane >> 3) * 16;
    }
    float acc[kNT][4];
#pragma unroll
    for (int nt = 0; nt < kNT; ++nt)
#pragma unroll
      for (int i = 0; i < 4; ++i) acc[nt][i] = 0.0f;
    int ckb = kb0, slot = nb0 - nb_lo + warp;
    // Item bookkeeping after compute: the segment ends at k-block KBn - 1.
    auto step = [&]() {
      if (ckb == p.KBn - 1) {
        flush(p, smem, slot, lane, acc);
        ++slot;
        ckb = 0;
      } else {
        ++ckb;
      }
    };
    int j = 0;
    // Main part: every consumed slot is refilled, no per-item bounds check.
    const int64_t wstride = static_cast<int64_t>(p.NB) << 9, srow = static_cast<int64_t>(p.N) * 2;
    for (; j + 2 * kDepth <= n; j += kDepth) {
      if (p.gshift >= 0 && is.kb + kDepth < p.KBn && ckb + kDepth < p.KBn) {
        // Neither cursor reaches the end of its n-block within these kDepth items (most groups:
        // 6 in 8 at K = 4096), so no per-item bookkeeping: the k-block offsets are immediates, the
        // weight pointers a stride apart, the scale rows (r + u) >> gshift groups ahead.
        const int koff = ckb * 128;
        // The items a further kDepth ahead, while they are in the same n-block, are requested
        // into L2 (the register ring alone keeps ~64 KB per SM in flight, about what the DRAM
        // latency needs under this load; ncu showed the first dequantization waiting on it).
        const bool pf = p.l2_prefetch && is.kb + 2 * kDepth < p.KBn;
#pragma unroll
        for (int u = 0; u < kDepth; ++u) {
          compute(ring, u, arow, koff + u * 128, acc);
          const uint8_t* wp = is.wp + u * wstride;
          load_at(p, ring, u, wp, is.sp + ((is.r + u) >> p.gshift) * srow, zdiff, policy);
          if (pf) ptx::prefetch_l2(wp + kDepth * wstride);
        }
        is.wp += kDepth * wstride;
        is.sp += ((is.r + kDepth) >> p.gshift) * srow;
        is.r = (is.r + kDepth) & p.gmask;
        is.kb += kDepth;
        ckb += kDepth;
      } else {
#pragma unroll
        for (int u = 0; u < kDepth; ++u) {
          compute(ring, u, arow, ckb * 128, acc);
          load(p, ring, u, is, zdiff, policy);
          advance(p, is, w_lane, s_lane);
          step();
        }
      }
    }
    // Tail: the last n - j (< 2 kDepth) items, refilling while items are left to load.
    for (; j < n; j += kDepth) {
#pragma unroll
      for (int u = 0; u < kDepth; ++u) {
        if (j + u < n) {
          compute(ring, u, arow, ckb * 128, acc);
          if (j + u + kDepth < n) {
            load(p, ring, u, is, zdiff, policy);
            advance(p, is, w_lane, s_lane);
          }
          step();
        }
      }
    }
    if (ckb != 0) flush(p, smem, slot, lane, acc);  // the last segment ended inside its n-block
  }

  static __device__ __forceinline__ void run_variant(const FullkParams& p, uint32_t smem, int warp, int lane,
                                                     int nb_lo, int64_t i0, int64_t i1, int m_base, int mrows) {
    const int n = static_cast<int>(i1 - i0);
    const int nb0 = nb_lo + static_cast<int>(i0 / p.KBn), kb0 = static_cast<int>(i0 % p.KBn);
    const uint8_t* w_lane = p.b + lane * 16;
    const uint8_t* s_lane = (p.has_scales ? p.scales : p.zeros) + (lane >> 2) * 2;
    const int64_t zdiff = p.has_scales && p.has_zeros ? p.zeros - p.scales : 0;
    const uint64_t policy = ptx::policy_evict_first();
    Issue is;
    is.nb = nb0;
    is.kb = kb0;
    const int g0 = kb0 / p.gkb;  // once per warp
    is.r = kb0 - g0 * p.gkb;
    is.wp = w_lane + ((static_cast<int64_t>(kb0) * p.NB + nb0) << 9);
    is.sp = s_lane + (static_cast<int64_t>(g0) * p.N + nb0 * 16) * 2;
    Ring ring;
#pragma unroll
    for (int u = 0; u < kS; ++u) ring.s[u] = ring.s8[u] = kOne;  // zero points without scales: s = 1
#pragma unroll
    for (int u = 0; u < kZ; ++u) ring.z[u] = ring.z8[u] = 0u;
    // The first kDepth weight loads go out before anything else: the grid's DRAM stream
    // starts while the activations are staged.
#pragma unroll
    for (int u = 0; u < kDepth; ++u)
      if (u < n) {
        load(p, ring, u, is, zdiff, policy);
        advance(p, is, w_lane, s_lane);
      }
    // Stage the token rows [m_base, m_base + mrows) of the activations (whole K, row stride
    // act_stride) with every thread of the CTA.
    {
      const int pieces = p.K >> 3;  // 16-byte pieces per row (K * 2 bytes)
      for (int m = 0; m < mrows; ++m) {
        const uint8_t* src = p.a + static_cast<int64_t>(m_base + m) * p.lda_bytes;
        const uint32_t dst = smem + m * p.act_stride;
        for (int i = threadIdx.x; i < pieces; i += blockDim.x)
          ptx::cp_async16_zfill(dst + i * 16, src + i * 16, true);
      }
      ptx::cp_async_commit();
      ptx::cp_async_wait<0>();
      __syncthreads();
    }
    if (n > 0)
      stream(p, smem, ring, is, w_lane, s_lane, zdiff, policy, warp, lane, n, nb0, kb0, nb_lo, mrows);
  }

  static __device__ __forceinline__ void run(const FullkParams& p) {
    extern __shared__ __align__(128) uint8_t smem_raw[];
    const uint32_t smem = ptx::smem_u32(smem_raw);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, W = blockDim.x >> 5;
    const int m_base = blockIdx.y * kTM;
    const int mrows = min(p.M - m_base, kTM);
    const int64_t c = blockIdx.x;
    const int nb_lo = static_cast<int>(c * p.NB / p.C), nb_hi = static_cast<int>((c + 1) * p.NB / p.C);
    const int64_t T = static_cast<int64_t>(nb_hi - nb_lo) * p.KBn;
    const int64_t i0 = warp * T / W, i1 = (warp + 1) * T / W;
    run_variant(p, smem, warp, lane, nb_lo, i0, i1, m_base, mrows);
    __syncthreads();  // every partial tile is in shared memory
    // Warp (j mod W) sums n-block j's parts in warp order (= ascending k): the warps w whose
    // item ranges [w T / W, (w+1) T / W) meet [j KBn, (j+1) KBn), each in slot j + w.
    const int nbc = nb_hi - nb_lo;
    for (int j = warp; j < nbc; j += W) {
      const int64_t lo = static_cast<int64_t>(j) * p.KBn, hi = lo + p.KBn;
      float sum[kNT][4];
      bool any = false;
      for (int w = 0; w < W; ++w) {
        const int64_t a = w * T / W, b = (w + 1) * T / W;
        if (!(a < b && a < hi && b > lo)) continue;
        const uint32_t src = smem + p.red_off + (j + w) * kNT * 512 + lane * 16;
#pragma unroll
        for (int nt = 0; nt < kNT; ++nt) {
          const uint4 v = ptx::lds128(src + nt * 512);
          const float f[4] = {__uint_as_float(v.x), __uint_as_float(v.y), __uint_as_float(v.z), __uint_as_float(v.w)};
#pragma unroll
          for (int i = 0; i < 4; ++i) sum[nt][i] = any ? sum[nt][i] + f[i] : f[i];
        }
        any = true;
      }
#pragma unroll
      for (int nt = 0; nt < kNT; ++nt) store(p, nb_lo + j, nt, sum[nt], lane, m_base);
    }
  }
};

template <AType A, int kNT, bool kUns, int kVar>
__global__ void __launch_bounds__(kFullkMaxThreads, 1) smallm_fullk_kernel(const __grid_constant__ FullkParams p) {
  FullkCta<A, kNT, kUns, kVar>::run(p);
}

}  // namespace mixgemm::kernels::smallm
