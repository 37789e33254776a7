// quantize_activations.cu - per-token activation quantization (f16/bf16 -> s8/e4m3 + f32
// token scales) and its host launcher, side by side (the public entry and its argument checks:
// src/api/activation_quant.cpp).
//
// One CTA per token row. Pass 1 reads the row with 16-byte loads and reduces |a| to the
// row's amax (warp shuffles, then one word per warp in shared memory). Pass 2 reads the
// row again (from L2: the rows in flight on the GPU at once are a few MB) and writes
// 8 quantized bytes per thread-iteration. Every rounding is one IEEE operation in the
// order docs/semantics.md (section 6) states, so the result is bit-identical to the CPU
// quantizer (tests/gpu/test_activation_quant.cu).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/ptx/sm90.cuh"
#include "kernels/quant/quantize_activations.h"

namespace mixgemm::kernels {

namespace {

constexpr int kThreads = 256;

template <class T>
__device__ __forceinline__ float to_float(T v);
template <>
__device__ __forceinline__ float to_float<__half>(__half v) { return __half2float(v); }
template <>
__device__ __forceinline__ float to_float<__nv_bfloat16>(__nv_bfloat16 v) { return __bfloat162float(v); }

// One quantized element: y = RN_f32(x * inv), then s8 (rint to nearest-even, clamp; a NaN
// product gives 0 as cvt.rni.sat does) or e4m3 (cvt.rn.satfinite).
template <bool kS8>
__device__ __forceinline__ uint8_t quantize_one(float x, float inv, float lo) {
  const float y = __fmul_rn(x, inv);
  if constexpr (kS8) {
    if (isnan(y)) return 0;
    const float r = fminf(fmaxf(rintf(y), lo), 127.0f);
    return static_cast<uint8_t>(static_cast<int8_t>(static_cast<int>(r)));
  } else {
    return static_cast<uint8_t>(__nv_cvt_float_to_fp8(y, __NV_SATFINITE, __NV_E4M3));
  }
}

template <class T, bool kS8>
__global__ void __launch_bounds__(kThreads) quantize_activations_kernel(const QuantParams p) {
  // A GEMM launched as our programmatic dependent (gemm_with_activation_quant) may start now:
  // it streams its weights and waits for this grid's completion before reading q / tok.
  ptx::griddep_launch_dependents();
  const int m = blockIdx.x;
  const uint8_t* row = p.a + static_cast<int64_t>(m) * p.lda_bytes;
  const int vecs = p.K / 8;  // 8 elements per 16-byte load
  const float range = kS8 ? 127.0f : 448.0f;

  float inv, lo;
  if (p.static_scale != nullptr) {
    const float s = *p.static_scale;
    inv = __fdiv_rn(1.0f, s);
    lo = -128.0f;
    if (threadIdx.x == 0) p.tok[m] = s;
  } else {
    // Pass 1: amax of the row (exact: a maximum of exactly converted magnitudes).
    float amax = 0.0f;
    for (int v = threadIdx.x; v < vecs; v += kThreads) {
      const uint4 w = __ldg(reinterpret_cast<const uint4*>(row) + v);
      const T* e = reinterpret_cast<const T*>(&w);
#pragma unroll
      for (int i = 0; i < 8; ++i) amax = fmaxf(amax, fabsf(to_float<T>(e[i])));
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, off));
    __shared__ float warp_max[kThreads / 32];
    if ((threadIdx.x & 31) == 0) warp_max[threadIdx.x >> 5] = amax;
    __syncthreads();
    amax = warp_max[0];
#pragma unroll
    for (int w = 1; w < kThreads / 32; ++w) amax = fmaxf(amax, warp_max[w]);
    lo = -127.0f;
    if (amax == 0.0f) {  // an all-zero row: tok = 1, q = 0 (not the sign of each -0)
      if (threadIdx.x == 0) p.tok[m] = 1.0f;
      uint2* out = reinterpret_cast<uint2*>(p.q + static_cast<int64_t>(m) * p.ldq);
      for (int v = threadIdx.x; v < vecs; v += kThreads) out[v] = make_uint2(0, 0);
      return;
    }
    inv = __fdiv_rn(range, amax);
    if (threadIdx.x == 0) p.tok[m] = __fdiv_rn(amax, range);
  }

  // Pass 2: quantize 8 elements per iteration, one 8-byte store.
  uint2* out = reinterpret_cast<uint2*>(p.q + static_cast<int64_t>(m) * p.ldq);
  for (int v = threadIdx.x; v < vecs; v += kThreads) {
    const uint4 w = __ldg(reinterpret_cast<const uint4*>(row) + v);
    const T* e = reinterpret_cast<const T*>(&w);
    uint32_t lo4 = 0, hi4 = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      lo4 |= static_cast<uint32_t>(quantize_one<kS8>(to_float<T>(e[i]), inv, lo)) << (8 * i);
      hi4 |= static_cast<uint32_t>(quantize_one<kS8>(to_float<T>(e[i + 4]), inv, lo)) << (8 * i);
    }
    out[v] = make_uint2(lo4, hi4);
  }
}

template <class T, bool kS8>
void launch(const QuantParams& p, int64_t M, cudaStream_t s) {
  quantize_activations_kernel<T, kS8><<<static_cast<unsigned>(M), kThreads, 0, s>>>(p);
}

}  // namespace

cudaError_t launch_quantize_activations(const QuantParams& p, bool a_bf16, bool to_s8, int64_t M,
                                        cudaStream_t stream) {
  if (!a_bf16) {
    to_s8 ? launch<__half, true>(p, M, stream) : launch<__half, false>(p, M, stream);
  } else {
    to_s8 ? launch<__nv_bfloat16, true>(p, M, stream) : launch<__nv_bfloat16, false>(p, M, stream);
  }
  return cudaGetLastError();
}

}  // namespace mixgemm::kernels
