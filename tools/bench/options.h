// options.h - mixgemm-bench's command line (pure host logic, header-only, unit-tested in
// tests/cpu/test_bench_cli.cpp). `usage()` is the reference for every flag.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/sm90/sm90.h"
#include "metrics.h"
#include "shapes.h"
#include "type_spec.h"

namespace mixgemm::bench {

enum class ColdL2 { kRotate, kFlush, kOff };

inline const char* cold_l2_name(ColdL2 c) {
  switch (c) {
    case ColdL2::kRotate: return "rotate";
    case ColdL2::kFlush: return "flush";
    case ColdL2::kOff: return "off";
  }
  return "?";
}

inline const std::vector<int64_t>& default_m_list() {
  static const std::vector<int64_t> ms = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192};
  return ms;
}

struct Options {
  std::vector<int64_t> m_list = default_m_list();
  std::vector<std::string> sets;     // named shape sets (default: seed, unless --shape given)
  std::vector<Shape> custom_shapes;  // --shape NxK
  std::vector<int> tps = {1};
  std::vector<TypeSpec> types;       // default: default_type_specs()
  std::vector<Baseline> baselines = all_baselines();
  bool run_mixgemm = true;
  bool verify = false;
  int verify_rows = 8;     // rows checked per M when M is larger
  int verify_cols = 512;   // columns checked when N is larger (in 64-column windows)
  int64_t fp8_promotion_k = -1;  // e4m3 tolerance: the kernels' f32 promotion interval (0: none, -1: auto)
  int iters = 100;
  int warmup = 10;
  int graph_batch = 0;  // --graph-batch N: rows timed as N back-to-back launches in one CUDA graph (0: off)
  double idle_ms = 0;     // GPU idle this long before each row's warm-up (rested state)
  double gap_us = -1;     // --gap-us G: each graph launch i is [prefetch_l2?] spin(G) gemm; -1: off
  double prefetch_mb = 0; // --l2-prefetch-mb B: with --gap-us, an L2 prefetch of B MB of launch i's weights first
  double settle_ms = 300; // each row's kernel run back to back this long before its timed runs
  ColdL2 cold_l2 = ColdL2::kRotate;
  int lt_algos = 8;        // cuBLASLt heuristic candidates timed; 1 = take the top one
  std::string schedule;    // force one schedule (empty: the heuristic)
  bool all_schedules = false;
  bool prepack_bench = false;
  bool stream_read = false;  // --stream-read: rows timing a read of each shape's int4 weights + g128 scales
  bool marlin = false;       // --marlin: rows timing IST-DASLab's Marlin W4A16 kernel (external reference)
  bool qqq = false;          // --qqq: rows timing QQQ's W4A8 kernel (external reference)
  bool partial_sums = false;  // --partial-sums: mixgemm rows time gemm_partial_sums instead of gemm
  int64_t row_split_at = 0;   // --row-split-at U: heuristic rows run as two gemm calls split at M - M % U
  bool unit_group_scales = false;  // --unit-group-scales: every group scale 1 (inputs.h)
  std::string csv_path;
  std::string json_path;
  std::string git_commit;
  double copy_gib = 2.0;
  int device = 0;
  int green_sms = 0;  // --green-sms N: run on a stream of a green context of N SMs (0: the whole GPU)
  uint64_t seed = 1;
  bool quiet = false;
  std::vector<int64_t> summary_m = {1, 16, 128, 1024, 8192};  // M columns of the closing summary
  int64_t time_limit_s = 0;  // stop starting new (shape, kernel) sweeps after this many seconds (0: none)
  bool list = false;
  bool plan = false;       // --plan: print the dispatch choices, measure nothing (no GPU needed)
  int plan_sm_count = 132;  // --sm-count: the SMs --plan assumes (132: H100 SXM / H200)
  bool host_cost = false;   // --host-cost: time gemm()'s host work before the launch (no GPU needed)
  bool help = false;
  std::string command_line;
};

inline std::string usage() {
  return R"(mixgemm-bench: times mixgemm::gemm and cuBLAS/cuBLASLt baselines on the same shapes, one run.

Usage: mixgemm-bench [flags]
Shapes
  --shapes LIST        named sets: seed (N=8192,K=21760), llama2-7b, llama3-8b, llama2-70b,
                       llama3-70b, llama3-405b, or none (default: seed, unless --shape is given);
                       SET/LAYER names one layer of a model set (e.g. llama2-70b/down)
  --shape NxK          a custom shape, repeatable (e.g. --shape 8192x21760)
  --tp LIST            tensor parallelism for model sets (default 1): qkv/gate_up split N,
                       o/down split K
  --m LIST             token counts M (default 1,2,4,...,8192)
Kernels
  --types LIST         mixgemm type specs act.weight.group[.out]: act f16|bf16|s8|e4m3, weight
                       u4b8|u4|u8b128|u8 (u4/u8 come with zero points), group g<size>|gch
                       (per-channel f32 scales)|gk (one group over K), out f16|bf16;
                       `default` (the default) = f16.u4b8.g128, bf16.u4b8.g128, s8.u4b8.g128,
                       e4m3.u4b8.g128, f16.u4b8.gch; `all` = every standard config (--list)
  --schedule NAME      force this mixgemm schedule (default: mixgemm's heuristic)
  --all-schedules      time every supported schedule of each config (one row each)
  --baselines LIST     cublas_fp16,cublas_bf16,cublaslt_fp8,cublaslt_int8 (default: all four);
                       cublaslt_fp8_fast: cublaslt_fp8 with FAST_ACCUM (no promotion), on request
  --no-baselines       mixgemm only (ratio columns stay empty)
  --baselines-only     baselines only
  --lt-algos N         cuBLASLt heuristic candidates timed, fastest kept (default 8; 1 = top one)
  --stream-read        add rows (kernel stream_read) timing a kernel that only reads each shape's
                       int4 weights and g128 scales: the weight stream's own time at that size;
                       and rows launch_only: an empty kernel of the same grid (the fixed cost t0
                       of a launch here; the note: what t0 + floor would be as a share of the floor);
                       rows stream_read_graph / launch_only_graph: the same two kernels, 32 back to
                       back in one CUDA graph, per launch (as a decode step's graph runs them)
  --marlin             add rows (kernel marlin_w4a16) timing IST-DASLab's Marlin W4A16 kernel (f16
                       x int4, g128 and per-channel, random weights in its own layout) on the same
                       shapes and M, the same timer and cold-L2 rotation: an external reference.
                       Needs a bench built with -DMIXGEMM_BENCH_MARLIN_SOURCE=<marlin_cuda_kernel.cu>
                       (scripts/build_reference_kernels.sh); refused otherwise
  --qqq                add rows (kernel qqq_w4a8) timing QQQ's W4A8 kernel (s8 x int4 with token and
                       channel scales, QQQ's g128 and per-channel modes) the same way; needs
                       -DMIXGEMM_BENCH_QQQ_SOURCE=<qqq_gemm.cu> (scripts/build_reference_kernels.sh)
  --partial-sums       the mixgemm rows time gemm_partial_sums (the S split-K partial sums [S, M, N]
                       that a caller adds, no reduction launch, no epilogue) instead of gemm; rows
                       without a partial-sum form say not_supported (partial_sums_count is 0)
  --row-split-at U     (U = 128 or 256) the heuristic's rows run as gemm() runs a row split with
                       head H = M - M % U (H >= 128, M - H >= 32): two gemm calls in order on the
                       stream, rows [0, H) and [H, M), each forced to choose_schedule's pick for its
                       rows; at an M without such an H the row says not_supported. Run it with
                       MIXGEMM_ROW_SPLIT=0 in the environment (refused otherwise), so that the picks
                       are one-launch picks and the split is the one asked for: the row split rule's
                       candidates timed whatever the rule would choose
Timing
  --iters N            timed runs per row, each with its own CUDA event pair (default 100)
  --warmup N           untimed runs first (default 10)
  --gap-us G           with --graph-batch: launch i of the graph becomes [prefetch] spin(G us)
                       gemm(copy i), a decode step's other kernels standing in as a G us spin
                       (one thread, no memory traffic); the row is that time minus the same graph
                       without the gemm (medians), i.e. the gemm after the gap
  --l2-prefetch-mb B   with --gap-us: an L2 prefetch kernel (cp.async.bulk.prefetch.L2)
                       of up to B MB of copy i's group scales, zero points and weights before the
                       spin (0: none, the cold baseline); session 40's experiment, no gain
  --graph-batch N      time each row (mixgemm and baselines) as N launches back to back in one
                       CUDA graph, the replay between one event pair, divided by N (a decode
                       step's graph; the cold-L2 rotation goes on inside the graph). --iters
                       replays after the usual warm-up and settle (default 0: one event pair per
                       launch)
  --settle-ms X        after the warm-up, run the row's kernel back to back for at least X ms
                       before its timed runs, for every row alike (mixgemm and baselines): each
                       row is timed in the sustained state, where the board's power limit sets
                       the clock (default 300; 0: off)
  --idle-ms X          leave the GPU idle for X ms before each row's warm-up, for every row
                       alike: each row starts from a rested GPU (default 0: off). Without either,
                       a row's state depends on what ran before it (e.g. --verify idles the GPU
                       before each mixgemm row, not before the baselines)
  --cold-l2 MODE       rotate (default): rotate among copies of all inputs/outputs covering
                       >= 3x L2; flush: write a 2x-L2 buffer before each run (not timed);
                       off: same buffers every run (warm L2)
  --copy-gib X         size of the device-to-device copy that measures bandwidth (default 2)
  --green-sms N        run everything (the copy bandwidth, baselines, mixgemm) on a stream of a CUDA
                       green context owning N SMs (the driver rounds up: 8 SMs on Hopper); mixgemm
                       plans for them (GemmArgs::sm_count). An H100 on 96 SMs streams about the bytes
                       per SM of an H200 on 132 (docs/performance.md, "An H100 standing in")
Checks and extras
  --verify             check every measured mixgemm row against the CPU reference first
                       (rows/columns sub-sampled for large problems); non-zero exit on failure
  --verify-rows N      rows checked when M is larger (default 8)
  --verify-cols N      columns checked when N is larger, in 64-column windows (default 512)
  --fp8-promotion-k N  e4m3 tolerance: the kernels add the tensor-core partial sums into f32
                       at least every N k; 0: never (the loosest bound); auto (default): 1 for
                       smallm* schedules (f16 HMMA, f32 accumulation), 0 for the others
  --prepack-bench      also time mixgemm::prepack on 57344 x 8192 int4 (GB/s, % of copy bandwidth)
  --unit-group-scales  a diagnostic: every group scale 1 (f16/bf16 1.0, s8 1), so that the weights
                       reaching the tensor cores are the integers q - bias (or q - z), as in
                       per-channel mode, e.g. to tell how the operands' values move the time at the
                       power limit. Outputs are larger (not O(1)) for 16-bit activations; every
                       row is still verified as usual with --verify
Output
  --csv PATH           one row per (shape, M, kernel)
  --json PATH          device, versions, git commit, command line, copy bandwidth, all rows
  --git-commit STR     recorded commit (default: $MIXGEMM_GIT_COMMIT, else the build's
                       MIXGEMM_GIT_COMMIT definition, else `git` on the source tree, else "unknown")
  --device N           CUDA device (default 0)
  --seed N             random seed of the inputs (default 1)
  --quiet              no progress on stderr
  --time-limit S       start no new (shape, kernel) sweep after S seconds; what was measured is
                       reported as usual (default 0: no limit)
  --summary-m LIST     M columns of the summary printed last (default 1,16,128,1024,8192; none: no summary)
  --list               print the shape sets and type configs, then exit
  --plan               print the schedule gemm() would choose for every shape x type x M of the
                       command line (this build's instances, mixgemm::describe_plan), as CSV,
                       then exit; measures nothing and needs no GPU
  --host-cost          time, for every shape x type x M of the command line, the host work gemm() does
                       before its launch: the argument checks, the heuristic's plan and every launch's
                       can_implement (fake aligned pointers, never dereferenced; without
                       cudaPointerGetAttributes and the launch itself), as CSV in microseconds per call,
                       then exit; needs no GPU
  --sm-count N         the SM count --plan assumes (default 132: H100 SXM, H200); --host-cost plans
                       for the current device's, as gemm() does (132 without a device)
  -h, --help           this text
Exit status: 0 ok; 1 a verification failed, an output was not finite, or a CUDA/cuBLAS call
failed; 2 bad command line; 3 no GPU.
)";
}

inline std::vector<int64_t> parse_int_list(std::string_view flag, std::string_view list, int64_t min_value) {
  std::vector<int64_t> out;
  for (const auto& item : split(list, ',')) {
    int64_t v = 0;
    if (!parse_int64(item, v) || v < min_value)
      throw std::invalid_argument(std::string(flag) + ": '" + item + "' is not an integer >= " + std::to_string(min_value));
    out.push_back(v);
  }
  if (out.empty()) throw std::invalid_argument(std::string(flag) + ": empty list");
  return out;
}

// The promotion interval the e4m3 tolerance assumes for a schedule (see --fp8-promotion-k): auto (-1)
// takes 1 for smallm (f16 HMMA on e4m3 values), the compiled interval of an sm90 schedule
// (kernels::sm90_e4m3_promotion_k: 128 on the block-issue tiles, 0 on 128 x 256), 0 otherwise.
inline int64_t fp8_promotion_for(int64_t option, const std::string& schedule) {
  if (option >= 0) return option;
  if (schedule.rfind("smallm", 0) == 0) return 1;
  kernels::Sm90Config cfg;
  return kernels::sm90_parse_name(schedule, &cfg) ? kernels::sm90_e4m3_promotion_k(cfg) : 0;
}

inline std::string shell_quote(std::string_view s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,/:@%") ==
                        std::string_view::npos)
    return std::string(s);
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

inline Options parse_options(const std::vector<std::string>& args) {
  Options o;
  std::string cmd;
  for (const auto& a : args) cmd += (cmd.empty() ? "" : " ") + shell_quote(a);
  o.command_line = cmd;

  bool types_given = false, baselines_flag = false, no_baselines = false, baselines_only = false;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string flag = args[i];
    std::string value;
    bool has_inline = false;
    if (flag.rfind("--", 0) == 0) {
      const size_t eq = flag.find('=');
      if (eq != std::string::npos) {
        value = flag.substr(eq + 1);
        flag = flag.substr(0, eq);
        has_inline = true;
      }
    }
    const auto take = [&]() -> std::string {
      if (has_inline) return value;
      if (i + 1 >= args.size()) throw std::invalid_argument(flag + " needs a value");
      return args[++i];
    };
    const auto no_value = [&]() {
      if (has_inline) throw std::invalid_argument(flag + " takes no value");
    };
    const auto take_int = [&](int64_t min_value) -> int64_t {
      const std::string v = take();
      int64_t x = 0;
      if (!parse_int64(v, x) || x < min_value)
        throw std::invalid_argument(flag + ": '" + v + "' is not an integer >= " + std::to_string(min_value));
      return x;
    };

    if (flag == "-h" || flag == "--help") { no_value(); o.help = true; }
    else if (flag == "--list") { no_value(); o.list = true; }
    else if (flag == "--plan") { no_value(); o.plan = true; }
    else if (flag == "--host-cost") { no_value(); o.host_cost = true; }
    else if (flag == "--sm-count") {
      const int64_t n = take_int(1);
      if (n > 1024) throw std::invalid_argument("--sm-count: " + std::to_string(n) + " is larger than 1024");
      o.plan_sm_count = static_cast<int>(n);
    }
    else if (flag == "--m" || flag == "--M") o.m_list = parse_int_list(flag, take(), 1);
    else if (flag == "--shapes") {
      o.sets.clear();
      for (const auto& s : split(take(), ',')) {
        if (s.empty()) continue;
        if (s != "none") (void)shape_set(s, 1);  // validates the name
        o.sets.push_back(s);
      }
      if (o.sets.empty()) throw std::invalid_argument("--shapes: empty list");
    }
    else if (flag == "--shape") o.custom_shapes.push_back(parse_custom_shape(take()));
    else if (flag == "--tp") {
      o.tps.clear();
      for (int64_t t : parse_int_list(flag, take(), 1)) {
        if (t > 64) throw std::invalid_argument("--tp: " + std::to_string(t) + " is larger than 64");
        o.tps.push_back(static_cast<int>(t));
      }
    }
    else if (flag == "--types") { o.types = parse_type_list(take()); types_given = true; }
    else if (flag == "--schedule") o.schedule = take();
    else if (flag == "--all-schedules") { no_value(); o.all_schedules = true; }
    else if (flag == "--baselines") {
      baselines_flag = true;
      o.baselines.clear();
      for (const auto& s : split(take(), ',')) {
        if (s.empty() || s == "none") continue;
        const Baseline b = parse_baseline(s);
        bool dup = false;
        for (Baseline x : o.baselines) dup = dup || x == b;
        if (!dup) o.baselines.push_back(b);
      }
    }
    else if (flag == "--no-baselines") { no_value(); no_baselines = true; }
    else if (flag == "--baselines-only") { no_value(); baselines_only = true; }
    else if (flag == "--lt-algos") o.lt_algos = static_cast<int>(take_int(1));
    else if (flag == "--iters") o.iters = static_cast<int>(take_int(1));
    else if (flag == "--graph-batch") {
      o.graph_batch = static_cast<int>(take_int(1));
      if (o.graph_batch > 1024) throw std::invalid_argument("--graph-batch: at most 1024 launches per graph");
    }
    else if (flag == "--warmup") o.warmup = static_cast<int>(take_int(0));
    else if (flag == "--settle-ms") o.settle_ms = static_cast<double>(take_int(0));
    else if (flag == "--idle-ms") o.idle_ms = static_cast<double>(take_int(0));
    else if (flag == "--gap-us") o.gap_us = static_cast<double>(take_int(0));
    else if (flag == "--l2-prefetch-mb") o.prefetch_mb = static_cast<double>(take_int(0));
    else if (flag == "--cold-l2") {
      const std::string v = take();
      if (v == "rotate") o.cold_l2 = ColdL2::kRotate;
      else if (v == "flush") o.cold_l2 = ColdL2::kFlush;
      else if (v == "off") o.cold_l2 = ColdL2::kOff;
      else throw std::invalid_argument("--cold-l2: '" + v + "' is not rotate, flush or off");
    }
    else if (flag == "--green-sms") {
      const int64_t n = take_int(1);
      if (n > 1024) throw std::invalid_argument("--green-sms: " + std::to_string(n) + " is larger than 1024");
      o.green_sms = static_cast<int>(n);
    }
    else if (flag == "--copy-gib") {
      const std::string v = take();
      char* end = nullptr;
      const double x = std::strtod(v.c_str(), &end);
      if (v.empty() || end != v.c_str() + v.size() || !(x >= 0.25 && x <= 64))
        throw std::invalid_argument("--copy-gib: '" + v + "' is not a number in [0.25, 64]");
      o.copy_gib = x;
    }
    else if (flag == "--verify") { no_value(); o.verify = true; }
    else if (flag == "--verify-rows") o.verify_rows = static_cast<int>(take_int(1));
    else if (flag == "--verify-cols") o.verify_cols = static_cast<int>(take_int(64));
    else if (flag == "--fp8-promotion-k") {
      const std::string v = has_inline ? value : (i + 1 < args.size() ? args[i + 1] : "");
      if (v == "auto") {
        (void)take();
        o.fp8_promotion_k = -1;
      } else {
        o.fp8_promotion_k = take_int(0);
      }
    }
    else if (flag == "--prepack-bench") { no_value(); o.prepack_bench = true; }
    else if (flag == "--stream-read") { no_value(); o.stream_read = true; }
    else if (flag == "--marlin") { no_value(); o.marlin = true; }
    else if (flag == "--qqq") { no_value(); o.qqq = true; }
    else if (flag == "--partial-sums") { no_value(); o.partial_sums = true; }
    else if (flag == "--row-split-at") {
      o.row_split_at = take_int(128);
      if (o.row_split_at != 128 && o.row_split_at != 256) throw std::invalid_argument("--row-split-at takes 128 or 256");
    }
    else if (flag == "--unit-group-scales") { no_value(); o.unit_group_scales = true; }
    else if (flag == "--csv") o.csv_path = take();
    else if (flag == "--json") o.json_path = take();
    else if (flag == "--git-commit") o.git_commit = take();
    else if (flag == "--device") o.device = static_cast<int>(take_int(0));
    else if (flag == "--seed") o.seed = static_cast<uint64_t>(take_int(0));
    else if (flag == "--quiet") { no_value(); o.quiet = true; }
    else if (flag == "--time-limit") o.time_limit_s = take_int(0);
    else if (flag == "--summary-m") {
      const std::string v = take();
      if (v == "none") o.summary_m.clear();
      else o.summary_m = parse_int_list(flag, v, 1);
    }
    else throw std::invalid_argument("unknown flag '" + args[i] + "' (see --help)");
  }

  if (no_baselines && baselines_only) throw std::invalid_argument("--no-baselines and --baselines-only exclude each other");
  if (no_baselines && baselines_flag) throw std::invalid_argument("--no-baselines and --baselines exclude each other");
  if (no_baselines) o.baselines.clear();
  if (baselines_only) {
    o.run_mixgemm = false;
    if (o.baselines.empty()) throw std::invalid_argument("--baselines-only with an empty --baselines list");
    if (o.verify) throw std::invalid_argument("--verify checks mixgemm rows; it makes no sense with --baselines-only");
  }
  if (o.gap_us >= 0 && o.graph_batch <= 0) throw std::invalid_argument("--gap-us needs --graph-batch");
  if (o.partial_sums && o.verify)
    throw std::invalid_argument("--verify checks gemm's output; --partial-sums rows have none (the GPU tests check them)");
  if (o.row_split_at && o.partial_sums) throw std::invalid_argument("--row-split-at times gemm; --partial-sums has no split");
  if (o.row_split_at) {
    const char* env = std::getenv("MIXGEMM_ROW_SPLIT");
    if (!env || std::string(env) != "0")
      throw std::invalid_argument("--row-split-at needs MIXGEMM_ROW_SPLIT=0 in the environment (the slices' picks must be one-launch picks)");
  }
  if (o.row_split_at && (!o.schedule.empty() || o.all_schedules))
    throw std::invalid_argument("--row-split-at splits the heuristic's rows; it excludes --schedule / --all-schedules");
  if (o.prefetch_mb > 0 && o.gap_us < 0) throw std::invalid_argument("--l2-prefetch-mb needs --gap-us");
  if (!o.schedule.empty() && o.all_schedules)
    throw std::invalid_argument("--schedule and --all-schedules exclude each other");
  if (!types_given) o.types = parse_type_list("default");
  if (o.sets.empty() && o.custom_shapes.empty()) o.sets = {"seed"};
  // Fail on impossible tp splits now, not in the middle of a run.
  (void)expand_shapes(o.sets, o.tps, o.custom_shapes);
  return o;
}

inline Options parse_options(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  return parse_options(args);
}

// Text of --list.
inline std::string list_text(const std::vector<int>& tps) {
  std::ostringstream os;
  os << "shape sets (N x K; tp splits N of qkv/gate_up and K of o/down):\n";
  for (const auto& set : known_set_names()) {
    const std::vector<int> set_tps = set == "seed" ? std::vector<int>{1} : tps;
    for (int tp : set_tps) {
      std::vector<Shape> shapes;
      try {
        shapes = shape_set(set, tp);
      } catch (const std::exception& e) {
        os << "  " << set << " tp=" << tp << ": " << e.what() << "\n";
        continue;
      }
      for (const auto& s : shapes)
        os << "  " << s.name << (set == "seed" ? "" : " tp=" + std::to_string(tp)) << ": N=" << s.N << " K=" << s.K << "\n";
    }
  }
  os << "type configs (--types all):";
  for (const auto& t : all_type_specs()) os << " " << t;
  os << "\ndefault (--types default):";
  for (const auto& t : default_type_specs()) os << " " << t;
  os << "\nbaselines:";
  for (Baseline b : all_baselines()) os << " " << baseline_name(b);
  os << "\n";
  return os.str();
}

}  // namespace mixgemm::bench
