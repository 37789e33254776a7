// exchange_rate.cu - mixgemm-exchange-rate: how long two CTAs take to swap half a partial tile,
// through global memory (the sm90 two-part exchange) and through a 2-CTA cluster's distributed
// shared memory, with the whole GPU doing it at once.
//
// The sm90 wide tile at M = 256 on the 64-tile shapes (Llama-2-70B o / down, the seed shape) runs
// each tile's two k-halves on two CTAs, which then swap token halves of their partial (64 KB each
// way, s32 or f32): ~3.6 us from the mainloop's end until the partner's half is published and
// ~1.3 us to load it (docs/design-sm90.md, "Session 34"), whether the half is stored by 16-byte
// st.global per thread or by one bulk copy per CTA ("Session 35"). This tool isolates that step:
// a grid of 2-CTA clusters (default 64, i.e. 128 CTAs, one per SM), 256 threads per CTA, each
// thread holding 16 float4 (64 KB per CTA), swaps them with its cluster peer by
//   global    16 st.global.cg per thread, CTA barrier, thread 0 fence + atomicAdd on the pair's flag
//             and polls it (ld.acquire) until both published, CTA barrier, 16 ld.global.cg
//             (the exchange's protocol without its leave / role logic);
//   pull      16 st.shared per thread into its own shared memory, cluster barrier (release /
//             acquire), 16 ld.shared::cluster from the peer's;
//   push      16 st.shared::cluster per thread into the peer's shared memory, cluster barrier;
//   bulk      16 st.shared into its own shared memory, proxy fence, CTA barrier, one TMA bulk copy
//             (cp.async.bulk shared::cta -> shared::cluster, 64 KB) into the peer's, completing on
//             the peer's mbarrier, which every thread waits for;
//   bulk4     the same as four 16 KB copies.
// Every mode checks the received values (exact). Timed per CTA by %globaltimer from a cluster
// barrier before the swap to the values received (recv) and summed (done); the kernel is launched
// warm-up + N times, and each line gives the medians over launches of the CTAs' median and maximum.
//
//   mixgemm-exchange-rate [--clusters C] [--launches N] [--device D]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernels/cluster_launch.h"
#include "kernels/ptx/mma.cuh"
#include "kernels/ptx/sm90.cuh"

namespace {

using namespace mixgemm::kernels;

constexpr int kThreads = 256;
constexpr int kQ = 16;                          // float4 per thread: 64 KB per CTA
constexpr int kHalfBytes = kThreads * kQ * 16;  // 65536
constexpr int kSmem = 2 * kHalfBytes + 1024 + 64;

enum Mode : int { kGlobal = 0, kPull = 1, kPush = 2, kBulk = 3, kBulk4 = 4 };
const char* const kModeNames[] = {"global", "pull", "push", "bulk", "bulk4"};

__device__ __forceinline__ uint64_t gtime() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void __launch_bounds__(kThreads, 1)
    exchange_kernel(int mode, float4* ws, int* flags, unsigned long long* times, int* bad, float* sink) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  extern __shared__ uint8_t smem_raw[];
  const uint32_t base = (ptx::smem_u32(smem_raw) + 1023u) & ~1023u;
  const uint32_t sbuf = base;                    // this CTA's outgoing half (pull, bulk)
  const uint32_t rbuf = base + kHalfBytes;       // the peer's half, arriving (push, bulk)
  const uint32_t bar = base + 2 * kHalfBytes;    // bulk: completes when the peer's copy landed
  const int tid = threadIdx.x, cta = blockIdx.x, peer_cta = cta ^ 1;
  const uint32_t peer = ptx::cluster_ctarank() ^ 1u;
  float4 a[kQ], b[kQ];
#pragma unroll
  for (int q = 0; q < kQ; ++q) a[q] = make_float4(float(cta), float(tid), float(q), 1.0f);
  if (tid == 0) {
    ptx::mbar_init(bar, 1);
    ptx::mbar_fence_init();
  }
  ptx::cluster_sync();  // the barrier is initialized before the peer's copy can complete on it
  if (mode == kBulk || mode == kBulk4) {
    if (tid == 0) ptx::mbar_arrive_expect_tx(bar, kHalfBytes);
  }
  ptx::cluster_sync();  // both CTAs start the swap together
  const uint64_t t0 = gtime();
  if (mode == kGlobal) {
    float4* mine = ws + static_cast<size_t>(cta) * kQ * kThreads;
#pragma unroll
    for (int q = 0; q < kQ; ++q) __stcg(mine + q * kThreads + tid, a[q]);
    __syncthreads();
    if (tid == 0) {
      __threadfence();
      atomicAdd(flags + (cta >> 1), 1);
      while (ptx::ld_acquire_gpu(flags + (cta >> 1)) < 2) {
      }
      __threadfence();
    }
    __syncthreads();
    const float4* theirs = ws + static_cast<size_t>(peer_cta) * kQ * kThreads;
#pragma unroll
    for (int q = 0; q < kQ; ++q) b[q] = __ldcg(theirs + q * kThreads + tid);
  } else if (mode == kPull) {
#pragma unroll
    for (int q = 0; q < kQ; ++q) ptx::sts128(sbuf + (q * kThreads + tid) * 16, *reinterpret_cast<uint4*>(&a[q]));
    ptx::cluster_sync();
    const uint32_t src = ptx::mapa_shared(sbuf, peer);
#pragma unroll
    for (int q = 0; q < kQ; ++q) {
      const uint4 v = ptx::ld_shared_cluster128(src + (q * kThreads + tid) * 16);
      b[q] = *reinterpret_cast<const float4*>(&v);
    }
  } else if (mode == kPush) {
    const uint32_t dst = ptx::mapa_shared(rbuf, peer);
#pragma unroll
    for (int q = 0; q < kQ; ++q) ptx::st_shared_cluster128(dst + (q * kThreads + tid) * 16, *reinterpret_cast<uint4*>(&a[q]));
    ptx::cluster_sync();
#pragma unroll
    for (int q = 0; q < kQ; ++q) {
      const uint4 v = ptx::lds128(rbuf + (q * kThreads + tid) * 16);
      b[q] = *reinterpret_cast<const float4*>(&v);
    }
  } else {
#pragma unroll
    for (int q = 0; q < kQ; ++q) ptx::sts128(sbuf + (q * kThreads + tid) * 16, *reinterpret_cast<uint4*>(&a[q]));
    ptx::fence_proxy_async_shared();
    __syncthreads();
    if (tid == 0) {
      const uint32_t dst = ptx::mapa_shared(rbuf, peer), pbar = ptx::mapa_shared(bar, peer);
      const int n = mode == kBulk4 ? 4 : 1;
      for (int i = 0; i < n; ++i)
        ptx::bulk_s2s_cluster(dst + i * (kHalfBytes / n), sbuf + i * (kHalfBytes / n), kHalfBytes / n, pbar);
    }
    ptx::mbar_wait_parity(bar, 0);
#pragma unroll
    for (int q = 0; q < kQ; ++q) {
      const uint4 v = ptx::lds128(rbuf + (q * kThreads + tid) * 16);
      b[q] = *reinterpret_cast<const float4*>(&v);
    }
  }
  float s = 0.0f;
#pragma unroll
  for (int q = 0; q < kQ; ++q) s += b[q].x + b[q].y + b[q].z + b[q].w;
  const uint64_t t1 = gtime();  // received: the sum needs every value
  int wrong = 0;
#pragma unroll
  for (int q = 0; q < kQ; ++q)
    wrong += b[q].x != float(peer_cta) || b[q].y != float(tid) || b[q].z != float(q) || b[q].w != 1.0f;
  if (wrong) atomicAdd(bad, wrong);
  sink[cta * kThreads + tid] = s;
  __syncthreads();
  const uint64_t t2 = gtime();
  if (tid == 0) {
    times[cta * 3 + 0] = t0;
    times[cta * 3 + 1] = t1;
    times[cta * 3 + 2] = t2;
  }
  ptx::cluster_sync();  // no CTA leaves while its peer may still read its shared memory
  if (mode == kGlobal && tid == 0 && (cta & 1) == 0) flags[cta >> 1] = 0;  // both polled: reset
#endif
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "mixgemm-exchange-rate: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int clusters = 64, launches = 20, dev = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--clusters" && i + 1 < argc) clusters = std::atoi(argv[++i]);
    else if (a == "--launches" && i + 1 < argc) launches = std::atoi(argv[++i]);
    else if (a == "--device" && i + 1 < argc) dev = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: mixgemm-exchange-rate [--clusters C] [--launches N] [--device D]\n");
      return 2;
    }
  }
  check(cudaSetDevice(dev), "cudaSetDevice");
  const int ctas = 2 * clusters;
  float4* ws = nullptr;
  int* flags = nullptr;
  int* bad = nullptr;
  unsigned long long* times = nullptr;
  float* sink = nullptr;
  check(cudaMalloc(&ws, static_cast<size_t>(ctas) * kHalfBytes), "cudaMalloc");
  check(cudaMalloc(&flags, clusters * sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&bad, sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&times, ctas * 3 * sizeof(unsigned long long)), "cudaMalloc");
  check(cudaMalloc(&sink, static_cast<size_t>(ctas) * kThreads * sizeof(float)), "cudaMalloc");
  check(cudaMemset(flags, 0, clusters * sizeof(int)), "cudaMemset");
  check(cudaMemset(bad, 0, sizeof(int)), "cudaMemset");
  check(cudaFuncSetAttribute(exchange_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem), "smem attribute");
  cudaLaunchConfig_t lc{};
  lc.gridDim = dim3(ctas);
  lc.blockDim = dim3(kThreads);
  lc.dynamicSmemBytes = kSmem;
  cudaLaunchAttribute attr = mixgemm::kernels::cluster_dim_attr(2);
  lc.attrs = &attr;
  lc.numAttrs = 1;
  int max_clusters = 0;
  check(cudaOccupancyMaxActiveClusters(&max_clusters, exchange_kernel, &lc), "cudaOccupancyMaxActiveClusters");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
  std::printf("# %s, %d SMs; %d clusters of 2 CTAs (%d resident at most), 64 KB each way per CTA\n", prop.name,
              prop.multiProcessorCount, clusters, max_clusters);
  std::printf("%-8s %10s %10s %10s %10s %10s %8s\n", "mode", "recv_med", "recv_max", "done_med", "done_max",
              "span", "wrong");
  std::vector<unsigned long long> h(ctas * 3);
  for (int mode = kGlobal; mode <= kBulk4; ++mode) {
    std::vector<double> rmed, rmax, dmed, dmax, span;
    for (int it = 0; it < 3 + launches; ++it) {
      check(cudaLaunchKernelEx(&lc, exchange_kernel, mode, ws, flags, times, bad, sink), "launch");
      check(cudaDeviceSynchronize(), "kernel");
      if (it < 3) continue;
      check(cudaMemcpy(h.data(), times, h.size() * sizeof(h[0]), cudaMemcpyDeviceToHost), "copy");
      std::vector<double> r(ctas), d(ctas);
      unsigned long long lo = ~0ull, hi = 0;
      for (int c = 0; c < ctas; ++c) {
        r[c] = (h[c * 3 + 1] - h[c * 3]) * 1e-3;
        d[c] = (h[c * 3 + 2] - h[c * 3]) * 1e-3;
        lo = std::min(lo, h[c * 3]);
        hi = std::max(hi, h[c * 3 + 2]);
      }
      rmed.push_back(median(r));
      rmax.push_back(*std::max_element(r.begin(), r.end()));
      dmed.push_back(median(d));
      dmax.push_back(*std::max_element(d.begin(), d.end()));
      span.push_back((hi - lo) * 1e-3);
    }
    int wrong = 0;
    check(cudaMemcpy(&wrong, bad, sizeof(int), cudaMemcpyDeviceToHost), "copy");
    check(cudaMemset(bad, 0, sizeof(int)), "cudaMemset");
    std::printf("%-8s %10.2f %10.2f %10.2f %10.2f %10.2f %8d\n", kModeNames[mode], median(rmed), median(rmax),
                median(dmed), median(dmax), median(span), wrong);
  }
  std::printf("# us: recv = cluster barrier before the swap -> every value received; done = after the CTA\n"
              "# barrier that follows; span = first CTA's start to last CTA's done; medians over %d launches\n",
              launches);
  return 0;
}
