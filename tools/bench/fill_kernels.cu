// fill_kernels.cu - the bench's own device kernels: deterministic random fills, the spin
// kernel that lets the host queue a batch of timed runs, a non-finite counter, the
// --stream-read kernel, and the --l2-prefetch-mb prefetch.
// (Device code is compiled as C++17, like the library's.)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "device.h"
#include "kernels/ptx/mma.cuh"

namespace mixgemm::bench {
namespace {

__host__ __device__ __forceinline__ uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

__device__ __forceinline__ uint64_t hash2(uint64_t seed, uint64_t i) {
  return splitmix64(seed * 0xD1B54A32D192ED03ull ^ splitmix64(i));
}

// Irwin-Hall(4) from the four 16-bit pieces of one 64-bit hash: mean 0, variance 1.
__device__ __forceinline__ float normalish(uint64_t h) {
  float s = 0.f;
  for (int j = 0; j < 4; ++j) s += static_cast<float>((h >> (16 * j)) & 0xFFFF) * (1.0f / 65536.0f);
  return (s - 2.0f) * 1.7320508f;
}

__device__ __forceinline__ float uniform01(uint64_t h) {
  return static_cast<float>(h >> 40) * (1.0f / 16777216.0f);
}

unsigned grid_for(size_t n) {
  size_t blocks = (n + 255) / 256;
  if (blocks > 4096) blocks = 4096;
  if (blocks == 0) blocks = 1;
  return static_cast<unsigned>(blocks);
}

__global__ void k_fill_bytes(uint8_t* dst, size_t bytes, uint64_t seed) {
  const size_t words = bytes / 8;
  uint64_t* w = reinterpret_cast<uint64_t*>(dst);
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < words; i += size_t(gridDim.x) * blockDim.x)
    w[i] = hash2(seed, i);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    const uint64_t h = hash2(seed, words);
    for (size_t b = words * 8; b < bytes; ++b) dst[b] = static_cast<uint8_t>(h >> (8 * (b - words * 8)));
  }
}

__global__ void k_fill_f16(__half* dst, size_t n, float sd, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    dst[i] = __float2half_rn(normalish(hash2(seed, i)) * sd);
}
__global__ void k_fill_bf16(__nv_bfloat16* dst, size_t n, float sd, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    dst[i] = __float2bfloat16_rn(normalish(hash2(seed, i)) * sd);
}
__global__ void k_fill_e4m3(__nv_fp8_storage_t* dst, size_t n, float sd, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    dst[i] = __nv_cvt_float_to_fp8(normalish(hash2(seed, i)) * sd, __NV_SATFINITE, __NV_E4M3);
}
__global__ void k_fill_s8(int8_t* dst, size_t n, int lo, int span, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    dst[i] = static_cast<int8_t>(lo + static_cast<int>(hash2(seed, i) % static_cast<uint64_t>(span)));
}
__global__ void k_fill_f32(float* dst, size_t n, float lo, float hi, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    dst[i] = lo + (hi - lo) * uniform01(hash2(seed, i));
}

__device__ __forceinline__ uint64_t global_timer_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__global__ void k_spin(uint64_t ns) {
  const uint64_t t0 = global_timer_ns();
  while (global_timer_ns() - t0 < ns) __nanosleep(1000);
}

// --l2-prefetch-mb: one cp.async.bulk.prefetch.L2 per 4 KB piece, piece j on CTA j mod G (every
// SM's TMA engine takes a share); a budget below the range takes B of the P pieces evenly spread
// (piece j iff floor((j + 1) B / P) != floor(j B / P)). No completion is awaited in the code, yet in
// a graph the grid lasts about as long as a read of those bytes (session 40, s40-l2prefetch/call6).
__global__ void k_prefetch_l2(const char* base, uint64_t bytes, uint64_t pieces, uint64_t budget) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  for (uint64_t j = blockIdx.x + uint64_t{gridDim.x} * threadIdx.x; j < pieces; j += uint64_t{gridDim.x} * blockDim.x) {
    if (budget < pieces && ((j + 1) * budget) / pieces == (j * budget) / pieces) continue;
    const uint64_t off = j * 4096, left = bytes - off;
    kernels::ptx::bulk_prefetch_l2(base + off, static_cast<uint32_t>(left < 4096 ? left : 4096));
  }
#endif
}

__global__ void k_count_nonfinite(const uint16_t* p, size_t n, uint16_t exp_mask, unsigned long long* count) {
  unsigned long long local = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    local += (p[i] & exp_mask) == exp_mask;
  if (local) atomicAdd(count, local);
}

void check_launch(const char* what) {
  cuda_check(cudaGetLastError(), what, __FILE__, __LINE__);
}

}  // namespace

void fill_random_bytes(void* dst, size_t bytes, uint64_t seed, cudaStream_t stream) {
  if (bytes == 0) return;
  k_fill_bytes<<<grid_for(bytes / 8 + 1), 256, 0, stream>>>(static_cast<uint8_t*>(dst), bytes, seed);
  check_launch("fill_random_bytes launch");
}

void fill_normal_16bit(void* dst, size_t elems, Fill16 kind, float std_dev, uint64_t seed, cudaStream_t stream) {
  if (elems == 0) return;
  if (kind == Fill16::kF16)
    k_fill_f16<<<grid_for(elems), 256, 0, stream>>>(static_cast<__half*>(dst), elems, std_dev, seed);
  else
    k_fill_bf16<<<grid_for(elems), 256, 0, stream>>>(static_cast<__nv_bfloat16*>(dst), elems, std_dev, seed);
  check_launch("fill_normal_16bit launch");
}

void fill_normal_e4m3(void* dst, size_t elems, float std_dev, uint64_t seed, cudaStream_t stream) {
  if (elems == 0) return;
  k_fill_e4m3<<<grid_for(elems), 256, 0, stream>>>(static_cast<__nv_fp8_storage_t*>(dst), elems, std_dev, seed);
  check_launch("fill_normal_e4m3 launch");
}

void fill_uniform_s8(void* dst, size_t elems, int lo, int hi, uint64_t seed, cudaStream_t stream) {
  if (elems == 0) return;
  k_fill_s8<<<grid_for(elems), 256, 0, stream>>>(static_cast<int8_t*>(dst), elems, lo, hi - lo + 1, seed);
  check_launch("fill_uniform_s8 launch");
}

void fill_uniform_f32(float* dst, size_t elems, float lo, float hi, uint64_t seed, cudaStream_t stream) {
  if (elems == 0) return;
  k_fill_f32<<<grid_for(elems), 256, 0, stream>>>(dst, elems, lo, hi, seed);
  check_launch("fill_uniform_f32 launch");
}

// The --stream-read baseline: every 16-byte piece of `p` read once (read-only path, no L1
// allocation, L2 evict-first, as the GEMM kernels read weights), four loads in flight per
// thread per step; the XOR of all of them is written only if it equals a value no fill
// produces on purpose, so the loads cannot be dropped.
__global__ void k_stream_read(const uint4* p, size_t n16, unsigned* sink) {
  const uint64_t policy = kernels::ptx::policy_evict_first();
  const size_t stride = size_t{gridDim.x} * blockDim.x;
  unsigned acc = 0;
  size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n16; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = kernels::ptx::ldg_nc_evict_first128(p + i + u * stride, policy);
#pragma unroll
    for (int u = 0; u < 4; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < n16; i += stride) {
    const uint4 v = p[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9E3779B9u) atomicAdd(sink, 1u);
}

void stream_read(const void* src, size_t bytes, unsigned* sink, int blocks, cudaStream_t stream) {
  k_stream_read<<<blocks, 256, 0, stream>>>(static_cast<const uint4*>(src), bytes / 16, sink);
  check_launch("stream_read launch");
}

// Does nothing: its launch, timed like a GEMM, is the fixed cost every kernel of that grid pays
// in this measurement (launch, CTA ramp, completion), bytes aside.
__global__ void k_empty() {}

void launch_empty(int blocks, cudaStream_t stream) {
  k_empty<<<blocks, 256, 0, stream>>>();
  check_launch("empty kernel launch");
}

void prefetch_l2_stream(const void* p, size_t bytes, size_t budget_bytes, cudaStream_t stream) {
  bytes &= ~size_t{15};  // bench buffers are 256-byte aligned; bulk prefetches take 16-byte multiples
  if (bytes == 0 || budget_bytes < 16) return;
  const uint64_t pieces = (bytes + 4095) / 4096;
  const uint64_t budget = std::min<uint64_t>(pieces, (budget_bytes + 4095) / 4096);
  const unsigned grid = static_cast<unsigned>(std::min<uint64_t>(pieces, 132));
  k_prefetch_l2<<<grid, 128, 0, stream>>>(static_cast<const char*>(p), bytes, pieces, budget);
  check_launch("prefetch_l2 launch");
}

void spin_stream(cudaStream_t stream, double us) {
  if (us <= 0) return;
  k_spin<<<1, 1, 0, stream>>>(static_cast<uint64_t>(us * 1000.0));
  check_launch("spin kernel launch");
}

int64_t count_nonfinite_16bit(const void* dev, size_t elems, bool bf16, cudaStream_t stream) {
  if (elems == 0) return 0;
  DeviceBuffer counter(sizeof(unsigned long long), "non-finite counter");
  BENCH_CUDA(cudaMemsetAsync(counter.get(), 0, sizeof(unsigned long long), stream));
  k_count_nonfinite<<<grid_for(elems), 256, 0, stream>>>(static_cast<const uint16_t*>(dev), elems,
                                                         bf16 ? uint16_t{0x7F80} : uint16_t{0x7C00},
                                                         counter.as<unsigned long long>());
  check_launch("count_nonfinite launch");
  unsigned long long n = 0;
  BENCH_CUDA(cudaMemcpyAsync(&n, counter.get(), sizeof n, cudaMemcpyDeviceToHost, stream));
  BENCH_CUDA(cudaStreamSynchronize(stream));
  return static_cast<int64_t>(n);
}

// Each CTA marks the SM it ran on (%smid): what --green-sms confines a stream's kernels to.
__global__ void k_mark_sm(unsigned* seen, unsigned n) {
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if (threadIdx.x == 0 && sm < n) atomicOr(seen + sm, 1u);
  __nanosleep(2000);  // stay long enough that the CTAs spread over every SM they may use
}

int count_sms_reached(int blocks, cudaStream_t stream) {
  constexpr unsigned kMaxSm = 1024;
  DeviceBuffer seen(kMaxSm * sizeof(unsigned), "SM marks");
  BENCH_CUDA(cudaMemsetAsync(seen.get(), 0, seen.bytes(), stream));
  k_mark_sm<<<blocks, 128, 0, stream>>>(seen.as<unsigned>(), kMaxSm);
  check_launch("SM probe launch");
  std::vector<unsigned> h(kMaxSm);
  BENCH_CUDA(cudaMemcpyAsync(h.data(), seen.get(), seen.bytes(), cudaMemcpyDeviceToHost, stream));
  BENCH_CUDA(cudaStreamSynchronize(stream));
  return static_cast<int>(std::count(h.begin(), h.end(), 1u));
}

}  // namespace mixgemm::bench
