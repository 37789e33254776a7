// reference_kernels.cpp - the --marlin and --qqq rows: published int4 kernels timed on the same
// shapes and M as the mixgemm rows, with the same timer, settle and cold-L2 rotation, as external
// reference points for the decode bars:
//   marlin_w4a16  IST-DASLab's Marlin (github.com/IST-DASLab/marlin, marlin/marlin_cuda_kernel.cu;
//                 Apache-2.0): f16 activations x int4 weights ((q - 8) * s), f16 group scales of 128
//                 or one per channel, f16 output. Type specs f16.u4b8.g128 / f16.u4b8.gch.
//   qqq_w4a8      HandH1998's QQQ (github.com/HandH1998/QQQ, csrc/qqq_gemm.cu; Apache-2.0, a Marlin
//                 derivative): s8 activations with f32 per-token scales x int4 weights, per-channel
//                 (f32 channel scales) or QQQ's two-level g128 (f16 group scales to int8, then the
//                 f32 channel scale), f16 output. Type specs s8.u4b8.g128 / s8.u4b8.gch.
//
// Neither is part of mixgemm or copied into this repository: a bench binary gets them only when
// configured with -DMIXGEMM_BENCH_MARLIN_SOURCE / -DMIXGEMM_BENCH_QQQ_SOURCE (scripts/
// build_reference_kernels.sh, which says what it changes in its build-tree copies), which compile
// those files as their own translation units and define MIXGEMM_BENCH_MARLIN / _QQQ. Without
// them, --marlin / --qqq are refused.
//
// What is timed: each kernel's own launcher (marlin_cuda / qqq_cuda) with its own heuristic (one
// CTA per SM), on random weights in its own layout (their speed does not depend on the values)
// and small normal scales, so the outputs are finite; the first run's NaN-poisoned output is
// checked for non-finite values, as for the cuBLAS rows. A row's bytes (and floor) are those of
// the mixgemm row with the same type spec.
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "runner.h"

#ifndef MIXGEMM_BENCH_MARLIN
#define MIXGEMM_BENCH_MARLIN 0
#endif
#ifndef MIXGEMM_BENCH_QQQ
#define MIXGEMM_BENCH_QQQ 0
#endif

// Declared in the external files (global namespace, C++ linkage); each returns 0, or 1 (the
// problem's shape does not divide into its thread tiles) / 2 (no kernel instance for it).
#if MIXGEMM_BENCH_MARLIN
int marlin_cuda(const void* A, const void* B, void* C, void* s, int prob_m, int prob_n, int prob_k,
                void* workspace, int groupsize, int dev, cudaStream_t stream, int thread_k, int thread_n,
                int sms, int max_par);
#endif
#if MIXGEMM_BENCH_QQQ
int qqq_cuda(const void* A, const void* B, void* C, void* D, const void* s1, const void* s2, const void* s3,
             int prob_m, int prob_n, int prob_k, void* workspace, int groupsize, int dev, cudaStream_t stream,
             int thread_k, int thread_n, int sms, int max_par);
#endif

namespace mixgemm::bench {

bool marlin_available() { return MIXGEMM_BENCH_MARLIN != 0; }
bool qqq_available() { return MIXGEMM_BENCH_QQQ != 0; }

namespace {

constexpr int kMaxPar = 16;  // both launchers' default: up to 16 x 64 tokens per launch

// One copy of a variant's inputs: the weights and their scales rotate with the weights, the
// activations (and token scales) with the activations.
struct RefPointers {
  const void* a = nullptr;    // activations [M, K]
  const void* tok = nullptr;  // f32 token scales [M] (W4A8)
  const void* w = nullptr;    // packed int4 weights, the kernel's layout
  const void* s = nullptr;    // f16 group scales [K / g, N] (nullptr: none)
  const void* ch = nullptr;   // f32 channel scales [N] (W4A8)
  void* out = nullptr;        // f16 output [M, N]
  void* reduce = nullptr;     // s32 reduction buffer [kMaxPar * 64, N] (QQQ)
  void* locks = nullptr;      // N / 128 * kMaxPar ints, zero before and after every launch
};

// One reference kernel in one quantization mode.
struct RefVariant {
  std::string kernel, spec;   // row names
  bool a8 = false;            // s8 activations with token / channel scales (else f16)
  int groupsize = 128;        // 128, or -1 per channel
  // The kernel's launcher; returns its status (0 ok).
  std::function<int(const RefPointers&, int M, int N, int K, int groupsize, int dev, cudaStream_t, int sms)> launch;
};

std::vector<ResultRow> run_variant(BenchContext& ctx, const Shape& shape, const RefVariant& v) {
  const Options& opt = *ctx.opt;
  const int64_t N = shape.N, K = shape.K;
  std::vector<ResultRow> rows;
  const auto base_row = [&](int64_t M) {
    ResultRow r = new_row(ctx, shape, M, v.kernel);
    r.type_spec = v.spec;
    r.a_type = v.a8 ? "s8" : "f16";
    r.b_type = "u4b8";
    r.out_type = "f16";
    r.group_size = v.groupsize > 0 ? std::to_string(v.groupsize) : "0";
    return r;
  };
  // Both kernels' thread tiles (Marlin: 128 x 128 / 64 x 256, QQQ: up to 256 wide): N a
  // multiple of 256 and K of 128 cover them; their launchers refuse anything else anyway.
  if (N % 256 != 0 || K % 128 != 0 || N > INT32_MAX || K > INT32_MAX)
    return rows_with_status(opt.m_list, base_row, kNotSupported, v.kernel + " needs N % 256 == 0 and K % 128 == 0");

  const int64_t w_bytes = K * N / 2;
  const int64_t s_rows = v.groupsize > 0 ? K / v.groupsize : (v.a8 ? 0 : 1);  // Marlin per-channel: one f16 row
  const int64_t s_bytes = s_rows * N * 2;
  const int64_t ch_bytes = v.a8 ? N * 4 : 0;
  std::string w_note;
  std::vector<DeviceBuffer> w, sc, ch;
  DeviceBuffer locks, reduce;
  try {
    const int cw = rotation_count(ctx, w_bytes + s_bytes + ch_bytes, opt.warmup + opt.iters, 0, w_note);
    for (int c = 0; c < cw; ++c) {
      w.emplace_back(static_cast<size_t>(w_bytes), "reference weights");
      fill_random_bytes(w.back().get(), static_cast<size_t>(w_bytes), opt.seed * 1000 + 41 + c, ctx.stream);
      if (s_bytes) {
        sc.emplace_back(static_cast<size_t>(s_bytes), "reference group scales");
        // |(q - 8) s| summed over K products of O(1) activations: O(1) outputs for s ~ 1 / (4 sqrt(K)).
        fill_normal_16bit(sc.back().get(), static_cast<size_t>(s_rows * N), Fill16::kF16,
                          0.25f / std::sqrt(static_cast<float>(K)), opt.seed * 1000 + 42 + c, ctx.stream);
      }
      if (ch_bytes) {
        ch.emplace_back(static_cast<size_t>(ch_bytes), "reference channel scales");
        const float s = 1.0f / (16.0f * std::sqrt(static_cast<float>(K)));
        fill_uniform_f32(ch.back().as<float>(), static_cast<size_t>(N), 0.5f * s, 1.5f * s, opt.seed * 1000 + 43 + c,
                         ctx.stream);
      }
    }
    locks = DeviceBuffer(static_cast<size_t>(N / 128 * kMaxPar * 4), "reference locks");
    BENCH_CUDA(cudaMemsetAsync(locks.get(), 0, locks.bytes(), ctx.stream));
    if (v.a8) reduce = DeviceBuffer(static_cast<size_t>(kMaxPar * 64 * N * 4), "reference reduction buffer");
    BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
  } catch (const OutOfMemory& e) {
    return rows_with_status(opt.m_list, base_row, kOutOfMemory, e.what());
  }
  const int cw = static_cast<int>(w.size());

  for (int64_t M : opt.m_list) {
    ResultRow row = base_row(M);
    if (ctx.progress)
      ctx.progress(shape.name + " tp" + std::to_string(shape.tp) + " " + v.kernel + " " + v.spec + " M=" +
                   std::to_string(M));
    std::string note = w_note;
    try {
      const int64_t a_bytes = M * K * (v.a8 ? 1 : 2), tok_bytes = v.a8 ? M * 4 : 0, o_bytes = M * N * 2;
      const int ca = rotation_count(ctx, w_bytes + s_bytes + ch_bytes + a_bytes + o_bytes, std::max(2, cw), 0, note);
      std::vector<DeviceBuffer> act, tok, out;
      for (int c = 0; c < ca; ++c) {
        act.emplace_back(static_cast<size_t>(a_bytes), "reference activations");
        if (v.a8) {
          fill_uniform_s8(act.back().get(), static_cast<size_t>(M * K), -127, 127, opt.seed * 1000 + 44 + c, ctx.stream);
          tok.emplace_back(static_cast<size_t>(tok_bytes), "reference token scales");
          fill_uniform_f32(tok.back().as<float>(), static_cast<size_t>(M), 0.5f / 16, 1.5f / 16, opt.seed * 1000 + 45 + c,
                           ctx.stream);
        } else {
          fill_normal_16bit(act.back().get(), static_cast<size_t>(M * K), Fill16::kF16, 1.0f, opt.seed * 1000 + 44 + c,
                            ctx.stream);
        }
        out.emplace_back(static_cast<size_t>(o_bytes), "reference output");
        BENCH_CUDA(cudaMemsetAsync(out.back().get(), 0xFF, static_cast<size_t>(o_bytes), ctx.stream));
      }
      BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
      int err = 0;
      const auto launch = [&](int i) {
        const int wi = i % cw, ai = i % ca;
        RefPointers q;
        q.a = act[ai].get();
        q.tok = v.a8 ? tok[ai].get() : nullptr;
        q.w = w[wi].get();
        q.s = s_bytes ? sc[wi].get() : nullptr;
        q.ch = ch_bytes ? ch[wi].get() : nullptr;
        q.out = out[ai].get();
        q.reduce = v.a8 ? reduce.get() : nullptr;
        q.locks = locks.get();
        const int r = v.launch(q, static_cast<int>(M), static_cast<int>(N), static_cast<int>(K), v.groupsize,
                               ctx.dev.index, ctx.stream, ctx.plan_sms());
        if (r != 0 && err == 0) err = r;
      };
      // First run on copy 0 with a poisoned output: it must write finite values.
      launch(0);
      BENCH_CUDA(cudaGetLastError());
      BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
      if (err != 0) {
        row.status = kNotSupported;
        row.note = join_note(note, v.kernel + (err == 1 ? " refused the shape (its thread tiles)"
                                                        : " has no kernel instance for it"));
        rows.push_back(row);
        continue;
      }
      const int64_t bad = count_nonfinite_16bit(out[0].get(), static_cast<size_t>(M * N), false, ctx.stream);
      if (bad) {
        row.status = kBadOutput;
        note = join_note(note, std::to_string(bad) + " non-finite outputs");
        ++ctx.bad_outputs;
      }
      row.us = compute_stats(time_launches(ctx, launch));
      row.timed = true;
      row.schedule = v.kernel + "_heuristic";
      row.bytes.weights = w_bytes;
      row.bytes.scales = s_bytes + ch_bytes + tok_bytes;
      row.bytes.activations = a_bytes;
      row.bytes.output = o_bytes;
      row.floor_us = floor_us(row.bytes, ctx.copy_gbps);
      note = join_note(note, "external reference, random weights in its layout");
      note = join_note(note, rotation_note(cw, ca));
    } catch (const OutOfMemory& e) {
      row.status = kOutOfMemory;
      note = join_note(note, e.what());
    }
    row.note = note;
    rows.push_back(row);
  }
  return rows;
}

std::vector<ResultRow> run_both_modes(BenchContext& ctx, const Shape& shape, RefVariant v, const std::string& g128,
                                      const std::string& gch) {
  v.spec = g128;
  v.groupsize = 128;
  std::vector<ResultRow> rows = run_variant(ctx, shape, v);
  v.spec = gch;
  v.groupsize = -1;
  std::vector<ResultRow> pc = run_variant(ctx, shape, v);
  rows.insert(rows.end(), pc.begin(), pc.end());
  return rows;
}

}  // namespace

std::vector<ResultRow> run_marlin(BenchContext& ctx, const Shape& shape) {
#if MIXGEMM_BENCH_MARLIN
  RefVariant v;
  v.kernel = "marlin_w4a16";
  v.launch = [](const RefPointers& q, int M, int N, int K, int g, int dev, cudaStream_t s, int sms) {
    // Marlin's own heuristic (thread_k / thread_n = -1): 128 x 128 at M <= 16, 64 x 256 above.
    return marlin_cuda(q.a, q.w, q.out, const_cast<void*>(q.s), M, N, K, q.locks, g, dev, s, -1, -1, sms, kMaxPar);
  };
  return run_both_modes(ctx, shape, v, "f16.u4b8.g128", "f16.u4b8.gch");
#else
  (void)ctx;
  (void)shape;
  throw BenchError("--marlin: this mixgemm-bench was built without the Marlin reference; configure with "
                   "-DMIXGEMM_BENCH_MARLIN_SOURCE=<IST-DASLab marlin/marlin_cuda_kernel.cu> "
                   "(scripts/build_reference_kernels.sh)");
#endif
}

std::vector<ResultRow> run_qqq(BenchContext& ctx, const Shape& shape) {
#if MIXGEMM_BENCH_QQQ
  RefVariant v;
  v.kernel = "qqq_w4a8";
  v.a8 = true;
  v.launch = [](const RefPointers& q, int M, int N, int K, int g, int dev, cudaStream_t s, int sms) {
    // QQQ's own thread configuration (thread_k / thread_n = -1).
    return qqq_cuda(q.a, q.w, q.reduce, q.out, q.tok, q.ch, q.s, M, N, K, q.locks, g, dev, s, -1, -1, sms, kMaxPar);
  };
  return run_both_modes(ctx, shape, v, "s8.u4b8.g128", "s8.u4b8.gch");
#else
  (void)ctx;
  (void)shape;
  throw BenchError("--qqq: this mixgemm-bench was built without the QQQ reference; configure with "
                   "-DMIXGEMM_BENCH_QQQ_SOURCE=<HandH1998 QQQ csrc/qqq_gemm.cu> (scripts/build_reference_kernels.sh)");
#endif
}

}  // namespace mixgemm::bench
