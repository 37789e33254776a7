// mixgemm_runner.cpp - times mixgemm::gemm for one type spec on one shape, and (--verify)
// checks it against the CPU reference first.
//
// Inputs (never zeros; inputs.h says how each is drawn): weights are uniformly random bytes
// written straight into the prepacked buffer (the layout is a permutation of the bits, so
// this is a uniformly random q[K][N]); --verify reads q back through the layout's index map
// (verify_sample.h). All buffers are rotated for a cold L2 (runner.h, rotation_count).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <sstream>

#include "core/dispatch.h"
#include "core/float_bits.h"
#include "mixgemm/error.h"
#include "mixgemm/gemm.h"
#include "mixgemm/layout.h"
#include "mixgemm/prepack.h"
#include "mixgemm/reference.h"
#include "runner.h"
#include "inputs.h"
#include "verify_sample.h"

namespace mixgemm::bench {

namespace {

std::string status_of(const Error& e) {
  switch (e.code()) {
    case ErrorCode::kNotSupported: return kNotSupported;
    case ErrorCode::kInvalidArgument: return kInvalid;
    case ErrorCode::kCudaError: return kFailed;
  }
  return kFailed;
}

// --partial-sums: elements of the [S, M, N] buffer still holding the poison after a launch (every
// byte `poison`: 0xFF, NaN, for f32 parts; 0x80, -2139062144, beyond any s32 sum of s8 inputs
// (|sum| <= K * 2^14 < 2^30 for K < 65536, docs/semantics.md 5.1), for s8's).
int64_t count_unwritten_parts(const void* dev, size_t n, uint8_t poison) {
  std::vector<uint32_t> h(n);
  BENCH_CUDA(cudaMemcpy(h.data(), dev, n * 4, cudaMemcpyDeviceToHost));
  return static_cast<int64_t>(std::count(h.begin(), h.end(), 0x01010101u * poison));
}

// Everything per (shape, spec) that does not depend on M, on the host and on the device.
struct Weights {
  GemmProblem base;  // M = 0
  layout::Kind kind{};
  size_t b_bytes = 0;
  HostInputs host;                    // scales, zero points, channel scales (copy 0's content;
                                      // the other copies hold the same, with other weights)
  std::vector<uint8_t> zeros_packed;  // prepack_zeros_cpu output
  // device, one entry per rotation copy
  std::vector<DeviceBuffer> b, s, zp, c;
  int copies = 1;
};

void build_weights(BenchContext& ctx, const TypeSpec& spec, const Shape& shape, Weights& w, std::string& note) {
  const Options& opt = *ctx.opt;
  const int64_t N = shape.N, K = shape.K;
  w.base = spec.problem(0, N, K);
  w.kind = layout::Kind{spec.b.size_bits(), spec.a.size_bits() == 16 ? 16 : 8};
  w.b_bytes = static_cast<size_t>(layout::prepacked_bytes(w.kind, K, N));
  w.host = make_host_inputs(spec, N, K, opt.seed, opt.unit_group_scales);
  const HostInputs& h = w.host;
  if (spec.has_zeros) {
    w.zeros_packed = prepack_zeros_cpu(h.z.data(), h.scales.empty() ? nullptr : h.scales.data(), h.G, N, spec.a,
                                       spec.scale);
    if (w.zeros_packed.empty()) throw BenchError("prepack_zeros_cpu returned no bytes");
  }

  // Device copies.
  const int64_t per_copy = static_cast<int64_t>(w.b_bytes + h.scales.size() + w.zeros_packed.size() + h.ch.size() * 4);
  w.copies = rotation_count(ctx, per_copy, opt.warmup + opt.iters, 0, note);
  for (int c = 0; c < w.copies; ++c) {
    w.b.emplace_back(w.b_bytes, "prepacked weights");
    fill_random_bytes(w.b.back().get(), w.b_bytes, opt.seed * 1000 + 101 + c, ctx.stream);
    if (!h.scales.empty()) {
      w.s.emplace_back(h.scales.size(), "group scales");
      BENCH_CUDA(cudaMemcpyAsync(w.s.back().get(), h.scales.data(), h.scales.size(), cudaMemcpyHostToDevice, ctx.stream));
    }
    if (!w.zeros_packed.empty()) {
      w.zp.emplace_back(w.zeros_packed.size(), "zero points");
      BENCH_CUDA(cudaMemcpyAsync(w.zp.back().get(), w.zeros_packed.data(), w.zeros_packed.size(),
                                 cudaMemcpyHostToDevice, ctx.stream));
    }
    if (!h.ch.empty()) {
      w.c.emplace_back(h.ch.size() * 4, "channel scales");
      BENCH_CUDA(cudaMemcpyAsync(w.c.back().get(), h.ch.data(), h.ch.size() * 4, cudaMemcpyHostToDevice, ctx.stream));
    }
  }
  BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
}

// Per-M buffers.
struct Activations {
  std::vector<float> tok;  // host [M]
  std::vector<DeviceBuffer> a, out, t;
  int copies = 1;
  size_t a_bytes = 0, out_bytes = 0;
};

void build_activations(BenchContext& ctx, const TypeSpec& spec, const Weights& w, int64_t M, Activations& x,
                       std::string& note) {
  const Options& opt = *ctx.opt;
  const int64_t N = w.base.N, K = w.base.K;
  x.a_bytes = static_cast<size_t>(M * K * (spec.a.size_bits() / 8));
  x.out_bytes = static_cast<size_t>(M * N * 2);
  x.tok = make_token_scales(spec, M, opt.seed);
  const int64_t per_copy = static_cast<int64_t>(w.b_bytes + x.a_bytes + x.out_bytes + x.tok.size() * 4);
  x.copies = rotation_count(ctx, per_copy, std::max(2, w.copies), 0, note);
  for (int c = 0; c < x.copies; ++c) {
    x.a.emplace_back(x.a_bytes, "activations");
    void* p = x.a.back().get();
    const size_t n = static_cast<size_t>(M * K);
    const uint64_t seed = opt.seed * 1000 + 201 + c;
    if (spec.a == types::f16) fill_normal_16bit(p, n, Fill16::kF16, 1.0f, seed, ctx.stream);
    else if (spec.a == types::bf16) fill_normal_16bit(p, n, Fill16::kBF16, 1.0f, seed, ctx.stream);
    else if (spec.a == types::s8) fill_uniform_s8(p, n, -127, 127, seed, ctx.stream);
    else fill_normal_e4m3(p, n, 64.0f, seed, ctx.stream);
    x.out.emplace_back(x.out_bytes, "output");
    BENCH_CUDA(cudaMemsetAsync(x.out.back().get(), 0xFF, x.out_bytes, ctx.stream));
    if (!x.tok.empty()) {
      x.t.emplace_back(x.tok.size() * 4, "token scales");
      BENCH_CUDA(cudaMemcpyAsync(x.t.back().get(), x.tok.data(), x.tok.size() * 4, cudaMemcpyHostToDevice, ctx.stream));
    }
  }
  BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
}

VerifyTally verify_against_reference(BenchContext& ctx, const TypeSpec& spec, const Weights& w,
                                       const Activations& x, const GemmProblem& p, int64_t fp8_promotion_k) {
  const Options& opt = *ctx.opt;
  const int64_t M = p.M, N = p.N, K = p.K;
  HostRng rng(opt.seed * 15485863 + static_cast<uint64_t>(M * 7 + N));
  const std::vector<int64_t> rows = sample_rows(M, opt.verify_rows, rng);
  const ColumnSample cs = sample_columns(N, opt.verify_cols, rng);
  const std::vector<int64_t>& cols = cs.cols;
  const int64_t win = cs.window;
  const int64_t Mv = static_cast<int64_t>(rows.size()), Nv = static_cast<int64_t>(cols.size());
  const int abytes = spec.a.size_bits() / 8;

  // Weights of the windows, read back through the layout's index map (verify_sample.h).
  const int64_t kb_count = K / w.kind.block_k();
  const size_t row_pitch = static_cast<size_t>(N / layout::kBlockRows) * layout::kBlockBytes;
  const size_t win_pitch = static_cast<size_t>(win / layout::kBlockRows) * layout::kBlockBytes;
  std::vector<uint8_t> qv(static_cast<size_t>(K * Nv));
  std::vector<uint8_t> wbuf(static_cast<size_t>(window_bytes(w.kind, K, win)));
  std::vector<int64_t> col_index(static_cast<size_t>(N), -1);
  for (int64_t j = 0; j < Nv; ++j) col_index[static_cast<size_t>(cols[j])] = j;
  for (int64_t s : cs.starts) {
    const uint8_t* src = w.b[0].as<uint8_t>() + (s / layout::kBlockRows) * layout::kBlockBytes;
    BENCH_CUDA(cudaMemcpy2D(wbuf.data(), win_pitch, src, row_pitch, win_pitch, static_cast<size_t>(kb_count),
                            cudaMemcpyDeviceToHost));
    for (int64_t k = 0; k < K; ++k)
      for (int64_t j = 0; j < win; ++j)
        qv[static_cast<size_t>(k * Nv + col_index[static_cast<size_t>(s + j)])] = window_q(w.kind, wbuf.data(), win, k, j);
  }

  // Activations and GPU outputs of the sampled rows.
  std::vector<uint8_t> av(static_cast<size_t>(Mv * K * abytes));
  std::vector<uint16_t> out_rows(static_cast<size_t>(Mv * N));
  for (int64_t i = 0; i < Mv; ++i) {
    BENCH_CUDA(cudaMemcpy(av.data() + i * K * abytes, x.a[0].as<uint8_t>() + rows[i] * K * abytes,
                          static_cast<size_t>(K * abytes), cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaMemcpy(out_rows.data() + i * N, x.out[0].as<uint8_t>() + rows[i] * N * 2,
                          static_cast<size_t>(N * 2), cudaMemcpyDeviceToHost));
  }

  // Scales, zeros, channel and token scales of the sample.
  std::vector<uint8_t> sv, zv;
  std::vector<float> chv, tokv;
  const HostInputs& h = w.host;
  const int64_t eb = h.scale_elem_bytes;
  if (!h.scales.empty()) {
    sv.resize(static_cast<size_t>(h.G * Nv * eb));
    for (int64_t g = 0; g < h.G; ++g)
      for (int64_t j = 0; j < Nv; ++j)
        std::memcpy(&sv[static_cast<size_t>((g * Nv + j) * eb)], &h.scales[static_cast<size_t>((g * N + cols[j]) * eb)],
                    static_cast<size_t>(eb));
  }
  if (!h.z.empty()) {
    zv.resize(static_cast<size_t>(h.G * Nv));
    for (int64_t g = 0; g < h.G; ++g)
      for (int64_t j = 0; j < Nv; ++j) zv[static_cast<size_t>(g * Nv + j)] = h.z[static_cast<size_t>(g * N + cols[j])];
  }
  for (int64_t j = 0; j < Nv && !h.ch.empty(); ++j) chv.push_back(h.ch[static_cast<size_t>(cols[j])]);
  for (int64_t i = 0; i < Mv && !x.tok.empty(); ++i) tokv.push_back(x.tok[static_cast<size_t>(rows[i])]);

  ReferenceArgs ra;
  ra.problem = p;
  ra.problem.M = Mv;
  ra.problem.N = Nv;
  ra.a = av.data();
  ra.lda = K;
  ra.q = qv.data();
  ra.group_scales = sv.empty() ? nullptr : sv.data();
  ra.zeros = zv.empty() ? nullptr : zv.data();
  ra.channel_scales = chv.empty() ? nullptr : chv.data();
  ra.token_scales = tokv.empty() ? nullptr : tokv.data();
  std::vector<uint16_t> ref(static_cast<size_t>(Mv * Nv));
  std::vector<double> abs_acc(ref.size()), quantum(ref.size());
  ra.out = ref.data();
  ra.ldo = Nv;
  ra.abs_acc_out = abs_acc.data();
  ra.acc_quantum_out = quantum.data();
  VerifyTally v;
  try {
    reference_gemm(ra, 0);
  } catch (const Error& e) {
    // The reference refusing the bench's own inputs is a bench or semantics bug: fail loudly.
    v.failures = 1;
    v.first_failure = std::string("the CPU reference refused the inputs: ") + e.what();
    return v;
  }

  const bool bf16_out = spec.out == types::bf16;
  const auto decode = [&](uint16_t h) { return bf16_out ? numeric::from_bf16(h) : numeric::from_f16(h); };
  for (int64_t i = 0; i < Mv; ++i)
    for (int64_t j = 0; j < Nv; ++j) {
      const size_t r = static_cast<size_t>(i * Nv + j);
      const double refv = decode(ref[r]);
      const double got = decode(out_rows[static_cast<size_t>(i * N + cols[j])]);
      double tc = 1.0;
      if (!tokv.empty() && !chv.empty()) tc = std::fabs(static_cast<double>(tokv[i] * chv[j]));
      else if (!tokv.empty()) tc = std::fabs(static_cast<double>(tokv[i]));
      else if (!chv.empty()) tc = std::fabs(static_cast<double>(chv[j]));
      ToleranceOptions to;
      to.acc_quantum = quantum[r];
      to.fp8_promotion_k = fp8_promotion_k;
      const double tol = gemm_tolerance(ra.problem, abs_acc[r], tc, refv, to);
      v.add(got, refv, tol, rows[i], cols[j]);
    }
  return v;
}


}  // namespace

std::vector<ResultRow> run_mixgemm(BenchContext& ctx, const TypeSpec& spec, const Shape& shape,
                                   const std::vector<std::string>& schedules) {
  const Options& opt = *ctx.opt;
  std::vector<ResultRow> rows;
  const int64_t N = shape.N, K = shape.K;
  const TypeConfig tc = spec.types();

  const auto base_row = [&](int64_t M, const std::string& sched) {
    ResultRow r = new_row(ctx, shape, M, "mixgemm");
    r.type_spec = spec.text;
    r.a_type = spec.a.name();
    r.b_type = spec.b.name();
    r.out_type = spec.out.name();
    r.group_size = std::to_string(spec.group_size(K));
    r.schedule = sched;
    r.bytes = mixgemm_bytes(spec, M, N, K);
    r.floor_us = floor_us(r.bytes, ctx.copy_gbps);
    return r;
  };
  const auto all_rows = [&](const std::string& status, const std::string& note) {
    if (ctx.progress_skip) ctx.progress_skip(static_cast<int>(schedules.size() * opt.m_list.size()));
    for (const auto& sched : schedules)
      for (int64_t M : opt.m_list) {
        ResultRow r = base_row(M, sched);
        r.status = status;
        r.note = note;
        rows.push_back(r);
      }
  };

  // No kernel for these types at all: say so without allocating anything.
  try {
    if (supported_schedules(tc).empty()) {
      all_rows(kNotSupported, "no kernel implements " + spec.text + " (supported_schedules is empty)");
      return rows;
    }
  } catch (const Error& e) {
    all_rows(status_of(e), e.what());
    return rows;
  }

  Weights w;
  std::string w_note;
  try {
    build_weights(ctx, spec, shape, w, w_note);
  } catch (const OutOfMemory& e) {
    all_rows(kOutOfMemory, e.what());
    return rows;
  } catch (const Error& e) {  // prepack_zeros_cpu refusing the configuration
    all_rows(status_of(e), e.what());
    return rows;
  }

  for (int64_t M : opt.m_list) {
    Activations x;
    std::string a_note;
    bool have_acts = false;
    std::string act_fail_status, act_fail_note;
    try {
      build_activations(ctx, spec, w, M, x, a_note);
      have_acts = true;
    } catch (const OutOfMemory& e) {
      act_fail_status = kOutOfMemory;
      act_fail_note = e.what();
    }

    for (const auto& sched : schedules) {
      GemmProblem p = w.base;
      p.M = M;
      ResultRow row = base_row(M, sched);
      if (ctx.progress)
        ctx.progress(shape.name + " tp" + std::to_string(shape.tp) + " " + spec.text + (sched.empty() ? "" : " " + sched) +
                     " M=" + std::to_string(M));
      if (!have_acts) {
        row.status = act_fail_status;
        row.note = act_fail_note;
        rows.push_back(row);
        continue;
      }
      // --row-split-at: rows [0, head) and [head, M) as two calls, each forced to its own pick.
      int64_t head = 0;
      std::string head_sched, tail_sched;
      if (sched.empty() && opt.row_split_at) {
        head = core::row_split_head(M, opt.row_split_at);
        if (head == 0) {
          row.status = kNotSupported;
          row.note = "--row-split-at " + std::to_string(opt.row_split_at) + ": no head at this M (needs >= 128 rows, >= 32 left)";
          rows.push_back(row);
          continue;
        }
        GemmProblem ph = p, pt = p;
        ph.M = head;
        pt.M = M - head;
        head_sched = choose_schedule(ph, ctx.plan_sms());
        tail_sched = choose_schedule(pt, ctx.plan_sms());
        row.schedule = head_sched + "[" + std::to_string(head) + "]+" + tail_sched + " (--row-split-at)";
      } else if (sched.empty()) {
        try {
          row.schedule = describe_plan(p, ctx.plan_sms());
        } catch (const Error& e) {
          row.schedule = "-";
        }
      }
      std::string note = join_note(w_note, a_note);
      try {
        const size_t ws_bytes = workspace_size(p, ctx.green_sms);
        DeviceBuffer ws(ws_bytes, "gemm workspace");
        if (ws_bytes) BENCH_CUDA(cudaMemsetAsync(ws.get(), 0, ws_bytes, ctx.stream));

        GemmArgs args;
        args.problem = p;
        args.lda = K;
        args.ldo = N;
        args.workspace = ws.get();
        args.workspace_bytes = ws_bytes;
        args.schedule = sched;
        args.stream = ctx.stream;
        args.sm_count = ctx.green_sms;
        // --partial-sums: gemm_partial_sums into one [S, M, N] buffer per activation copy (the
        // epilogue operands stay unused: the caller would apply them to the sum).
        const int64_t S = opt.partial_sums ? partial_sums_count(p, sched, ctx.green_sms) : 0;
        if (opt.partial_sums && S < 2)
          throw Error(ErrorCode::kNotSupported, "no partial-sum form (partial_sums_count is 0)");
        std::vector<DeviceBuffer> parts;
        const size_t parts_bytes = static_cast<size_t>(S * M * N * 4);
        for (int c = 0; c < (S >= 2 ? x.copies : 0); ++c) parts.emplace_back(parts_bytes, "partial sums");
        if (S >= 2) note = join_note(note, "gemm_partial_sums, S=" + std::to_string(S));
        const auto launch = [&](int i) {
          const size_t wi = static_cast<size_t>(i % w.copies), ai = static_cast<size_t>(i % x.copies);
          args.a = x.a[ai].get();
          args.b = w.b[wi].get();
          args.group_scales = w.s.empty() ? nullptr : w.s[wi].get();
          args.group_zeros = w.zp.empty() ? nullptr : w.zp[wi].get();
          if (S >= 2) {
            args.out = nullptr;
            gemm_partial_sums(args, parts[ai].get());
            return;
          }
          args.channel_scales = w.c.empty() ? nullptr : w.c[wi].as<float>();
          args.token_scales = x.t.empty() ? nullptr : x.t[ai].as<float>();
          args.out = x.out[ai].get();
          if (head == 0) {
            gemm(args);
            return;
          }
          // The slices gemm()'s own row split launches, each forced to its one-launch pick.
          GemmArgs h = core::row_slice(args, 0, head), t = core::row_slice(args, head, M - head);
          h.schedule = head_sched;
          t.schedule = tail_sched;
          gemm(h);
          gemm(t);
        };
        // --gap-us: [prefetch_l2 of copy i] spin(gap) before each gemm (gap_launch), and the same
        // without the gemm (gap_only), whose time is taken off the row's.
        const size_t prefetch_budget = static_cast<size_t>(opt.prefetch_mb * 1e6);
        const auto gap_only = [&](int i) {
          const size_t wi = static_cast<size_t>(i % w.copies);
          size_t left = prefetch_budget;
          for (const std::vector<DeviceBuffer>* v : {&w.s, &w.zp, &w.b}) {
            if (v->empty() || left == 0) continue;
            const DeviceBuffer& buf = (*v)[wi];
            const size_t take = std::min(left, buf.bytes());
            prefetch_l2_stream(buf.get(), buf.bytes(), take, ctx.stream);
            left -= take;
          }
          spin_stream(ctx.stream, opt.gap_us);
        };
        const auto gap_launch = [&](int i) {
          gap_only(i);
          launch(i);
        };

        // First call on copy 0 with a poisoned output: refusals surface here, before timing.
        BENCH_CUDA(cudaMemsetAsync(x.out[0].get(), 0xFF, x.out_bytes, ctx.stream));
        const uint8_t poison = spec.a == types::s8 ? 0x80 : 0xFF;
        if (S >= 2) BENCH_CUDA(cudaMemsetAsync(parts[0].get(), poison, parts_bytes, ctx.stream));
        launch(0);
        BENCH_CUDA(cudaGetLastError());
        BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
        const int64_t bad = S >= 2 ? count_unwritten_parts(parts[0].get(), static_cast<size_t>(S * M * N), poison)
                                   : count_nonfinite_16bit(x.out[0].get(), static_cast<size_t>(M * N),
                                                           spec.out == types::bf16, ctx.stream);
        if (bad) {
          row.status = kBadOutput;
          note = join_note(note, std::to_string(bad) + " of " + std::to_string(M * N) + " outputs not finite (or never written)");
          ++ctx.bad_outputs;
        }
        if (opt.verify) {
          if (ctx.progress_note)
            ctx.progress_note(shape.name + " tp" + std::to_string(shape.tp) + " " + spec.text + " M=" + std::to_string(M) +
                              " verifying against the CPU reference");
          const VerifyTally v =
              verify_against_reference(ctx, spec, w, x, p, fp8_promotion_for(opt.fp8_promotion_k, row.schedule));
          ++ctx.verified;
          row.verify = v.verdict();
          note = join_note(note, v.summary());
          if (v.unbounded) ++ctx.verify_loose;
          if (!v.pass()) {
            ++ctx.verify_failures;
            if (row.status == kOk) row.status = kVerifyFailed;
            std::fprintf(stderr, "\nmixgemm-bench: VERIFY FAILED: %s tp%d %s M=%lld schedule %s: %s\n", shape.name.c_str(),
                         shape.tp, spec.text.c_str(), static_cast<long long>(M), row.schedule.c_str(), v.summary().c_str());
          }
        }

        if (opt.gap_us >= 0) {
          std::vector<double> with = time_launches(ctx, gap_launch);
          std::vector<double> without = time_launches(ctx, gap_only);
          std::sort(without.begin(), without.end());
          const double base = without[without.size() / 2];
          for (double& t : with) t = std::max(0.0, t - base);
          row.us = compute_stats(with);
          char buf[160];
          std::snprintf(buf, sizeof buf, "after a %.0f us gap (%.2f us per launch without the gemm), l2 prefetch %.0f MB",
                        opt.gap_us, base, opt.prefetch_mb);
          note = join_note(note, buf);
        } else {
          row.us = compute_stats(time_launches(ctx, launch));
        }
        row.timed = true;
        if (!w.zeros_packed.empty()) row.bytes.zeros = static_cast<int64_t>(w.zeros_packed.size());
        row.floor_us = floor_us(row.bytes, ctx.copy_gbps);
        note = join_note(note, rotation_note(w.copies, x.copies));
      } catch (const Error& e) {
        row.status = status_of(e);
        note = join_note(note, e.what());
        if (e.code() == ErrorCode::kCudaError) throw BenchError(std::string("mixgemm::gemm: ") + e.what());
      } catch (const OutOfMemory& e) {
        row.status = kOutOfMemory;
        note = join_note(note, e.what());
      }
      row.note = note;
      rows.push_back(row);
    }
  }
  return rows;
}

}  // namespace mixgemm::bench
