// marlin_reference.cpp - the --marlin rows: IST-DASLab's Marlin W4A16 kernel
// (github.com/IST-DASLab/marlin, marlin/marlin_cuda_kernel.cu; Apache-2.0) timed on the same
// shapes and M as the mixgemm rows, with the same timer, settle and cold-L2 rotation, as an
// external reference point for the decode bars: what a published, widely deployed int4 x f16
// kernel reaches on this GPU in this run.
//
// Marlin is not part of mixgemm and is never copied into this repository: a bench binary gets it
// only when configured with -DMIXGEMM_BENCH_MARLIN_SOURCE=<path to marlin_cuda_kernel.cu>
// (scripts/build_marlin_reference.sh), which compiles that file as its own translation unit and
// defines MIXGEMM_BENCH_MARLIN. Without it, --marlin is refused.
//
// What is timed: marlin_cuda(A, B, C, s, M, N, K, workspace, groupsize, ...) with its own
// heuristic (thread tile 128 x 128 for M <= 16, 64 x 256 above; one CTA per SM), f16 activations,
// int4 weights with Marlin's u4b8 semantics ((q - 8) * s), f16 group scales of 128 or one per
// channel (groupsize -1), f16 output. The weights are random bits in Marlin's own layout (its
// speed does not depend on their values); the scales are small normal values, so the output is
// finite and the first run's NaN-poisoned output is checked for non-finite values, as for the
// cuBLAS rows. Its bytes (and floor) are those of the mixgemm row with the same type spec.
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "runner.h"

#if MIXGEMM_BENCH_MARLIN
// Declared in the external marlin_cuda_kernel.cu (global namespace, C++ linkage); returns 0, or
// 1 (problem shape not divisible by the thread tile) / 2 (no kernel instance for it).
int marlin_cuda(const void* A, const void* B, void* C, void* s, int prob_m, int prob_n, int prob_k,
                void* workspace, int groupsize, int dev, cudaStream_t stream, int thread_k, int thread_n,
                int sms, int max_par);
#endif

namespace mixgemm::bench {

bool marlin_available() { return MIXGEMM_BENCH_MARLIN != 0; }

#if MIXGEMM_BENCH_MARLIN

namespace {

constexpr int kMarlinMaxPar = 16;  // Marlin's default: up to 16 x 64 tokens per launch

// One variant: groupsize 128 (type spec f16.u4b8.g128) or -1 (per-channel, f16.u4b8.gch).
std::vector<ResultRow> run_marlin_variant(BenchContext& ctx, const Shape& shape, int groupsize) {
  const Options& opt = *ctx.opt;
  const int64_t N = shape.N, K = shape.K;
  const std::string spec = groupsize > 0 ? "f16.u4b8.g128" : "f16.u4b8.gch";
  std::vector<ResultRow> rows;
  const auto base_row = [&](int64_t M) {
    ResultRow r = new_row(ctx, shape, M, "marlin_w4a16");
    r.type_spec = spec;
    r.a_type = "f16";
    r.b_type = "u4b8";
    r.out_type = "f16";
    r.group_size = groupsize > 0 ? std::to_string(groupsize) : "0";
    return r;
  };
  // Marlin's own shape rules (its launcher returns 1 otherwise): N a multiple of 256 and K of 128
  // cover both of its thread tiles; K a multiple of the group.
  if (N % 256 != 0 || K % 128 != 0 || N > INT32_MAX || K > INT32_MAX)
    return rows_with_status(opt.m_list, base_row, kNotSupported,
                            "Marlin needs N % 256 == 0 and K % 128 == 0 (its thread tiles)");

  // Weights (int4, 8 per int32: K * N / 8 words) and scales ((K / g) x N f16, one row per
  // channel for g = -1), rotated for cold L2 as the other rows.
  const int64_t w_bytes = K * N / 2;
  const int64_t s_rows = groupsize > 0 ? K / groupsize : 1;
  const int64_t s_bytes = s_rows * N * 2;
  std::string w_note;
  std::vector<DeviceBuffer> w, sc;
  DeviceBuffer locks;
  try {
    const int cw = rotation_count(ctx, w_bytes + s_bytes, opt.warmup + opt.iters, 0, w_note);
    for (int c = 0; c < cw; ++c) {
      w.emplace_back(static_cast<size_t>(w_bytes), "marlin weights");
      fill_random_bytes(w.back().get(), static_cast<size_t>(w_bytes), opt.seed * 1000 + 41 + c, ctx.stream);
      sc.emplace_back(static_cast<size_t>(s_bytes), "marlin scales");
      // |(q - 8) s| summed over K products of N(0, 1) activations: O(1) outputs for s ~ 1 / (4 sqrt(K)).
      fill_normal_16bit(sc.back().get(), static_cast<size_t>(s_rows * N), Fill16::kF16,
                        0.25f / std::sqrt(static_cast<float>(K)), opt.seed * 1000 + 42 + c, ctx.stream);
    }
    // Marlin's barrier locks: N / 128 * max_par ints, zero, and left zero by every launch.
    locks = DeviceBuffer(static_cast<size_t>(N / 128 * kMarlinMaxPar * 4), "marlin locks");
    BENCH_CUDA(cudaMemsetAsync(locks.get(), 0, locks.bytes(), ctx.stream));
    BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
  } catch (const OutOfMemory& e) {
    return rows_with_status(opt.m_list, base_row, kOutOfMemory, e.what());
  }
  const int cw = static_cast<int>(w.size());

  for (int64_t M : opt.m_list) {
    ResultRow row = base_row(M);
    if (ctx.progress)
      ctx.progress(shape.name + " tp" + std::to_string(shape.tp) + " marlin " + spec + " M=" + std::to_string(M));
    std::string note = w_note;
    try {
      const int64_t a_bytes = M * K * 2, o_bytes = M * N * 2;
      const int ca = rotation_count(ctx, w_bytes + s_bytes + a_bytes + o_bytes, std::max(2, cw), 0, note);
      std::vector<DeviceBuffer> act, out;
      for (int c = 0; c < ca; ++c) {
        act.emplace_back(static_cast<size_t>(a_bytes), "marlin activations");
        fill_normal_16bit(act.back().get(), static_cast<size_t>(M * K), Fill16::kF16, 1.0f, opt.seed * 1000 + 43 + c,
                          ctx.stream);
        out.emplace_back(static_cast<size_t>(o_bytes), "marlin output");
        BENCH_CUDA(cudaMemsetAsync(out.back().get(), 0xFF, static_cast<size_t>(o_bytes), ctx.stream));
      }
      BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
      int err = 0;
      const auto launch = [&](int i) {
        const int wi = i % cw, ai = i % ca;
        const int r = marlin_cuda(act[ai].get(), w[wi].get(), out[ai].get(), sc[wi].get(), static_cast<int>(M),
                                  static_cast<int>(N), static_cast<int>(K), locks.get(), groupsize, ctx.dev.index,
                                  ctx.stream, -1, -1, ctx.dev.sm_count, kMarlinMaxPar);
        if (r != 0 && err == 0) err = r;
      };
      // First run on copy 0 with a poisoned output: it must write finite values.
      launch(0);
      BENCH_CUDA(cudaGetLastError());
      BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
      if (err != 0) {
        row.status = kNotSupported;
        row.note = join_note(note, err == 1 ? "Marlin refused the shape (ERR_PROB_SHAPE)"
                                            : "Marlin has no kernel instance for it (ERR_KERN_SHAPE)");
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
      row.schedule = M <= 16 ? "marlin_128x128" : "marlin_64x256";
      row.bytes.weights = w_bytes;
      row.bytes.scales = s_bytes;
      row.bytes.activations = a_bytes;
      row.bytes.output = o_bytes;
      row.floor_us = floor_us(row.bytes, ctx.copy_gbps);
      note = join_note(note, "IST-DASLab Marlin (external reference, random weights in its layout)");
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

}  // namespace

std::vector<ResultRow> run_marlin(BenchContext& ctx, const Shape& shape) {
  std::vector<ResultRow> rows = run_marlin_variant(ctx, shape, 128);
  std::vector<ResultRow> pc = run_marlin_variant(ctx, shape, -1);
  rows.insert(rows.end(), pc.begin(), pc.end());
  return rows;
}

#else

std::vector<ResultRow> run_marlin(BenchContext&, const Shape&) {
  throw BenchError("--marlin: this mixgemm-bench was built without the Marlin reference; configure with "
                   "-DMIXGEMM_BENCH_MARLIN_SOURCE=<path to IST-DASLab marlin/marlin_cuda_kernel.cu> "
                   "(scripts/build_marlin_reference.sh)");
}

#endif

}  // namespace mixgemm::bench
