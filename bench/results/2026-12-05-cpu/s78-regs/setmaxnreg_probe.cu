// s78-regs: does ptxas allocate a consumer past the launch budget after setmaxnreg.inc? k<200> holds 200 live
// floats in a 384-thread kernel (launch budget 168). Compile: nvcc -gencode arch=compute_90a,code=sm_90a -cubin
// -Xptxas=-v setmaxnreg_probe.cu; ptxas reports 168 registers, 0 spills; nvdisasm shows R0..R221.
#include <cstdint>
template <int N>
__global__ void __launch_bounds__(384, 1) k(float* out, const float* in, int n) {
  if (threadIdx.x < 128) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 56;\n");
    return;
  }
  asm volatile("setmaxnreg.inc.sync.aligned.u32 224;\n");
  float acc[N];
#pragma unroll
  for (int j = 0; j < N; ++j) acc[j] = in[threadIdx.x + j];
  for (int i = 0; i < n; ++i) {
    const float x = in[i];
#pragma unroll
    for (int j = 0; j < N; ++j) acc[j] = fmaf(acc[j], x, float(j));
  }
#pragma unroll
  for (int j = 0; j < N; ++j) out[threadIdx.x * N + j] = acc[j];
}
template __global__ void k<150>(float*, const float*, int);
template __global__ void k<200>(float*, const float*, int);
