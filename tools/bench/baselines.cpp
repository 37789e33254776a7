// baselines.cpp - the cuBLASLt baselines, laid out as the same problem as mixgemm:
//
//   out[M, N] = A[M, K] @ W[K, N], with W stored as weights N x K (row-major, PyTorch's
//   nn.Linear layout) and A, out row-major.
//
// cuBLASLt is column-major, so it computes out^T (N x M, column-major = out row-major):
//   D[N, M] = op_A(W) * op_B(A^T),  A-operand = W as a K x N column-major matrix with
//   TRANSA = T (ld K), B-operand = A as a K x M column-major matrix with TRANSB = N (ld K),
//   D/C = N x M column-major (ld N).
// That is the "TN" layout fp8 and int8 require, and what PyTorch uses for F.linear.
//
// Baselines:
//   cublas_fp16    f16 x f16 -> f16, f32 accumulate (CUBLAS_COMPUTE_32F)
//   cublas_bf16    bf16 x bf16 -> bf16, f32 accumulate
//   cublaslt_fp8   e4m3 x e4m3 -> bf16, f32 accumulate; row/column-wise f32 scales
//                  (CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F: one per output channel n,
//                  one per token m) when cuBLASLt has an algorithm for them, else per-tensor
//                  scales; each row's note says which
//   cublaslt_int8  s8 x s8 -> s32 (CUBLAS_COMPUTE_32I)
//   cublaslt_fp8_fast  cublaslt_fp8 with CUBLASLT_MATMUL_DESC_FAST_ACCUM = 1 (not in the default
//                  list): no periodic promotion of the fp8 accumulation, as mixgemm's e4m3 path;
//                  cublaslt_fp8 runs cuBLASLt's default (0: promoted)
// Algorithm: cuBLASLt's heuristic returns up to --lt-algos candidates; each is timed
// briefly (cold L2 as configured) and the fastest kept (row's schedule: "heuristic i/n").
#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "runner.h"

namespace mixgemm::bench {

namespace {

constexpr size_t kLtWorkspaceBytes = size_t{32} << 20;

// cuBLASLt refused a call (not a CUDA failure): the candidate or the row is skipped.
class LtError : public BenchError {
 public:
  using BenchError::BenchError;
};

void lt_check(cublasStatus_t s, const char* what, const char* file, int line) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    std::ostringstream os;
    os << "cuBLASLt error " << static_cast<int>(s) << " (" << cublasLtGetStatusName(s) << ": "
       << cublasLtGetStatusString(s) << ") in " << what << " at " << file << ":" << line;
    throw LtError(os.str());
  }
}
#define BENCH_LT(call) lt_check((call), #call, __FILE__, __LINE__)

// RAII for the cuBLASLt descriptors of one problem.
struct LtDescs {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, d = nullptr;
  cublasLtMatmulPreference_t pref = nullptr;
  LtDescs() = default;
  LtDescs(const LtDescs&) = delete;
  LtDescs& operator=(const LtDescs&) = delete;
  ~LtDescs() { reset(); }
  void reset() {
    if (pref) cublasLtMatmulPreferenceDestroy(pref);
    if (d) cublasLtMatrixLayoutDestroy(d);
    if (b) cublasLtMatrixLayoutDestroy(b);
    if (a) cublasLtMatrixLayoutDestroy(a);
    if (op) cublasLtMatmulDescDestroy(op);
    pref = nullptr;
    a = b = d = nullptr;
    op = nullptr;
  }
};

struct Types {
  cudaDataType_t in, out, scale;
  cublasComputeType_t compute;
  int in_bytes, out_bytes;
};

Types types_of(Baseline b) {
  switch (b) {
    case Baseline::kFp16: return {CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 2, 2};
    case Baseline::kBf16: return {CUDA_R_16BF, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, 2, 2};
    case Baseline::kFp8:
    case Baseline::kFp8Fast: return {CUDA_R_8F_E4M3, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, 1, 2};
    case Baseline::kInt8: return {CUDA_R_8I, CUDA_R_32I, CUDA_R_32I, CUBLAS_COMPUTE_32I, 1, 4};
  }
  throw BenchError("unknown baseline");
}

// Fills `n` elements of the baseline's input type: values whose products sum to O(1)
// outputs (16-bit: normal(0, sd); e4m3: normal(0, 16) saturated; s8: uniform [-127, 127]).
void fill_input(Baseline b, void* p, size_t n, float sd16, uint64_t seed, cudaStream_t s) {
  switch (b) {
    case Baseline::kFp16: fill_normal_16bit(p, n, Fill16::kF16, sd16, seed, s); break;
    case Baseline::kBf16: fill_normal_16bit(p, n, Fill16::kBF16, sd16, seed, s); break;
    case Baseline::kFp8:
    case Baseline::kFp8Fast: fill_normal_e4m3(p, n, 16.0f, seed, s); break;
    case Baseline::kInt8: fill_uniform_s8(p, n, -127, 127, seed, s); break;
  }
}

enum class Fp8Scales { kRowwise, kPerTensor };

struct Candidate {
  cublasLtMatmulAlgo_t algo;
  size_t workspace;
};

}  // namespace

void create_cublaslt(BenchContext& ctx) {
  cublasLtHandle_t h = nullptr;
  BENCH_LT(cublasLtCreate(&h));
  ctx.lt_handle = h;
  ctx.lt_workspace = DeviceBuffer(kLtWorkspaceBytes, "cuBLASLt workspace");
}

void destroy_cublaslt(BenchContext& ctx) {
  if (ctx.lt_handle) cublasLtDestroy(static_cast<cublasLtHandle_t>(ctx.lt_handle));
  ctx.lt_handle = nullptr;
  ctx.lt_workspace.reset();
}

std::vector<ResultRow> run_baseline(BenchContext& ctx, Baseline kind, const Shape& shape) {
  const Options& opt = *ctx.opt;
  const auto handle = static_cast<cublasLtHandle_t>(ctx.lt_handle);
  const Types ty = types_of(kind);
  const int64_t N = shape.N, K = shape.K;
  std::vector<ResultRow> rows;

  const auto base_row = [&](int64_t M) {
    ResultRow r = new_row(ctx, shape, M, baseline_name(kind));
    r.a_type = r.b_type = baseline_in_type(kind);
    r.out_type = baseline_out_type(kind);
    return r;
  };

  // Weights (+ per-channel fp8 scales), rotated.
  const int64_t w_bytes = N * K * ty.in_bytes;
  const int64_t wscale_bytes = is_fp8(kind) ? N * 4 : 0;
  std::string w_note;
  std::vector<DeviceBuffer> w, wscale;
  int cw = 1;
  try {
    cw = rotation_count(ctx, w_bytes + wscale_bytes, opt.warmup + opt.iters, 0, w_note);
    for (int c = 0; c < cw; ++c) {
      w.emplace_back(static_cast<size_t>(w_bytes), "baseline weights");
      fill_input(kind, w.back().get(), static_cast<size_t>(N * K), 1.0f / std::sqrt(static_cast<float>(K)),
                 opt.seed * 1000 + 11 + c, ctx.stream);
      if (wscale_bytes) {
        wscale.emplace_back(static_cast<size_t>(wscale_bytes), "fp8 weight scales");
        const float s = 1.0f / (16.0f * std::sqrt(static_cast<float>(K)));
        fill_uniform_f32(wscale.back().as<float>(), static_cast<size_t>(N), 0.5f * s, 1.5f * s, opt.seed * 1000 + 12,
                         ctx.stream);
      }
    }
    BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
  } catch (const OutOfMemory& e) {
    return rows_with_status(opt.m_list, base_row, kOutOfMemory, e.what());
  }

  for (int64_t M : opt.m_list) {
    ResultRow row = base_row(M);
    if (ctx.progress) ctx.progress(shape.name + " tp" + std::to_string(shape.tp) + " " + row.kernel + " M=" + std::to_string(M));
    std::string note = w_note;
    try {
      const int64_t a_bytes = M * K * ty.in_bytes, o_bytes = M * N * ty.out_bytes;
      const int64_t tscale_bytes = is_fp8(kind) ? M * 4 : 0;
      const int ca = rotation_count(ctx, w_bytes + a_bytes + o_bytes, std::max(2, cw), 0, note);
      std::vector<DeviceBuffer> act, out, tscale;
      for (int c = 0; c < ca; ++c) {
        act.emplace_back(static_cast<size_t>(a_bytes), "baseline activations");
        fill_input(kind, act.back().get(), static_cast<size_t>(M * K), 1.0f, opt.seed * 1000 + 21 + c, ctx.stream);
        out.emplace_back(static_cast<size_t>(o_bytes), "baseline output");
        BENCH_CUDA(cudaMemsetAsync(out.back().get(), 0xFF, static_cast<size_t>(o_bytes), ctx.stream));
        if (tscale_bytes) {
          tscale.emplace_back(static_cast<size_t>(tscale_bytes), "fp8 token scales");
          fill_uniform_f32(tscale.back().as<float>(), static_cast<size_t>(M), 0.5f / 16, 1.5f / 16, opt.seed * 1000 + 22,
                           ctx.stream);
        }
      }
      BENCH_CUDA(cudaStreamSynchronize(ctx.stream));

      // Descriptors, heuristic candidates (fp8: row/column-wise scales first).
      LtDescs desc;
      std::vector<Candidate> cands;
      Fp8Scales fp8_mode = Fp8Scales::kRowwise;
      const auto build = [&](Fp8Scales mode) {
        desc.reset();
        BENCH_LT(cublasLtMatmulDescCreate(&desc.op, ty.compute, ty.scale));
        const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
        BENCH_LT(cublasLtMatmulDescSetAttribute(desc.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
        BENCH_LT(cublasLtMatmulDescSetAttribute(desc.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
        if (is_fp8(kind)) {
          const int32_t m = mode == Fp8Scales::kRowwise ? CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F
                                                        : CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F;
          BENCH_LT(cublasLtMatmulDescSetAttribute(desc.op, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &m, sizeof m));
          BENCH_LT(cublasLtMatmulDescSetAttribute(desc.op, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &m, sizeof m));
          // cublaslt_fp8_fast: no periodic promotion of the fp8 accumulation (the default, 0, promotes).
          const int8_t fast = kind == Baseline::kFp8Fast ? 1 : 0;
          BENCH_LT(cublasLtMatmulDescSetAttribute(desc.op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast));
          const void* pa = wscale[0].get();
          const void* pb = tscale[0].get();
          BENCH_LT(cublasLtMatmulDescSetAttribute(desc.op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &pa, sizeof pa));
          BENCH_LT(cublasLtMatmulDescSetAttribute(desc.op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &pb, sizeof pb));
        }
        BENCH_LT(cublasLtMatrixLayoutCreate(&desc.a, ty.in, K, N, K));
        BENCH_LT(cublasLtMatrixLayoutCreate(&desc.b, ty.in, K, M, K));
        BENCH_LT(cublasLtMatrixLayoutCreate(&desc.d, ty.out, N, M, N));
        BENCH_LT(cublasLtMatmulPreferenceCreate(&desc.pref));
        const uint64_t ws = ctx.lt_workspace.bytes();
        BENCH_LT(cublasLtMatmulPreferenceSetAttribute(desc.pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws));
        std::vector<cublasLtMatmulHeuristicResult_t> res(static_cast<size_t>(opt.lt_algos));
        int returned = 0;
        const cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(handle, desc.op, desc.a, desc.b, desc.d, desc.d,
                                                                  desc.pref, opt.lt_algos, res.data(), &returned);
        cands.clear();
        if (st == CUBLAS_STATUS_NOT_SUPPORTED || st == CUBLAS_STATUS_INVALID_VALUE) return;
        BENCH_LT(st);
        for (int i = 0; i < returned; ++i)
          if (res[i].state == CUBLAS_STATUS_SUCCESS) cands.push_back({res[i].algo, res[i].workspaceSize});
      };
      const float alpha_f = 1.0f, beta_f = 0.0f;
      const int32_t alpha_i = 1, beta_i = 0;
      const void* alpha = ty.scale == CUDA_R_32I ? static_cast<const void*>(&alpha_i) : &alpha_f;
      const void* beta = ty.scale == CUDA_R_32I ? static_cast<const void*>(&beta_i) : &beta_f;
      const Candidate* chosen = nullptr;
      const auto launch = [&](int i) {
        const int wi = i % cw, ai = i % ca;
        if (is_fp8(kind)) {
          const void* pa = wscale[wi].get();
          const void* pb = tscale[ai].get();
          BENCH_LT(cublasLtMatmulDescSetAttribute(desc.op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &pa, sizeof pa));
          BENCH_LT(cublasLtMatmulDescSetAttribute(desc.op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &pb, sizeof pb));
        }
        BENCH_LT(cublasLtMatmul(handle, desc.op, alpha, w[wi].get(), desc.a, act[ai].get(), desc.b, beta,
                                out[ai].get(), desc.d, out[ai].get(), desc.d, &chosen->algo,
                                ctx.lt_workspace.get(), chosen->workspace, ctx.stream));
      };

      // Time every candidate briefly (2 warm-up + 5 runs, same cold-L2 policy) and keep the
      // fastest; a candidate cuBLASLt refuses at run time is skipped. CUDA errors stay fatal.
      size_t best = cands.size();
      std::string last_refusal;
      const auto select = [&]() {
        best = cands.size();
        double best_us = 1e300;
        for (size_t c = 0; c < cands.size(); ++c) {
          chosen = &cands[c];
          std::vector<double> t;
          try {
            t = ctx.timer->run(launch, 2, 5, /*condition=*/false);
          } catch (const LtError& e) {
            last_refusal = e.what();
            BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
            continue;
          }
          const double med = compute_stats(t).median;
          if (med < best_us) {
            best_us = med;
            best = c;
          }
        }
        return best < cands.size();
      };
      const auto try_build = [&](Fp8Scales m) {
        try {
          build(m);
        } catch (const LtError& e) {
          cands.clear();
          last_refusal = e.what();
        }
      };
      try_build(Fp8Scales::kRowwise);
      bool ok = !cands.empty() && select();
      if (!ok && is_fp8(kind)) {
        fp8_mode = Fp8Scales::kPerTensor;
        try_build(Fp8Scales::kPerTensor);
        ok = !cands.empty() && select();
      }
      if (is_fp8(kind) && ok) {
        const std::string m = fp8_mode == Fp8Scales::kRowwise ? "rowwise" : "per-tensor";
        note += std::string(note.empty() ? "" : "; ") +
                (fp8_mode == Fp8Scales::kRowwise ? "rowwise scales (OUTER_VEC_32F)"
                                                 : "per-tensor scales (no OUTER_VEC_32F algorithm ran)");
        if (std::find(ctx.fp8_scale_modes.begin(), ctx.fp8_scale_modes.end(), m) == ctx.fp8_scale_modes.end())
          ctx.fp8_scale_modes.push_back(m);
      }
      if (!ok) {
        row.status = kNotSupported;
        row.note = !cands.empty() ? "no cuBLASLt candidate ran: " + last_refusal
                   : last_refusal.empty() ? std::string("cuBLASLt heuristic returned no algorithm")
                                          : "cuBLASLt refused the problem: " + last_refusal;
        rows.push_back(row);
        continue;
      }
      chosen = &cands[best];
      row.schedule = "heuristic " + std::to_string(best + 1) + "/" + std::to_string(cands.size());

      // First run on copy 0 with a poisoned output: it must write finite values.
      BENCH_CUDA(cudaMemsetAsync(out[0].get(), 0xFF, static_cast<size_t>(o_bytes), ctx.stream));
      launch(0);
      BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
      if (kind == Baseline::kInt8) {
        std::vector<int32_t> h(static_cast<size_t>(std::min<int64_t>(M * N, 1 << 16)));
        BENCH_CUDA(cudaMemcpy(h.data(), out[0].get(), h.size() * 4, cudaMemcpyDeviceToHost));
        if (std::all_of(h.begin(), h.end(), [](int32_t v) { return v == -1; })) {
          row.status = kBadOutput;
          note += std::string(note.empty() ? "" : "; ") + "output never written";
        }
      } else {
        const int64_t bad = count_nonfinite_16bit(out[0].get(), static_cast<size_t>(M * N), ty.out == CUDA_R_16BF, ctx.stream);
        if (bad) {
          row.status = kBadOutput;
          note += std::string(note.empty() ? "" : "; ") + std::to_string(bad) + " non-finite outputs";
        }
      }
      if (row.status == kBadOutput) ++ctx.bad_outputs;

      row.us = compute_stats(time_launches(ctx, launch));
      row.timed = true;
      row.bytes = baseline_bytes(kind, M, N, K, fp8_mode == Fp8Scales::kRowwise);
      row.floor_us = floor_us(row.bytes, ctx.copy_gbps);
      note = join_note(note, rotation_note(cw, ca));
      row.note = note;
    } catch (const OutOfMemory& e) {
      row.status = kOutOfMemory;
      row.note = e.what();
    } catch (const LtError& e) {
      row.status = kFailed;
      row.timed = false;
      row.note = e.what();
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace mixgemm::bench
