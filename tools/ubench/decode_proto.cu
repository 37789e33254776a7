// decode_proto.cu - mixgemm-decode-proto: a prototype decode kernel whose warps share nothing,
// timed beside the library's decode path in the same run (a development experiment, not a
// library kernel).
//
// Question (docs/design-smallm.md, sessions 27 and 45): the smallm kernel's rows run at the
// weight stream's pace, and a launch loses ~8-11 us to its edges (prologue, per-chunk staging and
// CTA barriers, the split-K tail, the SMs' end spread). Is that the price of its CTA-level
// structure (a CTA-wide weight ring refilled per chunk behind a barrier, activations staged per
// chunk, stream-K rows), or of the work itself? This kernel keeps only the work:
//   * every warp owns a contiguous range of the (column, k-block) steps of the weight matrix,
//     column-major (a column = kNBW n-blocks = 16 kNBW weight rows), i.e. it walks down K inside
//     a column, and no warp ever waits for another (no shared memory, no barrier, no atomic);
//   * per step it loads its kNBW 512-byte blocks (one 16-byte ld.global.nc per lane and block,
//     evict-first), the 2 kNBW group scales of its rows and its B fragments (the activations of
//     the step's 64 k, straight from global memory / L1), kD steps ahead in registers;
//   * the exact f16 x u4b8 conversion and group-scale multiply of the library
//     (kernels/convert/convert_16bit.cuh) and mma.sync m16n8k16 with the tokens as N = 8;
//   * where its range leaves a column (and at its end) the warp stores its f32 partial tile (the
//     lanes that hold live tokens only); a second kernel sums each column's contributors in
//     ascending warp order (= ascending k: deterministic) and writes f16.
// Layouts of the work (session 46, call 2): per-warp columns as above, or CTA stripes: the W warps
// of a CTA take W adjacent columns over the same k-blocks (the CTA owns a range of (stripe, k-block)
// steps), so a step's requests from one CTA are one contiguous W kNBW x 512-byte run, as the library's
// stripe rows are, still without any barrier between the warps.
// M <= 8 tokens, f16 activations, u4b8 weights, f16 group scales (group a multiple of 64), f16 out:
// the #6 W4A16 configuration. Also timed: the same walk loading everything but computing
// nothing (kRead: is the access pattern itself at the copy bandwidth?) and the library's gemm()
// (its heuristic's pick). All in CUDA graphs of 32 launches over rotating weight copies (cold L2),
// median over replays, beside a measured device-to-device copy bandwidth.
//
//   mixgemm-decode-proto [--shapes seed,70b,8b] [--m 1,8] [--iters N]
//
// Measured in session 46: slower than the library everywhere (bench/results/2026-12-03-h200/s46-proto/).
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bench/device.h"
#include "bench/metrics.h"
#include "ubench_check.h"
#include "kernels/convert/convert_16bit.cuh"
#include "kernels/ptx/mma.cuh"
#include "kernels/ptx/sm90.cuh"
#include "mixgemm/gemm.h"

namespace {

namespace ptx = mixgemm::kernels::ptx;
namespace cv = mixgemm::kernels::convert;

struct ProtoParams {
  const uint4* w;          // prepacked blocks, block(kb, nb) at (kb * N/16 + nb) * 512 bytes
  const __half* scales;    // [K/group][N]
  const __half* a;         // [M][lda]
  float4* partial;         // [warps][max_seg][32 lanes][kNBW] float4
  __half* out;             // [M][N]
  int M, N, K, lda, group;
  int kbn;                 // k-blocks per column (K / 64)
  int cols;                // columns (N / 16 / kNBW): a warp's kNBW n-blocks
  int stripe;              // 1: every warp walks its own columns; W: the W warps of a CTA walk W
                           // adjacent columns (a stripe of W kNBW n-blocks) over the same k-blocks
  long long steps;         // (cols / stripe) * kbn: the (stripe, k-block) steps
  int units;               // range owners: warps (stripe 1) or CTAs
  int warps;               // warps in the grid
  int max_seg;             // partial slots per warp
};

// First step of warp w's range and the warp that owns step u (u in its range).
__host__ __device__ inline long long range_start(long long w, const ProtoParams& p) {
  return w * p.steps / p.units;
}
__host__ __device__ inline long long owner_of(long long u, const ProtoParams& p) {
  return ((u + 1) * p.units - 1) / p.steps;
}

__device__ __forceinline__ uint32_t ldg_u32(const void* ptr) {
  uint32_t v;
  asm volatile("ld.global.nc.u32 %0, [%1];\n" : "=r"(v) : "l"(ptr));
  return v;
}
__device__ __forceinline__ uint32_t ldg_u16(const void* ptr) {
  unsigned short v;
  asm volatile("ld.global.nc.u16 %0, [%1];\n" : "=h"(v) : "l"(ptr));
  return v;
}

// One step's operands in registers: kNBW blocks, their rows' scales (lo half row g, hi row g+8),
// and the B fragments of the step's 4 k16 steps (token g, k 2t, 2t+1 / 2t+8, 2t+9).
template <int kNBW>
struct Step {
  uint4 w[kNBW];
  uint32_t s[kNBW];
  uint32_t b[4][2];
};

// Where the next step's operands are: pointers advanced by constants (a step down K inside a
// column: the next k-block), reset at a column's end; no division, no 64-bit multiply per step.
struct Cursor {
  const uint4* w;     // this lane's 16 bytes of the column's first block at k-block kb
  const __half* s;    // the scale of row g of the column's first block, group of kb
  const __half* a;    // token g, k = 64 kb + 2t
  int kb, c, gk;      // k-block, column, k-block within the group
};

template <int kNBW>
__device__ __forceinline__ Cursor cursor_at(const ProtoParams& p, int c, int kb, int lane) {
  const int g = lane >> 2, t = lane & 3;
  const int gsteps = p.group / 64;
  Cursor x;
  x.w = p.w + (static_cast<long long>(kb) * (p.N / 16) + static_cast<long long>(c) * kNBW) * 32 + lane;
  x.s = p.scales + static_cast<long long>(kb / gsteps) * p.N + c * kNBW * 16 + g;
  x.a = p.a + static_cast<long long>(g) * p.lda + kb * 64 + 2 * t;
  x.kb = kb;
  x.c = c;
  x.gk = kb % gsteps;
  return x;
}

template <int kNBW>
__device__ __forceinline__ void advance(Cursor& x, const ProtoParams& p, int lane) {
  if (++x.kb == p.kbn) {
    x = cursor_at<kNBW>(p, x.c + p.stripe, 0, lane);
  } else {
    x.w += (p.N / 16) * 32;
    x.a += 64;
    if (++x.gk == p.group / 64) {
      x.gk = 0;
      x.s += p.N;
    }
  }
}

// A step's scales (lo half row g, hi row g + 8, per block) and B fragments (token g, k 2t, 2t+1 /
// 2t+8, 2t+9 of each k16 step; zero for lanes past M).
template <int kNBW>
__device__ __forceinline__ void load_scales_b(uint32_t (&sc)[kNBW], uint32_t (&bf)[4][2], const Cursor& x, bool live) {
#pragma unroll
  for (int b = 0; b < kNBW; ++b) sc[b] = ldg_u16(x.s + b * 16) | (ldg_u16(x.s + b * 16 + 8) << 16);
#pragma unroll
  for (int s = 0; s < 4; ++s) {
    bf[s][0] = live ? ldg_u32(x.a + 16 * s) : 0u;
    bf[s][1] = live ? ldg_u32(x.a + 16 * s + 8) : 0u;
  }
}

template <int kNBW>
__device__ __forceinline__ void load_step(Step<kNBW>& st, const Cursor& x, bool live, uint64_t pol) {
#pragma unroll
  for (int b = 0; b < kNBW; ++b) st.w[b] = ptx::ldg_nc_evict_first128(x.w + b * 32, pol);
  load_scales_b<kNBW>(st.s, st.b, x, live);
}

__device__ __forceinline__ uint32_t word_of(const uint4& v, int s) {
  return s == 0 ? v.x : s == 1 ? v.y : s == 2 ? v.z : v.w;
}

template <int kNBW, bool kRead>
__device__ __forceinline__ void compute_step(const Step<kNBW>& st, float (&acc)[kNBW][4]) {
  if constexpr (kRead) {
    // Keep every loaded value live without the conversion or the MMA.
#pragma unroll
    for (int b = 0; b < kNBW; ++b) {
      uint32_t x = st.w[b].x ^ st.w[b].y ^ st.w[b].z ^ st.w[b].w ^ st.s[b];
#pragma unroll
      for (int s = 0; s < 4; ++s) x ^= st.b[s][0] ^ st.b[s][1];
      acc[b][0] = __uint_as_float(__float_as_uint(acc[b][0]) ^ x);
    }
  } else {
#pragma unroll
    for (int s = 0; s < 4; ++s) {
#pragma unroll
      for (int b = 0; b < kNBW; ++b) {
        uint32_t f[4];
        cv::cvt_u4b8_frag16<__half>(word_of(st.w[b], s), f);
        cv::scale_frag16_lo<__half>(f, st.s[b] & 0xFFFFu, st.s[b] >> 16);
        ptx::mma_f16_16816(acc[b], f, st.b[s][0], st.b[s][1]);
      }
    }
  }
}

template <int kNBW>
__device__ __forceinline__ void flush(float (&acc)[kNBW][4], const ProtoParams& p, int warp, int seg, int lane) {
  if (2 * (lane & 3) < p.M) {
    float4* dst = p.partial + ((static_cast<long long>(warp) * p.max_seg + seg) * 32 + lane) * kNBW;
#pragma unroll
    for (int b = 0; b < kNBW; ++b) dst[b] = make_float4(acc[b][0], acc[b][1], acc[b][2], acc[b][3]);
  }
#pragma unroll
  for (int b = 0; b < kNBW; ++b) acc[b][0] = acc[b][1] = acc[b][2] = acc[b][3] = 0.f;
}

// After a step: at its column's end the warp stores its partial and moves to its next column.
template <int kNBW>
__device__ __forceinline__ void end_step(float (&acc)[kNBW][4], const ProtoParams& p, int warp, int lane, int c_first,
                                         int& cc, int& ckb) {
  if (++ckb == p.kbn) {
    flush<kNBW>(acc, p, warp, cc - c_first, lane);
    ckb = 0;
    ++cc;
  }
}

template <int kNBW, int kD, bool kRead>
__global__ void __launch_bounds__(512, 1) proto_kernel(const __grid_constant__ ProtoParams p) {
  const int lane = threadIdx.x & 31;
  const int warp = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  const int wi = threadIdx.x >> 5;
  const long long unit = p.stripe == 1 ? warp : blockIdx.x;
  const long long u0 = range_start(unit, p), u1 = range_start(unit + 1, p);
  if (u0 >= u1) return;
  const bool live = (lane >> 2) < p.M;
  const uint64_t pol = ptx::policy_evict_first();

  // The prefetch cursor runs kD steps ahead of the compute position (cc, ckb).
  const int c_first = static_cast<int>(u0 / p.kbn);  // in stripes
  int cc = c_first, ckb = static_cast<int>(u0 - static_cast<long long>(c_first) * p.kbn);
  Cursor pcur = cursor_at<kNBW>(p, cc * p.stripe + (p.stripe == 1 ? 0 : wi), ckb, lane);
  const int n = static_cast<int>(u1 - u0);  // this warp's steps
  int pf = 0;                              // steps requested so far
  Step<kNBW> ring[kD];
#pragma unroll
  for (int i = 0; i < kD; ++i) {
    if (pf < n) {
      load_step<kNBW>(ring[i], pcur, live, pol);
      ++pf;
      advance<kNBW>(pcur, p, lane);
    }
  }
  float acc[kNBW][4];
#pragma unroll
  for (int b = 0; b < kNBW; ++b) acc[b][0] = acc[b][1] = acc[b][2] = acc[b][3] = 0.f;

  // Slot i is consumed, then refilled with the step kD ahead (compute before the refill: no
  // copy of the slot's registers).
  for (int u = 0; u < n; u += kD) {
#pragma unroll
    for (int i = 0; i < kD; ++i) {
      if (u + i < n) {
        compute_step<kNBW, kRead>(ring[i], acc);
        if (pf < n) {
          load_step<kNBW>(ring[i], pcur, live, pol);
          ++pf;
          advance<kNBW>(pcur, p, lane);
        }
        end_step<kNBW>(acc, p, warp, lane, c_first, cc, ckb);
      }
    }
  }
  if (ckb != 0) flush<kNBW>(acc, p, warp, cc - c_first, lane);
}

// The same warp-private work with the weights streamed by the TMA engine: each warp owns a ring of
// kR slots of its step's kNBW contiguous blocks in shared memory, one 1-D bulk copy per step
// (lane 0; evict-first) completing on the slot's mbarrier, refilled by the warp itself right after
// it has consumed the slot (its values are in registers and used by then). Scales and B fragments
// stay kD steps ahead in registers. No barrier between warps.
template <int kNBW>
struct StepSB {
  uint32_t s[kNBW];
  uint32_t b[4][2];
};

template <int kNBW, int kR, int kD, bool kRead>
__global__ void __launch_bounds__(512, 1) proto_tma_kernel(const __grid_constant__ ProtoParams p) {
  extern __shared__ __align__(128) uint8_t smem[];
  const int lane = threadIdx.x & 31, wi = threadIdx.x >> 5;
  const int warp = blockIdx.x * (blockDim.x >> 5) + wi;
  const long long unit = p.stripe == 1 ? warp : blockIdx.x;
  const long long u0 = range_start(unit, p), u1 = range_start(unit + 1, p);
  if (u0 >= u1) return;
  const bool live = (lane >> 2) < p.M;
  constexpr uint32_t kStepBytes = kNBW * 512;
  const uint32_t ring = ptx::smem_u32(smem) + wi * kR * kStepBytes;
  const uint32_t bars = ptx::smem_u32(smem) + (blockDim.x >> 5) * kR * kStepBytes + wi * kR * 8;
  if (lane == 0) {
    for (int i = 0; i < kR; ++i) ptx::mbar_init(bars + 8 * i, 1);
    ptx::mbar_fence_init();
  }
  __syncwarp();
  const uint64_t pol = ptx::policy_evict_first();

  const int c_first = static_cast<int>(u0 / p.kbn);
  int cc = c_first, ckb = static_cast<int>(u0 - static_cast<long long>(c_first) * p.kbn);
  const int c_warp = cc * p.stripe + (p.stripe == 1 ? 0 : wi);
  Cursor wcur = cursor_at<kNBW>(p, c_warp, ckb, 0);     // weights (lane 0's view: the step's first byte)
  Cursor scur = cursor_at<kNBW>(p, c_warp, ckb, lane);  // scales and B fragments
  const int n = static_cast<int>(u1 - u0);
  int wf = 0, pf = 0;
  for (; wf < kR && wf < n; ++wf) {
    if (lane == 0) {
      ptx::mbar_arrive_expect_tx(bars + 8 * wf, kStepBytes);
      ptx::bulk_g2s(ring + wf * kStepBytes, wcur.w, kStepBytes, bars + 8 * wf, pol);
    }
    advance<kNBW>(wcur, p, 0);
  }
  StepSB<kNBW> sb[kD];
#pragma unroll
  for (int i = 0; i < kD; ++i) {
    if (pf < n) {
      load_scales_b<kNBW>(sb[i].s, sb[i].b, scur, live);
      ++pf;
      advance<kNBW>(scur, p, lane);
    }
  }
  float acc[kNBW][4];
#pragma unroll
  for (int b = 0; b < kNBW; ++b) acc[b][0] = acc[b][1] = acc[b][2] = acc[b][3] = 0.f;
  int slot = 0;
  uint32_t parity = 0;
  for (int u = 0; u < n; u += kD) {
#pragma unroll
    for (int i = 0; i < kD; ++i) {
      if (u + i < n) {
        ptx::mbar_wait_parity(bars + 8 * slot, parity);
        Step<kNBW> cur;
#pragma unroll
        for (int b = 0; b < kNBW; ++b) cur.w[b] = ptx::lds128(ring + slot * kStepBytes + b * 512 + lane * 16);
#pragma unroll
        for (int b = 0; b < kNBW; ++b) cur.s[b] = sb[i].s[b];
#pragma unroll
        for (int s = 0; s < 4; ++s) { cur.b[s][0] = sb[i].b[s][0]; cur.b[s][1] = sb[i].b[s][1]; }
        compute_step<kNBW, kRead>(cur, acc);
        __syncwarp();
        if (wf < n) {
          if (lane == 0) {
            ptx::mbar_arrive_expect_tx(bars + 8 * slot, kStepBytes);
            ptx::bulk_g2s(ring + slot * kStepBytes, wcur.w, kStepBytes, bars + 8 * slot, pol);
          }
          ++wf;
          advance<kNBW>(wcur, p, 0);
        }
        if (++slot == kR) { slot = 0; parity ^= 1u; }
        if (pf < n) {
          load_scales_b<kNBW>(sb[i].s, sb[i].b, scur, live);
          ++pf;
          advance<kNBW>(scur, p, lane);
        }
        end_step<kNBW>(acc, p, warp, lane, c_first, cc, ckb);
      }
    }
  }
  if (ckb != 0) flush<kNBW>(acc, p, warp, cc - c_first, lane);
}

// One thread per (column, lane, block): the column's contributors' partials in ascending warp
// order, then f16 stores of the live tokens.
template <int kNBW>
__global__ void proto_reduce(const __grid_constant__ ProtoParams p) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int per_col = 32 * kNBW;
  const int c = i / per_col;
  if (c >= p.cols) return;
  const int lane = (i % per_col) / kNBW, b = i % kNBW;
  const int g = lane >> 2, t = lane & 3;
  if (2 * t >= p.M) return;
  const int sc = c / p.stripe, wi = c % p.stripe;
  const long long first = static_cast<long long>(sc) * p.kbn;
  const long long w0 = owner_of(first, p), w1 = owner_of(first + p.kbn - 1, p);
  // Contributors in batches of 8: the 8 loads are independent (in flight together), the sum
  // runs in ascending warp order (one L2 round trip per batch instead of per contributor).
  float4 sum = make_float4(0.f, 0.f, 0.f, 0.f);
  for (long long w = w0; w <= w1; w += 8) {
    float4 v[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      v[j] = make_float4(0.f, 0.f, 0.f, 0.f);
      if (w + j <= w1) {
        const int seg = sc - static_cast<int>(range_start(w + j, p) / p.kbn);
        const long long wid = p.stripe == 1 ? w + j : (w + j) * p.stripe + wi;
        v[j] = p.partial[((wid * p.max_seg + seg) * 32 + lane) * kNBW + b];
      }
    }
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      sum.x += v[j].x; sum.y += v[j].y; sum.z += v[j].z; sum.w += v[j].w;
    }
  }
  const int n = (c * kNBW + b) * 16 + g;
  const int m0 = 2 * t, m1 = 2 * t + 1;
  p.out[static_cast<long long>(m0) * p.N + n] = __float2half_rn(sum.x);
  p.out[static_cast<long long>(m0) * p.N + n + 8] = __float2half_rn(sum.z);
  if (m1 < p.M) {
    p.out[static_cast<long long>(m1) * p.N + n] = __float2half_rn(sum.y);
    p.out[static_cast<long long>(m1) * p.N + n + 8] = __float2half_rn(sum.w);
  }
}

// ---- host ----------------------------------------------------------------------------------

struct Shape {
  const char* name;
  int N, K;
};

struct Variant {
  std::string name;
  int nbw, depth, warps_per_cta, ctas_per_sm;
  bool read;
  bool striped;
  int ring = 0;          // > 0: weights through a per-warp TMA ring of this many steps
  bool main_only = false;  // time the main kernel alone (no reduction grid; output not written)
};

using KernelFn = void (*)(ProtoParams);

KernelFn pick_kernel(const Variant& v) {
#define DP_K(NBW, D)                                                                 \
  if (v.ring == 0 && v.nbw == NBW && v.depth == D) return v.read ? proto_kernel<NBW, D, true> : proto_kernel<NBW, D, false>;
  DP_K(2, 4)
  DP_K(4, 2)
#undef DP_K
#define DP_T(NBW, R, D)                                                                              \
  if (v.ring == R && v.nbw == NBW && v.depth == D)                                                   \
    return v.read ? proto_tma_kernel<NBW, R, D, true> : proto_tma_kernel<NBW, R, D, false>;
  DP_T(2, 8, 4)
  DP_T(4, 6, 2)
  DP_T(2, 12, 2)
  DP_T(4, 4, 2)
#undef DP_T
  std::fprintf(stderr, "no kernel for nbw %d ring %d depth %d\n", v.nbw, v.ring, v.depth);
  std::exit(1);
}

size_t smem_bytes(const Variant& v) {
  return v.ring == 0 ? 0 : size_t(v.warps_per_cta) * v.ring * (v.nbw * 512 + 8);
}

ProtoParams make_params(const Variant& v, int sm, int M, int N, int K, int group) {
  ProtoParams p{};
  p.M = M; p.N = N; p.K = K; p.lda = K; p.group = group;
  p.kbn = K / 64;
  p.cols = N / 16 / v.nbw;
  p.stripe = v.striped ? v.warps_per_cta : 1;
  p.steps = static_cast<long long>(p.cols / p.stripe) * p.kbn;
  p.warps = sm * v.ctas_per_sm * v.warps_per_cta;
  p.units = v.striped ? sm * v.ctas_per_sm : p.warps;
  const long long len = (p.steps + p.units - 1) / p.units;
  p.max_seg = static_cast<int>(len / p.kbn) + 2;
  return p;
}

void launch_proto(const Variant& v, const ProtoParams& p, int sm, cudaStream_t s) {
  KernelFn k = pick_kernel(v);
  k<<<sm * v.ctas_per_sm, v.warps_per_cta * 32, smem_bytes(v), s>>>(p);
  if (v.main_only) return;
  const int threads = p.cols * 32 * v.nbw;
  void (*r)(ProtoParams) = v.nbw == 1 ? proto_reduce<1> : v.nbw == 2 ? proto_reduce<2> : proto_reduce<4>;
  r<<<(threads + 255) / 256, 256, 0, s>>>(p);
}

// The bench's timers (tools/bench/device.h): per-launch times of a graph of `batch` launches, and the
// device-to-device copy bandwidth, both as medians.
double time_graph_us(const std::function<void(int)>& launch_i, int batch, int iters, cudaStream_t s) {
  return mixgemm::bench::compute_stats(mixgemm::bench::time_graph_batch(launch_i, batch, iters, s)).median;
}

double copy_bandwidth_gbs(cudaStream_t s) {
  const size_t bytes = size_t(1) << 30;
  const double us = mixgemm::bench::compute_stats(mixgemm::bench::time_device_copy(bytes, 2, 6, s)).median;
  return mixgemm::bench::copy_gbps(static_cast<int64_t>(bytes), us);
}

std::vector<float> to_float(const std::vector<__half>& h) {
  std::vector<float> f(h.size());
  for (size_t i = 0; i < h.size(); ++i) f[i] = __half2float(h[i]);
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  std::string shapes_arg = "seed,70b";
  std::vector<int> ms = {1, 8};
  int iters = 20;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--shapes" && i + 1 < argc) shapes_arg = argv[++i];
    else if (a == "--m" && i + 1 < argc) {
      ms.clear();
      for (char* tok = std::strtok(argv[++i], ","); tok; tok = std::strtok(nullptr, ",")) ms.push_back(std::atoi(tok));
    } else if (a == "--iters" && i + 1 < argc) iters = std::atoi(argv[++i]);
    else { std::fprintf(stderr, "usage: mixgemm-decode-proto [--shapes seed,70b,8b] [--m 1,8] [--iters N]\n"); return 2; }
  }
  std::vector<Shape> shapes;
  if (shapes_arg.find("seed") != std::string::npos) shapes.push_back({"seed", 8192, 21760});
  if (shapes_arg.find("70b") != std::string::npos) {
    shapes.push_back({"l70b_qkv", 10240, 8192});
    shapes.push_back({"l70b_o", 8192, 8192});
    shapes.push_back({"l70b_gate_up", 57344, 8192});
    shapes.push_back({"l70b_down", 8192, 28672});
  }
  if (shapes_arg.find("8b") != std::string::npos) {
    shapes.push_back({"l3_8b_qkv", 6144, 4096});
    shapes.push_back({"l3_8b_o", 4096, 4096});
    shapes.push_back({"l3_8b_down", 4096, 14336});
  }
  const int group = 128, batch = 32;

  int dev = 0, sm = 0;
  UB_CHECK(cudaGetDevice(&dev));
  UB_CHECK(cudaDeviceGetAttribute(&sm, cudaDevAttrMultiProcessorCount, dev));
  cudaDeviceProp prop{};
  UB_CHECK(cudaGetDeviceProperties(&prop, dev));
  cudaStream_t s;
  UB_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const double bw = copy_bandwidth_gbs(s);
  std::printf("# %s, %d SMs; copy bandwidth %.0f GB/s (read + write); CUDA graphs of %d launches, rotating weight copies, median of %d replays\n",
              prop.name, sm, bw, batch, iters);

  const std::vector<Variant> variants = {
      // per-warp columns (call 1's best), CTA stripes (call 2), and (call 3) per-warp TMA rings;
      // "main" rows: the main kernel alone (no reduction grid), to split a launch's time.
      {"proto_nbw4_d2_w16", 4, 2, 16, 1, false, false},
      {"stripe_nbw4_d2_w8x2", 4, 2, 8, 2, false, true},
      {"stripe_nbw2_d4_w4x4", 2, 4, 4, 4, false, true},
      {"tma_nbw2_r8_d4_w16", 2, 4, 16, 1, false, false, 8},
      {"tma_nbw4_r6_d2_w16", 4, 2, 16, 1, false, false, 6},
      {"tma_nbw2_r12_d2_w16", 2, 2, 16, 1, false, false, 12},
      {"tmastripe_nbw2_r8_d4_w4x4", 2, 4, 4, 4, false, true, 8},
      {"tmastripe_nbw4_r4_d2_w8x2", 4, 2, 8, 2, false, true, 4},
      {"tmaread_nbw2_r8_d4_w16", 2, 4, 16, 1, true, false, 8},
      {"main_tma_nbw2_r8_d4_w16", 2, 4, 16, 1, false, false, 8, true},
      {"main_stripe_nbw2_d4_w4x4", 2, 4, 4, 4, false, true, 0, true},
  };

  for (const Variant& v : variants) {
    if (smem_bytes(v) > 48 * 1024) {
      UB_CHECK(cudaFuncSetAttribute(pick_kernel(v), cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem_bytes(v))));
    }
  }
  std::printf("%-14s %2s %-22s %9s %9s %8s %s\n", "shape", "M", "kernel", "us", "floor_us", "%floor", "check");
  std::mt19937 rng(20261203);
  for (const Shape& sh : shapes) {
    const int N = sh.N, K = sh.K;
    const size_t wbytes = size_t(N) * K / 2, sbytes = size_t(K / group) * N * 2;
    const int copies = static_cast<int>(std::max<size_t>(2, (size_t(400) << 20) / (wbytes + sbytes) + 1));
    std::vector<uint8_t> hw(wbytes);
    for (auto& x : hw) x = static_cast<uint8_t>(rng());
    std::vector<__half> hs(size_t(K / group) * N);
    std::uniform_real_distribution<float> sd(0.004f, 0.03f), ad(-1.f, 1.f);
    for (auto& x : hs) x = __float2half(sd(rng));
    std::vector<void*> dw(copies), ds(copies);
    for (int c = 0; c < copies; ++c) {
      UB_CHECK(cudaMalloc(&dw[c], wbytes));
      UB_CHECK(cudaMalloc(&ds[c], sbytes));
      UB_CHECK(cudaMemcpy(dw[c], hw.data(), wbytes, cudaMemcpyHostToDevice));
      UB_CHECK(cudaMemcpy(ds[c], hs.data(), sbytes, cudaMemcpyHostToDevice));
    }
    for (int M : ms) {
      std::vector<__half> ha(size_t(M) * K);
      for (auto& x : ha) x = __float2half(ad(rng));
      void *da, *dout_lib, *dout;
      UB_CHECK(cudaMalloc(&da, ha.size() * 2));
      UB_CHECK(cudaMemcpy(da, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
      UB_CHECK(cudaMalloc(&dout_lib, size_t(M) * N * 2));
      UB_CHECK(cudaMalloc(&dout, size_t(M) * N * 2));
      const double floor_us = (double(wbytes) + sbytes + 2.0 * M * K + 2.0 * M * N) / (bw * 1e3);

      // The library: its heuristic's pick.
      mixgemm::GemmArgs ga;
      ga.problem.M = M; ga.problem.N = N; ga.problem.K = K; ga.problem.group_size = group;
      namespace mt = mixgemm::types;
      ga.problem.types = {mt::f16, mt::u4b8, mt::f16, false, mt::f16};
      ga.a = da; ga.lda = K; ga.b = dw[0]; ga.group_scales = ds[0]; ga.out = dout_lib; ga.ldo = N; ga.stream = s;
      ga.workspace_bytes = mixgemm::workspace_size(ga.problem);
      void* dws;
      UB_CHECK(cudaMalloc(&dws, ga.workspace_bytes));
      UB_CHECK(cudaMemset(dws, 0, ga.workspace_bytes));
      ga.workspace = dws;
      UB_CHECK(cudaMemset(dout_lib, 0xFF, size_t(M) * N * 2));  // NaN
      mixgemm::gemm(ga);
      UB_CHECK(cudaStreamSynchronize(s));
      std::vector<__half> hlib(size_t(M) * N);
      UB_CHECK(cudaMemcpy(hlib.data(), dout_lib, hlib.size() * 2, cudaMemcpyDeviceToHost));
      const std::vector<float> ref = to_float(hlib);
      const double t_lib = time_graph_us(
          [&](int i) {
            mixgemm::GemmArgs gi = ga;
            gi.b = dw[i % copies];
            gi.group_scales = ds[i % copies];
            mixgemm::gemm(gi);
          },
          batch, iters, s);
      std::printf("%-14s %2d %-22s %9.2f %9.2f %7.1f%% %s\n", sh.name, M, "library", t_lib, floor_us,
                  100.0 * floor_us / t_lib, mixgemm::choose_schedule(ga.problem, sm).c_str());

      for (const Variant& v : variants) {
        ProtoParams p = make_params(v, sm, M, N, K, group);
        if (p.cols % p.stripe != 0) continue;
        p.a = static_cast<const __half*>(da);
        p.out = static_cast<__half*>(dout);
        void* dpart;
        const size_t pbytes = size_t(p.warps) * p.max_seg * 32 * v.nbw * sizeof(float4);
        UB_CHECK(cudaMalloc(&dpart, pbytes));
        p.partial = static_cast<float4*>(dpart);
        p.w = static_cast<const uint4*>(dw[0]);
        p.scales = static_cast<const __half*>(ds[0]);
        UB_CHECK(cudaMemset(dout, 0xFF, size_t(M) * N * 2));
        launch_proto(v, p, sm, s);
        UB_CHECK(cudaGetLastError());
        UB_CHECK(cudaStreamSynchronize(s));
        std::string check = "-";
        if (!v.read && !v.main_only) {
          std::vector<__half> hout(size_t(M) * N);
          UB_CHECK(cudaMemcpy(hout.data(), dout, hout.size() * 2, cudaMemcpyDeviceToHost));
          const std::vector<float> got = to_float(hout);
          double num = 0, den = 0;
          size_t bad = 0;
          for (size_t i = 0; i < got.size(); ++i) {
            if (!std::isfinite(got[i])) { ++bad; continue; }
            num += double(got[i] - ref[i]) * (got[i] - ref[i]);
            den += double(ref[i]) * ref[i];
          }
          const double rel = std::sqrt(num / std::max(den, 1e-30));
          char buf[96];
          std::snprintf(buf, sizeof buf, "%s rel_err %.2e nonfinite %zu", (bad == 0 && rel < 2e-3) ? "ok" : "FAIL", rel, bad);
          check = buf;
        }
        const double t = time_graph_us(
            [&](int i) {
              ProtoParams pi = p;
              pi.w = static_cast<const uint4*>(dw[i % copies]);
              pi.scales = static_cast<const __half*>(ds[i % copies]);
              launch_proto(v, pi, sm, s);
            },
            batch, iters, s);
        std::printf("%-14s %2d %-22s %9.2f %9.2f %7.1f%% %s\n", sh.name, M, v.name.c_str(), t, floor_us,
                    100.0 * floor_us / t, check.c_str());
        UB_CHECK(cudaFree(dpart));
      }
      std::fflush(stdout);
      UB_CHECK(cudaFree(dws));
      UB_CHECK(cudaFree(da));
      UB_CHECK(cudaFree(dout_lib));
      UB_CHECK(cudaFree(dout));
    }
    for (int c = 0; c < copies; ++c) {
      UB_CHECK(cudaFree(dw[c]));
      UB_CHECK(cudaFree(ds[c]));
    }
  }
  return 0;
}
