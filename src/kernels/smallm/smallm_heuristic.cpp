// smallm_heuristic.cpp - the small-M family's pure host side: schedule names, the
// config list, legality, workspace size, the time model and the heuristic.
// No CUDA call and no CUDA type here, so all of it runs in the CPU tests.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <string>

#include "kernels/smallm/smallm.h"
#include "kernels/smallm/smallm_geometry.h"


namespace mixgemm::kernels {

using namespace smallm_host;

namespace {

void say(std::string* why, const std::string& s) {
  if (why) *why = s;
}

bool valid_config(const SmallmConfig& c) {
  const bool tm = c.token_tile == 8 || c.token_tile == 16 || c.token_tile == 32 || c.token_tile == 64;
  const bool w = c.warps == 4 || c.warps == 8;
  const bool o = c.ctas_per_sm == 1 || c.ctas_per_sm == 2 || c.ctas_per_sm == 4;
  const bool pf = c.l2_ahead >= 0 && c.l2_ahead <= 4;
  // Register budget: TM <= 16 kernels are built for <= 128 registers (2 CTAs of 256
  // threads per SM), TM >= 32 for <= 255 (256 threads per SM).
  const int threads_per_sm = c.warps * 32 * c.ctas_per_sm;
  const bool regs = c.token_tile <= 16 ? threads_per_sm <= 512 : threads_per_sm <= 256;
  return tm && w && o && pf && regs;
}

}  // namespace

std::string SmallmConfig::name() const {
  return "smallm_t" + std::to_string(token_tile) + "_w" + std::to_string(warps) + "_o" +
         std::to_string(ctas_per_sm) + "_p" + std::to_string(l2_ahead);
}

bool smallm_parse_name(std::string_view name, SmallmConfig* cfg) {
  int tm = 0, w = 0, o = 0, pf = 0;
  char tail = 0;
  const std::string s(name);
  if (std::sscanf(s.c_str(), "smallm_t%d_w%d_o%d_p%d%c", &tm, &w, &o, &pf, &tail) != 4) return false;
  SmallmConfig c{tm, w, o, pf};
  if (!valid_config(c) || c.name() != s) return false;
  if (cfg) *cfg = c;
  return true;
}

namespace {

std::vector<SmallmConfig> list_configs(AType a, BType b) {
  if (!is_a16(a) && weight_bits(b) == 8) return {};
  std::vector<SmallmConfig> out;
  for (int tm : {8, 16, 32, 64}) {
    // 32 KB (o1 w8, o2 w4) or 64 KB (o2 w8, o4 w4) of weight loads in flight per SM.
    // P = 0: with the shared weight ring the L2 prefetch only adds warp-0 work (measured
    // 1-15% slower at P = 1, 2, 4; docs/design-smallm.md).
    const SmallmConfig cands[] = {{tm, 8, 1, 0}, {tm, 4, 2, 0}, {tm, 8, 2, 0}, {tm, 4, 4, 0}};
    for (const SmallmConfig& c : cands) {
      if (!valid_config(c)) continue;
      // Listed only where the stages and a minimal weight ring fit at the group size 128
      // (t64_w4_o2: 3 stages of 64 tokens leave no room for the ring at 2 CTAs per SM).
      if (!smallm_shape_ok(tm, 8192, 8192, a, b, 128, c, nullptr)) continue;
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

const std::vector<SmallmConfig>& smallm_configs(AType a, BType b) {
  // Every (activation, weight) pair's list, built on first use (a thread-safe static).
  constexpr int kA = 4, kB = 4;  // AType / BType enumerators
  static_assert(static_cast<int>(AType::kE4M3) == kA - 1 && static_cast<int>(BType::kU8) == kB - 1,
                "one list per (AType, BType) pair");
  static const auto lists = [] {
    std::array<std::vector<SmallmConfig>, kA * kB> l;
    for (int i = 0; i < kA; ++i)
      for (int j = 0; j < kB; ++j) l[i * kB + j] = list_configs(static_cast<AType>(i), static_cast<BType>(j));
    return l;
  }();
  return lists[static_cast<int>(a) * kB + static_cast<int>(b)];
}

bool smallm_shape_ok(int64_t M, int64_t N, int64_t K, AType a, BType b,
                                            int64_t group_size, const SmallmConfig& cfg,
                                            std::string* why) {
  // The heuristic asks this of every schedule on every call (why == null): the message is built
  // only for a caller that asks why (an ostringstream costs ~1 us, most of a call's host time).
  auto refuse = [why](auto&& message) {
    if (why) {
      std::ostringstream os;
      message(os);
      *why = os.str();
    }
    return false;
  };
  if (!valid_config(cfg))
    return refuse([&](std::ostream& os) { os << "smallm: not a schedule of the family: " << cfg.name(); });
  if (!is_a16(a) && weight_bits(b) == 8)
    return refuse([&](std::ostream& os) { os << "smallm: 8-bit weights need f16/bf16 activations"; });
  const int KB = weight_bits(b) == 4 ? 64 : 32;
  if (M < 1 || N < 16 || K < KB || N % 16 != 0 || K % KB != 0 || M > INT32_MAX ||
      N > INT32_MAX || K > (int64_t{1} << 30))
    return refuse([&](std::ostream& os) {
      os << "smallm: shape M=" << M << " N=" << N << " K=" << K << " needs M >= 1, N % 16 == 0, K % " << KB
         << " == 0, K <= 2^30";
    });
  if (group_size != 0 && (group_size < 16 || group_size % 16 != 0 || K % group_size != 0))
    return refuse([&](std::ostream& os) {
      os << "smallm: group_size=" << group_size << " must be 0 or a multiple of 16 dividing K=" << K;
    });
  const Geometry g = make_geometry(M, N, K, a, b, group_size, is_unsigned(b), cfg, 1);
  if (g.MT * g.stripes > kWorkspaceMaxCounters || g.U >= (int64_t{1} << 31))
    return refuse([&](std::ostream& os) {
      os << "smallm: " << cfg.name() << " needs " << g.MT * g.stripes << " split-K counters (max "
         << kWorkspaceMaxCounters << "); use a larger token tile or more warps";
    });
  // The schedule's CTAs per SM must fit with their static shared memory, allocation unit and
  // reserved kilobyte (cta_smem_footprint); the 227 KiB block limit counts static and dynamic together.
  if (g.smem_bytes > max_dynamic_smem(cfg.ctas_per_sm))
    return refuse([&](std::ostream& os) {
      os << "smallm: " << cfg.name() << " needs " << g.smem_bytes << " bytes of shared memory per CTA at this K and "
         << "group size, over the " << max_dynamic_smem(cfg.ctas_per_sm) << " that " << cfg.ctas_per_sm
         << " CTA(s) per SM leave each; accepted: a schedule with fewer CTAs per SM (_o1 / _o2), or the "
            "heuristic's pick (no schedule)";
    });
  return true;
}

bool smallm_can_implement(const GemmParams& p, const SmallmConfig& cfg,
                                                 std::string* why) {
  if (!smallm_shape_ok(p.M, p.N, p.K, p.a_type, p.b_type, p.group_size, cfg, why)) return false;
  auto misaligned = [](const void* q, uintptr_t al) {
    return (reinterpret_cast<uintptr_t>(q) & (al - 1)) != 0;
  };
  const int eb = is_a16(p.a_type) ? 2 : 1;
  const int sb = p.a_type == AType::kS8 ? 1 : 2;
  if (!p.a || !p.b || (!p.out && !p.partial_sums)) {
    say(why, "smallm: a, b and out (or partial_sums) are required");
    return false;
  }
  if (misaligned(p.a, 16) || (p.lda * eb) % 16 != 0 || p.lda < p.K) {
    say(why, "smallm: a must be 16-byte aligned with lda >= K and lda * element bytes % 16 == 0");
    return false;
  }
  if (misaligned(p.b, 16)) {
    say(why, "smallm: prepacked b must be 16-byte aligned");
    return false;
  }
  if (p.group_size > 0 && (!p.group_scales || misaligned(p.group_scales, 16))) {
    say(why, "smallm: group_scales must be given and 16-byte aligned");
    return false;
  }
  if (p.has_zeros && (!p.group_zeros || misaligned(p.group_zeros, 16) || !is_unsigned(p.b_type))) {
    say(why, "smallm: zero points need u4/u8 weights and a 16-byte aligned group_zeros");
    return false;
  }
  if (misaligned(p.out, 2) || (!p.partial_sums && p.ldo < p.N) || (p.bias && misaligned(p.bias, 2)) ||
      (p.channel_scales && misaligned(p.channel_scales, 4)) ||
      (p.token_scales && misaligned(p.token_scales, 4))) {
    say(why, "smallm: out/bias/ch/tok misaligned or ldo < N");
    return false;
  }
  (void)sb;
  if (is_a16(p.a_type) &&
      !((p.a_type == AType::kF16 && p.out_type == OutType::kF16) ||
        (p.a_type == AType::kBF16 && p.out_type == OutType::kBF16))) {
    say(why, "smallm: 16-bit activations produce their own type");
    return false;
  }
  if (p.partial_sums) {  // no workspace: every CTA writes its own part
    if (misaligned(p.partial_sums, 16)) {
      say(why, "smallm: partial_sums must be 16-byte aligned");
      return false;
    }
    if (smallm_partial_sums_count(p.M, p.N, p.K, p.a_type, p.b_type, p.group_size, p.has_zeros, cfg, p.sm_count) < 2) {
      say(why, "smallm: " + cfg.name() + " has no partial-sum form for this shape (token tiles of 8 or 16 and at "
                                         "least two CTAs on some stripe, at most 16, are needed)");
      return false;
    }
    return true;
  }
  const size_t need = smallm_workspace_bytes(p, cfg);
  if (need > 0 && (!p.workspace || p.workspace_bytes < need || misaligned(p.workspace, 16))) {
    say(why, "smallm: workspace of " + std::to_string(need) +
                 " bytes (16-byte aligned, zero-filled once) required, got " +
                 std::to_string(p.workspace_bytes));
    return false;
  }
  return true;
}

size_t smallm_workspace_bytes(int64_t M, int64_t N, int64_t K, AType a,
                                                     BType b, const SmallmConfig& cfg,
                                                     int sm_count) {
  if (M < 1 || N < 16 || K < 1) return 0;
  return static_cast<size_t>(make_geometry(M, N, K, a, b, 0, false, cfg, sm_count).workspace_bytes);
}

int64_t smallm_partial_sums_count(int64_t M, int64_t N, int64_t K, AType a, BType b, int64_t group_size,
                                  bool has_zeros, const SmallmConfig& cfg, int sm_count) {
  if (M < 1 || N < 16 || K < 1 || cfg.token_tile > 16) return 0;
  return make_partial_sums_geometry(M, N, K, a, b, group_size, has_zeros, cfg, sm_count).parts;
}

size_t smallm_workspace_bytes(const GemmParams& p, const SmallmConfig& cfg) {
  return smallm_workspace_bytes(p.M, p.N, p.K, p.a_type, p.b_type, cfg, p.sm_count);
}

// ---- the time model ------------------------------------------------------------------
// Fitted (weighted least squares on the relative error) to the committed H200 timings of
// f16 x u4b8 g128, cold L2: bench/results/2026-11-30-h200/smallm_timing_tuning.log (five
// large shapes, M = 1..64) and smallshapes-s3/ (the Llama-3-8B layers at M = 1..32, N =
// 8192 over K = 512..32768); tests/cpu/test_smallm_heuristic.cpp holds both tables.
//
// The kernel is latency-bound per warp (ncu: ~250 warp instructions per CTA row at ~8
// cycles each, docs/performance.md "Small shapes"), so a CTA's time is the rows it owns
// times the time of one row, which depends on how many warps share the SM (8 or 16), plus
// a fixed part (launch, ring fill, epilogue) and the split-K reduction, whose dependent L2
// round trips grow with the contributors per stripe:
//   t = fixed(TM) + MT x ceil(U / C) x row_us(TM, config) + contrib_us(TM) x contributors
// never below the DRAM time. Residuals: <= 17% (TM 8), 7% (16), 5% (32), 2% (64). Other
// types scale row_us by an estimate of their instructions per block relative to f16 x u4b8.
namespace {

struct RowModel {
  double fixed_us, contrib_us;
  double row8_w8, row8_w4, row16_w8, row16_w4;  // us per CTA row at 8 / 16 warps per SM
};

// TM 8's contributor term since session 39: 0.75 us, s8's 1.125 (was 0.187 for every type, fitted
// to the split-K reduction inside the kernel). With the deferred reduction (session 38) the
// all-schedules table in CUDA graphs (s39-heuristic/allsched-*.csv.gz, 13 layers x f16 / s8 / e4m3
// x M = 1 / 8) ranks the TM 8 schedules best with a contributor 3-4x dearer for f16 and e4m3 and
// 6-8x for s8 (a grid search of that factor and of the 16-warp row time, which stays). The term
// stands for all that grows with the CTAs sharing a stripe: their prologues, their partial stores
// and the reduction grid's loads. Its effect: fewer, longer CTAs on the narrow layers (N = 4096 x
// K = 11008 / 14336, Llama-3-8B qkv, and Llama-2-70B o for s8): picked / best on that table
// (geomean at M = 1 / 8) f16 1.004 / 1.000, s8 1.004 / 1.002, e4m3 1.014 / 1.007, against 1.014 /
// 1.015, 1.046 / 1.054 and 1.013 / 1.017 before. It ranks for the decode graph: event-timed,
// Llama-3-8B qkv runs 1.03-1.10x slower with it (s39-heuristic/README.md, s39-s8contrib/).
// TM 16's term since session 42: 0.75 us for f16 / bf16 / s8 (was 0.333). After session 41's
// cheaper reduction grid the all-schedules table in CUDA graphs (s42-allsched/) has t16_w8_o1
// 4-8% ahead of the model's t16_w8_o2 at M = 16 on Llama-3-8B qkv and down (f16, s8); 0.75 picks
// the fastest TM 16 schedule at every M = 16 point of that table (0.5 still misses qkv, 1.5 moves
// Llama-2-70B o / qkv to o1, 6-10% slower). A / B in graphs (s42-heur16/): the changed picks
// (Llama-3-8B qkv / down, Llama-2-7B down for u8b128, M = 9..16) run 0.86-0.99x the time;
// event-timed Llama-3-8B qkv 1.03-1.07x slower, as with TM 8's refit. e4m3 keeps 0.333: its o1 /
// o2 are within 0.1-2% there, and TM 16's absolute level is what the grouped-e4m3 crossover
// against sm90 compares.
// A lone 4-warp CTA's row time over an 8-warp CTA's (see smallm_predicted_us).
constexpr double kLoneFourWarpRow = 0.7;

RowModel row_model(int tm, AType a) {
  switch (tm) {
    case 8: return {10.854, a == AType::kS8 ? 1.125 : 0.75, 0.580, 0.609, 0.917, 0.898};
    case 16: return {10.779, a == AType::kE4M3 ? 0.333 : 0.75, 0.653, 0.689, 1.052, 1.060};
    case 32: return {14.870, 0.173, 0.809, 0.837, 1.30, 1.34};  // 16-warp values not listed: scaled
    default: return {19.293, 1.266, 1.056, 1.10, 1.70, 1.75};   // 64: only w8_o1 is listed
  }
}

}  // namespace

double smallm_predicted_us(int64_t M, int64_t N, int64_t K, int sm_count,
                                                  AType a, BType b, const SmallmConfig& cfg) {
  const Geometry g = make_geometry(M, N, K, a, b, 128, false, cfg, sm_count);
  const int wbits = weight_bits(b);
  const double sms = std::max(sm_count, 1);
  // DRAM: weights and g128 scales per token-tile pass; activations and output once.
  const double wbytes = static_cast<double>(N) * K * wbits / 8.0;
  const double sbytes = static_cast<double>(N) * (K / 128.0) * g.sb;
  const double bytes = g.MT * (wbytes + sbytes) + double(M) * K * g.eb + double(M) * N * 2;
  const double t_mem = 3.0 + bytes / (0.9 * 4.3e6);
  const int tm = cfg.token_tile;
  const RowModel rm = row_model(tm, a);
  // Warps sharing an SM: fewer resident CTAs than requested (small shapes) count as such. Where
  // make_geometry cut C to whole stripes, C between one and ctas_per_sm CTAs per SM puts ceil(C /
  // sms) on some SMs, whose rows set the launch's time: the busiest SM counts (the average ranked
  // t16_w8_o2 at C = 144 first on 2304 x 16384 e4m3 at M = 12 / 16, where it took 1.34x
  // t16_w8_o1's time in CUDA graphs and 1.16x event-timed at M = 16; s67-aligned/). Elsewhere
  // the average stands (it ranks the cluster geometry's C = 224 of t8_w8_o2 on Llama-3-8B
  // gate_up first, as measured).
  const double per_sm = static_cast<double>(g.C) / sms;
  const double ctas_on_sm =
      std::max(1.0, std::min<double>(cfg.ctas_per_sm, g.stripe_aligned ? std::ceil(per_sm) : per_sm));
  const double warps = ctas_on_sm * cfg.warps;
  const double r8 = cfg.warps == 8 ? rm.row8_w8 : rm.row8_w4;
  const double r16 = cfg.warps == 8 ? rm.row16_w8 : rm.row16_w4;
  const double f = std::clamp((warps - 8.0) / 8.0, 0.0, 1.0);
  double row_us = r8 + (r16 - r8) * f;
  // A 4-warp CTA alone on its SM (the 4-warp schedules where C < 2 x SMs: narrow layers, whose C
  // make_geometry cuts to whole stripes) streams its half-size rows at kLoneFourWarpRow x an 8-warp
  // CTA's row time, not at the two-CTAs-per-SM time the constants hold: fitted on session 67's
  // every-schedule table (least squares over the f16 TM 8 / 16 points of nine narrow layers and
  // Llama-3-8B's, rows per CTA split by warps per SM: 0.71-0.72x for TM 8, 0.63-0.69x for TM 16,
  // in CUDA graphs and event-timed; bench/results/2026-12-04-h200/s67-aligned/analysis/fit_rows.py).
  // On six held-out narrow layers the 122 picks it moved (8-warp o1 -> t8 / t16 / t32 w4_o2) took
  // 0.89-0.93x the time in graphs, 0.92-0.96x event-timed (worst 1.006x; s67-aligned/call5-lone/).
  // Wide layers never run a lone 4-warp CTA (the 4-warp schedules are o2 / o4): their picks stay.
  if (warps <= 4.0) row_us = rm.row8_w8 * kLoneFourWarpRow;
  // A 4-warp TM 8 CTA stages each chunk's M token rows with half the threads of an 8-warp
  // one, and four of them per SM stage the same tokens: its rows slow down with M (57344 x
  // 8192: t8_w4_o4 +5.8% from M = 1 to 8, t8_w8_o2 +2.8%; s7-round3/timing-ck8.log).
  if (tm == 8 && cfg.warps == 4) row_us *= 1.0 + 0.03 * static_cast<double>(std::min<int64_t>(M, 8) - 1) / 7.0;
  // The L2 prefetch (P > 0) is warp-0 work on the chunk's critical path: 1-15% slower.
  if (cfg.l2_ahead > 0) row_us *= 1.05;
  // Instructions per block relative to f16 x u4b8 (dequantization + MMAs).
  const int ks = is_a16(a) ? g.KB / 16 : g.KB / 32;
  const int nt = tm / 8;
  const double per_block = 56.0 + ks * nt * (a == AType::kE4M3 ? 5.0 : 1.0);
  const double per_block_ref = 56.0 + 4.0 * nt;
  row_us *= per_block / per_block_ref;
  // Rows per CTA (stream-K: U/C rounded up) and split-K contributors per stripe.
  const double rows_per_cta = static_cast<double>(g.U) / static_cast<double>(g.C);
  const double contributors = rows_per_cta < g.KBn ? std::ceil(g.KBn / rows_per_cta) + 1.0 : 1.0;
  const double t_issue = rm.fixed_us + g.MT * std::ceil(rows_per_cta) * row_us + rm.contrib_us * contributors;
  return std::max(t_mem, t_issue);
}

namespace {

// The narrow-layer model's constants per token tile (session 68): us, us per row of a CTA's
// chain by activation type (bf16 as f16), us per contributor of a stripe, us per MB of partial
// tiles. Fitted (least squares on the relative error, no negative constant) to session 67's
// every-schedule table of nine narrow layers and Llama-3-8B's, f16 / s8 / e4m3 x u4b8 g128,
// M = 16..64, every stripe-aligned smallm schedule of TM 16 / 32 / 64 (1005 points), on the
// geometric mean of the CUDA-graph and event-timed medians: model / measured 0.82-1.14 (5th-95th
// percentile); on six held-out narrow layers (session 68 call 1, 630 points) 0.83-1.14.
// bench/results/2026-12-04-h200/s68-narrow/ (analysis/narrow_fit.py).
// What the wide-layer row model misses here is the last term: the partial tiles' bytes (each
// CTA stores MT x tile_bytes, the reduction grid reads them all back) cost 2.2 / 1.0 / 0.29 us
// per MB at TM 16 / 32 / 64, and at M = 48 / 64 they are several MB (3072 x 4096, TM 32, M = 64:
// 96 CTAs x 2 token tiles x 32 KB = 6.3 MB), where the model's fixed part and contributor term
// price all launches alike (it ranked TM 32 at 2.5-4x its measured time and sm90 above smallm
// where TM 16 / 32 with several token tiles was 1.1-1.8x faster). TM 16's s8 row fitted to 0:
// at these sizes its rows hide under the partial traffic.
struct NarrowModel {
  double fixed_us, row_a16, row_s8, row_e4m3, contrib_us, partial_us_per_mb;
};

NarrowModel narrow_model(int tm) {
  switch (tm) {
    case 16: return {0.0, 0.046, 0.0, 0.103, 0.701, 2.20};
    case 32: return {1.65, 0.133, 0.027, 0.238, 0.647, 1.01};
    default: return {2.29, 0.509, 0.197, 0.575, 0.670, 0.292};  // 64
  }
}

}  // namespace

double smallm_narrow_predicted_us(int64_t M, int64_t N, int64_t K, int sm_count, AType a, BType b,
                                  const SmallmConfig& cfg) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (cfg.token_tile < 16 || weight_bits(b) != 4 || M < 1 || N < 16 || K < 64) return kInf;
  const Geometry g = make_geometry(M, N, K, a, b, 128, false, cfg, sm_count);
  if (!g.stripe_aligned) return kInf;
  const NarrowModel nm = narrow_model(cfg.token_tile);
  const double row = a == AType::kS8 ? nm.row_s8 : a == AType::kE4M3 ? nm.row_e4m3 : nm.row_a16;
  const int64_t sms = std::max(sm_count, 1);
  // The busiest SM's chain: every token tile's rows of each CTA it holds; a 4-warp CTA's row at
  // kLoneFourWarpRow x an 8-warp one's, as in smallm_predicted_us.
  const double chain = static_cast<double>(g.MT * ((g.U + g.C - 1) / g.C) * ((g.C + sms - 1) / sms)) *
                       (cfg.warps == 8 ? 1.0 : kLoneFourWarpRow);
  const double partial_mb = static_cast<double>(g.MT * g.C * g.tile_bytes) * 1e-6;
  return nm.fixed_us + chain * row + static_cast<double>(ceil_sqrt(g.KBn)) * nm.contrib_us +
         partial_mb * nm.partial_us_per_mb;
}

bool smallm_narrow_config(int64_t M, int64_t N, int64_t K, int sm_count, AType a, BType b, int64_t group_size,
                          SmallmConfig* cfg, double* t_us) {
  bool found = false;
  double best_t = std::numeric_limits<double>::infinity();
  for (const SmallmConfig& c : smallm_configs(a, b)) {
    if (!smallm_shape_ok(M, N, K, a, b, group_size, c, nullptr)) continue;
    const double t = smallm_narrow_predicted_us(M, N, K, sm_count, a, b, c);
    if (t < best_t) {
      best_t = t;
      *cfg = c;
      found = true;
    }
  }
  if (found && t_us) *t_us = best_t;
  return found;
}

bool smallm_stripe_aligned(int64_t M, int64_t N, int64_t K, int sm_count, AType a, BType b,
                           const SmallmConfig& cfg) {
  return make_geometry(M, N, K, a, b, 128, false, cfg, sm_count).stripe_aligned;
}

namespace {

// A tie in the model between two schedules of the same token tile and warps whose stripe-cut
// geometry has the same C, at most 3/4 of the SMs (a narrow layer: the occupancy o sets only the
// ring's shared memory then): the larger o, i.e. the smaller ring, wins. Measured on session 67's
// table and session 68's held-out one (bench/results/2026-12-04-h200/s68-narrow/analysis/
// ring-ties.txt), same C, M <= 16: at C < 112 the larger o took 0.92-0.99x the time in CUDA graphs
// and 0.94-1.00x event-timed in every C band of 16 (TM 8 and 16, 4 and 8 warps); at C = 112..132
// it lost up to 1.38x (Llama-3-8B o, C = 128: t16_w8_o2 1.27x t16_w8_o1 in graphs). On eight held-out
// narrow layers (s68-narrow/call2-check/) the 83 moved picks at M <= 16 took 0.96x the time in CUDA
// graphs and 0.96-0.97x event-timed (TM 16 w8: 0.98-1.03x). Why is not
// measured (with less shared memory held, the reduction grid's CTAs can become resident beside the
// GEMM's; near a full GPU the block scheduler may stack two CTAs on an SM).

bool smaller_ring_ties(int64_t M, int64_t N, int64_t K, int sm_count, AType a, BType b, const SmallmConfig& c,
                       const SmallmConfig& best) {
  if (c.token_tile != best.token_tile || c.warps != best.warps || c.ctas_per_sm <= best.ctas_per_sm) return false;
  const Geometry gc = make_geometry(M, N, K, a, b, 128, false, c, sm_count);
  const Geometry gb = make_geometry(M, N, K, a, b, 128, false, best, sm_count);
  return gc.stripe_aligned && gb.stripe_aligned && gc.C == gb.C && 4 * gc.C <= 3 * std::max(sm_count, 1);
}

}  // namespace

SmallmConfig smallm_default_config(int64_t M, int64_t N, int64_t K, int sm_count, AType a, BType b,
                                   int64_t group_size) {
  SmallmConfig best{};
  best.token_tile = 0;  // none legal
  double best_t = std::numeric_limits<double>::infinity();
  // One token tile, the smallest legal one that covers M: a second tile re-streams every
  // weight, and a larger tile runs more MMAs and staging per row for the same bytes. In every
  // all-schedules table (s8-final: f16, M = 1..64; s39-heuristic: f16 / s8 / e4m3 at M = 1 / 8
  // / 16, in CUDA graphs) the smallest covering tile holds the fastest schedule but at two
  // points (Llama-2-7B qkv s8, M = 1 / 8: a TM 16 schedule 2.6% / 0.9% ahead); comparing
  // tiles through the model instead picked TM 16 at M <= 8 once TM 8's contributor term was
  // refitted.
  int tile = 0;
  for (const SmallmConfig& c : smallm_configs(a, b))
    if (c.token_tile >= M && (tile == 0 || c.token_tile < tile) && smallm_shape_ok(M, N, K, a, b, group_size, c, nullptr))
      tile = c.token_tile;
  for (const SmallmConfig& c : smallm_configs(a, b)) {
    if (tile != 0 && c.token_tile != tile) continue;
    if (!smallm_shape_ok(M, N, K, a, b, group_size, c, nullptr)) continue;
    const double t = smallm_predicted_us(M, N, K, sm_count, a, b, c);
    if (t < best_t || (t == best_t && smaller_ring_ties(M, N, K, sm_count, a, b, c, best))) {
      best_t = t;
      best = c;
    }
  }
  return best;
}

}  // namespace mixgemm::kernels
