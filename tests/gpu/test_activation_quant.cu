// GPU activation quantization == the CPU quantizer, bit for bit (q and token scales),
// for f16/bf16 -> s8/e4m3, dynamic and static, including all-zero rows, -0, values that
// saturate (static), and rows wider than one pass of the CTA. Plus the quantize + gemm
// entry against CPU quantize + reference, and the kernel's bandwidth (ACTQ_BW lines).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "core/float_bits.h"
#include "gpu/gpu_test_util.h"
#include "mixgemm/activation_quant.h"
#include "mixgemm/prepack.h"
#include "mixgemm/quantize.h"
#include "mixgemm/reference.h"

namespace {

using namespace mixgemm;
using namespace mixgemm::types;

std::vector<uint16_t> random_row_major(int64_t M, int64_t K, ScalarType t, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> nd(0.0, 1.0);
  std::vector<uint16_t> a(M * K);
  for (int64_t m = 0; m < M; ++m) {
    const double row_scale = std::ldexp(1.0, static_cast<int>(m % 9) - 4);  // rows of different magnitude
    for (int64_t k = 0; k < K; ++k) {
      const double v = nd(rng) * row_scale;
      a[m * K + k] = t == f16 ? numeric::to_f16(v) : numeric::to_bf16(v);
    }
  }
  if (M > 1)
    for (int64_t k = 0; k < K; ++k) a[1 * K + k] = (k % 2) ? 0x8000 : 0x0000;  // an all-zero row with -0s
  if (M > 2) a[2 * K + 3] = 0x8000;  // a -0 in a normal row
  return a;
}

struct DeviceRun {
  std::vector<uint8_t> q;
  std::vector<float> tok;
};

DeviceRun run_gpu(const std::vector<uint16_t>& a, int64_t M, int64_t K, ScalarType at, ScalarType to,
                  const float* static_scale_host) {
  // Rows of q start 16-byte aligned (ldq % 16 == 0); K need only be a multiple of 8.
  const int64_t ldq = (K + 15) / 16 * 16;
  void *d_a, *d_q;
  float *d_tok, *d_s = nullptr;
  cudaMalloc(&d_a, a.size() * 2);
  cudaMalloc(&d_q, M * ldq);
  cudaMalloc(&d_tok, M * 4);
  cudaMemcpy(d_a, a.data(), a.size() * 2, cudaMemcpyHostToDevice);
  cudaMemset(d_q, 0xA5, M * ldq);   // poison
  cudaMemset(d_tok, 0xFF, M * 4);   // NaN
  if (static_scale_host) {
    cudaMalloc(&d_s, 4);
    cudaMemcpy(d_s, static_scale_host, 4, cudaMemcpyHostToDevice);
  }
  ActivationQuantArgs x;
  x.M = M;
  x.K = K;
  x.a = d_a;
  x.a_type = at;
  x.lda = K;
  x.to = to;
  x.q = d_q;
  x.ldq = ldq;
  x.token_scales = d_tok;
  x.static_scale = d_s;
  quantize_activations(x);
  DeviceRun r;
  r.q.resize(M * K);
  r.tok.resize(M);
  cudaMemcpy2D(r.q.data(), K, d_q, ldq, K, M, cudaMemcpyDeviceToHost);
  cudaMemcpy(r.tok.data(), d_tok, M * 4, cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_q);
  cudaFree(d_tok);
  if (d_s) cudaFree(d_s);
  return r;
}

TEST(ActivationQuantGpu, MatchesCpuBitForBit) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  uint64_t seed = 4242;
  for (ScalarType at : {f16, bf16})
    for (ScalarType to : {s8, e4m3})
      for (auto [M, K] : {std::pair<int64_t, int64_t>{7, 64}, {33, 4104}, {5, 21760}})
        for (bool is_static : {false, true}) {
          const auto a = random_row_major(M, K, at, seed++);
          const float s = 0.011f;  // static: many values saturate at this scale
          const QuantizedActivations ref = is_static ? quantize_activations_static(a.data(), at, M, K, K, to, s)
                                                     : quantize_activations_dynamic(a.data(), at, M, K, K, to);
          const DeviceRun got = run_gpu(a, M, K, at, to, is_static ? &s : nullptr);
          MIXGEMM_CUDA_OK(cudaGetLastError());
          int64_t bad_q = 0;
          for (int64_t i = 0; i < M * K; ++i)
            if (got.q[i] != ref.q[i] && bad_q++ < 3)
              ADD_FAILURE() << at.name() << "->" << to.name() << (is_static ? " static" : " dynamic") << " M=" << M
                            << " K=" << K << " q[" << i / K << "][" << i % K << "] gpu " << int(got.q[i]) << " cpu "
                            << int(ref.q[i]) << " (seed " << seed - 1 << ")";
          EXPECT_EQ(bad_q, 0);
          for (int64_t m = 0; m < M; ++m)
            EXPECT_EQ(std::memcmp(&got.tok[m], &ref.token_scales[m], 4), 0)
                << "tok[" << m << "] gpu " << got.tok[m] << " cpu " << ref.token_scales[m];
        }
}

TEST(ActivationQuantGpu, RefusesBadArguments) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  ActivationQuantArgs x;
  x.M = 4;
  x.K = 60;  // not a multiple of 8
  x.a = reinterpret_cast<const void*>(0x1000);
  x.lda = 64;
  x.q = reinterpret_cast<void*>(0x2000);
  x.ldq = 64;
  x.token_scales = reinterpret_cast<float*>(0x3000);
  try {
    quantize_activations(x);
    FAIL() << "accepted K=60";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("K=60"), std::string::npos) << e.what();
  }
  x.K = 64;
  x.to = f16;
  try {
    quantize_activations(x);
    FAIL() << "accepted to=f16";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("to=f16"), std::string::npos) << e.what();
  }
}

// f16 activations -> s8 (dynamic) -> W4A8 gemm, against CPU quantize + reference.
TEST(ActivationQuantGpu, QuantizeThenGemmMatchesReference) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  const int64_t M = 16, N = 512, K = 2048, G = 128;
  const auto a16 = random_row_major(M, K, f16, 777);
  std::mt19937_64 rng(778);
  std::normal_distribution<float> nd(0.0f, 0.05f);
  std::vector<float> w(K * N);
  for (auto& v : w) v = nd(rng);
  const QuantizedWeight qw = quantize_weights_qqq(w.data(), f32, K, N, G);
  std::vector<uint8_t> packed(prepacked_size(K, N, u4b8));
  prepack_cpu(qw.q.data(), WeightFormat::kUnpacked, K, N, u4b8, s8, packed.data());

  void *d_a16, *d_b, *d_sg, *d_q, *d_out, *d_ws = nullptr;
  float *d_tok, *d_ch;
  cudaMalloc(&d_a16, a16.size() * 2);
  cudaMalloc(&d_b, packed.size());
  cudaMalloc(&d_sg, qw.group_scales.size());
  cudaMalloc(&d_ch, N * 4);
  cudaMalloc(&d_q, M * K);
  cudaMalloc(&d_tok, M * 4);
  cudaMalloc(&d_out, M * N * 2);
  cudaMemcpy(d_a16, a16.data(), a16.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, packed.data(), packed.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(d_sg, qw.group_scales.data(), qw.group_scales.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(d_ch, qw.channel_scales.data(), N * 4, cudaMemcpyHostToDevice);
  MIXGEMM_CUDA_OK(test::poison_16bit(d_out, M * N));

  GemmArgs g;
  g.problem = GemmProblem{M, N, K, TypeConfig{s8, u4b8, u8, false, bf16}, G};
  g.b = d_b;
  g.group_scales = d_sg;
  g.channel_scales = d_ch;
  g.out = d_out;
  g.ldo = N;
  g.workspace_bytes = workspace_size(g.problem);
  if (g.workspace_bytes) {
    cudaMalloc(&d_ws, g.workspace_bytes);
    cudaMemset(d_ws, 0, g.workspace_bytes);
  }
  g.workspace = d_ws;
  // The GEMM is a programmatic dependent of the quantize kernel (it may start while the
  // activations are being written): q, tok and out are poisoned before every call, so a GEMM
  // that read them before the quantize grid completed would not match the reference.
  std::vector<std::vector<uint16_t>> runs;
  for (int rep = 0; rep < 3; ++rep) {
    MIXGEMM_CUDA_OK(cudaMemsetAsync(d_q, 0x55, M * K, nullptr));
    MIXGEMM_CUDA_OK(cudaMemsetAsync(d_tok, 0xff, M * 4, nullptr));  // NaN
    MIXGEMM_CUDA_OK(test::poison_16bit(d_out, M * N));
    gemm_with_activation_quant(g, d_a16, f16, K, d_q, d_tok);
    MIXGEMM_CUDA_OK(cudaDeviceSynchronize());
    runs.emplace_back(M * N);
    cudaMemcpy(runs.back().data(), d_out, M * N * 2, cudaMemcpyDeviceToHost);
  }
  const std::vector<uint16_t>& got = runs[0];
  EXPECT_TRUE(runs[1] == got && runs[2] == got) << "repeated calls differ";

  const QuantizedActivations qa = quantize_activations_dynamic(a16.data(), f16, M, K, K, s8);
  std::vector<uint16_t> ref(M * N);
  ReferenceArgs r;
  r.problem = g.problem;
  r.a = qa.q.data();
  r.lda = K;
  r.q = qw.q.data();
  r.group_scales = qw.group_scales.data();
  r.channel_scales = qw.channel_scales.data();
  r.token_scales = qa.token_scales.data();
  r.out = ref.data();
  r.ldo = N;
  reference_gemm(r);
  // s8 x s8 accumulates exactly in s32 and the epilogue is one defined sequence of f32
  // roundings: the output must be bit-identical.
  int64_t bad = 0;
  for (int64_t i = 0; i < M * N; ++i)
    if (got[i] != ref[i] && bad++ < 3)
      ADD_FAILURE() << "out[" << i / N << "][" << i % N << "] gpu 0x" << std::hex << got[i] << " cpu 0x" << ref[i];
  EXPECT_EQ(bad, 0);

  // A refused call writes nothing: with a bias in host memory the gemm half is refused, and
  // the quantize half must not have run either (until session 74 it ran first and wrote q).
  MIXGEMM_CUDA_OK(cudaMemset(d_q, 0x55, M * K));
  MIXGEMM_CUDA_OK(test::poison_16bit(d_out, M * N));
  alignas(16) static uint16_t host_bias[512];
  GemmArgs bad_call = g;
  bad_call.bias = host_bias;
  try {
    gemm_with_activation_quant(bad_call, d_a16, f16, K, d_q, d_tok);
    ADD_FAILURE() << "a bias in host memory was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bias points to host memory"), std::string::npos) << e.what();
  }
  MIXGEMM_CUDA_OK(cudaDeviceSynchronize());
  std::vector<uint8_t> q_after(M * K);
  cudaMemcpy(q_after.data(), d_q, M * K, cudaMemcpyDeviceToHost);
  EXPECT_TRUE(std::all_of(q_after.begin(), q_after.end(), [](uint8_t v) { return v == 0x55; }))
      << "the quantize grid ran for a refused call";
  std::vector<uint16_t> out_after(M * N);
  cudaMemcpy(out_after.data(), d_out, M * N * 2, cudaMemcpyDeviceToHost);
  EXPECT_TRUE(std::all_of(out_after.begin(), out_after.end(), [](uint16_t v) { return v == 0xFFFF; }))
      << "out was written by a refused call";
  // quantize_activations names a host pointer instead of faulting in the kernel.
  ActivationQuantArgs host_a;
  host_a.M = M;
  host_a.K = K;
  host_a.a = a16.data();
  host_a.lda = K;
  host_a.q = d_q;
  host_a.ldq = K;
  host_a.token_scales = d_tok;
  try {
    quantize_activations(host_a);
    ADD_FAILURE() << "activations in host memory were accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("a points to host memory"), std::string::npos) << e.what();
  }
  for (void* p : {d_a16, d_b, d_sg, d_q, d_out, d_ws, static_cast<void*>(d_tok), static_cast<void*>(d_ch)})
    if (p) cudaFree(p);
}

TEST(ActivationQuantGpu, Bandwidth) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  const int64_t M = 8192, K = 8192;
  void *d_a, *d_q, *d_copy;
  float* d_tok;
  MIXGEMM_CUDA_OK(cudaMalloc(&d_a, M * K * 2));
  MIXGEMM_CUDA_OK(cudaMalloc(&d_copy, M * K * 2));
  MIXGEMM_CUDA_OK(cudaMalloc(&d_q, M * K));
  MIXGEMM_CUDA_OK(cudaMalloc(&d_tok, M * 4));
  const auto a = random_row_major(64, K, f16, 99);  // tile 64 random rows over the matrix
  for (int64_t m = 0; m < M; m += 64) cudaMemcpy(static_cast<char*>(d_a) + m * K * 2, a.data(), a.size() * 2, cudaMemcpyHostToDevice);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  auto median_ms = [&](auto&& fn) {
    std::vector<float> t;
    for (int i = 0; i < 25; ++i) {
      cudaEventRecord(e0);
      fn();
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      if (i >= 5) t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  };
  const double copy_ms = median_ms([&] { cudaMemcpyAsync(d_copy, d_a, M * K * 2, cudaMemcpyDeviceToDevice); });
  const double copy_gbs = 2.0 * M * K * 2 / (copy_ms * 1e6);
  for (ScalarType to : {s8, e4m3}) {
    ActivationQuantArgs x;
    x.M = M;
    x.K = K;
    x.a = d_a;
    x.a_type = f16;
    x.lda = K;
    x.to = to;
    x.q = d_q;
    x.ldq = K;
    x.token_scales = d_tok;
    const double ms = median_ms([&] { quantize_activations(x); });
    const double bytes = M * K * 2.0 + M * K + M * 4.0;
    const double gbs = bytes / (ms * 1e6);
    std::printf("ACTQ_BW to=%s M=%lld K=%lld median_us=%.1f GB/s=%.0f copy_GB/s=%.0f copy_fraction=%.2f\n",
                to.name().c_str(), static_cast<long long>(M), static_cast<long long>(K), ms * 1e3, gbs, copy_gbs,
                gbs / copy_gbs);
    EXPECT_GE(gbs / copy_gbs, 0.70) << "below 70% of the copy bandwidth";
  }
  MIXGEMM_CUDA_OK(cudaGetLastError());
  cudaFree(d_a);
  cudaFree(d_copy);
  cudaFree(d_q);
  cudaFree(d_tok);
}

}  // namespace
