// prepack.cu - GPU prepack into the layout of include/mixgemm/layout.h, byte-identical
// to prepack_cpu (src/layout/prepack_cpu.cpp).
//
// One CTA per tile of one k-block (KB rows of k) x kTileN = 256 columns (n): its output is
// 16 consecutive 512-byte blocks (layout.h: blocks of one k-block are contiguous along n),
// one contiguous 8 KiB run.
//   1. stage:  coalesced 16-byte (8-byte for AWQ) loads of the source tile, unpacked on the
//              fly to one byte per weight in shared memory, tile[k][n] (row stride kStride);
//   2. gather: warp w builds blocks w and w+8, lane l its 16-byte lane fragments: for every fragment
//              element (k-step s, element e) it reads the weight at layout::fragment_coord()
//              and places it at layout::element_bit() - the same functions position() uses;
//   3. store:  one 16-byte store per thread, 512 contiguous bytes per warp.
// Asynchronous on the stream; no allocation, no host synchronization. The public entry and its
// argument checks: src/api/prepack.cpp.
//
// Input values: the CPU prepack refuses unpacked 4-bit values above 15; the GPU one cannot
// look at the data without a sync, so it keeps the low 4 bits (identical for valid input).
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "core/check.h"
#include "kernels/prepack/prepack.h"
#include "mixgemm/layout.h"

namespace mixgemm {

namespace kernels::prepack {

constexpr int kTileN = 256;                          // columns (n) per CTA: 16 blocks
constexpr int kThreads = 256;                        // 8 warps, each builds 2 of the 16 blocks
constexpr int kBlocksPerTile = kTileN / layout::kBlockRows;
constexpr int kWarps = kThreads / 32;
constexpr int kStride = kTileN + 8;                  // shared tile row stride in bytes (see below)
// Bank-conflict check for the gather (one LDS.U8 per element, all lanes of a warp at once):
// lane (g, t) reads row c0 + 2t (16-bit MMA) or c0 + 4t (8-bit MMA), column n0 + g. With a row
// stride of 264 bytes = 66 words (= 2 mod 32) the banks are (4t or 8t) + g/4 + const: different
// for the four t, and lanes with equal g/4 read the same word. Staging stores are 8-byte
// aligned (two 8-byte stores per 16 source bytes, two wavefronts per warp: optimal).
static_assert(kStride % 8 == 0 && (kStride / 4) % 32 == 2);
static_assert(kBlocksPerTile % kWarps == 0);

enum class Src { kUnpacked4, kUnpacked8, kGptq, kAwq };

__device__ __forceinline__ uint4 load16(const uint8_t* p, bool aligned) {
  if (aligned) return __ldcs(reinterpret_cast<const uint4*>(p));
  uint32_t w[4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    w[i] = uint32_t(p[4 * i]) | uint32_t(p[4 * i + 1]) << 8 | uint32_t(p[4 * i + 2]) << 16 |
           uint32_t(p[4 * i + 3]) << 24;
  return make_uint4(w[0], w[1], w[2], w[3]);
}

__device__ __forceinline__ uint2 load8(const uint8_t* p, bool aligned) {
  if (aligned) return __ldcs(reinterpret_cast<const uint2*>(p));
  uint32_t w[2];
#pragma unroll
  for (int i = 0; i < 2; ++i)
    w[i] = uint32_t(p[4 * i]) | uint32_t(p[4 * i + 1]) << 8 | uint32_t(p[4 * i + 2]) << 16 |
           uint32_t(p[4 * i + 3]) << 24;
  return make_uint2(w[0], w[1]);
}

__device__ __forceinline__ void store8x2(uint8_t* p, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  reinterpret_cast<uint2*>(p)[0] = make_uint2(a, b);
  reinterpret_cast<uint2*>(p)[1] = make_uint2(c, d);
}

__device__ __forceinline__ uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel) {
  uint32_t d;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(sel));
  return d;
}

// Source chunks: how one tile of the source splits into per-thread loads.
//   unpacked: 16 columns of one k row (16 bytes)     KB x 16 chunks
//   GPTQ:     4 columns of one word row j (16 bytes)  KB/8 x 64 chunks (qweight[K/8][N] int32)
//   AWQ:      16 columns of one k row (2 words)       KB x 16 chunks   (qweight[K][N/8] int32)
// Every warp load covers >= 256 contiguous bytes. All of a thread's loads are issued before
// any is used (kPer of them in flight per thread).
template <Src S, int KB>
struct Chunks {
  static constexpr int kPerRow = S == Src::kGptq ? kTileN / 4 : kTileN / 16;
  static constexpr int kRows = S == Src::kGptq ? KB / 8 : KB;
  static constexpr int kCount = kPerRow * kRows;
  static constexpr int kPer = kCount / kThreads;
  static_assert(kCount % kThreads == 0);
};

// Stage the source tile (k rows [k0, k0+KB), columns [n0, n0+ncols)) into tile[k][n],
// one byte per weight (4-bit values in the low nibble).
template <Src S, int KB>
__device__ __forceinline__ void stage(const uint8_t* __restrict__ src, uint8_t* tile, int64_t N,
                                      int64_t k0, int64_t n0, int ncols, bool aligned) {
  using C = Chunks<S, KB>;
  uint4 v[C::kPer];
#pragma unroll
  for (int i = 0; i < C::kPer; ++i) {
    const int ci = threadIdx.x + i * kThreads;
    const int r = ci / C::kPerRow, c = ci % C::kPerRow;
    v[i] = make_uint4(0u, 0u, 0u, 0u);
    if constexpr (S == Src::kUnpacked4 || S == Src::kUnpacked8) {
      if (c * 16 < ncols) v[i] = load16(src + (k0 + r) * N + n0 + c * 16, aligned);
    } else if constexpr (S == Src::kGptq) {
      if (c * 4 < ncols) v[i] = load16(src + ((k0 / 8 + r) * N + n0 + c * 4) * 4, aligned);
    } else {
      if (c * 16 < ncols) {
        const uint2 h = load8(src + ((k0 + r) * (N / 8) + (n0 + c * 16) / 8) * 4, aligned);
        v[i] = make_uint4(h.x, h.y, 0u, 0u);
      }
    }
  }
#pragma unroll
  for (int i = 0; i < C::kPer; ++i) {
    const int ci = threadIdx.x + i * kThreads;
    const int r = ci / C::kPerRow, c = ci % C::kPerRow;
    if constexpr (S == Src::kUnpacked4 || S == Src::kUnpacked8) {
      if (c * 16 >= ncols) continue;
      uint4 x = v[i];
      if constexpr (S == Src::kUnpacked4) {  // keep the low 4 bits (see the file comment)
        x.x &= 0x0F0F0F0Fu;
        x.y &= 0x0F0F0F0Fu;
        x.z &= 0x0F0F0F0Fu;
        x.w &= 0x0F0F0F0Fu;
      }
      store8x2(tile + r * kStride + c * 16, x.x, x.y, x.z, x.w);
    } else if constexpr (S == Src::kGptq) {
      // nibble i of word (j, n) is k = 8j + i: 4 columns x 8 rows of the tile
      if (c * 4 >= ncols) continue;
      const uint32_t w[4] = {v[i].x, v[i].y, v[i].z, v[i].w};
      uint32_t lo[4], hi[4];  // byte m of lo[x]: nibble 2m of w[x]; of hi[x]: nibble 2m+1
#pragma unroll
      for (int x = 0; x < 4; ++x) {
        lo[x] = w[x] & 0x0F0F0F0Fu;
        hi[x] = (w[x] >> 4) & 0x0F0F0F0Fu;
      }
#pragma unroll
      for (int m = 0; m < 4; ++m) {
        const uint32_t sel = ((4u + m) << 4) | m;  // {.., b.byte m, a.byte m}
        const uint32_t even = prmt(prmt(lo[0], lo[1], sel), prmt(lo[2], lo[3], sel), 0x5410u);
        const uint32_t odd = prmt(prmt(hi[0], hi[1], sel), prmt(hi[2], hi[3], sel), 0x5410u);
        *reinterpret_cast<uint32_t*>(tile + (8 * r + 2 * m) * kStride + c * 4) = even;
        *reinterpret_cast<uint32_t*>(tile + (8 * r + 2 * m + 1) * kStride + c * 4) = odd;
      }
    } else {
      // AWQ: column 8b + j sits at nibble {0,4,1,5,2,6,3,7}[j]
      if (c * 16 >= ncols) continue;
      const uint32_t w[2] = {v[i].x, v[i].y};
      uint32_t out[4];
#pragma unroll
      for (int x = 0; x < 2; ++x) {
        // lo bytes: nibbles 0,2,4,6 = columns 0,4,1,5; hi bytes: nibbles 1,3,5,7 = columns 2,6,3,7
        const uint32_t lo = w[x] & 0x0F0F0F0Fu, hi = (w[x] >> 4) & 0x0F0F0F0Fu;
        out[2 * x] = prmt(lo, hi, 0x6420u);      // columns 0, 1, 2, 3
        out[2 * x + 1] = prmt(lo, hi, 0x7531u);  // columns 4, 5, 6, 7
      }
      store8x2(tile + r * kStride + c * 16, out[0], out[1], out[2], out[3]);
    }
  }
}

// Lane `lane`'s 16 bytes of block `nb_local` of the staged tile.
template <int WB, int MB>
__device__ __forceinline__ uint4 gather_lane(const uint8_t* tile, int nb_local, int lane) {
  constexpr layout::Kind kind{WB, MB};
  uint32_t w[4] = {0u, 0u, 0u, 0u};
  const uint8_t* base = tile + nb_local * layout::kBlockRows;
#pragma unroll
  for (int s = 0; s < kind.ksteps(); ++s) {
#pragma unroll
    for (int e = 0; e < kind.elems_per_kstep(); ++e) {
      const layout::TileCoord rc = layout::fragment_coord(kind, lane, e);
      const uint32_t q = base[(s * kind.mma_k() + rc.c) * kStride + rc.r];
      const int bit = s * kind.bytes_per_kstep() * 8 + layout::element_bit(kind, e);
      w[bit / 32] |= q << (bit % 32);
    }
  }
  return make_uint4(w[0], w[1], w[2], w[3]);
}

template <Src S, int WB, int MB>
__global__ void __launch_bounds__(kThreads)
    prepack_kernel(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst, int64_t N,
                   uint32_t tiles_n, bool aligned) {
  constexpr layout::Kind kind{WB, MB};
  constexpr int KB = kind.block_k();
  __shared__ __align__(16) uint8_t tile[KB * kStride];

  const int64_t kb = blockIdx.x / tiles_n, nt = blockIdx.x % tiles_n;  // 32-bit division
  const int64_t n0 = nt * kTileN;
  const int ncols = static_cast<int>(N - n0 < kTileN ? N - n0 : kTileN);  // a multiple of 16
  stage<S, KB>(src, tile, N, kb * KB, n0, ncols, aligned);
  __syncthreads();

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  constexpr int kPerWarp = kBlocksPerTile / kWarps;
  uint4 v[kPerWarp];
#pragma unroll
  for (int i = 0; i < kPerWarp; ++i) v[i] = gather_lane<WB, MB>(tile, warp + i * kWarps, lane);
  const int64_t block0 = kb * (N / layout::kBlockRows) + n0 / layout::kBlockRows;
#pragma unroll
  for (int i = 0; i < kPerWarp; ++i) {
    const int nb = warp + i * kWarps;
    if (nb * layout::kBlockRows < ncols) {
      __stcs(reinterpret_cast<uint4*>(dst + (block0 + nb) * layout::kBlockBytes + lane * layout::kLaneBytes),
             v[i]);
    }
  }
}

template <Src S, int WB, int MB>
void launch(const void* src, void* dst, int64_t K, int64_t N, cudaStream_t stream) {
  constexpr int KB = layout::Kind{WB, MB}.block_k();
  const int64_t tiles_n = (N + kTileN - 1) / kTileN;
  const int64_t tiles = (K / KB) * tiles_n;
  MIXGEMM_REQUIRE(tiles <= INT32_MAX, "prepack",
                  "K=" << K << ", N=" << N << " needs " << tiles << " tiles; accepted: at most " << INT32_MAX
                       << " (split the matrix along K)");
  const bool aligned = reinterpret_cast<uintptr_t>(src) % 16 == 0;
  prepack_kernel<S, WB, MB><<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
      static_cast<const uint8_t*>(src), static_cast<uint8_t*>(dst), N, static_cast<uint32_t>(tiles_n), aligned);
}

}  // namespace kernels::prepack

namespace kernels {

cudaError_t launch_prepack(const void* src, WeightFormat format, layout::Kind kind, int64_t K, int64_t N, void* dst,
                           cudaStream_t stream) {
  using namespace kernels::prepack;
  const bool m16 = kind.mma_bits == 16;
  if (kind.weight_bits == 8) {
    launch<Src::kUnpacked8, 8, 16>(src, dst, K, N, stream);  // kind_for refuses 8-bit x 8-bit MMA
  } else if (format == WeightFormat::kUnpacked) {
    m16 ? launch<Src::kUnpacked4, 4, 16>(src, dst, K, N, stream) : launch<Src::kUnpacked4, 4, 8>(src, dst, K, N, stream);
  } else if (format == WeightFormat::kGptq) {
    m16 ? launch<Src::kGptq, 4, 16>(src, dst, K, N, stream) : launch<Src::kGptq, 4, 8>(src, dst, K, N, stream);
  } else {
    m16 ? launch<Src::kAwq, 4, 16>(src, dst, K, N, stream) : launch<Src::kAwq, 4, 8>(src, dst, K, N, stream);
  }
  return cudaGetLastError();
}

}  // namespace kernels

}  // namespace mixgemm
