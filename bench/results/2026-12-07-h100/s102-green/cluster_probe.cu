// cluster_probe.cu (session 102): how many thread-block clusters of c CTAs (one CTA per SM) run at
// once on a CUDA green context of n SMs, against what cudaOccupancyMaxActiveClusters says with the
// green stream in the launch config and without it. Build: nvcc -arch=sm_90a -O2 cluster_probe.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <chrono>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("%s: %s\n", #x, cudaGetErrorString(e_)); std::exit(1); } } while (0)
#define DK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { std::printf("%s: CUresult %d\n", #x, (int)r_); std::exit(1); } } while (0)

__global__ void spin(int* live, int* maxlive, unsigned* sm_seen, unsigned long long ns) {
  extern __shared__ unsigned char pad[];
  if (threadIdx.x == 0) {
    unsigned smid; asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    atomicOr(&sm_seen[smid & 1023], 1u);
    const int now = atomicAdd(live, 1) + 1;
    atomicMax(maxlive, now);
    unsigned long long t0, t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); } while (t - t0 < ns);
    pad[0] = 1;
    atomicSub(live, 1);
  }
}

int main(int argc, char** argv) {
  CK(cudaSetDevice(0)); CK(cudaFree(nullptr));
  int dev_sms = 0; CK(cudaDeviceGetAttribute(&dev_sms, cudaDevAttrMultiProcessorCount, 0));
  const size_t smem = 150 * 1024;  // one CTA per SM
  CK(cudaFuncSetAttribute(spin, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  CK(cudaFuncSetAttribute(spin, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  int *live, *maxlive; unsigned* seen;
  CK(cudaMalloc(&live, 4)); CK(cudaMalloc(&maxlive, 4)); CK(cudaMalloc(&seen, 4096));
  CUdevice dev; DK(cuDeviceGet(&dev, 0));
  CUcontext primary; DK(cuCtxGetCurrent(&primary));
  CUdevResource all{}; DK(cuDeviceGetDevResource(dev, &all, CU_DEV_RESOURCE_TYPE_SM));
  std::printf("device SMs %d, resource smCount %u\n", dev_sms, all.sm.smCount);
  std::printf("%5s %5s %3s | %12s %12s %12s %12s | %10s %8s\n", "ask", "got", "c", "occ(primary)", "occ(green,0)", "occ(green,s)", "occ(prim,s)",
              "concurrent", "SMs");
  for (int i = 1; i < argc; ++i) {
    const int ask = std::atoi(argv[i]);
    cudaStream_t s = nullptr; CUcontext gctx = primary; int got = dev_sms;
    if (ask > 0 && ask < dev_sms) {
      CUdevResource part{}, rest{}; unsigned groups = 1;
      DK(cuDevSmResourceSplitByCount(&part, &groups, &all, &rest, 0, (unsigned)ask));
      CUdevResourceDesc desc{}; DK(cuDevResourceGenerateDesc(&desc, &part, 1));
      CUgreenCtx g{}; DK(cuGreenCtxCreate(&g, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM));
      CUstream cs{}; DK(cuGreenCtxStreamCreate(&cs, g, CU_STREAM_NON_BLOCKING, 0));
      DK(cuCtxFromGreenCtx(&gctx, g)); s = (cudaStream_t)cs; got = (int)part.sm.smCount;
    } else {
      CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    }
    for (int c : {1, 2, 4, 5, 8, 16}) {
      cudaLaunchAttribute at{}; at.id = cudaLaunchAttributeClusterDimension; at.val.clusterDim.x = c;
      at.val.clusterDim.y = 1; at.val.clusterDim.z = 1;
      cudaLaunchConfig_t cfg{}; cfg.gridDim = dim3(c); cfg.blockDim = dim3(256); cfg.dynamicSmemBytes = smem;
      cfg.attrs = &at; cfg.numAttrs = 1;
      int o_p = -1, o_g0 = -1, o_gs = -1, o_ps = -1;
      DK(cuCtxSetCurrent(primary));
      if (cudaOccupancyMaxActiveClusters(&o_p, (const void*)spin, &cfg) != cudaSuccess) { (void)cudaGetLastError(); o_p = -2; }
      cfg.stream = s;
      if (cudaOccupancyMaxActiveClusters(&o_ps, (const void*)spin, &cfg) != cudaSuccess) { (void)cudaGetLastError(); o_ps = -2; }
      cfg.stream = nullptr;
      DK(cuCtxSetCurrent(gctx));
      if (cudaOccupancyMaxActiveClusters(&o_g0, (const void*)spin, &cfg) != cudaSuccess) { (void)cudaGetLastError(); o_g0 = -2; }
      cfg.stream = s;
      if (cudaOccupancyMaxActiveClusters(&o_gs, (const void*)spin, &cfg) != cudaSuccess) { (void)cudaGetLastError(); o_gs = -2; }
      CK(cudaMemsetAsync(live, 0, 4, s)); CK(cudaMemsetAsync(maxlive, 0, 4, s)); CK(cudaMemsetAsync(seen, 0, 4096, s));
      cfg.gridDim = dim3(c * ((2 * dev_sms) / c + 1));
      if (getenv("PRIMARY_LAUNCH")) DK(cuCtxSetCurrent(primary));
      unsigned long long ns = 200000;
      void* args[] = {&live, &maxlive, &seen, &ns};
      cudaError_t e = cudaLaunchKernelExC(&cfg, (const void*)spin, args);
      if (e == cudaSuccess) e = cudaStreamSynchronize(s);
      int ml = -1; std::vector<unsigned> h(1024);
      if (e == cudaSuccess) { CK(cudaMemcpy(&ml, maxlive, 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(h.data(), seen, 4096, cudaMemcpyDeviceToHost)); }
      else { std::printf("launch c=%d: %s\n", c, cudaGetErrorString(e)); (void)cudaGetLastError(); }
      int nsm = 0; for (unsigned v : h) nsm += v != 0;
      std::printf("%5d %5d %3d | %12d %12d %12d %12d | %10.2f %8d\n", ask, got, c, o_p, o_g0, o_gs, o_ps, ml / (double)c, nsm);
    }
    DK(cuCtxSetCurrent(primary));
  }
  {
    cudaLaunchAttribute at{}; at.id = cudaLaunchAttributeClusterDimension; at.val.clusterDim.x = 8; at.val.clusterDim.y = 1; at.val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg{}; cfg.gridDim = dim3(8); cfg.blockDim = dim3(256); cfg.dynamicSmemBytes = smem; cfg.attrs = &at; cfg.numAttrs = 1;
    int n = 0; cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 1000; ++i) CK(cudaOccupancyMaxActiveClusters(&n, (const void*)spin, &cfg));
    auto t1 = std::chrono::steady_clock::now();
    std::printf("cudaOccupancyMaxActiveClusters: %.2f us per call\n", std::chrono::duration<double, std::micro>(t1 - t0).count() / 1000);
  }
  return 0;
}
