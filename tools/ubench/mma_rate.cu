// mma_rate.cu - mixgemm-mma-rate: how fast this GPU's tensor cores retire the MMA shapes of the
// decode (small-M) kernels, with no memory traffic at all.
//
// The decode kernels (src/kernels/smallm/) give the 1..16 tokens to the tensor cores as the N = 8
// side of mma.sync m16n8k16 (f16 / bf16) or m16n8k32 (s8), 256 or 512 weights per instruction
// and warp. At the weight-streaming floor an H200 SM must consume ~32 int4 weights per cycle
// (4.3 TB/s over 132 SMs at 1.98 GHz). This tool measures, per SM and cycle, how many of those
// MMAs (and so weights) the tensor cores retire, with 1..8 independent accumulator chains per warp
// and 1..32 warps per SM, and the latency of one dependent chain; and the same for the Hopper
// register-A wgmma of the same N (m64n8k16 / m64n8k32: the four m16 blocks of a warpgroup in one
// asynchronous instruction, B from shared memory), the alternative a decode kernel could use
// (docs/design-smallm.md, "Session 26"). Operands are constants; only the accumulators change.
// Last, the decode kernel's row in isolation ("row f16.u4b8.g"): per trip one 16-byte shared load
// per block, then per k-step and block the library's exact f16 x u4b8 conversion and group-scale
// multiply (kernels/convert/convert_16bit.cuh) and one mma.sync m16n8k16: the smallm TM 8 row loop
// without its ring waits, scale and B-fragment loads and bookkeeping, at 4..32 warps per SM; and
// the same row on wgmma m64n8k16 ("row wgmma"), the structure a wgmma decode kernel would run.
// Since session 27 also: row variants that remove or add one part at a time (no scale multiply;
// raw words, no conversion; + the kernel's ldmatrix B loads; + its scale loads; the folded form
// with the activation sums given, and with session 25's extra a * O MMA), and the issue rate of
// single instructions (8 independent chains per warp: f16x2 add / mul / fma, f32 fma, lop3,
// mad.lo, prmt, shf, add), which says which pipe each conversion step uses and at what rate.
// Since session 61: the grouped e4m3 x u4b8 row as the smallm kernel runs it (f16 mma.sync, each
// e4m3 weight converted back to f16) against the same row on the fp8 register-A wgmma m64n8k32,
// with and without promotion every 64 k: what an e4m3 decode kernel on wgmma would gain per row;
// and TM 16's row (two mma.sync per converted fragment) against wgmma m64n16k16.
//
//   mixgemm-mma-rate [--iters N] [--device D]
//
// Prints one line per case: MMA (row cases: 512-byte blocks) per SM-cycle, weights per SM-cycle,
// cycles per loop trip.
// SM cycles come from clock64() (each warp's span of the loop, median over warps): the
// rates are per cycle of whatever clock the GPU ran at, not per nanosecond.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "ubench_check.h"
#include "kernels/convert/convert_16bit.cuh"
#include "kernels/ptx/mma.cuh"
#include "kernels/ptx/sm90.cuh"
#include "kernels/ptx/wgmma_rs.cuh"  // generated (codegen/generate_sm90.py)

namespace {

// ---- the instructions ----------------------------------------------------------------
// mma.sync and the wgmma fences / descriptors are the library's wrappers (kernels/ptx/); the
// register-A wgmma of N = 8 is not among the generated ones (kernels/ptx/wgmma_rs.cuh holds the
// sm90 token tiles, N >= 32), so it is written here, as the generator writes the others: warp w
// of the warpgroup supplies rows 16w..16w+15 of A in the mma.sync A-fragment layout; B (8 tokens
// x 16 f16 or 32 s8 of k) comes through the descriptor; scale-d = 1 (accumulate).
namespace ptx = mixgemm::kernels::ptx;

__device__ __forceinline__ void mma_sync(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  ptx::mma_f16_16816(d, a, b0, b1);
}
__device__ __forceinline__ void mma_sync(int32_t (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  ptx::mma_s8_16832(d, a, b0, b1);
}
__device__ __forceinline__ void wgmma_n8(float (&d)[4], const uint32_t (&a)[4], uint64_t desc) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p, 1, 1, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
}
__device__ __forceinline__ void wgmma_n8(int32_t (&d)[4], const uint32_t (&a)[4], uint64_t desc) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p;\n}\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
}

// N = 16 (a 16-token tile): 8 accumulators per thread, d0..d3 tokens 0..7 and d4..d7 tokens 8..15
// (two m16n8 C fragments).
__device__ __forceinline__ void wgmma_n16(float (&d0)[4], float (&d1)[4], const uint32_t (&a)[4], uint64_t desc) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 "
      "{%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9,%10,%11}, %12, p, 1, 1, 0;\n}\n"
      : "+f"(d0[0]), "+f"(d0[1]), "+f"(d0[2]), "+f"(d0[3]), "+f"(d1[0]), "+f"(d1[1]), "+f"(d1[2]), "+f"(d1[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
}

// fp8: m64n8k32 with e4m3 A (registers) and B (descriptor); scale_d = 0 starts a new chain (the
// accumulator's old value ignored), which is how a kernel promotes: one chain per row, added in f32.
__device__ __forceinline__ void wgmma_n8_e4m3(float (&d)[4], const uint32_t (&a)[4], uint64_t desc, int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %9, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 "
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(scale_d));
}

// ---- shared by the loops ----------------------------------------------------------------
// Keeps the accumulators live (the sum is compared with a value it cannot take, so nothing is
// stored) and records the warp's clock64 span of the loop.
template <class Acc, int kN>
__device__ __forceinline__ void finish(const Acc (&acc)[kN][4], float* sink, long long* cycles, long long span) {
  float s = 0.0f;
#pragma unroll
  for (int c = 0; c < kN; ++c)
#pragma unroll
    for (int i = 0; i < 4; ++i) s += static_cast<float>(acc[c][i]);
  if (s == -12345.0f) *sink = s;
  if ((threadIdx.x & 31) == 0) cycles[(blockIdx.x * blockDim.x + threadIdx.x) >> 5] = span;
}

// Warp `warp`'s 4-trip ring of kBlocks blocks per trip ([trip][block][lane] of uint4) inside
// `ring`, filled with a fixed pseudo-random pattern (the conversion's cost does not depend on it).
template <int kBlocks>
__device__ __forceinline__ uint4* fill_ring(uint4* ring, int warp, int lane) {
  uint4* mine = ring + warp * 4 * kBlocks * 32;
  for (int i = lane; i < 4 * kBlocks * 32; i += 32) {
    const uint32_t x = 0x9E3779B9u * static_cast<uint32_t>(i + 1 + 977 * warp);
    mine[i] = make_uint4(x, x ^ 0x5A5A5A5Au, x * 3u, ~x);
  }
  return mine;
}

// Trip i's blocks of this lane from the warp's ring: one 16-byte shared load per block.
template <int kBlocks>
__device__ __forceinline__ void load_trip(const uint4* mine, int i, int lane, uint4 (&wv)[kBlocks]) {
  const uint4* row = mine + (i & 3) * kBlocks * 32 + lane;
#pragma unroll
  for (int b = 0; b < kBlocks; ++b) wv[b] = row[b * 32];
}

// Word st (k16 step st) of a lane's 16 bytes of a block.
__device__ __forceinline__ uint32_t word_of(const uint4& v, int st) {
  return st == 0 ? v.x : st == 1 ? v.y : st == 2 ? v.z : v.w;
}

// Word st -> the f16 A fragment: the library's exact u4b8 conversion and group-scale multiply,
// RN_f16((q - 8) s) (kernels/convert/convert_16bit.cuh).
__device__ __forceinline__ void convert_word(const uint4& v, int st, __half s0, __half s1, uint32_t (&f)[4]) {
  namespace cv = mixgemm::kernels::convert;
  const uint32_t w = word_of(v, st);
  cv::cvt_u4b8_frag16<__half>(w, f);
  cv::scale_frag16<__half>(f, s0, s1);
}

// ---- the loops --------------------------------------------------------------------------
// Each warp: `iters` trips of kChains independent MMAs (chain c accumulates into acc[c]).
// cycles[w] = the warp's clock64 span of the loop. sink keeps the accumulators live.
template <class Acc, int kChains>
__global__ void mma_sync_loop(int iters, float* sink, long long* cycles) {
  const uint32_t lane = threadIdx.x & 31;
  // 1.0 in f16 (pairs) / 1 in s8 (quads), varied per lane so nothing is uniform.
  const uint32_t one = std::is_same<Acc, float>::value ? 0x3C003C00u : 0x01010101u;
  const uint32_t a[4] = {one, one ^ (lane & 1), one, one};
  const uint32_t b0 = one, b1 = one ^ (lane & 2);
  Acc acc[kChains][4] = {};
  __syncwarp();
  const long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) mma_sync(acc[c], a, b0, b1);
  }
  const long long t1 = clock64();
  finish(acc, sink, cycles, t1 - t0);
}

// Each warpgroup: `iters` trips of { fence; kChains wgmma into acc[0..kChains); commit;
// wait until at most one trip is in flight }.
template <class Acc, int kChains>
__global__ void wgmma_loop(int iters, float* sink, long long* cycles) {
  constexpr bool kS8 = std::is_same<Acc, int32_t>::value;
  constexpr int kRowBytes = kS8 ? 64 : 128;
  __shared__ __align__(1024) uint8_t b_tile[8 * 128];
  for (int i = threadIdx.x; i < 8 * 128 / 4; i += blockDim.x) reinterpret_cast<uint32_t*>(b_tile)[i] = kS8 ? 0x01010101u : 0x3C003C00u;
  ptx::fence_proxy_async_shared();  // the generic writes above -> wgmma's (async proxy) reads
  __syncthreads();
  const uint32_t lane = threadIdx.x & 31;
  const uint32_t one = kS8 ? 0x01010101u : 0x3C003C00u;
  const uint32_t a[4] = {one, one ^ (lane & 1), one, one};
  // B: 8 token rows of kRowBytes (64 k), one swizzle atom; step s (32 bytes) is 2 s further.
  const uint64_t desc = ptx::smem_desc_swizzled<kRowBytes>(ptx::smem_u32(b_tile));
  Acc acc[kChains][4] = {};
  const long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
    ptx::wgmma_fence();
#pragma unroll
    for (int c = 0; c < kChains; ++c) wgmma_n8(acc[c], a, desc + 2 * ((i + c) & 1));
    ptx::wgmma_commit();
    ptx::wgmma_wait<1>();
  }
  ptx::wgmma_wait<0>();
  const long long t1 = clock64();
  finish(acc, sink, cycles, t1 - t0);
}

// The block loop's stand-in conversion of one fragment register: the exact conversion's pipe mix
// (one lop3, one add.f16x2, one mul.f16x2), dependent on the trip so that nothing is hoisted.
__device__ __forceinline__ uint32_t stand_in_cvt(uint32_t f, uint32_t salt) {
  uint32_t x = ptx::lop3<0xea>(f, 0x000f000fu, 0x64006400u ^ (salt & 1));
  __half2 v = __hadd2(*reinterpret_cast<__half2*>(&x), __float2half2_rn(-1032.0f));
  v = __hmul2(v, __float2half2_rn(0.5f));
  return *reinterpret_cast<uint32_t*>(&v);
}

// The narrow sm90 tile's block loop without its memory (session 28: is the consumers' time their
// conversion or their wgmma issue?). Each warpgroup: `iters` trips of { fence; the 8 register-A
// wgmma m64n64k16 of a 64-k block (2 atoms x 4 k16 steps, as sm90_256x64's consumers); commit;
// wait until at most one block is in flight; then kWork rounds of a stand-in conversion of the next
// block's 32 fragment registers (per register and round one lop3, one add.f16x2, one mul.f16x2: the
// exact conversion's pipe mix) }. B: a constant 64-token x 64-k swizzled tile. kIssue: cycles[w] =
// the warp's cycles from the fence to the commit (the issue phase) summed over the trips, instead
// of the loop's whole span.
// kStep (session 28): the conversion interleaved with the issue at k16-step granularity: per step s,
// issue the step's 2 wgmma, commit, wait until block i-1's step s is done (<= 4 groups pending),
// convert step s of the next block. A warp blocked in a wgmma issue cannot convert; this way its
// conversion runs between the steps' issues instead of after the whole block's.
// kMWb: m64 atoms per warpgroup (2: sm90_256x64's two consumer warpgroups; 1: four consumer
// warpgroups of one atom each over the same 256 rows, session 55's question).
template <int kWork, bool kIssue, bool kStep = false, int kMWb = 2>
__global__ void wgmma_block_loop(int iters, float* sink, long long* cycles) {
  __shared__ __align__(1024) uint8_t b_tile[64 * 128];
  for (int i = threadIdx.x; i < 64 * 128 / 4; i += blockDim.x) reinterpret_cast<uint32_t*>(b_tile)[i] = 0x3C003C00u;
  ptx::fence_proxy_async_shared();
  __syncthreads();
  const uint32_t lane = threadIdx.x & 31;
  const uint64_t desc = ptx::smem_desc_swizzled<128>(ptx::smem_u32(b_tile));
  uint32_t F[2][4][kMWb][4];
#pragma unroll
  for (int h = 0; h < 2; ++h)
#pragma unroll
    for (int st = 0; st < 4; ++st)
#pragma unroll
      for (int mw = 0; mw < kMWb; ++mw)
#pragma unroll
        for (int r = 0; r < 4; ++r) F[h][st][mw][r] = 0x3C003C00u ^ ((lane + r + st) & 1);
  float acc[kMWb][32];
#pragma unroll
  for (int mw = 0; mw < kMWb; ++mw)
#pragma unroll
    for (int j = 0; j < 32; ++j) acc[mw][j] = 0.0f;
  using W = mixgemm::kernels::ptx::WgmmaRS<0, 64>;
  long long issue = 0;
  const long long t0 = clock64();
  for (int i = 0; i < iters; i += 2) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const uint32_t salt = static_cast<uint32_t>(i + h);
      if constexpr (kStep) {
        ptx::wgmma_fence();
#pragma unroll
        for (int st = 0; st < 4; ++st) {
          const long long a0 = clock64();
#pragma unroll
          for (int mw = 0; mw < kMWb; ++mw) W::run(acc[mw], F[h][st][mw], desc + 2 * st, 1);
          ptx::wgmma_commit();
          issue += clock64() - a0;
          ptx::wgmma_wait<4>();  // block i-1's step st is done: F[h ^ 1][st] is free
#pragma unroll
          for (int k = 0; k < kWork; ++k)
#pragma unroll
            for (int mw = 0; mw < kMWb; ++mw)
#pragma unroll
              for (int r = 0; r < 4; ++r) F[h ^ 1][st][mw][r] = stand_in_cvt(F[h ^ 1][st][mw][r], salt);
        }
        continue;
      }
      const long long a0 = clock64();
      ptx::wgmma_fence();
#pragma unroll
      for (int st = 0; st < 4; ++st)
#pragma unroll
        for (int mw = 0; mw < kMWb; ++mw) W::run(acc[mw], F[h][st][mw], desc + 2 * st, 1);
      ptx::wgmma_commit();
      const long long a1 = clock64();
      issue += a1 - a0;
      ptx::wgmma_wait<1>();
#pragma unroll
      for (int k = 0; k < kWork; ++k)
#pragma unroll
        for (int st = 0; st < 4; ++st)
#pragma unroll
          for (int mw = 0; mw < kMWb; ++mw)
#pragma unroll
            for (int r = 0; r < 4; ++r) F[h ^ 1][st][mw][r] = stand_in_cvt(F[h ^ 1][st][mw][r], salt);
    }
  }
  ptx::wgmma_wait<0>();
  const long long t1 = clock64();
  float sum = 0.0f;
#pragma unroll
  for (int mw = 0; mw < kMWb; ++mw)
#pragma unroll
    for (int j = 0; j < 32; ++j) sum += acc[mw][j];
  if (sum == -12345.0f) *sink = sum;
  if (lane == 0) cycles[(blockIdx.x * blockDim.x + threadIdx.x) >> 5] = kIssue ? issue : t1 - t0;
}

// The decode row in isolation: kBlocks 512-byte blocks per warp and trip (the smallm TM 8 kernel's
// kNBW = 2), one 16-byte shared load per lane and block from a 4-trip ring, then per k-step s and
// block b the exact conversion RN_f16((q - 8) s) of word s and one mma.sync into the block's
// accumulator. Per trip and warp: kBlocks x 1024 weights. kVar adds or removes one part of the
// kernel's row at a time (session 27: which part of the real row's 153 instructions costs):
enum RowVar : int {
  kRowExact = 0,      // as above: B fragments and scales in registers
  kRowNoScale = 1,    // the conversion without the group-scale multiply (g = 0)
  kRowRaw = 2,        // the raw words as A fragments (no conversion: the ladder's level D)
  kRowLdsm = 3,       // exact, B fragments loaded per k-step with ldmatrix.x2 (as the kernel)
  kRowLdsmScale = 4,  // + the two group scales of each block loaded per trip (4 x ld.shared.u16)
  // The folded form (docs/design-smallm.md "Session 25"): the MMA takes the magic-number values
  // 1024 + q / 1024 + 16 q straight from one lop3 per register (no subtraction, no scale), into a
  // per-group accumulator; every second trip (a 128-k group) the group folds into the f32 total,
  // tot += s * acc - s * O * (sum a), 8 FFMA per block, and the group accumulator restarts.
  kRowFold = 5,       // the activation sums given (constants here: the kernel would stage them)
  kRowFoldMma = 6,    // + one more MMA per k-step that sums a * O (session 25's kernel)
  // Session 61:
  kRowE4m3 = 7,       // grouped e4m3 as the smallm kernel runs it on f16 mma.sync: each register of the
                      // exact conversion to e4m3 (cvt.rn.satfinite) and back to f16
  kRowTm16 = 8,       // exact, 16 tokens: each converted fragment into two mma.sync (two 8-token n-tiles)
  // The unit form (convert_16bit.cuh; docs/design-smallm.md "The unit form"): the same exact weights
  // times a power of two, one fma per register (cvt_u4_unit_frag16) instead of a sub and a mul.
  kRowUnit = 9,       // S / C in registers (as kRowExact's scales)
  kRowUnitLdsm = 10,  // + ldmatrix B per k-step and, every second trip (a 128-k group), the group
                      // block of the smallm kernel: 4 scale loads, t, the window test and vote, S / C
};
// kRowUnitLdsm's group block, as the smallm kernel's unit_group: rows g, g+8 of each block.
template <int kBlocks>
__device__ __forceinline__ void unit_group(const __half* sc, const uint32_t (&base)[kBlocks], uint32_t (&S)[kBlocks],
                                           uint32_t (&C)[kBlocks], float (&acc)[kBlocks][4]) {
  namespace cv = mixgemm::kernels::convert;
  uint32_t s2[kBlocks], t2[kBlocks], ok = 1;
#pragma unroll
  for (int b = 0; b < kBlocks; ++b) {
    const __half* q = sc + 32 * b;
    s2[b] = __half_as_ushort(q[0]) | (uint32_t{__half_as_ushort(q[8])} << 16);
    t2[b] = cv::unit_t<__half>(s2[b], base[b]);
    ok &= cv::unit_in_window<__half>(t2[b]);
  }
  if (!__all_sync(0xFFFFFFFFu, ok)) {  // never here (the kernel's rare rebase; acc x 0 marks it)
#pragma unroll
    for (int b = 0; b < kBlocks; ++b)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[b][e] *= 0.0f;
  }
#pragma unroll
  for (int b = 0; b < kBlocks; ++b) cv::unit_factors<__half>(t2[b], S[b], C[b]);
}
constexpr int kRowBTileBytes = 8 * 144;  // 8 token rows of 64 k (128 B) padded to 144 B (stride % 128 == 16)
template <int kBlocks, int kVar = kRowExact>
__global__ void row_loop(int iters, float* sink, long long* cycles) {
  constexpr bool kFolded = kVar == kRowFold || kVar == kRowFoldMma;
  extern __shared__ uint4 ring[];  // [warp][trip % 4][block][lane], then per warp a B tile and scales
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
  const uint4* mine = fill_ring<kBlocks>(ring, warp, lane);
  // Per warp: a B tile (8 tokens x 64 k f16, 1.0 / 0.5) and 2 x 16 scales per block.
  uint8_t* extra = reinterpret_cast<uint8_t*>(ring + nwarps * 4 * kBlocks * 32) + warp * (kRowBTileBytes + 64 * kBlocks);
  for (int i = lane; i < kRowBTileBytes / 4; i += 32) reinterpret_cast<uint32_t*>(extra)[i] = 0x38003C00u;
  for (int i = lane; i < 32 * kBlocks; i += 32)
    reinterpret_cast<__half*>(extra + kRowBTileBytes)[i] = __float2half(0.5f + 0.001f * i);
  __syncwarp();
  const uint32_t btile = ptx::smem_u32(extra) + (lane & 7) * 144 + ((lane >> 3) & 1) * 16;
  const __half* sc = reinterpret_cast<const __half*>(extra + kRowBTileBytes) + (lane >> 2);
  __half s0 = __float2half(0.5f + 0.001f * lane), s1 = __float2half(0.25f + 0.002f * lane);
  uint32_t b0 = 0x3C003C00u, b1 = 0x38003800u ^ (lane & 1);
  constexpr int kNT = kVar == kRowTm16 ? 2 : 1;  // 8-token n-tiles
  const uint32_t b2 = 0x38003C00u, b3 = 0x3C003800u ^ (lane & 2);  // kRowTm16: tokens 8..15
  float acc[kBlocks * kNT][4] = {};
  float tot[kBlocks][4] = {}, acc_o[4] = {};  // folded forms: totals, the a * O sums
  const float sf0 = 0.01f + 0.0001f * lane, sf1 = 0.02f - 0.0001f * lane, asum0 = 3.0f, asum1 = 5.0f;
  const uint32_t magic_a[4] = {0x64006400u, 0x64006400u, 0x64006400u, 0x64006400u};
  // The unit form: every row at the unit of its first scale (the scales here lie in [0.25, 0.6):
  // one unit holds them all, so the group block's rebase is never taken, as on typical data).
  uint32_t ubase[kBlocks], uS[kBlocks], uC[kBlocks];
  if constexpr (kVar == kRowUnit || kVar == kRowUnitLdsm) {
    namespace un = mixgemm::kernels::convert::unit;
    const uint32_t s2 = __half_as_ushort(s0) | (uint32_t{__half_as_ushort(s1)} << 16);
#pragma unroll
    for (int b = 0; b < kBlocks; ++b) {
      const uint32_t k = un::base_for_scale(false, __half_as_ushort(s0), un::kF16.base0);
      ubase[b] = k | (k << 16);
      mixgemm::kernels::convert::unit_factors<__half>(mixgemm::kernels::convert::unit_t<__half>(s2, ubase[b]), uS[b],
                                                       uC[b]);
    }
  }
  const long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
    uint4 wv[kBlocks];
    load_trip(mine, i, lane, wv);
    if constexpr (kFolded) {
#pragma unroll
      for (int st = 0; st < 4; ++st) {
        if constexpr (kVar == kRowFoldMma) mma_sync(acc_o, magic_a, b0, b1);
#pragma unroll
        for (int b = 0; b < kBlocks; ++b) {
          const uint32_t w = word_of(wv[b], st);
          const uint32_t h = w >> 8;
          const uint32_t f[4] = {ptx::lop3<ptx::kLutAndOr>(w, 0x000f000fu, 0x64006400u),
                                 ptx::lop3<ptx::kLutAndOr>(w, 0x00f000f0u, 0x64006400u),
                                 ptx::lop3<ptx::kLutAndOr>(h, 0x000f000fu, 0x64006400u),
                                 ptx::lop3<ptx::kLutAndOr>(h, 0x00f000f0u, 0x64006400u)};
          mma_sync(acc[b], f, b0, b1);
        }
      }
      if (i & 1) {  // group end: fold and restart
        const float o0 = kVar == kRowFoldMma ? acc_o[0] : asum0, o1 = kVar == kRowFoldMma ? acc_o[1] : asum1;
#pragma unroll
        for (int b = 0; b < kBlocks; ++b) {
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            const float sg = e < 2 ? sf0 : sf1;
            tot[b][e] = fmaf(sg, acc[b][e], tot[b][e]);
            tot[b][e] = fmaf(-1032.0f * sg, (e & 1) ? o1 : o0, tot[b][e]);
            acc[b][e] = 0.0f;
          }
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) acc_o[e] = 0.0f;
      }
    } else {
      constexpr bool kUnit = kVar == kRowUnit || kVar == kRowUnitLdsm;
      if constexpr (kVar == kRowUnitLdsm) {
        if ((i & 1) == 0) unit_group<kBlocks>(sc + 16 * ((i >> 1) & 1), ubase, uS, uC, acc);
      }
      __half sb[kBlocks][2];
#pragma unroll
      for (int b = 0; b < kBlocks; ++b) {
        if constexpr (kVar == kRowLdsmScale) {
          const __half* q = sc + 32 * b + 16 * (i & 1);
          sb[b][0] = q[0];
          sb[b][1] = q[8];
        } else {
          sb[b][0] = s0;
          sb[b][1] = s1;
        }
      }
#pragma unroll
      for (int st = 0; st < 4; ++st) {
        if constexpr (kVar == kRowLdsm || kVar == kRowLdsmScale || kVar == kRowUnitLdsm) {
          uint32_t r[2];
          ptx::ldmatrix_x2(r, btile + st * 32);
          b0 = r[0];
          b1 = r[1];
        }
#pragma unroll
        for (int b = 0; b < kBlocks; ++b) {
          uint32_t f[4];
          if constexpr (kVar == kRowRaw) {
            // the block's 4 words as they came from the load (no register moves)
            f[0] = wv[b].x;
            f[1] = wv[b].y;
            f[2] = wv[b].z;
            f[3] = wv[b].w;
          } else if constexpr (kUnit) {
            mixgemm::kernels::convert::cvt_u4_unit_frag16<__half>(word_of(wv[b], st), uS[b], uC[b], f);
          } else if constexpr (kVar == kRowNoScale) {
            mixgemm::kernels::convert::cvt_u4b8_frag16<__half>(word_of(wv[b], st), f);
          } else {
            convert_word(wv[b], st, sb[b][0], sb[b][1], f);
          }
          if constexpr (kVar == kRowE4m3) {
#pragma unroll
            for (int r = 0; r < 4; ++r) f[r] = ptx::cvt_f16x2_e4m3x2(ptx::cvt_e4m3x2_f16x2(f[r]));
          }
          mma_sync(acc[kNT * b], f, b0, b1);
          if constexpr (kVar == kRowTm16) mma_sync(acc[kNT * b + 1], f, b2, b3);
        }
      }
    }
  }
  const long long t1 = clock64();
  if constexpr (kFolded) {
#pragma unroll
    for (int b = 0; b < kBlocks; ++b)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[b][e] += tot[b][e];
  }
  finish(acc, sink, cycles, t1 - t0);
}

// One pipe's issue rate: each warp runs 8 independent dependency chains of one instruction (no
// memory, no MMA); the rate is warp instructions per SM-cycle (4 schedulers: at most 4).
enum PipeOp : int { kOpHadd2, kOpHmul2, kOpHfma2, kOpFfma, kOpLop3, kOpImad, kOpPrmt, kOpShf, kOpIadd3 };
template <int kOp>
__device__ __forceinline__ uint32_t pipe_op(uint32_t x, uint32_t y) {
  uint32_t d;
  if constexpr (kOp == kOpHadd2) asm volatile("add.rn.f16x2 %0, %1, %2;" : "=r"(d) : "r"(x), "r"(y));
  else if constexpr (kOp == kOpHmul2) asm volatile("mul.rn.f16x2 %0, %1, %2;" : "=r"(d) : "r"(x), "r"(y));
  else if constexpr (kOp == kOpHfma2) asm volatile("fma.rn.f16x2 %0, %1, %2, %1;" : "=r"(d) : "r"(x), "r"(y));
  else if constexpr (kOp == kOpFfma) asm volatile("fma.rn.f32 %0, %1, %2, %1;" : "=r"(d) : "r"(x), "r"(y));
  else if constexpr (kOp == kOpLop3) asm volatile("lop3.b32 %0, %1, %2, 0x64006400, 0xea;" : "=r"(d) : "r"(x), "r"(y));
  else if constexpr (kOp == kOpImad) asm volatile("mad.lo.u32 %0, %1, %2, %1;" : "=r"(d) : "r"(x), "r"(y));
  else if constexpr (kOp == kOpPrmt) asm volatile("prmt.b32 %0, %1, %2, 0x5140;" : "=r"(d) : "r"(x), "r"(y));
  else if constexpr (kOp == kOpShf) asm volatile("shf.r.wrap.b32 %0, %1, %1, %2;" : "=r"(d) : "r"(x), "r"(y));
  else asm volatile("add.u32 %0, %1, %2;" : "=r"(d) : "r"(x), "r"(y));
  return d;
}
template <int kOp>
__global__ void pipe_loop(int iters, float* sink, long long* cycles) {
  const uint32_t lane = threadIdx.x & 31;
  uint32_t v[8];
#pragma unroll
  for (int c = 0; c < 8; ++c) v[c] = 0x3C003C00u + lane + c;
  const uint32_t y = 0x3BFF3BFFu ^ (lane & 1);  // ~0.999 in f16x2: the f16 chains stay finite
  const long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int c = 0; c < 8; ++c) v[c] = pipe_op<kOp>(v[c], y);
  }
  const long long t1 = clock64();
  float acc[1][4] = {{__uint_as_float(v[0] ^ v[1] ^ v[2] ^ v[3]), __uint_as_float(v[4] ^ v[5]),
                      __uint_as_float(v[6]), __uint_as_float(v[7])}};
  finish(acc, sink, cycles, t1 - t0);
}

// The same row with the register-A wgmma m64nNk16 instead of mma.sync: per trip the warpgroup's
// four warps each load their kBlocks blocks, and per k-step each converts its blocks' words into
// fragments (two sets: step s + 1 is converted while step s's wgmma run) and the warpgroup issues
// one wgmma per block index (the four warps' blocks b as the m64 rows), B (kN = 8 or 16 tokens x
// 64 k) from a constant swizzled shared tile. What a decode kernel on wgmma would run per row, in
// isolation; kN = 16 (session 61) against TM 16's two mma.sync per fragment (kRowTm16).
template <int kBlocks, int kN = 8>
__global__ void row_loop_wgmma(int iters, float* sink, long long* cycles) {
  static_assert(kN == 8 || kN == 16, "8 or 16 tokens");
  extern __shared__ __align__(1024) uint8_t smem_raw[];
  // [kN x 128 B B tile, 1024-byte aligned for the 128-byte swizzle][ring: warp][trip % 4][block][lane]
  uint8_t* b_tile = smem_raw + ((1024u - (ptx::smem_u32(smem_raw) & 1023u)) & 1023u);
  uint4* ring = reinterpret_cast<uint4*>(b_tile + kN * 128);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int i = threadIdx.x; i < kN * 128 / 4; i += blockDim.x) reinterpret_cast<uint32_t*>(b_tile)[i] = 0x3C003C00u;
  const uint4* mine = fill_ring<kBlocks>(ring, warp, lane);
  ptx::fence_proxy_async_shared();
  __syncthreads();
  const __half s0 = __float2half(0.5f + 0.001f * lane), s1 = __float2half(0.25f + 0.002f * lane);
  const uint64_t desc = ptx::smem_desc_swizzled<128>(ptx::smem_u32(b_tile));
  float acc[kBlocks * kN / 8][4] = {};
  uint32_t f[2][kBlocks][4];
  const long long t0 = clock64();
  // As the sm90 mainloop: step s's batch is issued, then (once batch s - 1 is done) step s + 1
  // is converted into the other fragment set while batch s runs.
  uint4 wv[kBlocks];
  load_trip(mine, 0, lane, wv);
#pragma unroll
  for (int b = 0; b < kBlocks; ++b) convert_word(wv[b], 0, s0, s1, f[0][b]);
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int st = 0; st < 4; ++st) {
      ptx::wgmma_fence();
#pragma unroll
      for (int b = 0; b < kBlocks; ++b) {
        if constexpr (kN == 8) wgmma_n8(acc[b], f[st & 1][b], desc + 2 * st);
        else wgmma_n16(acc[2 * b], acc[2 * b + 1], f[st & 1][b], desc + 2 * st);
      }
      ptx::wgmma_commit();
      ptx::wgmma_wait<1>();  // batch st - 1 done: set (st + 1) & 1 is free
      if (st == 3) load_trip(mine, i + 1, lane, wv);  // the next trip's blocks (the ring wraps)
#pragma unroll
      for (int b = 0; b < kBlocks; ++b) convert_word(wv[b], (st + 1) & 3, s0, s1, f[(st + 1) & 1][b]);
    }
  }
  ptx::wgmma_wait<0>();
  const long long t1 = clock64();
  finish(acc, sink, cycles, t1 - t0);
}

// ---- grouped e4m3 x u4b8 (session 61): today's row against a row on the fp8 wgmma ------------
// Both convert a word exactly as docs/semantics.md defines grouped e4m3 weights,
// RN_e4m3sat(RN_f16((q - 8) s)): the f16 conversion and scale multiply above, then
// cvt.rn.satfinite.e4m3x2.f16x2 per register. The smallm kernel today (smallm_mainloop.cuh, e4m3) runs
// on f16 mma.sync, so it converts every e4m3 pair back to f16 (one more cvt per register) and its
// B fragments are f16 (the activations converted once per chunk, not counted here). On the
// register-A wgmma m64n8k32 e4m3 the bytes stay e4m3: two words (32 k) make one A fragment, packed
// by cvt_e4m3x4_f16x2x2 (two cvt and no extra instruction), and B (8 tokens x 64 k e4m3) comes
// from shared memory through the descriptor. Word order inside a fragment is not modelled (the
// operands are constants): the instruction mix per weight is, less the kernel's k-order pairs (the
// 8-bit weight layout needs 4 prmt per word where this 16-bit-layout conversion has 2; the kernel
// built on this, bench/results/2026-12-04-h200/s61-e4m3wgmma/, gained 2-6%, not this row's 1.33x).
// Words 2t and 2t+1 of a block -> the e4m3 A fragment of k32 step t (4 registers of 4 e4m3).
__device__ __forceinline__ void convert_step_e4m3(const uint4& v, int t, __half s0, __half s1, uint32_t (&a)[4]) {
  uint32_t lo[4], hi[4];
  convert_word(v, 2 * t, s0, s1, lo);
  convert_word(v, 2 * t + 1, s0, s1, hi);
#pragma unroll
  for (int r = 0; r < 4; ++r) a[r] = ptx::cvt_e4m3x4_f16x2x2(lo[r], hi[r]);
}

// The same row on wgmma m64n8k32 e4m3, pipelined as row_loop_wgmma (the next k32 step converted
// while this one runs, two fragment sets). kPromote: each trip (one 64-k row) is a new chain
// (scale_d = 0 at its first step) in one of two accumulator sets, added into an f32 total once its
// wgmma are done: promotion every 64 k (docs/semantics.md 8.1, P = 64), 4 FADD per block and row.
template <int kBlocks, bool kPromote>
__global__ void row_loop_wgmma_e4m3(int iters, float* sink, long long* cycles) {
  extern __shared__ __align__(1024) uint8_t smem_raw[];
  // [512 B B tile (8 tokens x 64 k e4m3, 64-byte swizzle), 1024-aligned][1 KB from its start: ring: warp][trip % 4]
  // [block][lane]
  uint8_t* b_tile = smem_raw + ((1024u - (ptx::smem_u32(smem_raw) & 1023u)) & 1023u);
  uint4* ring = reinterpret_cast<uint4*>(b_tile + 1024);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int i = threadIdx.x; i < 512 / 4; i += blockDim.x) reinterpret_cast<uint32_t*>(b_tile)[i] = 0x38303838u;
  const uint4* mine = fill_ring<kBlocks>(ring, warp, lane);
  ptx::fence_proxy_async_shared();
  __syncthreads();
  const __half s0 = __float2half(0.5f + 0.001f * lane), s1 = __float2half(0.25f + 0.002f * lane);
  const uint64_t desc = ptx::smem_desc_swizzled<64>(ptx::smem_u32(b_tile));
  float acc[2][kBlocks][4] = {};
  float tot[kBlocks][4] = {};
  uint32_t f[2][kBlocks][4];
  uint4 wv[kBlocks];
  load_trip(mine, 0, lane, wv);
#pragma unroll
  for (int b = 0; b < kBlocks; ++b) convert_step_e4m3(wv[b], 0, s0, s1, f[0][b]);
  const long long t0 = clock64();
  for (int i = 0; i < iters; i += 2) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {  // trip i + h uses accumulator set h (compile-time)
#pragma unroll
      for (int t = 0; t < 2; ++t) {
        ptx::wgmma_fence();
#pragma unroll
        for (int b = 0; b < kBlocks; ++b)
          wgmma_n8_e4m3(acc[kPromote ? h : 0][b], f[t][b], desc + 2 * t, kPromote && t == 0 ? 0 : 1);
        ptx::wgmma_commit();
        ptx::wgmma_wait<1>();  // the batch before this one is done: set t ^ 1 is free
        if (kPromote && t == 0) {  // ... which was the previous trip's last: its chain is complete
#pragma unroll
          for (int b = 0; b < kBlocks; ++b)
#pragma unroll
            for (int e = 0; e < 4; ++e) tot[b][e] += acc[h ^ 1][b][e];
        }
        if (t == 1) load_trip(mine, i + h + 1, lane, wv);  // the next trip's blocks (the ring wraps)
#pragma unroll
        for (int b = 0; b < kBlocks; ++b) convert_step_e4m3(wv[b], t ^ 1, s0, s1, f[t ^ 1][b]);
      }
    }
  }
  ptx::wgmma_wait<0>();
  const long long t1 = clock64();
#pragma unroll
  for (int b = 0; b < kBlocks; ++b)
#pragma unroll
    for (int e = 0; e < 4; ++e) acc[0][b][e] += tot[b][e] + acc[1][b][e];
  finish(acc[0], sink, cycles, t1 - t0);
}

struct Case {
  std::string name;  // instruction
  int weights;       // weights (A elements) per instruction and warp(group)
  bool wgmma;        // per warpgroup
  int warps_per_sm;  // resident warps per SM
  int chains;                              // independent accumulators (row: blocks)
  void (*kernel)(int, float*, long long*);
  int smem_per_warp = 0;                   // dynamic shared memory per warp (row loop)
};

template <class Acc, int kChains>
Case sync_case(const char* name, int weights, int warps_per_sm) {
  return {name, weights, false, warps_per_sm, kChains, &mma_sync_loop<Acc, kChains>};
}
template <class Acc, int kChains>
Case wg_case(const char* name, int weights, int warps_per_sm) {
  return {name, weights, true, warps_per_sm, kChains, &wgmma_loop<Acc, kChains>};
}
// Row cases count blocks (1024 weights each; kBlocks per trip) where the others count MMAs.
template <int kBlocks, int kVar = kRowExact>
Case row_case(int warps_per_sm) {
  static const char* names[] = {"row f16.u4b8.g (blocks)", "row f16.u4b8 no scale", "row raw words (no cvt)",
                                "row + ldmatrix B", "row + ldmatrix B + scale lds", "row folded (sums given)",
                                "row folded + a*O MMA", "row e4m3.u4b8.g via f16", "row f16.u4b8.g TM16 (2x n8)", "row unit form",
                                "row unit + ldmatrix B + scale lds"};
  return {names[kVar], 1024, false, warps_per_sm, kBlocks, &row_loop<kBlocks, kVar>,
          4 * kBlocks * 32 * 16 + kRowBTileBytes + 64 * kBlocks};
}
// Pipe cases: "MMA/SM-cycle" is warp instructions per SM-cycle (8 chains per warp).
template <int kOp>
Case pipe_case(const char* name, int warps_per_sm) {
  return {name, 0, false, warps_per_sm, 8, &pipe_loop<kOp>};
}
// kBlocks blocks per warp and trip as above; per CTA of 4 warps 1 KB of B tile and up to 1 KB of
// alignment on top.
template <int kBlocks, int kN = 8>
Case row_wgmma_case(int warps_per_sm) {
  return {kN == 8 ? "row wgmma f16.u4b8.g (blocks)" : "row wgmma n16 f16.u4b8.g", 1024, false, warps_per_sm, kBlocks,
          &row_loop_wgmma<kBlocks, kN>, 4 * kBlocks * 32 * 16 + 512 + (kN - 8) * 32};
}

// Grouped e4m3 on the fp8 wgmma (blocks, as the other row cases), with and without promotion every
// 64 k; today's form is row_case<2, kRowE4m3>.
template <int kBlocks, bool kPromote>
Case row_wgmma_e4m3_case(int warps_per_sm) {
  return {kPromote ? "row wgmma e4m3.u4b8.g P64" : "row wgmma e4m3.u4b8.g", 1024, false, warps_per_sm, kBlocks,
          &row_loop_wgmma_e4m3<kBlocks, kPromote>, 4 * kBlocks * 32 * 16 + 512};
}

// The narrow sm90 block loop (wgmma_block_loop): "chains" = kWork rounds of stand-in conversion;
// one MMA = one 64-k block of a warpgroup (8 wgmma m64n64k16).
// cycles/trip = per 64-k block (kIssue: its issue phase only); MMA/SM-cycle = blocks per SM-cycle.
template <int kWork, bool kIssue, bool kStep = false, int kMWb = 2>
Case block_case(int warps_per_sm) {
  const std::string name = std::string(kIssue ? "blk issue" : "blk loop") + (kStep ? " step" : "") +
                           (kMWb == 2 ? " m64n64x8 cvt x" : " m64n64x4 cvt x") + std::to_string(kWork);
  return {name, kMWb * 64 * 64, true, warps_per_sm, 1, &wgmma_block_loop<kWork, kIssue, kStep, kMWb>};
}

}  // namespace

int main(int argc, char** argv) {
  int iters = 4096, dev = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string f = argv[i];
    if (f == "--iters" && i + 1 < argc) iters = std::atoi(argv[++i]);
    else if (f == "--device" && i + 1 < argc) dev = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--iters N] [--device D]\n", argv[0]);
      return 2;
    }
  }
  if (iters < 16) {
    std::fprintf(stderr, "--iters must be >= 16\n");
    return 2;
  }
  UB_CHECK(cudaSetDevice(dev));
  cudaDeviceProp prop{};
  UB_CHECK(cudaGetDeviceProperties(&prop, dev));
  if (prop.major != 9) {
    std::fprintf(stderr, "mixgemm-mma-rate measures Hopper (sm_90) tensor cores; device %d is sm_%d%d\n", dev,
                 prop.major, prop.minor);
    return 1;
  }
  const int sms = prop.multiProcessorCount;
  std::printf("# %s, %d SMs; iters %d; operands constant, no memory traffic in the loop\n", prop.name, sms, iters);
  std::printf("%-30s %8s %6s %12s %14s %16s\n", "instruction", "warps/SM", "chains", "cycles/trip", "MMA/SM-cycle",
              "weights/SM-cycle");

  using F = float;
  using S = int32_t;
  const std::vector<Case> cases = {
      // dependent-chain latency: one warp per SM, one chain
      sync_case<F, 1>("mma.sync m16n8k16 f16", 256, 1), sync_case<F, 4>("mma.sync m16n8k16 f16", 256, 1),
      sync_case<F, 1>("mma.sync m16n8k16 f16", 256, 4), sync_case<F, 2>("mma.sync m16n8k16 f16", 256, 4),
      sync_case<F, 4>("mma.sync m16n8k16 f16", 256, 4), sync_case<F, 8>("mma.sync m16n8k16 f16", 256, 4),
      sync_case<F, 1>("mma.sync m16n8k16 f16", 256, 16), sync_case<F, 2>("mma.sync m16n8k16 f16", 256, 16),
      sync_case<F, 4>("mma.sync m16n8k16 f16", 256, 16), sync_case<F, 2>("mma.sync m16n8k16 f16", 256, 32),
      sync_case<S, 1>("mma.sync m16n8k32 s8", 512, 1), sync_case<S, 1>("mma.sync m16n8k32 s8", 512, 16),
      sync_case<S, 2>("mma.sync m16n8k32 s8", 512, 16), sync_case<S, 4>("mma.sync m16n8k32 s8", 512, 16),
      wg_case<F, 1>("wgmma m64n8k16 f16", 1024, 4), wg_case<F, 4>("wgmma m64n8k16 f16", 1024, 4),
      wg_case<F, 1>("wgmma m64n8k16 f16", 1024, 16), wg_case<F, 2>("wgmma m64n8k16 f16", 1024, 16),
      wg_case<F, 4>("wgmma m64n8k16 f16", 1024, 16), wg_case<S, 1>("wgmma m64n8k32 s8", 2048, 4),
      wg_case<S, 4>("wgmma m64n8k32 s8", 2048, 4), wg_case<S, 2>("wgmma m64n8k32 s8", 2048, 16),
      wg_case<S, 4>("wgmma m64n8k32 s8", 2048, 16),
      row_case<2>(4), row_case<2>(8), row_case<2>(16), row_case<2>(24), row_case<2>(32),
      row_case<4>(16),
      row_case<2, kRowNoScale>(16), row_case<2, kRowRaw>(16), row_case<2, kRowLdsm>(16),
      row_case<2, kRowLdsmScale>(16), row_case<2, kRowLdsmScale>(32), row_case<2, kRowFold>(16),
      row_case<2, kRowFoldMma>(16), row_case<2, kRowFold>(32),
      // the unit form's row (against row f16.u4b8.g and row + ldmatrix B + scale lds at 16 warps)
      row_case<2, kRowUnit>(16), row_case<2, kRowUnitLdsm>(16),
      pipe_case<kOpHadd2>("pipe add.f16x2 (instr)", 16), pipe_case<kOpHmul2>("pipe mul.f16x2 (instr)", 16),
      pipe_case<kOpHfma2>("pipe fma.f16x2 (instr)", 16), pipe_case<kOpFfma>("pipe fma.f32 (instr)", 16),
      pipe_case<kOpLop3>("pipe lop3 (instr)", 16), pipe_case<kOpImad>("pipe mad.lo.u32 (instr)", 16),
      pipe_case<kOpPrmt>("pipe prmt (instr)", 16), pipe_case<kOpShf>("pipe shf (instr)", 16),
      pipe_case<kOpIadd3>("pipe add.u32 (instr)", 16), pipe_case<kOpHadd2>("pipe add.f16x2 (instr)", 32),
      pipe_case<kOpLop3>("pipe lop3 (instr)", 32),
      row_wgmma_case<2>(4), row_wgmma_case<2>(8), row_wgmma_case<2>(16), row_wgmma_case<2>(32),
      row_wgmma_case<4>(16),
      // session 61: grouped e4m3 on f16 mma.sync (today's decode row) against the fp8 wgmma row
      row_case<2, kRowE4m3>(8), row_case<2, kRowE4m3>(16), row_wgmma_e4m3_case<2, true>(8),
      row_wgmma_e4m3_case<2, true>(16), row_wgmma_e4m3_case<2, false>(16), row_wgmma_e4m3_case<4, true>(16),
      // session 61: the 16-token row, two mma.sync per fragment against one wgmma m64n16k16
      row_case<2, kRowTm16>(8), row_case<2, kRowTm16>(16), row_wgmma_case<2, 16>(8), row_wgmma_case<2, 16>(16),
      block_case<0, false>(4), block_case<0, true>(4), block_case<0, false>(8), block_case<0, true>(8),
      block_case<1, false>(4), block_case<1, true>(4), block_case<1, false>(8), block_case<1, true>(8),
      block_case<2, false>(8), block_case<2, true>(8),
      block_case<1, false, true>(4), block_case<1, true, true>(4), block_case<1, false, true>(8),
      block_case<1, true, true>(8), block_case<2, false, true>(8), block_case<2, true, true>(8),
      // session 55: one atom per warpgroup (48 stand-in instructions per round and block), 2 or 4
      // warpgroups per SM, against the two-atom loop above at 8 warps (96 per round)
      block_case<3, false>(8), block_case<0, false, false, 1>(8), block_case<2, false, false, 1>(8),
      block_case<4, false, false, 1>(8), block_case<1, false, false, 1>(16),
      block_case<2, false, false, 1>(16), block_case<3, false, false, 1>(16), block_case<4, false, false, 1>(16),
      block_case<2, true, false, 1>(16), block_case<3, true, false, 1>(16),
  };

  float* sink = nullptr;
  long long* cycles = nullptr;
  const int max_warps = sms * 32;
  UB_CHECK(cudaMalloc(&sink, sizeof(float)));
  UB_CHECK(cudaMalloc(&cycles, sizeof(long long) * max_warps));
  std::vector<long long> host(max_warps);
  for (const Case& c : cases) {
    // CTAs of 4 warps (one warpgroup) where there are >= 4 warps per SM, one warp otherwise;
    // warps_per_sm / 4 CTAs per SM, all resident at once (tiny kernels).
    const int threads = c.warps_per_sm >= 4 ? 128 : 32 * c.warps_per_sm;
    const int ctas_per_sm = c.warps_per_sm * 32 / threads;
    const int smem = c.smem_per_warp * threads / 32;
    if (smem > 48 * 1024) UB_CHECK(cudaFuncSetAttribute(c.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    int resident = 0;  // the rates assume every CTA of the grid runs at once
    UB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, c.kernel, threads, smem));
    if (resident < ctas_per_sm) {
      std::printf("%-30s %8d %6d   skipped: %d of %d CTAs per SM resident\n", c.name.c_str(), c.warps_per_sm,
                  c.chains, resident, ctas_per_sm);
      continue;
    }
    const int grid = sms * ctas_per_sm;
    const int warps = grid * threads / 32;
    c.kernel<<<grid, threads, smem>>>(iters / 8, sink, cycles);  // warm-up
    UB_CHECK(cudaGetLastError());
    c.kernel<<<grid, threads, smem>>>(iters, sink, cycles);
    UB_CHECK(cudaGetLastError());
    UB_CHECK(cudaDeviceSynchronize());
    UB_CHECK(cudaMemcpy(host.data(), cycles, sizeof(long long) * warps, cudaMemcpyDeviceToHost));
    std::vector<long long> v(host.begin(), host.begin() + warps);
    std::nth_element(v.begin(), v.begin() + warps / 2, v.end());
    const double span = static_cast<double>(v[warps / 2]);  // median warp's cycles
    // MMAs issued per SM over the span: every warp (or warpgroup) of the SM, iters x chains.
    const double issuers = c.wgmma ? c.warps_per_sm / 4.0 : c.warps_per_sm;
    const double mma_per_sm = issuers * static_cast<double>(iters) * c.chains;
    const double rate = mma_per_sm / span;
    std::printf("%-30s %8d %6d %12.1f %14.3f %16.1f\n", c.name.c_str(), c.warps_per_sm, c.chains,
                span / iters, rate, rate * c.weights);
  }
  UB_CHECK(cudaFree(sink));
  UB_CHECK(cudaFree(cycles));
  return 0;
}
