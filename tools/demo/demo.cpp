// mixgemm-demo: the library's main job end to end, on one layer.
//
//   quantize (RTN u4b8, g128) -> prepack -> gemm on the GPU -> check against the CPU reference
//
// On a machine without a GPU it says so and runs the CPU path (quantize, prepack,
// unpack, reference GEMM) on a smaller shape.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/float_bits.h"
#include "mixgemm/gemm.h"
#include "mixgemm/prepack.h"
#include "mixgemm/quantize.h"
#include "mixgemm/reference.h"

namespace {

using namespace mixgemm;
using Clock = std::chrono::steady_clock;

struct Options {
  int64_t M = 16, N = 8192, K = 21760, group = 128;
  bool force_cpu = false;
  uint64_t seed = 20261130;
};

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

#define DEMO_CUDA(expr)                                                                  \
  do {                                                                                   \
    cudaError_t e_ = (expr);                                                             \
    if (e_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "CUDA error at %s: %s\n", #expr, cudaGetErrorString(e_));     \
      std::exit(2);                                                                      \
    }                                                                                    \
  } while (0)

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    auto value = [&](const char* flag) -> int64_t {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", flag);
        std::exit(64);
      }
      return std::strtoll(argv[++i], nullptr, 10);
    };
    if (s == "--m") o.M = value("--m");
    else if (s == "--n") o.N = value("--n");
    else if (s == "--k") o.K = value("--k");
    else if (s == "--group") o.group = value("--group");
    else if (s == "--seed") o.seed = static_cast<uint64_t>(value("--seed"));
    else if (s == "--cpu") o.force_cpu = true;
    else {
      std::fprintf(stderr,
                   "usage: mixgemm-demo [--m M] [--n N] [--k K] [--group G] [--seed S] [--cpu]\n"
                   "  defaults: the seed shape N=8192 K=21760, M=16, u4b8 g128, f16 activations\n");
      std::exit(s == "--help" ? 0 : 64);
    }
  }
  return o;
}

std::vector<float> random_weights(int64_t K, int64_t N, std::mt19937_64& rng) {
  std::normal_distribution<float> d(0.0f, 0.02f);
  std::vector<float> w(static_cast<size_t>(K * N));
  for (auto& x : w) x = d(rng);
  return w;
}

std::vector<uint16_t> random_f16(int64_t count, std::mt19937_64& rng) {
  std::normal_distribution<double> d(0.0, 1.0);
  std::vector<uint16_t> a(static_cast<size_t>(count));
  for (auto& x : a) x = numeric::to_f16(d(rng));
  return a;
}

// Compares out (f16 bits) with the reference; prints and returns the number of failures.
int64_t compare(const GemmProblem& p, const std::vector<uint16_t>& got, const std::vector<uint16_t>& ref,
                const std::vector<double>& abs_acc, const std::vector<double>& quantum) {
  int64_t bad = 0;
  double max_abs = 0, max_rel_to_tol = 0;
  for (int64_t i = 0; i < p.M * p.N; ++i) {
    const double g = numeric::from_f16(got[i]), r = numeric::from_f16(ref[i]);
    ToleranceOptions topt;
    topt.acc_quantum = quantum[i];
    const double tol = gemm_tolerance(p, abs_acc[i], 1.0, r, topt);
    const double err = std::fabs(g - r);
    if (!within_tolerance(g, r, tol)) {
      if (bad < 5)
        std::printf("  mismatch at m=%lld n=%lld: got %.6g, reference %.6g, tolerance %.3g\n",
                    static_cast<long long>(i / p.N), static_cast<long long>(i % p.N), g, r, tol);
      ++bad;
    }
    if (std::isfinite(err)) max_abs = std::max(max_abs, err);
    if (tol > 0 && std::isfinite(err)) max_rel_to_tol = std::max(max_rel_to_tol, err / tol);
  }
  std::printf("  max |gpu - reference| = %.3g (%.2f of the derived tolerance), %lld of %lld outside\n",
              max_abs, max_rel_to_tol, static_cast<long long>(bad), static_cast<long long>(p.M * p.N));
  return bad;
}

// The reference run of the demo's layer: f16 activations [M][K], u4b8 weights with
// group scales, output [M][N].
ReferenceArgs reference_args(const GemmProblem& p, const std::vector<uint16_t>& a, const QuantizedWeight& qw,
                             std::vector<uint16_t>& out) {
  ReferenceArgs r;
  r.problem = p;
  r.a = a.data();
  r.lda = p.K;
  r.q = qw.q.data();
  r.group_scales = qw.group_scales_data();
  r.out = out.data();
  r.ldo = p.N;
  return r;
}

int run_cpu_path(Options o, const std::string& why) {
  o.N = 1024;
  o.K = 2048;
  o.M = std::min<int64_t>(o.M, 8);
  std::printf("No GPU found (%s).\nRunning the CPU path on a smaller shape: M=%lld N=%lld K=%lld, u4b8 g%lld, f16.\n",
              why.c_str(), static_cast<long long>(o.M), static_cast<long long>(o.N),
              static_cast<long long>(o.K), static_cast<long long>(o.group));
  std::mt19937_64 rng(o.seed);
  const auto w = random_weights(o.K, o.N, rng);
  const auto qw = quantize_weights_rtn(w.data(), types::f32, o.K, o.N, types::u4b8, o.group, types::f16);
  std::printf("quantized: relative Frobenius error of the weights %.4f\n",
              relative_frobenius_error(w.data(), types::f32, qw, types::f16));

  std::vector<uint8_t> packed(prepacked_size(o.K, o.N, types::u4b8));
  prepack_cpu(qw.q.data(), WeightFormat::kUnpacked, o.K, o.N, types::u4b8, types::f16, packed.data());
  std::vector<uint8_t> back(static_cast<size_t>(o.K * o.N));
  unpack_cpu(packed.data(), o.K, o.N, types::u4b8, types::f16, back.data());
  const bool round_trip = back == qw.q;
  std::printf("prepacked %zu bytes; unpack(prepack(q)) == q: %s\n", packed.size(), round_trip ? "yes" : "NO");

  GemmProblem p{o.M, o.N, o.K, TypeConfig{types::f16, types::u4b8, types::f16, false, types::f16}, o.group};
  const auto a = random_f16(o.M * o.K, rng);
  std::vector<uint16_t> out(static_cast<size_t>(o.M * o.N));
  ReferenceArgs r = reference_args(p, a, qw, out);
  const auto t0 = Clock::now();
  reference_gemm(r);
  const double t = seconds_since(t0);
  // How far the quantized layer's output is from the unquantized one (f64).
  double num = 0, den = 0;
  for (int64_t m = 0; m < o.M; ++m)
    for (int64_t n = 0; n < o.N; ++n) {
      double exact = 0;
      for (int64_t k = 0; k < o.K; ++k) exact += numeric::from_f16(a[m * o.K + k]) * w[k * o.N + n];
      const double d = numeric::from_f16(out[m * o.N + n]) - exact;
      num += d * d;
      den += exact * exact;
    }
  std::printf("reference GEMM: %.3f s; relative error of the quantized layer's output vs f32 weights: %.4f\n", t,
              std::sqrt(num / den));
  std::printf("CPU path done (no GPU: the GPU kernels were not run).\n");
  return round_trip ? 0 : 1;
}

int run_gpu_path(const Options& o) {
  cudaDeviceProp prop{};
  DEMO_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("GPU: %s (%d SMs)\n", prop.name, prop.multiProcessorCount);
  std::printf("layer: M=%lld N=%lld K=%lld, weights u4b8 g%lld (RTN), activations f16\n",
              static_cast<long long>(o.M), static_cast<long long>(o.N), static_cast<long long>(o.K),
              static_cast<long long>(o.group));
  std::mt19937_64 rng(o.seed);
  auto t0 = Clock::now();
  const auto w = random_weights(o.K, o.N, rng);
  const auto qw = quantize_weights_rtn(w.data(), types::f32, o.K, o.N, types::u4b8, o.group, types::f16);
  std::printf("quantize: %.2f s, relative Frobenius error of the weights %.4f\n", seconds_since(t0),
              relative_frobenius_error(w.data(), types::f32, qw, types::f16));

  cudaStream_t stream;
  DEMO_CUDA(cudaStreamCreate(&stream));
  const size_t packed_bytes = prepacked_size(o.K, o.N, types::u4b8);
  void *d_q, *d_b, *d_s, *d_a, *d_out, *d_ws = nullptr;
  DEMO_CUDA(cudaMalloc(&d_q, qw.q.size()));
  DEMO_CUDA(cudaMalloc(&d_b, packed_bytes));
  DEMO_CUDA(cudaMalloc(&d_s, qw.group_scales.size()));
  DEMO_CUDA(cudaMemcpy(d_q, qw.q.data(), qw.q.size(), cudaMemcpyHostToDevice));
  DEMO_CUDA(cudaMemcpy(d_s, qw.group_scales.data(), qw.group_scales.size(), cudaMemcpyHostToDevice));
  prepack(d_q, WeightFormat::kUnpacked, o.K, o.N, types::u4b8, types::f16, d_b, stream);
  DEMO_CUDA(cudaStreamSynchronize(stream));
  std::vector<uint8_t> gpu_packed(packed_bytes), cpu_packed(packed_bytes);
  DEMO_CUDA(cudaMemcpy(gpu_packed.data(), d_b, packed_bytes, cudaMemcpyDeviceToHost));
  prepack_cpu(qw.q.data(), WeightFormat::kUnpacked, o.K, o.N, types::u4b8, types::f16, cpu_packed.data());
  const bool same_bytes = gpu_packed == cpu_packed;
  std::printf("prepack: %zu bytes on the GPU, identical to the CPU prepack: %s\n", packed_bytes,
              same_bytes ? "yes" : "NO");

  GemmProblem p{o.M, o.N, o.K, TypeConfig{types::f16, types::u4b8, types::f16, false, types::f16}, o.group};
  const auto a = random_f16(o.M * o.K, rng);
  DEMO_CUDA(cudaMalloc(&d_a, a.size() * 2));
  DEMO_CUDA(cudaMalloc(&d_out, static_cast<size_t>(o.M * o.N) * 2));
  DEMO_CUDA(cudaMemcpy(d_a, a.data(), a.size() * 2, cudaMemcpyHostToDevice));
  const size_t ws = workspace_size(p);
  if (ws) {
    DEMO_CUDA(cudaMalloc(&d_ws, ws));
    DEMO_CUDA(cudaMemset(d_ws, 0, ws));
  }
  DEMO_CUDA(cudaMemset(d_out, 0xFF, static_cast<size_t>(o.M * o.N) * 2));  // NaN-poison

  GemmArgs g;
  g.problem = p;
  g.a = d_a;
  g.lda = o.K;
  g.b = d_b;
  g.group_scales = d_s;
  g.out = d_out;
  g.ldo = o.N;
  g.workspace = d_ws;
  g.workspace_bytes = ws;
  g.stream = stream;
  const std::string schedule = choose_schedule(p, prop.multiProcessorCount);
  try {
    gemm(g);
  } catch (const Error& e) {
    std::printf("gemm refused: %s\n", e.what());
    return 1;
  }
  DEMO_CUDA(cudaStreamSynchronize(stream));
  std::vector<uint16_t> got(static_cast<size_t>(o.M * o.N));
  DEMO_CUDA(cudaMemcpy(got.data(), d_out, got.size() * 2, cudaMemcpyDeviceToHost));

  // Timing: warm L2, median of 50 (mixgemm-bench measures cold-L2 against cuBLAS).
  cudaEvent_t e0, e1;
  DEMO_CUDA(cudaEventCreate(&e0));
  DEMO_CUDA(cudaEventCreate(&e1));
  std::vector<float> times;
  for (int i = 0; i < 55; ++i) {
    DEMO_CUDA(cudaEventRecord(e0, stream));
    gemm(g);
    DEMO_CUDA(cudaEventRecord(e1, stream));
    DEMO_CUDA(cudaEventSynchronize(e1));
    float ms = 0;
    DEMO_CUDA(cudaEventElapsedTime(&ms, e0, e1));
    if (i >= 5) times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  const double us = times[times.size() / 2] * 1e3;
  const double bytes = packed_bytes + qw.group_scales.size() + a.size() * 2.0 + got.size() * 2.0;
  std::printf("gemm: schedule %s, %.1f us (median of 50, warm L2), %.0f GB/s of weights+scales+io\n",
              schedule.c_str(), us, bytes / us * 1e-3);

  std::vector<uint16_t> ref(got.size());
  std::vector<double> abs_acc(got.size()), quantum(got.size());
  ReferenceArgs r = reference_args(p, a, qw, ref);
  r.abs_acc_out = abs_acc.data();
  r.acc_quantum_out = quantum.data();
  t0 = Clock::now();
  reference_gemm(r);
  std::printf("check against the CPU reference (%.1f s):\n", seconds_since(t0));
  const int64_t bad = compare(p, got, ref, abs_acc, quantum);
  std::printf("%s\n", bad == 0 && same_bytes ? "demo: PASS" : "demo: FAIL");
  return bad == 0 && same_bytes ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (o.force_cpu) return run_cpu_path(o, "--cpu given");
  if (e != cudaSuccess || n == 0)
    return run_cpu_path(o, e != cudaSuccess ? cudaGetErrorString(e) : "cudaGetDeviceCount returned 0");
  return run_gpu_path(o);
}
