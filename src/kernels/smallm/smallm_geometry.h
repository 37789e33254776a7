// smallm_geometry.h - the small-M family's host-side arithmetic, shared by the
// heuristic (pure C++) and the launcher: work partition, shared-memory stages,
// workspace layout. No CUDA types.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "kernels/gemm_params.h"
#include "kernels/workspace_layout.h"
#include "kernels/smallm/smallm.h"
#include "kernels/smallm/smallm_kernel_params.h"
#include "kernels/smallm/smallm_partition.h"

namespace mixgemm::kernels::smallm_host {

// n-blocks per warp, rows per chunk and stages per token tile: the kernel's own constants
// (smallm::kNBW, chunk_rows_of, stages_of in smallm_kernel_params.h).
using ::mixgemm::kernels::smallm::kNBW;
inline constexpr int kBlockBytes = 512;
// Workspace layout: kernels/workspace_layout.h (shared with sm90): the arrival counters in
// [0, kWorkspaceCounterBytes), zero before and after every launch, then the partial tiles.
// sm_90: 227 KB of shared memory per block (opt-in), 228 KB per SM, 1 KB reserved per CTA.
inline constexpr int64_t kMaxSmemPerBlock = 227 * 1024;
inline constexpr int64_t kSmemPerSm = 228 * 1024;
// What one CTA of a smallm kernel takes of its SM's shared memory: the dynamic bytes plus the
// kernel's static __shared__ ones (128: ptxas's "128 bytes smem" for every smallm kernel, the flag
// of the last-arriving CTA), allocated in 128-byte units, plus the 1 KB reserved per CTA. Until
// session 72 the ring was sized without the static bytes: where it filled the SM's share to within
// 128 bytes (t8_w4_o2 per-channel / g32 / g64 among others, 24 of 738 accepted type x schedule x
// group combinations) cudaOccupancyMaxActiveBlocksPerMultiprocessor gave one CTA less than ctas_per_sm,
// and the launcher ran that many per SM (Smallm.ScalesAcrossBinades found it: the partial sums'
// partition, sized for ctas_per_sm, no longer matched the workspace split's).
inline constexpr int64_t kStaticSmemBytes = 128;
inline constexpr int64_t kReservedSmemPerCta = 1024;
inline constexpr int64_t cta_smem_footprint(int64_t dynamic_bytes) {
  return (dynamic_bytes + kStaticSmemBytes + 127) / 128 * 128 + kReservedSmemPerCta;
}
// The most dynamic shared memory a CTA may have so that `ctas` of them fit on one SM.
inline constexpr int64_t max_dynamic_smem(int ctas) {
  const int64_t per_sm = (kSmemPerSm / (ctas < 1 ? 1 : ctas) - kReservedSmemPerCta) / 128 * 128 - kStaticSmemBytes;
  return per_sm < kMaxSmemPerBlock - kStaticSmemBytes ? per_sm : kMaxSmemPerBlock - kStaticSmemBytes;
}
static_assert(cta_smem_footprint(max_dynamic_smem(2)) * 2 <= kSmemPerSm &&
                  cta_smem_footprint(max_dynamic_smem(2) + 1) * 2 > kSmemPerSm,
              "max_dynamic_smem is the largest size whose footprint fits");
static_assert(cta_smem_footprint(max_dynamic_smem(4)) * 4 <= kSmemPerSm &&
                  cta_smem_footprint(max_dynamic_smem(1)) <= kSmemPerSm,
              "max_dynamic_smem fits");
// Shared weight ring: CTA rows (W * kNBW * 512 bytes each, one bulk copy per row), as many
// as the shared memory left by the stages allows, at most kMaxRingRows and kMaxRingBytes.
inline constexpr int64_t kMaxRingRows = 32;
inline constexpr int64_t kMaxRingBytes = 128 * 1024;

using ::mixgemm::kernels::is_a16;  // gemm_params.h
using ::mixgemm::kernels::is_unsigned;
using ::mixgemm::kernels::weight_bits;

struct Geometry {
  // layout
  int KB = 0;       // k per block
  int eb = 0;       // activation bytes per element
  int sb = 0;       // bytes per group scale / zero element
  int64_t NB = 0, KBn = 0;
  // partition
  int64_t rows_per_stripe = 0;  // weight rows per stripe
  int64_t stripes = 0, U = 0, MT = 0, C = 0;
  int64_t cluster = 0;  // >= 2: cluster split-K with this many CTAs per stripe (C = stripes x cluster)
  bool stripe_aligned = false;  // C was cut to stripes x ceil(sqrt(KBn)) (make_geometry, session 67)
  int64_t parts = 0;    // make_partial_sums_geometry: S of the [S, M, N] partial sums (0: no such form)
  // shared memory
  int mode = 0;     // smallm::ScaleMode
  int64_t gs = 0;   // effective group size (K when no grouping)
  int64_t g_rows = 0, act_stride = 0, act_bytes = 0, srow_bytes = 0, stage_bytes = 0, smem_bytes = 0;
  int64_t row_bytes = 0, ring_rows = 0, ring_off = 0, bar_off = 0;  // shared weight ring
  // workspace
  int64_t tile_bytes = 0, counter_bytes = 0, workspace_bytes = 0;
};

// The smallest r with r * r >= n (n >= 0; exact for every int64 n this header meets).
inline int64_t ceil_sqrt(int64_t n) {
  int64_t r = static_cast<int64_t>(std::sqrt(static_cast<double>(std::max<int64_t>(n, 0))));
  while (r * r < n) ++r;
  while (r > 0 && (r - 1) * (r - 1) >= n) --r;
  return r;
}

// group_size: 0 (no group scales) or the group size; has_zeros: zero points present.
// sm_count: SMs; C (CTAs per token tile) = min(ctas_per_sm * sm_count, U), or stripes x
// cluster in cluster split-K (`cluster`: SmallmCluster, smallm.h).
inline Geometry make_geometry(int64_t M, int64_t N, int64_t K, AType a, BType b,
                              int64_t group_size, bool has_zeros, const SmallmConfig& cfg,
                              int sm_count, SmallmCluster cluster = SmallmCluster::kAuto) {
  Geometry g;
  const int wbits = weight_bits(b);
  g.KB = wbits == 4 ? 64 : 32;
  g.eb = is_a16(a) ? 2 : 1;
  g.sb = a == AType::kS8 ? 1 : 2;
  g.NB = N / 16;
  g.KBn = K / g.KB;
  g.rows_per_stripe = int64_t{16} * kNBW * cfg.warps;
  const int64_t nb_per_stripe = int64_t{kNBW} * cfg.warps;
  g.stripes = (g.NB + nb_per_stripe - 1) / nb_per_stripe;
  g.U = g.stripes * g.KBn;
  g.MT = (M + cfg.token_tile - 1) / cfg.token_tile;
  g.C = std::min<int64_t>(int64_t{cfg.ctas_per_sm} * std::max(sm_count, 1), std::max<int64_t>(g.U, 1));
  // Stripe-aligned CTAs on narrow layers (session 67): where every SM's CTA would leave a stripe
  // more than R = ceil(sqrt(KBn)) contributors, C = stripes x R instead: CTA j R starts stripe j, so
  // each CTA owns ~KBn / R consecutive rows of one stripe (a chain about as long as the stripe's R
  // contributors: the row model's two costs balanced), and the split-K reduction sums R parts instead
  // of up to ~C / stripes.
  // On the qkv layers of tensor-parallel models (N = 768..3072, K = 3584..16384; 3-12 stripes) every
  // smallm schedule cut to <= 132 CTAs took 0.60x its time (geomean; 0.24-1.16x) in CUDA graphs and
  // 0.66x event-timed, TM 8 to 64, M = 1..64 (bench/results/2026-12-04-h200/s67-aligned/); layers
  // with C <= stripes x R (the seed shape, Llama-2-70B's, Llama-3-8B's but o) keep C.
  if (const int64_t R = ceil_sqrt(g.KBn); g.stripes * R < g.C) {
    g.C = std::max<int64_t>(g.stripes * R, 1);
    g.stripe_aligned = true;
  }

  const bool has_scales = group_size > 0;
  g.gs = has_scales ? group_size : K;
  g.mode = (!has_scales && !has_zeros) ? 0 : (g.gs % g.KB == 0 ? 1 : 2);
  const int kCK = smallm::chunk_rows_of(cfg.token_tile);
  const int kStages = smallm::stages_of(cfg.token_tile);
  const int64_t chunk_k = int64_t{kCK} * g.KB;
  const int64_t G = has_scales ? K / group_size : 1;
  g.g_rows = g.mode == 0 ? 0 : std::min<int64_t>(G, (chunk_k - 1) / std::max<int64_t>(g.gs, 1) + 2);
  // MMA-side element bytes: 1 for s8 (IMMA), 2 otherwise (e4m3 is converted to f16).
  const int eb_mma = a == AType::kS8 ? 1 : 2;
  g.act_stride = chunk_k * eb_mma + 16;                   // ldmatrix buffer row stride
  const int64_t stage_stride = chunk_k * g.eb + 16;       // cp.async staging row stride
  g.act_bytes = int64_t{cfg.token_tile} * stage_stride;   // per stage
  g.srow_bytes = g.rows_per_stripe * g.sb;
  // Scales region, then zeros region (the scales region is always reserved in a grouped
  // mode, so the zeros offset is g_rows * srow_bytes whatever is present; the zeros region
  // only when there are zero points).
  g.stage_bytes = (g.act_bytes + (has_zeros ? 2 : 1) * g.g_rows * g.srow_bytes + 127) / 128 * 128;
  // e4m3: one f16 MMA buffer behind the stages (filled from the staged e4m3 per chunk).
  const int64_t staged = kStages * g.stage_bytes +
                         (a == AType::kE4M3 ? int64_t{cfg.token_tile} * g.act_stride : 0);
  // Weight ring behind the stages: what one CTA may use of the SM with ctas_per_sm of them
  // resident (max_dynamic_smem), minus the stages and 8 bytes of mbarrier per row. Fewer
  // than kCK rows do not fit a chunk: then kCK rows, and smallm_shape_ok refuses the config.
  g.row_bytes = int64_t{kNBW} * cfg.warps * kBlockBytes;
  g.ring_off = (staged + 127) / 128 * 128;
  const int64_t per_cta = max_dynamic_smem(cfg.ctas_per_sm);
  const int64_t fit = (per_cta - g.ring_off) / (g.row_bytes + 8);
  g.ring_rows = std::max<int64_t>(kCK, std::min({fit, kMaxRingRows, kMaxRingBytes / g.row_bytes}));
  g.bar_off = g.ring_off + g.ring_rows * g.row_bytes;
  g.smem_bytes = g.bar_off + g.ring_rows * 8;

  g.tile_bytes = g.rows_per_stripe * cfg.token_tile * 4;
  g.counter_bytes = kWorkspaceCounterBytes;
  g.workspace_bytes = g.counter_bytes + g.MT * 2 * g.C * g.tile_bytes;

  // Cluster split-K (TM 8/16): when the CTAs are at least twice the stripes, each stripe may
  // get S = min(kMaxClusterCtas, C / stripes, KBn) CTAs, one k-part each, forming one cluster
  // that reduces through distributed shared memory: no workspace round trips on the kernel's
  // tail (docs/design-smallm.md, "Session 8"). C drops to stripes x S. kAuto takes it only
  //  - where that keeps at least 70% of the CTAs: with fewer, each CTA streams more rows than
  //    the shorter tail saves (s8-cluster: Llama-3-8B down, 4096 x 14336, 8 CTAs per stripe =
  //    256 of 528 CTAs, 6-22% slower);
  //  - and on stripes of at most 64 k-blocks (K <= 4096 for 4-bit weights), where the tail is
  //    a large share of the launch: Llama-3-8B qkv (6144 x 4096) and gate_up (28672 x 4096)
  //    at M = 1/8/16 take 0.77-1.01x the time (f16: 0.85-0.91x and 0.91-0.95x); on the
  //    K = 8192..28672 layers of Llama-2-70B and the seed shape it
  //    measured 0.98-1.05x (s8-cluster2, every type at M = 1/8/16), so they keep the plain split.
  // The workspace above stays sized for the plain split.
  if (cluster != SmallmCluster::kOff && cfg.token_tile <= 16) {  // S >= 2 needs C >= 2 stripes
    const int64_t S = std::min<int64_t>({smallm::kMaxClusterCtas, g.C / g.stripes, g.KBn});
    if (S >= 2 && (cluster == SmallmCluster::kForce || (10 * g.stripes * S >= 7 * g.C && g.KBn <= 64))) {
      g.cluster = S;
      g.C = g.stripes * S;
    }
  }
  return g;
}

// The most CTAs whose row ranges meet one stripe, when C CTAs split U = stripes x KBn rows
// (smallm_partition.h: CTA c owns rows [c U / C, (c + 1) U / C)). Stripe j meets CTAs
// floor((j KBn C + C - 1) / U) .. floor(((j + 1) KBn C - 1) / U), whose count depends on j only
// through j C mod stripes (the KBn cancels), so the stripes j < stripes / gcd(stripes, C) cover
// every case: 167 instead of 1002 for a 128256-column lm_head on 528 CTAs (this runs per launch).
inline int64_t max_ctas_per_stripe(int64_t stripes, int64_t KBn, int64_t C) {
  if (stripes < 1 || KBn < 1 || C < 1) return 0;
  const smallm::RowPartition part = smallm::make_row_partition(stripes * KBn, static_cast<int32_t>(C),
                                                               static_cast<int32_t>(KBn));
  const int64_t period = stripes / std::gcd(stripes, C);
  int64_t most = 0;
  for (int64_t j = 0; j < period; ++j)
    most = std::max<int64_t>(most, smallm::cta_of_row(part, (j + 1) * KBn - 1) - smallm::cta_of_row(part, j * KBn) + 1);
  return most;
}

// Partial sums (gemm_partial_sums; TM 8 / 16): the geometry whose k-parts the caller receives,
// g.parts = S of [S, M, N] (0: none; S >= 2 otherwise). Two forms:
//  - the cluster geometry (S = min(8, C / stripes, KBn) CTAs per stripe, C = stripes x S, CTA
//    stripe * S + r holding k-part r) wherever it keeps at least 90% of the schedule's CTA slots:
//    every stripe has exactly S parts;
//  - otherwise the schedule's own stream-K partition over all its slots (the workspace split's
//    C): stripe j has the n_j CTAs whose ranges meet it, part r its (r + 1)-th in ascending
//    order, S = max n_j <= 16, and parts n_j .. S - 1 of a stripe are zeros (its last CTA
//    writes them). Where the cluster geometry leaves slots empty, e.g. Llama-3-8B gate_up at
//    M = 1 (two k-parts per stripe: 448 CTAs on 528 slots, 52 SMs run a fourth CTA; s49-ps-ab),
//    this one spreads the rows evenly; it also serves layers with more stripes than CTA slots
//    (lm_head: 1002 stripes, 528 CTAs, S = 2), which have no cluster geometry.
// The caller adds parts 0, 1, ..., S - 1 in that order: the workspace split's (or the cluster
// split's) own order for the same partition, so the same bits (a zero part adds nothing).
inline constexpr int64_t kMaxStreamParts = 16;
inline Geometry make_partial_sums_geometry(int64_t M, int64_t N, int64_t K, AType a, BType b,
                                           int64_t group_size, bool has_zeros, const SmallmConfig& cfg,
                                           int sm_count) {
  Geometry plain = make_geometry(M, N, K, a, b, group_size, has_zeros, cfg, sm_count, SmallmCluster::kOff);
  if (cfg.token_tile > 16) return plain;  // parts = 0: TM 32 / 64 have no partial-sum path
  Geometry cl = make_geometry(M, N, K, a, b, group_size, has_zeros, cfg, sm_count, SmallmCluster::kForce);
  if (cl.cluster < 2 || 10 * cl.C < 9 * plain.C) {  // no cluster geometry, or one that leaves slots empty
    const int64_t S = max_ctas_per_stripe(plain.stripes, plain.KBn, plain.C);
    if (S >= 2 && S <= kMaxStreamParts) {
      plain.parts = S;
      return plain;
    }
  }
  if (cl.cluster < 2) return plain;  // parts = 0: no partial-sum form
  cl.parts = cl.cluster;
  return cl;
}

}  // namespace mixgemm::kernels::smallm_host
