// test_numerics_forms.cu - a report, not a pass/fail test (MIXGEMM_NUMERICS_REPORT=1): the error
// of three W4A16 (u4b8, g128) conversion forms on this GPU's mma.sync (f16 x f16 -> f32),
// against the exact value in double, for the semantics decision of docs/design-smallm.md
// ("Not done / open"; scripts/numerics_dequant_forms.py is the same on a CPU model):
//   A  today's semantics: w = RN_f16((q - 8) s) per weight, one f32 accumulator
//   B  q - 8 (exact) per weight; each group's f32 sum times s, added to the accumulator
//   C  1024 + q (the magic-number value, exact) per weight; each group's f32 sum minus
//      1032 x the group's activation sum (from the same MMA with an all-ones A), times s
// Lines "NUMERICS form=.. K=.. median_ulp=.. p99_ulp=.. max_ulp=..": |result - exact| in f16
// ulps of the exact result, before the output's own rounding (0.5 ulp).
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "gpu/gpu_test_util.h"
#include "kernels/ptx/mma.cuh"

namespace {

constexpr int kTokens = 8, kGroup = 128;

__device__ __forceinline__ uint32_t pack2(__half lo, __half hi) {
  return static_cast<uint32_t>(__half_as_ushort(lo)) | (static_cast<uint32_t>(__half_as_ushort(hi)) << 16);
}

// One warp per 16-row tile: q [N][K] (0..15), s [N][K / 128] f16, a [8][K] f16;
// out [3][N][8] f32 (forms A, B, C).
__global__ void k_forms(const uint8_t* q, const __half* s, const __half* a, float* out, int N, int K) {
  const int lane = threadIdx.x & 31, tile = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  if (tile * 16 >= N) return;
  const int g = lane >> 2, t = lane & 3, G = K / kGroup;
  const int rows[2] = {tile * 16 + g, tile * 16 + g + 8};
  float acc[3][4] = {};
  const uint32_t ones = pack2(__float2half(1.0f), __float2half(1.0f));
  const uint32_t ones4[4] = {ones, ones, ones, ones};
  for (int grp = 0; grp < G; ++grp) {
    float gb[4] = {}, gc[4] = {}, ga[4] = {};
    const float sv[2] = {__half2float(s[rows[0] * G + grp]), __half2float(s[rows[1] * G + grp])};
    for (int k0 = grp * kGroup; k0 < (grp + 1) * kGroup; k0 += 16) {
      // B: token g, k = k0 + 2t, +1 (b0) and k0 + 2t + 8, +9 (b1)
      const __half* ar = a + static_cast<size_t>(g) * K + k0;
      const uint32_t b0 = pack2(ar[2 * t], ar[2 * t + 1]), b1 = pack2(ar[2 * t + 8], ar[2 * t + 9]);
      // A register i: rows (g, g+8, g, g+8)[i], columns 2t, 2t+1 (+8 for i >= 2)
      uint32_t fa[3][4];
      for (int i = 0; i < 4; ++i) {
        const int h = i & 1, c = 2 * t + (i >= 2 ? 8 : 0);
        const uint8_t* qr = q + static_cast<size_t>(rows[h]) * K + k0 + c;
        __half e[3][2];
        for (int j = 0; j < 2; ++j) {
          const float v = static_cast<float>(qr[j]) - 8.0f;
          e[0][j] = __float2half_rn(v * sv[h]);              // exact product, one rounding
          e[1][j] = __float2half_rn(v);                      // exact
          e[2][j] = __float2half_rn(1024.0f + qr[j]);        // exact
        }
        for (int f = 0; f < 3; ++f) fa[f][i] = pack2(e[f][0], e[f][1]);
      }
      mixgemm::kernels::ptx::mma_f16_16816(acc[0], fa[0], b0, b1);
      mixgemm::kernels::ptx::mma_f16_16816(gb, fa[1], b0, b1);
      mixgemm::kernels::ptx::mma_f16_16816(gc, fa[2], b0, b1);
      mixgemm::kernels::ptx::mma_f16_16816(ga, ones4, b0, b1);
    }
    for (int i = 0; i < 4; ++i) {  // registers {0,1}: row g, {2,3}: row g + 8
      const float sr = sv[i >> 1];
      acc[1][i] = __fmaf_rn(sr, gb[i], acc[1][i]);
      acc[2][i] = __fmaf_rn(sr, __fmaf_rn(-1032.0f, ga[i], gc[i]), acc[2][i]);
    }
  }
  for (int f = 0; f < 3; ++f)
    for (int i = 0; i < 4; ++i) {
      const int row = rows[i >> 1], tok = 2 * t + (i & 1);
      out[(static_cast<size_t>(f) * N + row) * kTokens + tok] = acc[f][i];
    }
}

double f16_ulp(double x) {
  x = std::fabs(x);
  if (x < 6.103515625e-05) return 5.960464477539063e-08;  // subnormal spacing
  return std::ldexp(1.0, static_cast<int>(std::floor(std::log2(x))) - 10);
}

TEST(NumericsForms, Report) {
  const char* env = std::getenv("MIXGEMM_NUMERICS_REPORT");
  if (!env || std::string(env) != "1") GTEST_SKIP() << "set MIXGEMM_NUMERICS_REPORT=1 for the report";
  MIXGEMM_SKIP_WITHOUT_GPU();
  const int N = 4096;
  for (int K : {4096, 28672}) {
    const int G = K / kGroup;
    std::mt19937_64 rng(static_cast<uint64_t>(K));
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::uniform_int_distribution<int> qd(0, 15);
    std::uniform_real_distribution<float> sd(0.5f / 16, 1.5f / 16);
    std::vector<uint8_t> q(static_cast<size_t>(N) * K);
    std::vector<__half> s(static_cast<size_t>(N) * G), a(static_cast<size_t>(kTokens) * K);
    for (auto& v : q) v = static_cast<uint8_t>(qd(rng));
    for (auto& v : s) v = __float2half_rn(sd(rng));
    for (auto& v : a) v = __float2half_rn(nd(rng));
    uint8_t* dq = nullptr;
    __half *ds = nullptr, *da = nullptr;
    float* dout = nullptr;
    MIXGEMM_CUDA_OK(cudaMalloc(&dq, q.size()));
    MIXGEMM_CUDA_OK(cudaMalloc(&ds, s.size() * 2));
    MIXGEMM_CUDA_OK(cudaMalloc(&da, a.size() * 2));
    MIXGEMM_CUDA_OK(cudaMalloc(&dout, static_cast<size_t>(3) * N * kTokens * 4));
    MIXGEMM_CUDA_OK(cudaMemcpy(dq, q.data(), q.size(), cudaMemcpyHostToDevice));
    MIXGEMM_CUDA_OK(cudaMemcpy(ds, s.data(), s.size() * 2, cudaMemcpyHostToDevice));
    MIXGEMM_CUDA_OK(cudaMemcpy(da, a.data(), a.size() * 2, cudaMemcpyHostToDevice));
    k_forms<<<N / 16 / 4, 128>>>(dq, ds, da, dout, N, K);
    MIXGEMM_CUDA_OK(cudaDeviceSynchronize());
    std::vector<float> out(static_cast<size_t>(3) * N * kTokens);
    MIXGEMM_CUDA_OK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
    std::vector<double> err[3];
    for (int n = 0; n < N; ++n)
      for (int m = 0; m < kTokens; ++m) {
        double exact = 0;
        for (int k = 0; k < K; ++k)
          exact += (static_cast<double>(q[static_cast<size_t>(n) * K + k]) - 8.0) *
                   static_cast<double>(__half2float(s[static_cast<size_t>(n) * G + k / kGroup])) *
                   static_cast<double>(__half2float(a[static_cast<size_t>(m) * K + k]));
        for (int f = 0; f < 3; ++f)
          err[f].push_back(std::fabs(out[(static_cast<size_t>(f) * N + n) * kTokens + m] - exact) / f16_ulp(exact));
      }
    for (int f = 0; f < 3; ++f) {
      std::sort(err[f].begin(), err[f].end());
      const size_t n = err[f].size();
      std::printf("NUMERICS form=%c K=%d median_ulp=%.4f p99_ulp=%.4f max_ulp=%.4f (%zu outputs)\n", "ABC"[f], K,
                  err[f][n / 2], err[f][n * 99 / 100], err[f][n - 1], n);
    }
    cudaFree(dq);
    cudaFree(ds);
    cudaFree(da);
    cudaFree(dout);
  }
}

}  // namespace
