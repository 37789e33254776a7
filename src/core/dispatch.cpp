#include "core/dispatch.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "core/check.h"
#include "core/env_switch.h"
#include "core/problem.h"
#include "kernels/sm90/sm90.h"
#include "kernels/smallm/smallm.h"

namespace mixgemm::core {

kernels::GemmParams params_of(const GemmArgs& args, int sm_count) {
  const GemmProblem& p = args.problem;
  kernels::GemmParams k{};
  k.M = static_cast<int32_t>(p.M);
  k.N = static_cast<int32_t>(p.N);
  k.K = static_cast<int32_t>(p.K);
  k.lda = args.lda;
  k.ldo = args.ldo;
  k.a_type = to_kernel(p.types.a);
  k.b_type = to_kernel_b(p.types.b);
  k.out_type = to_kernel_out(p.types.out);
  k.has_zeros = p.types.has_zeros;
  k.group_size = static_cast<int32_t>(p.group_size);
  k.a = args.a;
  k.b = args.b;
  k.group_scales = args.group_scales;
  k.group_zeros = args.group_zeros;
  k.channel_scales = args.channel_scales;
  k.token_scales = args.token_scales;
  k.bias = args.bias;
  k.out = args.out;
  k.workspace = args.workspace;
  k.workspace_bytes = args.workspace_bytes;
  k.sm_count = sm_count;
  k.pdl = args.programmatic_dependent_launch;
  return k;
}

namespace {

using kernels::Sm90Config;
using kernels::SmallmConfig;


// Tokens one smallm launch serves; larger M runs as row slabs of this many, one launch
// each, in order on the stream (they reuse the workspace, which each launch leaves zeroed).
int64_t slab_rows(int64_t M) { return std::min<int64_t>(M, kSmallmSlabTokens); }

// The pick for a call that smallm serves (M <= kSmallmOnlyTokens, or sm90 cannot run it): smallm's
// own at the problem's group size; where no smallm schedule can run it (the split-K counters or the
// row count of a layer millions of columns wide, or the stages and ring in shared memory at a small
// group size), the wgmma family's, which runs any M; refused, with each family's reason, where
// neither can.
std::string small_pick(const GemmProblem& p, int sm_count, kernels::AType a, kernels::BType b,
                       const std::vector<Sm90Config>& sm90) {
  const int64_t rows = slab_rows(p.M);
  const SmallmConfig c = kernels::smallm_default_config(rows, p.N, p.K, sm_count, a, b, p.group_size);
  if (c.token_tile != 0) return c.name();
  Sm90Config big;
  if (kernels::sm90_pick(p.M, p.N, p.K, sm_count, a, b, p.group_size, sm90, &big))
    return kernels::sm90_narrow_token_tile(p.M, big, sm90).name();
  std::string why, first;
  int refused = 0;
  for (const SmallmConfig& cfg : kernels::smallm_configs(a, b)) {
    if (cfg.token_tile < rows || kernels::smallm_shape_ok(rows, p.N, p.K, a, b, p.group_size, cfg, &why)) continue;
    if (refused++ == 0) first = why;
  }
  std::string sm90_why = "no sm90 schedule is compiled for this type config";
  if (!sm90.empty()) kernels::sm90_shape_ok(p.M, p.N, p.K, a, b, p.group_size, sm90.front(), &sm90_why);
  MIXGEMM_NOT_SUPPORTED("gemm", "no kernel can run " << p.types.name() << " at M=" << p.M << " N=" << p.N
                                << " K=" << p.K << " group_size=" << p.group_size << ": " << first << " ("
                                << refused << " smallm schedules refused, each for its own reason); sm90: "
                                << sm90_why);
}

}  // namespace

std::vector<std::string> schedule_names(const TypeConfig& types) {
  std::vector<std::string> names;
  const auto a = to_kernel(types.a);
  const auto b = to_kernel_b(types.b);
  for (const SmallmConfig& c : kernels::smallm_configs(a, b)) names.push_back(c.name());
  for (const Sm90Config& c : kernels::sm90_configs(a, b)) names.push_back(c.name());
  return names;
}

std::string choose(const GemmProblem& p, int sm_count) {
  return choose_among(p, sm_count, kernels::sm90_configs(to_kernel(p.types.a), to_kernel_b(p.types.b)));
}

std::string choose_among(const GemmProblem& p, int sm_count, const std::vector<Sm90Config>& sm90) {
  const auto a = to_kernel(p.types.a);
  const auto b = to_kernel_b(p.types.b);
  const auto smallm = kernels::smallm_configs(a, b);
  if (smallm.empty() && sm90.empty())
    MIXGEMM_NOT_SUPPORTED("gemm", "no kernel implements " << p.types.name() << " yet");
  // Above the crossover the wgmma family runs the whole problem in one launch; below it
  // (or when sm90 cannot run the shape / type) smallm does, in 64-token slabs, and where
  // smallm cannot either, sm90 runs any M (small_pick). Between kSmallmOnlyTokens (grouped e4m3: kSmallmOnlyTokensE4m3Grouped) and kSm90MinTokens the
  // time models decide (every activation type).
  Sm90Config big;
  const int64_t min_tokens = kSm90MinTokens;
  const bool grouped = p.group_size != 0 && p.group_size != p.K;
  const int64_t smallm_only = a == kernels::AType::kE4M3 && grouped ? kSmallmOnlyTokensE4m3Grouped : kSmallmOnlyTokens;
  const bool compare = p.M > smallm_only && p.M <= min_tokens && !smallm.empty();
  // Large layers at decode: sm90's 256 x 16 instead of smallm (kSm90DecodeMinWeights, dispatch.h).
  const bool tm16 = p.M > kSmallmOnlyTokens / 2 && p.M <= kSmallmOnlyTokens;  // smallm's TM 16
  const bool decode_tile = (kernels::is_a16(a) && kernels::weight_bits(b) == 4 && tm16) ||
                           (a == kernels::AType::kE4M3 && (grouped ? p.M <= kSmallmOnlyTokens : tm16));
  if (decode_tile && p.N * p.K >= kSm90DecodeMinWeights && sm90_decode_enabled()) {
    const Sm90Config t16{256, 16};
    if (std::find(sm90.begin(), sm90.end(), t16) != sm90.end() &&
        kernels::sm90_shape_ok(p.M, p.N, p.K, a, b, p.group_size, t16, nullptr))
      return t16.name();
  }
  double t_ranked = 0;  // big's time in sm90's ranking model of this activation type
  if ((p.M > min_tokens || compare) &&
      kernels::sm90_pick(p.M, p.N, p.K, sm_count, a, b, p.group_size, sm90, &big, &t_ranked)) {
    // The tile that runs: the ranked one, or at M <= 32 a narrower token tile in place of 256 x 64 (priced
    // below as the ranked tile: sm90_narrow_token_tile).
    const std::string big_name = kernels::sm90_narrow_token_tile(p.M, big, sm90).name();
    if (!compare) return big_name;
    const kernels::SmallmConfig small = kernels::smallm_default_config(p.M, p.N, p.K, sm_count, a, b, p.group_size);
    if (small.token_tile == 0) return big_name;  // no smallm schedule fits this group size
    // A narrow layer (smallm's CTAs cut to whole stripes) at M <= kSmallmAlignedTokens runs smallm
    // for 16-bit and s8 activations: there TM 32 took 0.65-0.99x sm90's time in CUDA graphs and
    // 0.74-1.06x event-timed (9 narrow layers and Llama-3-8B o, M = 24 / 32), which neither time
    // model prices (their fixed parts come from the wide layers: TM 32's is 2.2-2.8x the measured
    // time here). bench/results/2026-12-04-h200/s67-aligned/.
    if (a != kernels::AType::kE4M3 && p.M <= kSmallmAlignedTokens &&
        kernels::smallm_stripe_aligned(p.M, p.N, p.K, sm_count, a, b, small))
      return small.name();
    // Narrow layers above M = kSmallmAlignedTokens (e4m3: above kSmallmOnlyTokens; session 68):
    // smallm's narrow-layer model, which prices the partial tiles' bytes and lets TM 16 / 32 run
    // several token tiles, against sm90's ranked time scaled to what it measured on those layers
    // (kNarrowRankScale*). On eight held-out narrow layers
    // (session 68 call 2, the old crossover by an experiment switch in the same run) the 85 picks it
    // moved at M = 33..64 took 0.67-0.76x the time in CUDA graphs and 0.77-0.83x event-timed (geomean
    // per type, f16 / bf16 / s8 / e4m3; worst 1.08x / 1.10x: e4m3 t64_w4_o2 on 960 x 5120 at M = 64).
    // bench/results/2026-12-04-h200/s68-narrow/. e4m3, which the rule above leaves to the models at
    // M = 17..32, takes it from M = 17: offline its moved picks there (TM 32 -> TM 16 with two token
    // tiles on the narrowest layers, sm90 -> TM 32 on two more) took 0.86x / 0.91x the time in graphs
    // (session 67's call 3 / session 68's held-out call 1), 0.89x / 0.95x event-timed; for f16 / s8
    // the narrow model at M = 17..32 was no better than the rule (0.90-1.03x, mixed).
    if (p.M > kSmallmAlignedTokens || (a == kernels::AType::kE4M3 && p.M > kSmallmOnlyTokens)) {
      kernels::SmallmConfig narrow;
      double t_narrow = 0;
      if (kernels::smallm_narrow_config(p.M, p.N, p.K, sm_count, a, b, p.group_size, &narrow, &t_narrow)) {
        const double scale = a == kernels::AType::kS8     ? kNarrowRankScaleS8
                             : a == kernels::AType::kE4M3 ? kNarrowRankScaleE4m3
                                                          : kNarrowRankScaleA16;
        return t_narrow < scale * t_ranked ? narrow.name() : big_name;
      }
    }
    const double t_small = kernels::smallm_predicted_us(p.M, p.N, p.K, sm_count, a, b, small);
    // sm90's side is priced by its ranking model for 16-bit and s8 activations (session 66:
    // kModelA16, which priced every type alike, sent the narrow-N layers to smallm at 1.1-1.4x
    // the time); e4m3 keeps kModelA16 (its ranked time moved grouped M = 9..16 to sm90 at
    // 0.94x event-timed but 1.07x in CUDA graphs). docs/design.md, "The heuristic".
    const double t_big = a != kernels::AType::kE4M3
                             ? t_ranked
                             : kernels::sm90_predicted_us(p.M, p.N, p.K, sm_count, a, b, big);
    return t_big < kSm90Margin * t_small ? big_name : small.name();
  }
  return small_pick(p, sm_count, a, b, sm90);
}

int64_t row_split_head(int64_t M, int64_t unit) {
  const int64_t head = M - M % unit;
  return head >= 128 && M - head >= kRowSplitMinTail ? head : 0;
}

namespace {

// The head sizes choose_row_split considers: M rounded down to a multiple of 256, then of 128.
std::vector<int64_t> row_split_candidates(int64_t M) {
  std::vector<int64_t> heads;
  for (const int64_t unit : {int64_t{256}, int64_t{128}}) {
    const int64_t head = row_split_head(M, unit);
    if (head != 0 && (heads.empty() || heads.back() != head)) heads.push_back(head);
  }
  return heads;
}

GemmProblem with_rows(GemmProblem p, int64_t rows) {
  p.M = rows;
  return p;
}

// Workspace of one launch over all of p's rows, the maximum over every schedule.
size_t workspace_bytes_one_launch(const GemmProblem& p, int sm_count) {
  const auto a = to_kernel(p.types.a);
  const auto b = to_kernel_b(p.types.b);
  size_t bytes = 0;
  for (const SmallmConfig& c : kernels::smallm_configs(a, b))
    bytes = std::max(bytes, kernels::smallm_workspace_bytes(slab_rows(p.M), p.N, p.K, a, b, c, sm_count));
  const kernels::Sm90SplitMode split = sm90_split_mode();
  for (const Sm90Config& c : kernels::sm90_configs(a, b))
    bytes = std::max(bytes, kernels::sm90_workspace_bytes(p.M, p.N, p.K, c, sm_count, a, b, split));
  return bytes;
}

}  // namespace

int64_t choose_row_split(const GemmProblem& p, int sm_count) {
  if (!row_split_enabled()) return 0;
  return choose_row_split_among(p, sm_count, kernels::sm90_configs(to_kernel(p.types.a), to_kernel_b(p.types.b)));
}

int64_t choose_row_split_among(const GemmProblem& p, int sm_count, const std::vector<Sm90Config>& sm90) {
  if (p.M <= kSm90MinTokens) return 0;
  const auto a = to_kernel(p.types.a);
  const auto b = to_kernel_b(p.types.b);
  Sm90Config c;
  double one = 0;
  if (!kernels::sm90_pick(p.M, p.N, p.K, sm_count, a, b, p.group_size, sm90, &c, &one)) return 0;
  // The split gains by dropping padded token rows, or by moving most rows off the 64-token
  // tiles (half the MMA work per weight byte of a 128-token tile) onto 256-token ones. Where the
  // one launch already runs whole 128- or 256-token tiles (M = 384 on 128 x 128) neither holds:
  // any gain would be wave quantization, which the model prices too coarsely (measured
  // 0.84-1.08x there, s33-rowsplit/).
  if (c.tile_t >= 128 && p.M % c.tile_t == 0) return 0;
  double best = one;
  int64_t best_head = 0;
  const bool is_8bit = a == kernels::AType::kS8 || a == kernels::AType::kE4M3;
  for (const int64_t head : row_split_candidates(p.M)) {
    double t_head = 0, t_tail = 0;
    const int64_t tail = p.M - head;
    if (!kernels::sm90_pick(head, p.N, p.K, sm_count, a, b, p.group_size, sm90, &c, &t_head) ||
        !kernels::sm90_pick(tail, p.N, p.K, sm_count, a, b, p.group_size, sm90, &c, &t_tail))
      continue;
    // At <= 64 tokens the weights' conversion, not the MMA, sets the pace, and an 8-bit tail
    // alone measured 0.85-1.05x the 16-bit one where the 8-bit model says 0.6-0.85x (and the
    // 16-bit model prices 16-bit tails 1.1-1.25x high): price it halfway between the two models.
    double t_tail16 = 0;
    if (is_8bit && tail <= 64 &&
        kernels::sm90_pick(tail, p.N, p.K, sm_count, kernels::AType::kF16, b, p.group_size,
                           kernels::sm90_all_configs(kernels::AType::kF16, b), &c, &t_tail16))
      t_tail += 0.5 * std::max(0.0, t_tail16 - t_tail);
    const double t_split = t_head + t_tail + kRowSplitSecondLaunchUs;
    if (t_split < best) {
      best = t_split;
      best_head = head;
    }
  }
  return best_head;
}

bool sm90_decode_enabled() {
  static const bool enabled = !env_equals("MIXGEMM_SM90_DECODE", "0");
  return enabled;
}

bool parse_sm90_split_mode(const char* text, kernels::Sm90SplitMode* mode) {
  const std::string v = text ? text : "";
  if (v.empty() || v == "auto") *mode = kernels::Sm90SplitMode::kAuto;
  else if (v == "splitk") *mode = kernels::Sm90SplitMode::kSplitK;
  else if (v == "stream") *mode = kernels::Sm90SplitMode::kStream;
  else return false;
  return true;
}

kernels::Sm90SplitMode sm90_split_mode() {
  struct Parsed {
    const char* text;
    bool ok;
    kernels::Sm90SplitMode mode = kernels::Sm90SplitMode::kAuto;
  };
  static const Parsed env = [] {
    Parsed p{std::getenv("MIXGEMM_SM90_SPLIT"), false};
    p.ok = parse_sm90_split_mode(p.text, &p.mode);
    return p;
  }();
  MIXGEMM_REQUIRE(env.ok, "gemm", "MIXGEMM_SM90_SPLIT='" << env.text << "' in the environment is not auto, splitk or stream");
  return env.mode;
}

bool row_split_enabled() {
  static const bool enabled = !env_equals("MIXGEMM_ROW_SPLIT", "0");
  return enabled;
}

GemmArgs row_slice(const GemmArgs& args, int64_t m0, int64_t rows) {
  GemmArgs s = args;
  s.problem.M = rows;
  s.a = static_cast<const char*>(args.a) + m0 * args.lda * (args.problem.types.a.size_bits() / 8);
  s.out = static_cast<char*>(args.out) + m0 * args.ldo * (args.problem.types.out.size_bits() / 8);
  if (args.token_scales) s.token_scales = args.token_scales + m0;
  return s;
}

std::vector<PlannedLaunch> plan_call(const GemmArgs& args, int sm_count) {
  const int64_t M = args.problem.M;
  if (!args.schedule.empty()) return {{0, M, args.schedule}};
  const std::string one_launch = choose(args.problem, sm_count);
  Sm90Config big;
  const int64_t head = kernels::sm90_parse_name(one_launch, &big) ? choose_row_split(args.problem, sm_count) : 0;
  if (head == 0) return {{0, M, one_launch}};
  return {{0, head, choose(with_rows(args.problem, head), sm_count)},
          {head, M - head, choose(with_rows(args.problem, M - head), sm_count)}};
}

void require_runnable(const GemmArgs& args, const PlannedLaunch& launch, int sm_count) {
  const GemmArgs call = launch.rows == args.problem.M ? args : row_slice(args, launch.m0, launch.rows);
  std::string why;
  Sm90Config big;
  if (kernels::sm90_parse_name(launch.schedule, &big)) {
    if (!kernels::sm90_can_implement(params_of(call, sm_count), big, &why, sm90_split_mode()))
      MIXGEMM_NOT_SUPPORTED("gemm", "schedule " << launch.schedule << " cannot run this problem: " << why);
    return;
  }
  SmallmConfig cfg;
  if (!kernels::smallm_parse_name(launch.schedule, &cfg))
    MIXGEMM_NOT_SUPPORTED("gemm", "schedule '" << launch.schedule << "' has no kernel");
  // The slabs differ only in their rows (a, out and tok advance by whole rows, which keeps their
  // alignment), but each is checked: the last one may hold fewer tokens.
  for (int64_t m0 = 0; m0 < call.problem.M; m0 += kSmallmSlabTokens) {
    const GemmArgs slab = row_slice(call, m0, std::min<int64_t>(kSmallmSlabTokens, call.problem.M - m0));
    if (!kernels::smallm_can_implement(params_of(slab, sm_count), cfg, &why))
      MIXGEMM_NOT_SUPPORTED("gemm", "schedule " << launch.schedule << " cannot run this problem"
                                    << (call.problem.M > kSmallmSlabTokens
                                            ? " (its launch for rows [" + std::to_string(m0) + ", " +
                                                  std::to_string(std::min<int64_t>(m0 + kSmallmSlabTokens, call.problem.M)) + "))"
                                            : std::string())
                                    << ": " << why);
  }
}

size_t workspace_bytes(const GemmProblem& p, int sm_count) {
  size_t bytes = workspace_bytes_one_launch(p, sm_count);
  for (const int64_t head : row_split_candidates(p.M)) {
    bytes = std::max(bytes, workspace_bytes_one_launch(with_rows(p, head), sm_count));
    bytes = std::max(bytes, workspace_bytes_one_launch(with_rows(p, p.M - head), sm_count));
  }
  return bytes;
}

size_t workspace_bytes_up_to(const GemmProblem& p, int sm_count) {
  // Every M' <= kSmallmSlabTokens on its own (smallm's token tiles and the narrow sm90 tiles change there with every
  // few tokens). Above it smallm runs 64-token slabs (the need at M' = kSmallmSlabTokens, counted in that loop), and
  // an sm90 schedule's need depends on M' only through its token-tile count ceil(M' / tile_t): it is constant on the
  // intervals ((j - 1) tile_t, j tile_t], so j tile_t (and M for the last, partial interval) stands for every M' of
  // its interval, schedule by schedule (one step per schedule: with the 16-token tile a common step would price every
  // schedule 16 tokens apart, ~3x the work at large M). The row slices' launches run M' < M rows, so the one-launch
  // needs cover them.
  size_t bytes = 0;
  const int64_t small = std::min<int64_t>(p.M, kSmallmSlabTokens);
  for (int64_t m = 1; m <= small; ++m) bytes = std::max(bytes, workspace_bytes_one_launch(with_rows(p, m), sm_count));
  if (p.M > small) {
    const kernels::Sm90SplitMode split = sm90_split_mode();
    const auto a = to_kernel(p.types.a);
    const auto b = to_kernel_b(p.types.b);
    for (const Sm90Config& c : kernels::sm90_configs(a, b)) {
      for (int64_t m = (small / c.tile_t + 1) * c.tile_t; m < p.M; m += c.tile_t)
        bytes = std::max(bytes, kernels::sm90_workspace_bytes(m, p.N, p.K, c, sm_count, a, b, split));
      bytes = std::max(bytes, kernels::sm90_workspace_bytes(p.M, p.N, p.K, c, sm_count, a, b, split));
    }
  }
  return bytes;
}

void launch(const GemmArgs& args, const std::string& schedule, int sm_count) {
  // require_runnable has checked every launch of the call; launch_sm90 / launch_smallm check
  // their own arguments once more and throw rather than launch a kernel that cannot run them.
  Sm90Config big;
  if (kernels::sm90_parse_name(schedule, &big)) {
    kernels::launch_sm90(params_of(args, sm_count), big, args.stream, sm90_split_mode());
    return;
  }
  SmallmConfig cfg;
  if (!kernels::smallm_parse_name(schedule, &cfg))
    MIXGEMM_NOT_SUPPORTED("gemm", "schedule '" << schedule << "' has no kernel");
  const int64_t M = args.problem.M;
  for (int64_t m0 = 0; m0 < M; m0 += kSmallmSlabTokens) {
    kernels::GemmParams s = params_of(row_slice(args, m0, std::min<int64_t>(kSmallmSlabTokens, M - m0)), sm_count);
    s.pdl = s.pdl && m0 == 0;  // later slabs follow this call's own launches
    kernels::launch_smallm(s, cfg, args.stream);
  }
}

PartialSumsPlan plan_partial_sums(const GemmProblem& p, const std::string& schedule, int sm_count) {
  PartialSumsPlan plan;
  plan.schedule = schedule.empty() ? choose(p, sm_count) : schedule;
  SmallmConfig cfg;
  if (p.M > kSmallmSlabTokens || !kernels::smallm_parse_name(plan.schedule, &cfg)) return plan;
  plan.parts = kernels::smallm_partial_sums_count(p.M, p.N, p.K, to_kernel(p.types.a), to_kernel_b(p.types.b),
                                                  p.group_size, p.types.has_zeros, cfg, sm_count);
  return plan;
}

void launch_partial_sums(const GemmArgs& args, const std::string& schedule, void* parts, int sm_count) {
  SmallmConfig cfg;
  if (!kernels::smallm_parse_name(schedule, &cfg))
    MIXGEMM_NOT_SUPPORTED("gemm_partial_sums", "schedule '" << schedule << "' has no partial-sum form");
  kernels::GemmParams k = params_of(args, sm_count);
  k.partial_sums = parts;
  std::string why;
  if (!kernels::smallm_can_implement(k, cfg, &why))
    MIXGEMM_NOT_SUPPORTED("gemm_partial_sums", "schedule " << schedule << " cannot run this problem: " << why);
  kernels::launch_smallm(k, cfg, args.stream);
}

}  // namespace mixgemm::core
