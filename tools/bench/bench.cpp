// bench.cpp - mixgemm-bench's driver: device facts, copy bandwidth, the sweep, the reports.
//
// Order of one run:
//   1. device facts (GPU name, SMs, L2, clocks, driver/runtime/cuBLASLt versions)
//   2. device-to-device copy bandwidth (cudaMemcpyAsync of --copy-gib GiB, bytes read +
//      written, median of 20 runs): the bandwidth every floor of this run is computed from
//   3. optional --prepack-bench
//   4. per shape: every baseline at every M, then every mixgemm type spec (and schedule)
//      at every M; ratios to cuBLAS fp16 / cuBLASLt fp8 of the same shape and M; the
//      shape's table on stdout, its rows appended to the CSV, the JSON rewritten
// The CSV is flushed and the JSON rewritten after every shape, so an interrupted run keeps
// what it measured.
#include "bench.h"

#include <cublasLt.h>
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "mixgemm/error.h"
#include "mixgemm/gemm.h"
#include "plan.h"
#include "runner.h"

#ifndef MIXGEMM_GIT_COMMIT
#define MIXGEMM_GIT_COMMIT ""
#endif

namespace mixgemm::bench {

int rotation_count(const BenchContext& ctx, int64_t bytes_per_copy, int max_copies, int64_t reserve_bytes,
                   std::string& note) {
  if (ctx.policy != L2Policy::kRotate) return 1;
  const int want = rotation_copies(bytes_per_copy, ctx.dev.l2_bytes, 3.0, 2, std::max(2, max_copies));
  size_t free_b = 0, total_b = 0;
  device_memory(free_b, total_b);
  const int64_t margin = int64_t{1} << 30;  // leave 1 GiB for workspaces and the CUDA context
  const int64_t usable = static_cast<int64_t>(free_b) - margin - reserve_bytes;
  const int64_t fit = bytes_per_copy > 0 ? usable / bytes_per_copy : want;
  if (fit >= want) return want;
  const int got = static_cast<int>(std::max<int64_t>(1, fit));
  note += std::string(note.empty() ? "" : "; ") + "only " + std::to_string(got) + " rotation copies fit in memory (wanted " +
          std::to_string(want) + "): L2 may be partly warm";
  return got;
}

std::vector<double> time_launches(BenchContext& ctx, const std::function<void(int)>& launch) {
  const Options& opt = *ctx.opt;
  if (opt.graph_batch <= 0) return ctx.timer->run(launch, opt.warmup, opt.iters);
  (void)ctx.timer->run(launch, opt.warmup, 1);  // the same warm-up and power-state settle
  return time_graph_batch(launch, opt.graph_batch, opt.iters, ctx.stream);
}

namespace {

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

std::string run_command(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[256];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int rc = pclose(p);
  return rc == 0 ? trim(out) : std::string();
}

// --git-commit, else $MIXGEMM_GIT_COMMIT, else the build's MIXGEMM_GIT_COMMIT definition, else
// `git rev-parse` in the source tree this file was compiled from (+ "-dirty" with local
// changes to tracked files), else "unknown".
std::string resolve_git_commit(const std::string& flag) {
  if (!flag.empty()) return flag;
  if (const char* env = std::getenv("MIXGEMM_GIT_COMMIT"); env && *env) return env;
  if (std::string(MIXGEMM_GIT_COMMIT).size()) return MIXGEMM_GIT_COMMIT;
  std::string dir = __FILE__;
  const size_t slash = dir.rfind('/');
  dir = slash == std::string::npos ? "." : dir.substr(0, slash);
  const std::string q = shell_quote(dir);
  const std::string head = run_command("git -C " + q + " rev-parse HEAD 2>/dev/null");
  if (head.empty()) return "unknown";
  const std::string dirty = run_command("git -C " + q + " status --porcelain --untracked-files=no 2>/dev/null");
  return dirty.empty() ? head : head + "-dirty";
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

struct Progress {
  bool enabled = true;
  bool tty = false;
  int step = 0, total = 0;
  size_t last_len = 0;
  void operator()(const std::string& what) {
    if (!enabled) return;
    if (what.empty()) {
      if (tty && last_len) std::fprintf(stderr, "\r%s\r", std::string(last_len, ' ').c_str());
      last_len = 0;
      return;
    }
    ++step;
    show(what);
  }
  void skip(int n) { step += n; }
  void show(const std::string& what) {
    if (!enabled) return;
    char head[48];
    std::snprintf(head, sizeof head, "[%d/%d] ", std::min(step, total), total);
    const std::string line = head + what;
    if (tty) {
      std::fprintf(stderr, "\r%s%s", line.c_str(),
                   line.size() < last_len ? std::string(last_len - line.size(), ' ').c_str() : "");
      last_len = line.size();
    } else {
      std::fprintf(stderr, "%s\n", line.c_str());
    }
    std::fflush(stderr);
  }
};

}  // namespace

int bench_main(int argc, char** argv) {
  Options opt;
  try {
    opt = parse_options(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mixgemm-bench: %s\n(run mixgemm-bench --help for the flags)\n", e.what());
    return 2;
  }
  if (opt.help) {
    std::fputs(usage().c_str(), stdout);
    return 0;
  }
  if (opt.list) {
    std::fputs(list_text(opt.tps).c_str(), stdout);
    return 0;
  }
  if (opt.plan) {
    std::fputs(plan_text(opt).c_str(), stdout);
    return 0;
  }
  if (opt.host_cost) {
    std::fputs(host_cost_text(opt).c_str(), stdout);
    return 0;
  }

  BenchContext ctx;
  ctx.opt = &opt;
  ctx.policy = opt.cold_l2 == ColdL2::kRotate ? L2Policy::kRotate
                                              : (opt.cold_l2 == ColdL2::kFlush ? L2Policy::kFlush : L2Policy::kOff);
  try {
    ctx.dev = query_device(opt.device);
  } catch (const NoDevice& e) {
    std::fprintf(stderr, "mixgemm-bench: no GPU: %s\nmixgemm-bench needs an NVIDIA GPU (Hopper, sm_90a); nothing was measured.\n",
                 e.what());
    return 3;
  } catch (const BenchError& e) {
    std::fprintf(stderr, "mixgemm-bench: no usable GPU: %s\n", e.what());
    return 3;
  }

  const std::vector<Shape> shapes = expand_shapes(opt.sets, opt.tps, opt.custom_shapes);
  const std::string git_commit = resolve_git_commit(opt.git_commit);
  const std::string started = utc_now();
  std::vector<ResultRow> all_rows;
  std::string run_status = "running";
  Stats copy_stats{};
  double copy_gbps_min = 0, copy_gbps_max = 0;
  int sm_clock_now = -1, mem_clock_now = -1;
  int cublaslt_version = static_cast<int>(cublasLtGetVersion());
  std::ofstream csv;

  const auto write_json = [&]() {
    if (opt.json_path.empty()) return;
    std::vector<JsonSection> secs;
    JsonSection top;
    top.add_str("tool", "mixgemm-bench");
    top.add_str("started_utc", started);
    top.add_str("command_line", opt.command_line);
    top.add_str("git_commit", git_commit);
    top.add_str("status", run_status);
    secs.push_back(top);
    JsonSection gpu{"gpu", {}};
    gpu.add_str("name", ctx.dev.name);
    gpu.add_int("index", ctx.dev.index);
    gpu.add_str("pci_bus_id", ctx.dev.pci_bus_id);
    gpu.add_str("compute_capability", std::to_string(ctx.dev.cc_major) + "." + std::to_string(ctx.dev.cc_minor));
    gpu.add_int("sm_count", ctx.dev.sm_count);
    gpu.add_int("green_sms", ctx.green_sms);
    gpu.add_int("l2_bytes", ctx.dev.l2_bytes);
    gpu.add_int("memory_bytes", ctx.dev.memory_bytes);
    gpu.add_int("sm_clock_peak_mhz", ctx.dev.sm_clock_peak_mhz);
    gpu.add_int("mem_clock_peak_mhz", ctx.dev.mem_clock_peak_mhz);
    gpu.add_int("mem_bus_width_bits", ctx.dev.mem_bus_width_bits);
    gpu.add_int("nvml_sm_clock_max_mhz", ctx.dev.nvml_sm_clock_max_mhz);
    gpu.add_int("nvml_mem_clock_max_mhz", ctx.dev.nvml_mem_clock_max_mhz);
    gpu.add_int("nvml_sm_clock_after_copy_mhz", sm_clock_now);
    gpu.add_int("nvml_mem_clock_after_copy_mhz", mem_clock_now);
    secs.push_back(gpu);
    JsonSection ver{"versions", {}};
    ver.add_int("cuda_driver", ctx.dev.driver_version);
    ver.add_str("driver", ctx.dev.driver_string);
    ver.add_int("cuda_runtime", ctx.dev.runtime_version);
    ver.add_int("cuda_runtime_built_with", CUDART_VERSION);
    ver.add_int("cublaslt", cublaslt_version);
    ver.add_int("cublaslt_built_with", CUBLAS_VERSION);
    secs.push_back(ver);
    JsonSection bw{"copy_bandwidth", {}};
    bw.add_int("bytes_per_copy", static_cast<int64_t>(opt.copy_gib * (1ull << 30)));
    bw.add_str("counts", "bytes read + bytes written");
    bw.add_num("gbps_median", ctx.copy_gbps, 1);
    bw.add_num("gbps_min", copy_gbps_min, 1);
    bw.add_num("gbps_max", copy_gbps_max, 1);
    bw.add_num("us_median", copy_stats.median, 3);
    bw.add_int("runs", copy_stats.count);
    secs.push_back(bw);
    JsonSection set{"settings", {}};
    set.add_int("iters", opt.iters);
    set.add_int("warmup", opt.warmup);
    set.add_num("idle_ms", opt.idle_ms, 0);
    set.add_num("settle_ms", opt.settle_ms, 0);
    set.add_str("cold_l2", cold_l2_name(opt.cold_l2));
    set.add_num("rotation_l2_factor", 3.0, 1);
    set.add_str("timing", opt.graph_batch > 0
                              ? "each run one replay of a CUDA graph of graph_batch launches between one event pair, "
                                "divided by graph_batch; median/min/max/mean"
                              : "one CUDA event pair per run, runs queued back to back behind a spin kernel; median/min/max/mean");
    set.add_int("graph_batch", opt.graph_batch);
    set.add_int("lt_algos", opt.lt_algos);
    set.add_str("lt_algo_choice", opt.lt_algos > 1 ? "fastest of the heuristic's candidates, each timed 5 runs"
                                                   : "the heuristic's top candidate");
    set.add_raw("verify", opt.verify ? "true" : "false");
    set.add_int("verify_rows", opt.verify_rows);
    set.add_int("verify_cols", opt.verify_cols);
    if (opt.fp8_promotion_k >= 0) set.add_int("fp8_promotion_k", opt.fp8_promotion_k);
    else set.add_str("fp8_promotion_k", "auto: 1 for smallm* schedules, 0 otherwise");
    set.add_int("seed", static_cast<int64_t>(opt.seed));
    set.add_int("time_limit_s", opt.time_limit_s);
    set.add_raw("m", json_list(opt.m_list));
    std::vector<std::string> types, bls, shape_names;
    for (const auto& t : opt.types) types.push_back(t.text);
    for (Baseline b : opt.baselines) bls.push_back(baseline_name(b));
    for (const auto& s : shapes) shape_names.push_back(s.name + "@tp" + std::to_string(s.tp));
    set.add_raw("types", json_list(opt.run_mixgemm ? types : std::vector<std::string>{}));
    set.add_raw("baselines", json_list(bls));
    set.add_raw("shapes", json_list(shape_names));
    set.add_str("schedule", opt.all_schedules ? "all" : (opt.schedule.empty() ? "heuristic" : opt.schedule));
    set.add_raw("fp8_scale_modes", json_list(ctx.fp8_scale_modes));
    secs.push_back(set);
    JsonSection ver2{"checks", {}};
    ver2.add_int("verified", ctx.verified);
    ver2.add_int("verify_failures", ctx.verify_failures);
    ver2.add_int("verify_loose", ctx.verify_loose);
    ver2.add_int("bad_outputs", ctx.bad_outputs);
    secs.push_back(ver2);
    const std::string tmp = opt.json_path + ".tmp";
    {
      std::ofstream f(tmp, std::ios::trunc);
      f << json_document(secs, all_rows);
      if (!f) throw BenchError("cannot write " + tmp);
    }
    if (std::rename(tmp.c_str(), opt.json_path.c_str()) != 0) throw BenchError("cannot rename " + tmp + " to " + opt.json_path);
  };

  int exit_code = 0;
  try {
    if (!opt.csv_path.empty()) {
      csv.open(opt.csv_path, std::ios::trunc);
      if (!csv) throw BenchError("cannot open --csv " + opt.csv_path);
      csv << csv_header() << std::flush;
    }
    if (opt.green_sms > 0) {
      ctx.stream = green_context_stream(ctx.dev.index, opt.green_sms, &ctx.green_sms);
    } else {
      BENCH_CUDA(cudaStreamCreateWithFlags(&ctx.stream, cudaStreamNonBlocking));
    }
    EventTimer timer(ctx.stream, ctx.dev.l2_bytes, ctx.policy);
    timer.set_conditioning(opt.idle_ms, opt.settle_ms);
    ctx.timer = &timer;

    std::printf("mixgemm-bench  %s\n", started.c_str());
    std::printf("GPU %d: %s (sm_%d%d, %d SMs, L2 %.1f MiB, %.1f GiB), peak clocks SM %d MHz / memory %d MHz\n",
                ctx.dev.index, ctx.dev.name.c_str(), ctx.dev.cc_major, ctx.dev.cc_minor, ctx.dev.sm_count,
                ctx.dev.l2_bytes / 1048576.0, ctx.dev.memory_bytes / 1073741824.0, ctx.dev.sm_clock_peak_mhz,
                ctx.dev.mem_clock_peak_mhz);
    std::printf("driver %s (CUDA %d), runtime %d, cuBLASLt %d, git %s\n",
                ctx.dev.driver_string.empty() ? "?" : ctx.dev.driver_string.c_str(), ctx.dev.driver_version,
                ctx.dev.runtime_version, cublaslt_version, git_commit.c_str());
    std::printf("command: %s\n", opt.command_line.c_str());
    if (ctx.green_sms > 0)
      std::printf("green context: %d SMs asked, %d granted; a probe grid of %d CTAs on its stream reached %d SMs\n",
                  opt.green_sms, ctx.green_sms, 8 * ctx.dev.sm_count, count_sms_reached(8 * ctx.dev.sm_count, ctx.stream));
    if (ctx.dev.cc_major != 9)
      std::printf("warning: mixgemm's kernels target Hopper (sm_90a); this GPU is sm_%d%d\n", ctx.dev.cc_major, ctx.dev.cc_minor);
    if (opt.iters < 50) std::printf("warning: --iters %d < 50: medians are less stable\n", opt.iters);

    // Copy bandwidth, measured in this run.
    {
      const size_t bytes = static_cast<size_t>(opt.copy_gib * (1ull << 30));
      std::vector<double> t = time_device_copy(bytes, 3, 20, ctx.stream);
      copy_stats = compute_stats(t);
      ctx.copy_gbps = copy_gbps(static_cast<int64_t>(bytes), copy_stats.median);
      copy_gbps_min = copy_gbps(static_cast<int64_t>(bytes), copy_stats.max);
      copy_gbps_max = copy_gbps(static_cast<int64_t>(bytes), copy_stats.min);
      nvml_current_clocks(ctx.dev.pci_bus_id, sm_clock_now, mem_clock_now);
      if (!(ctx.copy_gbps > 0)) throw BenchError("copy bandwidth measurement gave no usable value");
      std::printf("device-to-device copy: %.1f GB/s (bytes read + written; median of %d copies of %.2f GiB; min %.1f, max %.1f)\n",
                  ctx.copy_gbps, copy_stats.count, opt.copy_gib, copy_gbps_min, copy_gbps_max);
      if (sm_clock_now > 0) std::printf("clocks after the copy: SM %d MHz, memory %d MHz\n", sm_clock_now, mem_clock_now);
    }
    if (opt.graph_batch > 0)
      std::printf("timing: %d replays of a CUDA graph of %d launches after %d warm-up, per launch, cold L2: %s; floors from the copy bandwidth above\n",
                  opt.iters, opt.graph_batch, opt.warmup, cold_l2_name(opt.cold_l2));
    else
      std::printf("timing: %d runs after %d warm-up, one event pair each, cold L2: %s; floors from the copy bandwidth above\n",
                  opt.iters, opt.warmup, cold_l2_name(opt.cold_l2));
    std::printf("power state: each row (baselines too) after %.0f ms idle and %.0f ms of its own kernel back to back%s\n",
                opt.idle_ms, opt.settle_ms, opt.settle_ms > 0 ? " (sustained)" : "");
    if (opt.unit_group_scales) std::printf("inputs: every group scale 1 (--unit-group-scales, a diagnostic)\n");
    std::fflush(stdout);

    // An external reference this binary was built without: refused now, saying how to build it.
    if (opt.marlin && !marlin_available()) run_marlin(ctx, Shape{});
    if (opt.qqq && !qqq_available()) run_qqq(ctx, Shape{});
    if (!opt.baselines.empty()) create_cublaslt(ctx);

    // Work list for the progress counter.
    std::vector<std::pair<TypeSpec, std::vector<std::string>>> mix_work;
    if (opt.run_mixgemm) {
      for (const auto& t : opt.types) {
        std::vector<std::string> scheds{opt.schedule};
        if (opt.all_schedules) {
          try {
            const TypeConfig tc = t.types();
            auto names = supported_schedules(tc);
            if (!names.empty()) scheds = names;
          } catch (const Error&) {
          }
        }
        mix_work.emplace_back(t, scheds);
      }
    }
    Progress progress;
    progress.enabled = !opt.quiet;
    progress.tty = isatty(2) != 0;
    {
      size_t per_shape = opt.baselines.size() + (opt.marlin ? 2 : 0) + (opt.qqq ? 2 : 0);
      for (const auto& w : mix_work) per_shape += w.second.size();
      progress.total = static_cast<int>(shapes.size() * per_shape * opt.m_list.size() + (opt.prepack_bench ? 3 : 0));
    }
    ctx.progress = [&](const std::string& s) { progress(s); };
    ctx.progress_skip = [&](int n) { progress.skip(n); };
    ctx.progress_note = [&](const std::string& s) { progress.show(s); };

    if (opt.prepack_bench) {
      std::vector<ResultRow> rows = run_prepack_bench(ctx);
      progress("");
      std::printf("\nprepack (K=8192, N=57344, u4b8; GB/s = bytes read + written)\n");
      for (const auto& r : rows) {
        if (r.timed)
          std::printf("  %-16s %10.2f us  %8.1f GB/s  %5.1f%% of copy bandwidth%s%s\n", r.type_spec.c_str(), r.us.median,
                      r.gbps_value(), r.pct_floor_value(), r.verify.empty() ? "" : "  verify ", r.verify.c_str());
        else
          std::printf("  %-16s %s: %s\n", r.type_spec.c_str(), r.status == kNotSupported ? "not supported" : r.status.c_str(),
                      r.note.c_str());
        if (csv.is_open()) csv << csv_row(r);
        all_rows.push_back(r);
      }
      if (csv.is_open()) csv << std::flush;
      std::fflush(stdout);
      write_json();
    }

    const auto t_start = std::chrono::steady_clock::now();
    int skipped_sweeps = 0;
    const auto out_of_time = [&]() {
      if (opt.time_limit_s <= 0) return false;
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
      return s > static_cast<double>(opt.time_limit_s);
    };
    for (const auto& shape : shapes) {
      std::vector<ResultRow> rows;
      for (Baseline b : opt.baselines) {
        if (out_of_time()) {
          ++skipped_sweeps;
          continue;
        }
        auto r = run_baseline(ctx, b, shape);
        rows.insert(rows.end(), r.begin(), r.end());
      }
      if (opt.stream_read && !out_of_time()) {
        auto r = run_stream_read(ctx, shape);
        rows.insert(rows.end(), r.begin(), r.end());
      }
      if (opt.marlin && !out_of_time()) {
        auto r = run_marlin(ctx, shape);
        rows.insert(rows.end(), r.begin(), r.end());
      }
      if (opt.qqq && !out_of_time()) {
        auto r = run_qqq(ctx, shape);
        rows.insert(rows.end(), r.begin(), r.end());
      }
      for (const auto& [spec, scheds] : mix_work) {
        if (out_of_time()) {
          ++skipped_sweeps;
          continue;
        }
        auto r = run_mixgemm(ctx, spec, shape, scheds);
        rows.insert(rows.end(), r.begin(), r.end());
      }
      if (rows.empty()) continue;
      fill_ratios(rows);
      std::stable_sort(rows.begin(), rows.end(), [](const ResultRow& a, const ResultRow& b) { return a.M < b.M; });
      progress("");
      std::printf("\n%s (N=%lld, K=%lld, tp=%d)\n", shape.name.c_str(), static_cast<long long>(shape.N),
                  static_cast<long long>(shape.K), shape.tp);
      std::fputs(table_header().c_str(), stdout);
      int64_t last_m = -1;
      for (const auto& r : rows) {
        if (last_m != -1 && r.M != last_m) std::fputs("\n", stdout);
        last_m = r.M;
        std::fputs(table_row(r).c_str(), stdout);
        if (csv.is_open()) csv << csv_row(r);
      }
      if (csv.is_open()) {
        csv << std::flush;
        if (!csv) throw BenchError("writing " + opt.csv_path + " failed");
      }
      std::fflush(stdout);
      all_rows.insert(all_rows.end(), rows.begin(), rows.end());
      write_json();
    }
    progress("");

    if (!ctx.fp8_scale_modes.empty()) {
      std::string modes;
      for (const auto& m : ctx.fp8_scale_modes) modes += (modes.empty() ? "" : ", ") + m;
      std::printf("\ncublaslt_fp8 scales: %s%s\n", modes.c_str(),
                  modes == "rowwise" ? " (f32 per output channel and per token, CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F)"
                                     : "");
    }
    if (!opt.baselines.empty())
      std::printf("cuBLASLt algorithm: %s\n", opt.lt_algos > 1 ? ("fastest of up to " + std::to_string(opt.lt_algos) +
                                                                   " heuristic candidates (each timed 5 runs)").c_str()
                                                                : "the heuristic's top candidate");
    std::printf("ratios (x fp16, x fp8) = baseline median / row median, same shape and M, same run; %%floor = floor / median\n");
    if (!opt.summary_m.empty()) {
      const std::string summary = summary_table(all_rows, opt.summary_m);
      if (!summary.empty()) std::printf("\n%s", summary.c_str());
    }
    if (opt.verify) {
      std::printf("verify: %d checked, %d failed\n", ctx.verified, ctx.verify_failures);
      if (ctx.verify_loose)
        std::printf("verify: %d rows had outputs without a finite tolerance (verify=loose: rms check only); "
                    "for e4m3 pass --fp8-promotion-k with the kernels' promotion interval\n", ctx.verify_loose);
    }
    if (skipped_sweeps)
      std::printf("WARNING: --time-limit %lld s reached: %d (shape, kernel) sweeps were not measured\n",
                  static_cast<long long>(opt.time_limit_s), skipped_sweeps);
    if (ctx.bad_outputs) std::printf("ERROR: %d rows wrote non-finite or no outputs (status bad_output)\n", ctx.bad_outputs);
    run_status = skipped_sweeps ? "stopped by --time-limit" : "complete";
    if (ctx.verify_failures || ctx.bad_outputs) {
      exit_code = 1;
      run_status += ", with failures";
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "\nmixgemm-bench: fatal: %s\n", e.what());
    run_status = std::string("fatal: ") + e.what();
    exit_code = 1;
  }
  try {
    write_json();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mixgemm-bench: %s\n", e.what());
    exit_code = 1;
  }
  if (!opt.csv_path.empty()) std::printf("csv: %s\n", opt.csv_path.c_str());
  if (!opt.json_path.empty()) std::printf("json: %s\n", opt.json_path.c_str());
  destroy_cublaslt(ctx);
  if (ctx.stream) (void)cudaStreamDestroy(ctx.stream);
  return exit_code;
}

}  // namespace mixgemm::bench
