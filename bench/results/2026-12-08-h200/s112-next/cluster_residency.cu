// Session 112: how many thread-block clusters of each size (1..8, and 16 where allowed) the device holds at once
// at one and at two CTAs per SM (a kernel of 256 threads with 150 KB / 100 KB of dynamic shared memory, like the
// smallm o1 / o2 schedules), from cudaOccupancyMaxActiveClusters. The launcher (smallm_launch.cu) falls back from
// cluster split-K to the workspace split where fewer clusters than stripes are resident; the heuristic's geometry
// does not know this table (s112-next/README.md: 5 x 26 fell back in the fuzz logs; Qwen2-7B qkv plans 7 x 18).
// On the device, from the repository root:
//   nvcc -std=c++17 -arch=sm_90a bench/results/2026-12-08-h200/s112-next/cluster_residency.cu -o /tmp/cr && /tmp/cr
#include <cstdio>
#include <cuda_runtime.h>

__global__ void probe_kernel(int* p) {
  extern __shared__ int smem[];
  if (p) p[blockIdx.x] = smem[threadIdx.x];
}

int main() {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("device: %s, %d SMs\n", prop.name, sms);
  cudaFuncSetAttribute(probe_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
  cudaFuncSetAttribute(probe_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  std::printf("cluster,ctas_per_sm_smem,smem_bytes,max_active_clusters,ctas\n");
  for (int smem_kb : {150, 100}) {
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, probe_kernel, 256, smem_kb * 1024);
    for (int c : {1, 2, 3, 4, 5, 6, 7, 8, 16}) {
      cudaLaunchAttribute attr{};
      attr.id = cudaLaunchAttributeClusterDimension;
      attr.val.clusterDim.x = c;
      attr.val.clusterDim.y = 1;
      attr.val.clusterDim.z = 1;
      cudaLaunchConfig_t cfg{};
      cfg.gridDim = dim3(c, 1, 1);
      cfg.blockDim = dim3(256, 1, 1);
      cfg.dynamicSmemBytes = smem_kb * 1024;
      cfg.attrs = &attr;
      cfg.numAttrs = 1;
      int n = 0;
      cudaError_t e = cudaOccupancyMaxActiveClusters(&n, probe_kernel, &cfg);
      if (e != cudaSuccess) {
        std::printf("%d,%d,%d,error %s,-\n", c, per_sm, smem_kb * 1024, cudaGetErrorString(e));
        cudaGetLastError();
        continue;
      }
      std::printf("%d,%d,%d,%d,%d\n", c, per_sm, smem_kb * 1024, n, n * c);
    }
  }
  return 0;
}
