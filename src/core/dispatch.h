// dispatch.h - from a validated problem to a kernel family and one of its
// schedules. The heuristic is a pure function of (problem, SM count): it lists
// the candidates every family offers, drops the ones that cannot run, and
// keeps the best-scored (see docs/design.md).
#pragma once

#include <string>
#include <vector>

#include "kernels/sm90/sm90.h"
#include "mixgemm/gemm.h"

namespace mixgemm::core {

// Every schedule name that can run `types`, over all kernel families, stable order.
std::vector<std::string> schedule_names(const TypeConfig& types);

// The heuristic's pick.
std::string choose(const GemmProblem& problem, int sm_count);

// choose() over a given list of sm90 tiles (choose passes the compiled instances; tests
// pass every generated tile, so their pins hold in builds that compile a subset).
std::string choose_among(const GemmProblem& problem, int sm_count, const std::vector<kernels::Sm90Config>& sm90);


// Row split (docs/design.md, "Row split"): a problem whose M fits the sm90 token tiles badly
// (e.g. M = 320: two 256-token tiles, 37% of them padding, or three 128-token ones) runs as
// two launches in order on the stream, rows [0, head) and [head, M), each with the heuristic's
// own pick. Returns head, or 0 for one launch: head is M rounded down to a multiple of 256 or
// of 128 (at least 128, leaving at least kRowSplitMinTail rows), where the one launch does not
// run whole 128- or 256-token tiles already and the sm90 ranking model predicts both launches
// together (each with its launch cost; an 8-bit tail of <= 64 rows halfway to the 16-bit
// model's price) plus kRowSplitSecondLaunchUs under the one launch. choose_row_split is what
// gemm() runs (0 with MIXGEMM_ROW_SPLIT=0); the _among form, for the tests, is pure and ignores
// the switch.
int64_t choose_row_split(const GemmProblem& problem, int sm_count);
int64_t choose_row_split_among(const GemmProblem& problem, int sm_count, const std::vector<kernels::Sm90Config>& sm90);
inline constexpr int64_t kRowSplitMinTail = 32;
// The head a split on `unit`-token tiles (256 or 128) would take: M rounded down to a multiple
// of unit, where that leaves at least 128 rows in the head and kRowSplitMinTail in the tail;
// else 0. choose_row_split_among considers the 256 head, then the 128 one.
int64_t row_split_head(int64_t M, int64_t unit);
// What running the tail after the head costs beyond the tail alone (the second launch's ramp
// cannot hide under the first one's drain), with the model's error folded in: the split is
// taken where the model's two launches plus this undercut the one launch. Session 33 measured
// the cost itself (split - head alone - tail alone: median 5.1 us, quartiles 2.2 / 7.7) and
// priced it at 6 us under a 0.95 margin. Session 54 timed both heads and the one launch at 864
// points on the tail-box kernels (bench/results/2026-12-03-h200/s54-rowsplit/, f16 / s8 / e4m3,
// Llama-2-7B, Llama-3-8B, Llama-2-70B, seed, M = 160..3136): 10 us and no margin ranks best,
// in each model set held out in turn and on 576 points of other layers (the relative margin
// kept splits worth 1-3% at M >= 1024 from being taken, where 5% of the launch is tens of
// microseconds).
inline constexpr double kRowSplitSecondLaunchUs = 10.0;

// False where MIXGEMM_ROW_SPLIT=0 is set in the environment (read once; for A/B timing in one
// build): gemm() then runs every problem in one launch.
bool row_split_enabled();

// One launch of a gemm() call: rows [m0, m0 + rows) of the call with `schedule`.
struct PlannedLaunch {
  int64_t m0 = 0, rows = 0;
  std::string schedule;
};
// The launches gemm() makes for a validated call, in stream order: one over all rows (the forced
// schedule, or the heuristic's pick), or, where the pick is sm90 and choose_row_split says so, the
// row split's two, each with the heuristic's pick for its rows. Pure host logic, no CUDA call.
std::vector<PlannedLaunch> plan_call(const GemmArgs& args, int sm_count);
// Throws kNotSupported, naming the schedule and the reason, where a planned launch cannot run
// these arguments: its kernel family's can_implement on the launch's rows (for smallm, on every
// 64-token slab). gemm() checks every launch of a call before the first one runs, so a refused
// call writes nothing. Pure host logic, no CUDA call.
void require_runnable(const GemmArgs& args, const PlannedLaunch& launch, int sm_count);

// Rows [m0, m0 + rows) of a call: the same weights, scales and workspace; a, out and the token
// scales advanced by m0 rows.
GemmArgs row_slice(const GemmArgs& args, int64_t m0, int64_t rows);

// The kernel families' parameters of a call (the one translation of GemmArgs that every launch and
// can_implement uses; sm_count: the SMs the partition plans for).
kernels::GemmParams params_of(const GemmArgs& args, int sm_count);

// Workspace bytes on a GPU with `sm_count` SMs: the maximum over every schedule the
// caller may force and over the row slices gemm may run (pure). What gemm() asks of a call.
size_t workspace_bytes(const GemmProblem& problem, int sm_count);

// What workspace_size() answers: the maximum of workspace_bytes over every M' <= problem.M, so
// that one workspace sized for an engine's largest batch serves every smaller one. workspace_bytes
// alone is not monotone in M (a split-K or stream-K launch needs partial tiles only while the
// tiles do not fill the SMs: Llama-3-8B's 6144 x 4096 needs 33 MiB at M = 768 and 24 MiB at 769).
// Costs up to a few hundred workspace_bytes evaluations (M = 8192: ~190): a setup-time query.
size_t workspace_bytes_up_to(const GemmProblem& problem, int sm_count);

// Launches `schedule` (a name of schedule_names that require_runnable accepted) on args.stream.
void launch(const GemmArgs& args, const std::string& schedule, int sm_count);

// gemm_partial_sums (include/mixgemm/gemm.h): the decode schedule it runs, `schedule` when given,
// else the heuristic's pick, and that schedule's number of parts S (smallm_partial_sums_count);
// parts = 0 when the schedule has no partial-sum form (sm90, token tiles of 32 / 64, M > 16, or
// fewer than two CTAs per stripe). Pure.
struct PartialSumsPlan {
  std::string schedule;
  int64_t parts = 0;
};
PartialSumsPlan plan_partial_sums(const GemmProblem& problem, const std::string& schedule, int sm_count);

// Launches a plan with parts >= 2 on args.stream, writing [S, M, N] raw sums to `parts`.
void launch_partial_sums(const GemmArgs& args, const std::string& schedule, void* parts, int sm_count);

// Tokens one smallm launch serves; gemm runs larger M as row slabs of this many, in order
// on the stream (they share the workspace, which every launch leaves zeroed).
inline constexpr int64_t kSmallmSlabTokens = 64;

// Family choice (docs/design.md, "The heuristic"): M <= 16 (grouped e4m3: M <= 8) runs
// smallm (decode; large layers run sm90's 256 x 16 there since session 79: kSm90DecodeMinWeights below);
// M > kSm90MinTokens runs the sm90 wgmma family when it can; in between
// the two time models decide, and sm90 must be predicted at least 4% faster (the margin
// absorbs the models' residuals, -8..+10% for sm90). Since the 256 x 64 tile, sm90 measured
// faster at M = 24..48 on all nine shapes tried (bench/results/2026-11-30-h200/s4-round2/
// xover.csv) and the models agree at every one of them. Since session 66 sm90's time there is
// its pick's time in sm90's ranking model (kRankA16 / kModelS8; e4m3 still kModelA16):
// bench/results/2026-12-04-h200/s66-xover/.
inline constexpr int64_t kSmallmOnlyTokens = 16;
inline constexpr int64_t kSm90MinTokens = 64;
inline constexpr double kSm90Margin = 0.96;
// W4A8 (s8, e4m3) follows the same rule: sm90 measured faster than every smallm schedule at
// M = 24..64 on the same shapes (s4-round3/xover-a8.csv).
// e4m3 with group scales compares the models from M = 9: its smallm conversion (f16 group
// scale, then e4m3, then f16 again for the f16 tensor cores) makes the best sm90 schedule
// 0.77-0.95x the best smallm one at M = 12 and 16 on 8 of 9 shapes, and 0.96-1.11x at M = 8
// (bench/results/2026-12-01-h200/s17-crossover/, every schedule, seed + Llama-2-70B +
// Llama-3-8B). Per-channel e4m3 and the other types keep smallm to M = 16 (there sm90 is
// 0.85-0.97x only on Llama-3-8B o / down for s8, where the models disagree with the bench).
inline constexpr int64_t kSmallmOnlyTokensE4m3Grouped = 8;
// Narrow layers (session 67): where smallm's geometry is stripe-aligned, smallm serves M <= 32
// (16-bit and s8 activations; dispatch.cpp, choose_among).
inline constexpr int64_t kSmallmAlignedTokens = 32;
// Narrow layers above that (session 68): at kSmallmAlignedTokens < M <= kSm90MinTokens (e4m3: from
// kSmallmOnlyTokens + 1, which the rule above does not cover), where a
// 4-bit-weight smallm schedule of token tile >= 16 is stripe-aligned, the best of them by smallm's
// narrow-layer model (smallm_narrow_config: several token tiles allowed) runs unless sm90's pick is
// faster, its ranked time scaled by these factors: the geometric mean of its measured time (CUDA
// graphs and event-timed alike) over its ranked time on the same table of narrow layers, M = 16..64
// (60 points per type; 0.78-1.22x of it for f16, 0.87-1.12x s8, 0.86-1.25x e4m3). bench/results/
// 2026-12-04-h200/s68-narrow/.
inline constexpr double kNarrowRankScaleA16 = 0.885;
inline constexpr double kNarrowRankScaleS8 = 1.10;
inline constexpr double kNarrowRankScaleE4m3 = 1.11;
// Large layers at decode (session 79): sm90's 256 x 16 tile (one 16-token tile, two m64 atoms per consumer
// warpgroup) runs instead of smallm for 16-bit activations x 4-bit weights at kSmallmOnlyTokens / 2 < M <=
// kSmallmOnlyTokens (smallm's TM 16), for per-channel e4m3 at the same M (since session 80) and for grouped e4m3
// at M <= kSmallmOnlyTokens (TM 8 since session 79, TM 16's M = 9..16 since session 83),
// where the layer holds at least kSm90DecodeMinWeights weights (N x K). Measured on an H100 in CUDA graphs
// (bench/results/2026-12-05-h100/s79-narrow/, 256 x 16 forced against the pick): 16-bit at M = 16, f16 / bf16
// g128 and f16 per-channel on Llama-3-405B and Llama-2-70B at tp 1..8 and 13 tp-1 layers: 0.939x the time over
// the 90 moved points (0.85-1.06x); below the threshold 256 x 16 took 1.06-1.49x smallm's time. Grouped e4m3 at
// M = 1 / 8 on the 13 layers: 0.927x over 20 moved points (0.83-1.06x; 1.07-1.24x below it). On #6's shapes with
// the rule on / off in one build (s79-decode-ab/): 0.85-0.90x event-timed, 0.87-0.94x in graphs. 26 Mi lies
// between the largest layer where 256 x 16 lost (Llama-3-8B qkv, 6144 x 4096 = 24 Mi) and the smallest where it
// won (Llama-2-70B down at tp 8, 8192 x 3584 = 28 Mi). Session 80 (2026-12-05-h100/s80-decode-types/, the same
// method on 11 layers of 32-448 Mi weights and 2 below): per-channel e4m3 at M = 16 0.946x (0.87-1.07x), so it
// joins the rule at M = 9..16 (on / off on #6's shapes, s80-decode-ab/: 0.934x event-timed, 0.956x in graphs); f16
// u4 + zero points and bf16 per-channel, which the rule already covered unmeasured, 0.868x / 0.952x. Not moved: f16 at M <= 8 (256 x 16 1.03x smallm's time above the threshold; f16 u4 + zero points
// 1.00x), s8 (1.06x; per-channel 1.02-1.07x), per-channel e4m3 at M <= 8 (1.02x) and 8-bit weights (0.99-1.02x at
// M = 1..16, with points from 0.91x to 1.12x). On the H200 (session 81, 2026-12-05-h200/s81-decode-ab/, s81-narrow/):
// on / off on #6's shapes 0.84-0.92x event-timed, 0.88-0.90x in graphs; below 26 Mi 256 x 16 took 1.11-1.26x
// smallm's time. Session 83 (2026-12-05-h100/s83-e4m3-m16/, an H100): grouped e4m3 at M = 9..16 on the 16 layers of
// >= 26 Mi weights where the crossover picked smallm's TM 16 (9 layers) or sm90's 128 x 64 (7): 256 x 16 took 0.827x
// / 0.947x the TM 16 picks' time (event-timed / CUDA graphs, 21 points; 0.76-0.92x / 0.84-1.08x) and 0.988x / 0.992x
// the 128 x 64 picks' (0.94-1.04x), so the rule covers grouped e4m3 to M = 16. Session 85 (bench/results/2026-12-06-cpu/
// s85-s8m16/): grouped s8 split by M on the H200 table of s81-narrow/ gains at M = 16 on layers of >= 64 Mi
// (0.954x over seven), but not on the H100 table of s79-narrow/ (0.999x); its held-out A/B on an H100
// (2026-12-06-h100/s85-ab-s8m16/, M = 12 / 16, 15 layers) took 0.968x the time event-timed but 1.027x in CUDA graphs
// (worst 1.14x): s8 stays on smallm (an H200 A/B, 2026-12-06-h200/s85-next/ab_s8m16.sh, is still open). MIXGEMM_SM90_DECODE=0 in the environment turns the rule off (read once; for A/B timing in one build).
inline constexpr int64_t kSm90DecodeMinWeights = int64_t{26} << 20;
bool sm90_decode_enabled();

// How sm90 launches split K: kernels::sm90_split's choice (auto, the default) or, for A/B timing in one build,
// MIXGEMM_SM90_SPLIT=splitk / stream in the environment (read once; any other value is refused by gemm() and
// workspace_size() with a message naming the variable). The workspace query and the launch read the same mode.
kernels::Sm90SplitMode sm90_split_mode();
// The mode a MIXGEMM_SM90_SPLIT value names (nullptr or "" or "auto": kAuto); false for any other text.
bool parse_sm90_split_mode(const char* text, kernels::Sm90SplitMode* mode);

// SM count assumed by workspace_size() when no CUDA device can be queried (H100/H200 SXM).
inline constexpr int kDefaultSmCount = 132;

}  // namespace mixgemm::core
