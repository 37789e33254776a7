// sm90_heuristic.cpp - the sm90 family's schedules, legality, work split and time
// model: pure host arithmetic (no CUDA call), unit-tested on the CPU.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>

#include "kernels/sm90/sm90.h"
#include "kernels/sm90/sm90_instances.h"
#include "kernels/workspace_layout.h"

namespace mixgemm::kernels {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The H200 time model's constants: the time one CTA spends per 64-k block for each token
// tile (~flat below 128 tokens: the conversion and the wgmma latency, not the tensor-core
// rate, set it there), a fixed cost per unit (pipeline fill + epilogue), the split-K partial
// traffic per SM, and the 256 x 64 tile's block and partial factors (in 128 x 64 terms).
struct TimeModel {
  double block_ns_t64, block_ns_t128, block_ns_t256;
  double unit_overhead_ns;
  double partial_bytes_per_ns;  // per SM: write own partial + read all splits
  double two_atom_block;        // 256 x 64 per 64-k block, in 128 x 64 blocks
  double two_atom_reduce;       // 256 x 64 split-K traffic, per partial byte
  double block_ns(int tile_t) const {
    return tile_t <= 64 ? block_ns_t64 : tile_t == 128 ? block_ns_t128 : block_ns_t256;
  }
};
// 16-bit activations: fitted to bench/results/2026-11-30-h200/sm90-timing.log (f16 x u4b8
// g128, 5 shapes, M = 1..8192). It also decides every split (sm90_split), whatever the types.
constexpr TimeModel kModelA16{411, 443, 682, 3000, 25, 1.25, 0.75};
// 8-bit activations (s8, e4m3), one model per type (they rank their own tiles in sm90_pick; s8's also
// prices sm90 in the smallm / sm90 crossover since session 66).
// The block times are measured directly, at every point of bench/results/2026-12-02-h200/
// s32-a8tiles/ (every sm90 tile on the Llama-2-7B / Llama-3-8B / Llama-2-70B layers and the seed
// shape, M = 160..768, s8 / e4m3 x u4b8 g128) where the tile runs whole tiles without a split:
// (time - launch - waves x unit overhead) / (waves x K / 64), median over 22-58 points per tile
// (s8: 204 / 245 ns for 64 / 128 tokens, 256 x 64 320 = 1.57x 128 x 64; e4m3: 273 / 308, 256 x 64
// 427 = 1.56x). The 256-token tile's block times are session 53's (bench/results/2026-12-03-h200/
// s53-a8model/call3, the same method on the kernels with that tile's exact TMA box for a partial
// last token tile, 30 points each: s8 340, e4m3 378 ns; session 32 measured 391 / 447 with TMA's
// zero fill of the padded rows, ~30% dearer at M that is not a multiple of 256, and the ranking then
// sent M = 288..384 to 128 x 128 at 1.1-1.3x the 128 x 256 time). e4m3's blocks are dearer than s8's, most on the narrow token
// tiles (its group tables and byte lookups cost more per weight, amortized over fewer tokens).
// The partial rate (75 bytes per ns, 50 until session 32) is the one constant chosen by its
// effect: of 50 / 75 / 100 / 150 it is the one under which the picks are nearest the fastest tile
// on that data (1.012x s8, 1.007x e4m3 in geomean) and the two-part 128 x 256 split keeps
// Llama-2-70B o at M = 256 (with 50 the model sends it to 128 x 128, measured 1.12x slower; the
// two-part exchange of session 31 halved that tile's partial traffic). On session 21's data
// (older kernels: s21-w4a8tiles/, M = 32..256; s21-a8model/, M = 160..384) the picks are 1.004x /
// 1.000x and 1.039x / 1.007x the fastest (the constants before: 1.004x / 1.000x, 1.032x / 1.005x).
constexpr TimeModel kModelS8{204, 245, 340, 2000, 75, 1.57, 0.75};
// e4m3's 256 x 64 block at 1.8x a 128 x 64 one since session 84 (1.56 before, session 32's measure). On every tile of
// e4m3 x u4b8 g128 timed on an H100 after sessions 57-78's kernel changes (bench/results/2026-12-05-h100/s84-e4m3all/,
// the 13 layers above, event-timed at M = 24..768, CUDA graphs at M = 24..128) the whole-tile blocks are 253 / 305 /
// 392 ns and 256 x 64 434 ns = 1.72x; with 1.56 the picks took 1.0065x / 1.0200x the fastest schedule's time, all of
// it 256 x 64 ranked first at M = 48 / 64 where 128 x 64 ran 0.83-0.90x its time; with 1.8 1.0034x / 1.0097x, no worse
// than 1.56 on any layer set left out of the fit (bench/results/2026-12-05-cpu/s84-plan/). On ten held-out layers
// (bench/results/2026-12-05-h100/s84-ab/, event-timed, g128 / per-channel, 1.8 everywhere against 1.56) the picks
// that moved at M = 33..64 took 0.874x / 0.911x the time, at M > 64 0.90-0.97x; but at M <= 32, where 256 x 32 runs
// in 256 x 64's place, the moves to 128 x 64 took 1.011x / 1.046x (worst 1.10x), and so there 256 x 64 keeps its 1.56
// price (kModelE4M3Narrow, sm90_pick; the narrow tile's own block measured 373 ns = 1.47x). Every plan of this form is
// one of the two the A/B timed (s84-ab/README.md): its 32 moved points there took 0.874x / 0.911x (M = 33..64) and
// 0.924x / 0.937x (M > 64) the time, none slower than 0.996x.
constexpr TimeModel kModelE4M3{273, 308, 378, 2000, 75, 1.8, 0.75};
constexpr TimeModel kModelE4M3Narrow{kModelE4M3.block_ns_t64, kModelE4M3.block_ns_t128, kModelE4M3.block_ns_t256,
                                     kModelE4M3.unit_overhead_ns, kModelE4M3.partial_bytes_per_ns, 1.56,
                                     kModelE4M3.two_atom_reduce};
// 16-bit activations' ranking model (sm90_pick, and since session 66 sm90's price in the smallm /
// sm90 crossover; kModelA16 above still decides every split). Session 65 (bench/results/
// 2026-12-04-h200/s65-retime/, every tile of the Llama-2-7B / Llama-3-8B / Llama-2-70B layers and the
// seed shape, f16 x u4b8 g128, event-timed at M = 24..768 and in CUDA graphs at M = 24..128, on the
// kernels with the exact tail box of sessions 53 / 64): the 64-token block time and the 256 x 64 factor
// are measured as kModelS8's were (the points where a tile runs whole tiles without a split: median
// 247 ns, 256 x 64 435 ns = 1.76x; 128 x 128 367, 128 x 256 661); the 128- and 256-token block times
// (321 = 1.3x, 568 = 2.3x the 64-token one: below the measured 1.49x / 2.68x, which price a wide tile's
// whole-tile wave correctly but rank its partial waves and splits as too dear), the partial rate (50)
// and the unit overhead (3000) are the grid's choice (2880 sets): the one that every leave-one-layer-
// set-out fit also chose (3 of 4 folds; the fourth the same with 2000 ns). kModelA16's session-2 block
// times are 1.2-1.7x the measured ones, and 1.25 for the 256 x 64 factor sent the narrow layers to that
// tile at M = 48..128 where 128 x 64 or 128 x 128 ran 1.05-1.17x faster.
constexpr TimeModel kRankA16{247, 321, 568, 3000, 50, 1.76, 0.75};
// 8-bit weights (W8A16): kRankA16 with the 256 x 64 tile's block at 2.0x a 128 x 64 one (session 66:
// bench/results/2026-12-04-h200/s66-xover/, every tile timed for f16 x u8b128 g128 on session 65's 13 layers;
// with 1.76 the picks took 1.0059x / 1.0156x the fastest schedule's time, event / CUDA graphs, all of it
// 256 x 64 picked at M = 24..64 where 128 x 64 ran 1.03-1.16x faster; 2.0: 1.0034x / 1.0077x. Where both
// tiles run whole tiles the measured ratio is 1.8-1.85, but 256 x 64's split units cost more than its block).
constexpr TimeModel kRankA16W8{247, 321, 568, 3000, 50, 2.0, 0.75};
const TimeModel& model_of(AType a, BType b) {
  if (is_a16(a)) return weight_bits(b) == 8 ? kRankA16W8 : kRankA16;
  return a == AType::kE4M3 ? kModelE4M3 : kModelS8;
}
// 16-bit activations x 4-bit weights at M <= 32: the factor on 256 x 64's modelled time when the narrow
// tile (256 x 32 / 256 x 16, sm90_narrow_token_tile) runs in its place (sm90_pick). Session 79
// (bench/results/2026-12-05-h100/s79-narrow/: an H100, CUDA graphs, 128 x 64 and 256 x 32 forced at M = 24 / 32
// on 188 points: f16 / bf16 g128 and f16 per-channel on Llama-3-405B and Llama-2-70B at tp 1 / 2 / 4 / 8, f16
// g128 on the seed shape and 12 Llama layers at tp 1): with 1.0 (256 x 64's own time, the ranking of session
// 77) the picks took 1.022x the faster tile's time (worst 1.20x: 128 x 64 where 256 x 32 ran 0.84x its time);
// with 0.7..0.8 1.0017x (worst 1.07x), on both halves of the data alike (tp-split / 405B layers and the tp 1
// layers: 1.0021x / 1.0000x); 0.6 and lower rank the narrow tile first everywhere, 1.005x (worst 1.13x at
// N = 2304). 0.8 is the plateau's edge nearest 1. 8-bit activations keep 1.0: there 256 x 32 is the slower of
// the two where 128 x 64 ranks first (s8 1.06x, e4m3 1.12x its time), and 0.9 took their picks from 1.007x
// to 1.015x the faster tile's time. On the H200 (session 81, bench/results/2026-12-05-h200/s81-narrow/fit.txt):
// 0.8 picks the faster tile at all 22 competing 16-bit points (1.0945x with 1.0); 8-bit 1.0069x with 1.0.
constexpr double kNarrowRankA16 = 0.8;
constexpr double kDramBytesPerUs = 4.0e6;  // ~ measured copy bandwidth
constexpr double kLaunchUs = 2.0;
// The L2 of an H100 / H200 SXM (cudaDeviceProp::l2CacheSize, 50 MiB). Stream-K is not taken where the operand
// bytes its desynchronized CTAs keep live (sm90_stream_live_bytes) exceed it (session 90, H100). Over the one
// launches that streamed every tile, split-K on the same tile took 0.67-0.91x the time where that footprint was
// 51-92 MiB and 1.06-2.1x where it was <= 43 MiB (bench/results/2026-12-06-h100/s90-streamk/); through gemm(), the
// 30 points of 12 long-K layers at M = 640..3200 whose plan this moves took 0.86x the time (0.61-1.01x;
// s90-streamguard/). Not yet timed on an H200, whose L2 is the same size and whose memory is 1.4x faster.
constexpr double kL2Bytes = 50.0 * 1024 * 1024;

}  // namespace

std::string Sm90Config::name() const {
  return "sm90_" + std::to_string(tile_n) + "x" + std::to_string(tile_t) + "_1x1x1_coop_splitk";
}

bool sm90_parse_name(std::string_view name, Sm90Config* cfg) {
  constexpr std::string_view kPrefix = "sm90_", kSuffix = "_1x1x1_coop_splitk";
  if (name.size() <= kPrefix.size() + kSuffix.size() || name.substr(0, kPrefix.size()) != kPrefix ||
      name.substr(name.size() - kSuffix.size()) != kSuffix)
    return false;
  const std::string_view mid = name.substr(kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size());
  const size_t x = mid.find('x');
  if (x == std::string_view::npos) return false;
  int r = 0, t = 0;
  auto [p1, e1] = std::from_chars(mid.data(), mid.data() + x, r);
  auto [p2, e2] = std::from_chars(mid.data() + x + 1, mid.data() + mid.size(), t);
  if (e1 != std::errc() || e2 != std::errc() || p1 != mid.data() + x || p2 != mid.data() + mid.size())
    return false;
  Sm90Config c{r, t};
  if (c.name() != name) return false;  // canonical spelling only (no leading zeros, ...)
  for (int i = 0; i < sm90::kSm90AllTileCount; ++i)
    if (sm90::kSm90AllTiles[i].tile_n == r && sm90::kSm90AllTiles[i].tile_t == t) {  // any weight width
      *cfg = c;
      return true;
    }
  return false;
}

std::vector<Sm90Config> sm90_all_configs(AType a, BType b) {
  std::vector<Sm90Config> v;
  const int abits = is_a16(a) ? 16 : 8;
  for (int i = 0; i < sm90::kSm90AllTileCount; ++i)
    if (sm90::kSm90AllTiles[i].abits == abits && sm90::kSm90AllTiles[i].wbits == weight_bits(b))
      v.push_back({sm90::kSm90AllTiles[i].tile_n, sm90::kSm90AllTiles[i].tile_t});
  return v;
}

bool sm90_instance_set_restricted() { return sm90::kSm90InstanceSetRestricted; }

int64_t sm90_e4m3_promotion_k(const Sm90Config& cfg) {
  return sm90::sm90_e4m3_promotion_k(cfg.tile_n, cfg.tile_t);
}

std::vector<Sm90Config> sm90_configs(AType a, BType b) {
  std::vector<Sm90Config> v;
  for (const Sm90Config& c : sm90_all_configs(a, b)) {
    for (int i = 0; i < sm90::kSm90InstanceCount; ++i) {
      const auto& in = sm90::kSm90Instances[i];
      if (in.a == a && in.wbits == weight_bits(b) && in.tile_n == c.tile_n && in.tile_t == c.tile_t) {
        v.push_back(c);
        break;
      }
    }
  }
  return v;
}

bool sm90_shape_ok(int64_t M, int64_t N, int64_t K, AType a, BType b, int64_t group_size,
                   const Sm90Config& cfg, std::string* why) {
  auto fail = [&](const std::string& w) {
    if (why) *why = w;
    return false;
  };
  if (!is_a16(a) && weight_bits(b) != 4) return fail("8-bit activations (s8, e4m3) take 4-bit weights");
  if (M < 1) return fail("M must be >= 1");
  if (M > INT32_MAX || N > INT32_MAX || K > INT32_MAX) return fail("M, N, K must each be < 2^31");
  if (K % 64 != 0)
    return fail("K=" + std::to_string(K) + " must be a multiple of 64 on the sm90 tiles (their 64-k block); " +
                "8-bit weights at another multiple of 32 run on the smallm schedules, which the heuristic picks");
  if (N % 16 != 0) return fail("N=" + std::to_string(N) + " must be a multiple of 16");
  if (is_a16(a)) {
    if (group_size != 0 && group_size != K && group_size != 16 && group_size != 32 && group_size % 64 != 0)
      return fail("group_size=" + std::to_string(group_size) +
                  " must be 16, 32, a multiple of 64, or K (per-channel)");
  } else if (group_size != 0 && group_size != K && group_size != 32 && group_size % 64 != 0) {
    return fail("group_size=" + std::to_string(group_size) +
                " must be 32, a multiple of 64, or K (per-channel) with 8-bit activations");
  }
  (void)cfg;
  return true;
}

namespace {

// The model's time of one unit of kb 64-k blocks (one of s k-parts of its tile), in ns:
// the blocks, the fixed cost (pipeline fill + epilogue) and, for a split tile, the partial
// traffic (write its own partial, the last part reads all s).
// 256 x 64 (two m64 atoms per consumer warpgroup): a 64-k block of the 256-row tile costs
// 1.25x the 128-row one, not 2x: the narrow tile is latency-bound, and the second atom's
// conversion and wgmma overlap the first's; its split-K partials cost 0.75x their bytes
// (fitted to bench/results/2026-11-30-h200/s4-round1/w16-256x64.csv, 5 shapes x M =
// 64/128/256, and s4-round2/xover.csv, 9 shapes x M = 24/32/48: -8..+10%).
double tile_block_ns(const TimeModel& tm, const Sm90Config& cfg) {
  return cfg.tile_n == 256 ? tm.two_atom_block * tm.block_ns(cfg.tile_t) : tm.block_ns(cfg.tile_t);
}
// The time to move `n` partial tiles of the config (store or load), per CTA.
double partials_ns(const TimeModel& tm, const Sm90Config& cfg, double n) {
  return cfg.tile_n * cfg.tile_t * 4.0 * n / tm.partial_bytes_per_ns * (cfg.tile_n == 256 ? tm.two_atom_reduce : 1.0);
}
double unit_ns(const TimeModel& tm, const Sm90Config& cfg, double kb, int s) {
  return kb * tile_block_ns(tm, cfg) + tm.unit_overhead_ns + (s > 1 ? partials_ns(tm, cfg, s + 1) : 0.0);
}

// The persistent grid's compute time for a split, in ns: whole tiles in waves of P CTAs,
// then the split tiles' units in waves of P, or the streamed tiles' k-blocks spread evenly
// over the P CTAs (stream-K: each CTA pays the fixed cost once per tile it touches; at the
// end every CTA stores its last partial tile and, being the last to arrive at that tile,
// reads all of the tile's partials: a tile of kb blocks has about kb / per + 1 parts, and
// all P CTAs move that traffic at once, as the split-K term assumes).
double compute_ns(const TimeModel& tm, int64_t tiles, int64_t K, int64_t P, const Sm90Config& cfg,
                  const Sm90Split& sp) {
  const double kb = static_cast<double>(K / 64);
  if (sp.stream > 0) {
    const double per = static_cast<double>(ceil_div((tiles - sp.whole) * (K / 64), P));
    const double parts = std::ceil(kb / per) + 1.0;
    return static_cast<double>(sp.whole / P) * unit_ns(tm, cfg, kb, 1) + per * tile_block_ns(tm, cfg) +
           (per / kb + 1.0) * tm.unit_overhead_ns + partials_ns(tm, cfg, parts + 1.0);
  }
  if (sp.splits <= 1) return static_cast<double>(ceil_div(tiles, P)) * unit_ns(tm, cfg, kb, 1);
  const int64_t rest = tiles - sp.whole;
  return static_cast<double>(ceil_div(sp.whole, P)) * unit_ns(tm, cfg, kb, 1) +
         static_cast<double>(ceil_div(rest * sp.splits, P)) * unit_ns(tm, cfg, kb / sp.splits, sp.splits);
}

// A tail split must beat the unsplit wave by this margin in the model (whose constants are
// 0.6-1.3x off at single points): a near-tie is left unsplit (no workspace traffic).
constexpr double kTailSplitMargin = 0.97;
// Stream-K must beat the best split-K by this margin in the model (its reduction term is
// the least certain part: s11-streamk).
constexpr double kStreamMargin = 0.9;

// Whether stream-K over the tiles past `whole` can run: every CTA gets at least one k-block,
// the counters fit the workspace's counter area, and the kernel's 32-bit range arithmetic
// (sm90_partition.h) cannot overflow.
bool stream_ok(int64_t tiles, int64_t whole, int64_t K, int64_t P) {
  const int64_t T = (tiles - whole) * (K / 64);
  return whole % P == 0 && T >= P && tiles - whole <= kWorkspaceMaxCounters && P * (T + 1) < (int64_t{1} << 31);
}

Sm90Split split_k(int64_t tiles, int64_t K, int64_t P, const Sm90Config& cfg) {
  const int64_t max_s = std::max<int64_t>(1, std::min<int64_t>(16, K / 256));
  Sm90Split best{tiles, 1};
  if (tiles < P) {
    best.whole = 0;
    double best_score = -1;
    for (int64_t s = 1; s <= max_s; ++s) {
      const int64_t units = tiles * s;
      const double busy = static_cast<double>(units) / static_cast<double>(ceil_div(units, P) * P);
      const double score = busy * (1.0 - 0.03 * static_cast<double>(s - 1));
      if (score > best_score + 1e-12) {
        best_score = score;
        best.splits = static_cast<int>(s);
      }
    }
    if (best.splits == 1) best.whole = tiles;
    return best;
  }
  const int64_t r = tiles % P;
  if (r == 0) return best;
  // The r tiles of the partial last wave, in s <= P / r parts each (one wave of units).
  double best_ns = kTailSplitMargin * compute_ns(kModelA16, tiles, K, P, cfg, best);
  for (int64_t s = 2; s <= std::min(max_s, P / r); ++s) {
    const Sm90Split cand{tiles - r, static_cast<int>(s)};
    const double t = compute_ns(kModelA16, tiles, K, P, cfg, cand);
    if (t < best_ns) {
      best_ns = t;
      best = cand;
    }
  }
  return best;
}

}  // namespace

double sm90_stream_live_bytes(int64_t M, int64_t N, int64_t K, const Sm90Config& cfg, AType a, BType b,
                              int64_t whole, int64_t P) {
  const int64_t n_tiles = ceil_div(N, cfg.tile_n), t_tiles = ceil_div(M, cfg.tile_t), KB = K / 64;
  const int64_t tiles = n_tiles * t_tiles, T = (tiles - whole) * KB;  // streamed k-blocks, T / P per CTA
  if (T <= 0 || P <= 0 || whole < 0) return 0.0;
  const double a_rows = static_cast<double>(cfg.tile_t) * K * (is_a16(a) ? 2 : 1);  // a token tile's activations
  const double w_rows = static_cast<double>(cfg.tile_n) * K * weight_bits(b) / 8;    // an n-tile's weights
  // When streamed block g is read, as a fraction of a CTA's range (T / P blocks, read at one pace from the
  // launch's start): the fractional part of g / (T / P), the kernel's integer ranges (sm90_stream_begin) taken as
  // continuous. A row block read by several tiles stays live from its first read to its last: per group of tiles
  // sharing a row block (a token tile's n_tiles consecutive tiles; an n-tile's tiles n_tiles apart), the spread of
  // their read times, averaged over kSamples k, times the block's bytes, is the group's time-averaged live bytes.
  // Sampled on the host, where gemm() plans every call: up to kGroups groups of a kind, kPoints tiles of a group.
  constexpr int64_t kGroups = 8, kPoints = 64;
  constexpr int kSamples = 2;
  const double inv_range = static_cast<double>(P) / static_cast<double>(T);
  double live = 0;
  for (const bool by_token : {true, false}) {
    const int64_t first_group = by_token ? whole / n_tiles : 0, groups = by_token ? t_tiles : n_tiles;
    const int64_t members = by_token ? n_tiles : t_tiles, streamed = groups - first_group;
    if (streamed <= 0 || members < 2) continue;
    const int64_t g_step = std::max<int64_t>(1, streamed / kGroups), m_step = std::max<int64_t>(1, members / kPoints);
    double sum = 0;
    int64_t seen = 0;
    for (int64_t grp = first_group; grp < groups; grp += g_step, ++seen) {
      for (int s = 0; s < kSamples; ++s) {
        const int64_t k = (2 * s + 1) * KB / (2 * kSamples);
        double lo = 2, hi = -1;
        for (int64_t m = 0; m < members; m += m_step) {
          const int64_t t = by_token ? grp * n_tiles + m : m * n_tiles + grp;
          if (t < whole) continue;
          const double x = static_cast<double>((t - whole) * KB + k) * inv_range;
          const double r = x - std::floor(x);
          lo = std::min(lo, r);
          hi = std::max(hi, r);
        }
        if (hi > lo) sum += (hi - lo) / kSamples;
      }
    }
    if (seen > 0) live += sum / static_cast<double>(seen) * static_cast<double>(streamed) * (by_token ? a_rows : w_rows);
  }
  return live;
}

namespace {

// Whether stream-K over the tiles past `whole` keeps its operands in the L2 (kL2Bytes). First the bound of
// every row block the streamed tiles share (a token tile streamed in two or more tiles, likewise an n-tile):
// nothing more can be live, and most calls stop there (no k loop on the host: gemm() plans every call).
bool stream_fits_l2(int64_t M, int64_t N, int64_t K, const Sm90Config& cfg, AType a, BType b, int64_t whole,
                    int64_t P) {
  const int64_t n_tiles = ceil_div(N, cfg.tile_n), tiles = n_tiles * ceil_div(M, cfg.tile_t);
  const double a_rows = static_cast<double>(K) * (is_a16(a) ? 2 : 1);
  const double w_rows = static_cast<double>(K) * weight_bits(b) / 8;
  // An activation row block is shared when its token tile has two streamed tiles (every token tile the streamed range
  // touches, at most), a weight row block when the range is longer than a row of tiles (it then holds some n-tile
  // twice; a shorter one holds each n-tile once). Whole tiles' rows, as the estimate counts them (its upper bound).
  const int64_t token_tiles = (tiles - 1) / n_tiles - whole / n_tiles + 1;
  const double a_shared = n_tiles >= 2 ? static_cast<double>(token_tiles * cfg.tile_t) * a_rows : 0;
  const double w_shared = tiles - whole > n_tiles ? static_cast<double>(n_tiles * cfg.tile_n) * w_rows : 0;
  if (a_shared + w_shared <= kL2Bytes) return true;
  // The estimate costs ~1 us and one gemm() plan asks for the same few candidates several times (the ranking of
  // each tile, the row split's slices, the workspace query, the launch), as do the calls of an engine's next step:
  // a per-thread memo of the last answers (pure function of its key, so no locking and the same answer).
  struct Memo {
    int64_t key[8];
    bool used, fits;
  };
  thread_local Memo memo[16];
  thread_local unsigned next = 0;
  const int64_t key[8] = {M, N, K, int64_t{cfg.tile_n} << 32 | cfg.tile_t,
                          static_cast<int64_t>(a), static_cast<int64_t>(b), whole, P};
  for (const Memo& m : memo)
    if (m.used && std::equal(key, key + 8, m.key)) return m.fits;
  const bool fits = sm90_stream_live_bytes(M, N, K, cfg, a, b, whole, P) <= kL2Bytes;
  Memo& slot = memo[next++ % 16];
  std::copy(key, key + 8, slot.key);
  slot.used = true;
  slot.fits = fits;
  return fits;
}

}  // namespace

Sm90Split sm90_split(int64_t M, int64_t N, int64_t K, const Sm90Config& cfg, int sm_count, AType a, BType b,
                     Sm90SplitMode mode) {
  const int64_t tiles = ceil_div(N, cfg.tile_n) * ceil_div(M, cfg.tile_t);
  const int64_t P = std::max(sm_count, 1);
  const Sm90Split sk = split_k(tiles, K, P, cfg);
  if (mode == Sm90SplitMode::kSplitK) return sk;
  // Stream-K candidates: every tile (when they do not fill the SMs), or the tiles of the
  // partial last wave, or those and one whole wave before them.
  Sm90Split best = sk;
  double best_ns = mode == Sm90SplitMode::kStream ? 1e300 : kStreamMargin * compute_ns(kModelA16, tiles, K, P, cfg, sk);
  const int64_t r = tiles % P;
  for (const int64_t whole : {tiles < P ? int64_t{0} : tiles - r, tiles - r - P}) {
    if (whole < 0 || whole == tiles || !stream_ok(tiles, whole, K, P)) continue;
    Sm90Split cand{whole, 1, static_cast<int>(P)};
    const double t = compute_ns(kModelA16, tiles, K, P, cfg, cand);
    if (t < best_ns && (mode == Sm90SplitMode::kStream || stream_fits_l2(M, N, K, cfg, a, b, whole, P))) {
      best_ns = t;
      best = cand;
    }
  }
  return best;
}

size_t sm90_workspace_bytes(int64_t M, int64_t N, int64_t K, const Sm90Config& cfg, int sm_count, AType a, BType b,
                            Sm90SplitMode mode) {
  const Sm90Split sp = sm90_split(M, N, K, cfg, sm_count, a, b, mode);
  const int64_t tile_bytes = int64_t{cfg.tile_n} * cfg.tile_t * 4;
  // kernels/workspace_layout.h: counters (one per split or streamed tile) in the shared
  // counter area, partials behind it (stream-K: two slots per CTA).
  if (sp.stream > 0) return static_cast<size_t>(kWorkspaceCounterBytes + 2 * int64_t{sp.stream} * tile_bytes);
  if (sp.splits <= 1) return 0;
  const int64_t split_tiles = ceil_div(N, cfg.tile_n) * ceil_div(M, cfg.tile_t) - sp.whole;
  return static_cast<size_t>(kWorkspaceCounterBytes + split_tiles * sp.splits * tile_bytes);
}

namespace {

// The split is the one the kernel runs (sm90_split: kModelA16), its time from model tm.
double predicted_us(const TimeModel& tm, int64_t M, int64_t N, int64_t K, int sm_count, AType a, BType b,
                    const Sm90Config& cfg, Sm90SplitMode mode) {
  const int bits = weight_bits(b);
  const int64_t P = std::max(sm_count, 1);
  const int64_t tiles = ceil_div(N, cfg.tile_n) * ceil_div(M, cfg.tile_t);
  const double ns = compute_ns(tm, tiles, K, P, cfg, sm90_split(M, N, K, cfg, sm_count, a, b, mode));
  const double dram_bytes = static_cast<double>(N) * K * bits / 8.0 + 2.0 * M * K + 2.0 * M * N;
  return kLaunchUs + std::max(ns * 1e-3, dram_bytes / kDramBytesPerUs);
}

}  // namespace

double sm90_predicted_us(int64_t M, int64_t N, int64_t K, int sm_count, AType a, BType b,
                         const Sm90Config& cfg) {
  // kModelA16 for every type. core/dispatch.cpp compares this time with smallm's model for e4m3
  // only (grouped e4m3's crossover at M = 9..16 was measured and set against it, session 17); the
  // other types compare sm90_pick's ranked time since session 66.
  return predicted_us(kModelA16, M, N, K, sm_count, a, b, cfg, Sm90SplitMode::kAuto);
}

// Each tile is ranked by the split it runs (kAuto, stream-K included), at every M since session 65.
// Until then M <= 128 ranked on the split-K model, stream-K then refining that tile's split
// (s11-streamk: the model's stream-K picks that changed the tile measured up to 1.5x slower, when
// stream-K was dearer); on session 65's tables (s65-retime/, M = 24..128) that ranking took 1.0084x /
// 1.0228x the fastest schedule's time (f16, event-timed over M = 24..768 / CUDA graphs) and 1.0052x /
// 1.0188x (s8), each tile's own split 1.0007x / 1.0118x (f16, with kRankA16) and 1.0018x / 1.0079x (s8).
// Above M = 128 the own split ranked since sessions 31 / 32:
// - 16-bit activations since session 31: over every tile of the Llama-2-7B / Llama-3-8B /
//   Llama-2-70B layers and the seed shape at M = 160..768 (bench/results/2026-12-02-h200/
//   s31-allsched/, f16 g128) the picks take 1.014x the fastest tile's time in geomean against
//   1.042x on the split-K model (worst 1.31x against 1.44x);
// - 8-bit activations since session 32, with the block times of kModelS8 / kModelE4M3 measured on
//   the same kind of data (s32-a8tiles/, s8 / e4m3 g128): 1.012x (s8) and 1.007x (e4m3) the fastest
//   tile against 1.044x / 1.039x with the split-K ranking on session 21's constants. Against those
//   picks in one run (s32-a8final/, the four model families, M = 80..768): 0.979x (s8) and 0.974x
//   (e4m3) the time over 156 points each; the pick changed at 40 / 37, 32 / 34 of them faster
//   (down to 0.80x / 0.70x), slower by more than 3% at 6 / 2, worst Llama-2-70B qkv s8 at M = 160 /
//   192 (1.24x / 1.14x: 128 x 256 streamed against 256 x 64) and Llama-3-8B down s8 at M = 160..256
//   (1.05-1.10x: 128 x 128 against 128 x 256). #5's M = 256 / 512 points kept their tiles.
// The tiles of fewer than 64 tokens (256 x 32, 256 x 16) are not ranked: the models have no block time for
// them (block_ns prices every tile of <= 64 tokens as a 64-token one), and their smaller partial tiles would
// rank them below 128 x 64 where that was never measured. sm90_narrow_token_tile puts them in place of
// 256 x 64; they are ranked only where no tile of 64 or more tokens is a candidate (a restricted build).
// Where that replacement applies (M <= 32, a narrow tile compiled) and the activations are 16-bit with 4-bit
// weights, 256 x 64 is ranked at kNarrowRankA16 times its modelled time: the tile that runs is the narrow one
// (session 79 below); with e4m3 it is priced on kModelE4M3Narrow (session 84, above). `ranked_us` stays the fastest
// unscaled time, so the smallm / sm90 crossover, fitted
// to 256 x 64's price (session 66), does not move.
bool sm90_pick(int64_t M, int64_t N, int64_t K, int sm_count, AType a, BType b, int64_t group_size,
               const std::vector<Sm90Config>& candidates, Sm90Config* out, double* ranked_us) {
  bool found = false;
  double best = 0, best_rank = 0;
  for (const bool narrow : {false, true}) {
    for (const Sm90Config& c : candidates) {
      if ((c.tile_t < 64) != narrow || !sm90_shape_ok(M, N, K, a, b, group_size, c, nullptr)) continue;
      // Only 16-bit activations and e4m3 price the narrow replacement (s8 ranks 256 x 64 as it is).
      const bool narrow_runs = (is_a16(a) || a == AType::kE4M3) && weight_bits(b) == 4 &&
                               !(sm90_narrow_token_tile(M, c, candidates) == c);
      const TimeModel& tm = narrow_runs && a == AType::kE4M3 ? kModelE4M3Narrow : model_of(a, b);
      const double t = predicted_us(tm, M, N, K, sm_count, a, b, c, Sm90SplitMode::kAuto);
      const double rank = narrow_runs && is_a16(a) ? kNarrowRankA16 * t : t;
      if (!found || rank < best_rank) {
        best_rank = rank;
        *out = c;
      }
      best = found ? std::min(best, t) : t;
      found = true;
    }
    if (found) break;
  }
  if (found && ranked_us) *ranked_us = best;
  return found;
}

// Where 256 x 64 would run M <= 32 tokens, its one token tile is half (or more) zero fill, and the
// consumers still issue m64n64 wgmma: a wgmma issue holds the issuing warps while the tensor pipe is busy
// (session 28), so the zero half costs conversion time too. The same two-atom tile with 32 / 16 tokens
// took 0.81-1.04x its time at M = 24 / 32 (geomean 0.905) and 0.76-1.02x at M = 16 (0.864): H100, CUDA
// graphs, f16 / s8 / e4m3 x u4b8 g128 on the seed shape and 12 Llama layers (bench/results/2026-12-05-h100/
// s77-t32/). Only the tile changes: its units, split and grid are 256 x 64's (the same token-tile count), and
// the smallm / sm90 crossover still prices 256 x 64 (the narrow tiles are not yet timed on the H200).
Sm90Config sm90_narrow_token_tile(int64_t M, const Sm90Config& ranked, const std::vector<Sm90Config>& candidates) {
  if (ranked.tile_n != 256 || ranked.tile_t != 64 || M > 32) return ranked;
  Sm90Config best = ranked;
  for (const Sm90Config& c : candidates)
    if (c.tile_n == 256 && c.tile_t >= M && c.tile_t < best.tile_t) best = c;
  return best;
}

}  // namespace mixgemm::kernels
