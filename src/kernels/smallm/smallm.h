// smallm.h - host interface of the small-M (decode) kernel family.
//
// Schedules are named  smallm_t<TM>_w<W>_o<O>_p<P>:
//   TM  token tile (8, 16, 32, 64 tokens per CTA = 1, 2, 4, 8 MMA n-tiles); M > TM runs
//       ceil(M/TM) token tiles (each re-streams the weights, so the heuristic avoids it)
//   W   warps per CTA (4 or 8); each warp streams 2 adjacent 16-row n-blocks, so one CTA
//       covers a stripe of 32*W weight rows
//   O   persistent CTAs per SM (1, 2 or 4): grid = O * sm_count CTAs per token tile,
//       clamped to what fits and to the work available; the k-block rows of all stripes
//       are split evenly over them (stream-K, split-K reduction in the workspace)
//   P   weight chunks (4 k-block rows of the CTA's stripe, W * 4 KB) bulk-prefetched into
//       L2 beyond the shared weight ring (0: off); the list offers P = 0 (P > 0 measured
//       slower: it is extra warp-0 work)
// Weights stream through a shared-memory ring of up to 128 KB per CTA (as many CTA rows
// as the shared memory left by the activation stages allows; smallm_geometry.h).
//
// Everything except launch_smallm and smallm_can_implement is pure host arithmetic
// (no CUDA call), so the heuristic can be unit-tested on a machine without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/gemm_params.h"

typedef struct CUstream_st* cudaStream_t;

namespace mixgemm::kernels {

// Cluster split-K (TM 8/16: the S CTAs of a stripe form one thread-block cluster and reduce
// through distributed shared memory; smallm_geometry.h says where): kAuto = where the
// geometry's rule takes it (what gemm() runs), kOff = the plain workspace split-K always,
// kForce = wherever a stripe has at least two CTAs (tests: both reductions covered).
enum class SmallmCluster { kAuto, kOff, kForce };

// Where the workspace split-K sums a stripe's partial tiles (docs/design-smallm.md, "Split-K
// reduction"): kInKernel = the last-arriving CTA of the stripe (counter, fences);
// kDeferred = a second grid launched after the kernel (programmatic dependent launch), the
// kernel only storing its partials; kAuto = kDeferred unless MIXGEMM_SMALLM_DEFER=0 is set in
// the environment (read once; for A/B timing in one build). Same bits either way.
enum class SmallmReduce { kAuto, kInKernel, kDeferred };

struct SmallmConfig {
  int token_tile = 16;  // 8, 16, 32, 64
  int warps = 8;        // 4 or 8
  int ctas_per_sm = 1;  // 1, 2 or 4
  int l2_ahead = 2;     // 0..4: weight chunks bulk-prefetched into L2 beyond the shared ring

  std::string name() const;  // "smallm_t16_w8_o1_p2"
  friend bool operator==(const SmallmConfig& x, const SmallmConfig& y) {
    return x.token_tile == y.token_tile && x.warps == y.warps && x.ctas_per_sm == y.ctas_per_sm &&
           x.l2_ahead == y.l2_ahead;
  }
};

// Inverse of SmallmConfig::name(); false (cfg untouched) for any other string.
bool smallm_parse_name(std::string_view name, SmallmConfig* cfg);

// Every schedule of the family for an (activation, weight) type pair, in a stable order;
// empty for pairs the family does not run (8-bit weights with 8-bit activations). Built once per
// process (the heuristic asks on every call).
const std::vector<SmallmConfig>& smallm_configs(AType a, BType b);

// Shape / type legality without pointers (pure): N % 16, K % KB, group size, M >= 1, the
// shared-memory budget of the config for this group size.
bool smallm_shape_ok(int64_t M, int64_t N, int64_t K, AType a, BType b, int64_t group_size,
                     const SmallmConfig& cfg, std::string* why);

// smallm_shape_ok plus pointer alignment (16 bytes for a, b, scales, zeros; lda),
// workspace presence and size. Pure host checks, no CUDA call.
bool smallm_can_implement(const GemmParams& p, const SmallmConfig& cfg, std::string* why);

// Workspace bytes (counters + partial tiles) for this shape on a GPU with sm_count SMs;
// monotone in sm_count, so a bound on sm_count gives a bound on the workspace.
size_t smallm_workspace_bytes(int64_t M, int64_t N, int64_t K, AType a, BType b,
                              const SmallmConfig& cfg, int sm_count);
size_t smallm_workspace_bytes(const GemmParams& p, const SmallmConfig& cfg);

// The heuristic's time model for one launch, in microseconds (H200-calibrated constants;
// only the ranking matters).
double smallm_predicted_us(int64_t M, int64_t N, int64_t K, int sm_count, AType a, BType b,
                           const SmallmConfig& cfg);

// Whether make_geometry cuts this launch's CTAs to whole stripes (a narrow layer: stripes x
// ceil(sqrt(K / KB)) below the CTA slots; smallm_geometry.h). Pure.
bool smallm_stripe_aligned(int64_t M, int64_t N, int64_t K, int sm_count, AType a, BType b,
                           const SmallmConfig& cfg);

// The narrow-layer time model (session 68), in microseconds: for a stripe-aligned launch (a
// narrow layer, smallm_stripe_aligned) of a token tile of 16 or more and 4-bit weights, the time
// measured in CUDA graphs and event-timed (their geometric mean) as a fixed part, the CTA's row
// chain (every token tile's rows), the stripe's contributors and the partial tiles' bytes;
// +infinity where it does not apply (another geometry, TM 8, 8-bit weights). Pure.
double smallm_narrow_predicted_us(int64_t M, int64_t N, int64_t K, int sm_count, AType a, BType b,
                                  const SmallmConfig& cfg);

// The schedule of token tile >= 16 (several token tiles allowed) with the smallest
// smallm_narrow_predicted_us at this M, its time in *t_us; false where no schedule is
// stripe-aligned (wide layers, 8-bit weights) or legal at group_size. Pure.
bool smallm_narrow_config(int64_t M, int64_t N, int64_t K, int sm_count, AType a, BType b, int64_t group_size,
                          SmallmConfig* cfg, double* t_us);

// The heuristic: list smallm_configs(a, b), drop the ones smallm_shape_ok refuses at this
// group_size (the problem's: 0, K or a multiple of 16; group sizes below 64 stage more scale
// rows per chunk, and some schedules' stages then leave no room for their ring), return the one
// with the smallest smallm_predicted_us (ties: the earlier in the list). token_tile == 0 where none
// is legal. Pure function.
SmallmConfig smallm_default_config(int64_t M, int64_t N, int64_t K, int sm_count, AType a,
                                   BType b, int64_t group_size);

// Partial sums (gemm_partial_sums): S, the parts per stripe of make_partial_sums_geometry
// (smallm_geometry.h: the cluster geometry launched without clusters, or the schedule's stream-K
// partition with zero parts where a stripe has fewer CTAs), each CTA writing its raw sums to
// parts[r][m][n]; 0 where the family has no such form for this problem and config (TM 32/64,
// no stripe shared by two CTAs, more than 16 parts). Pure; 2 <= S <= 16.
int64_t smallm_partial_sums_count(int64_t M, int64_t N, int64_t K, AType a, BType b, int64_t group_size,
                                  bool has_zeros, const SmallmConfig& cfg, int sm_count);

// The CTAs of this schedule's kernel that the device lets reside on one SM at this shape's
// shared memory (cudaOccupancyMaxActiveBlocksPerMultiprocessor, cached): what the launcher caps
// its persistent grid at. smallm_shape_ok accepts a schedule only where the geometry's footprint
// model says ctas_per_sm fit; Smallm.SchedulesFitTheirCtasPerSm checks that against this.
int smallm_resident_ctas(int64_t M, int64_t N, int64_t K, AType a, BType b, int64_t group_size, bool has_zeros,
                         const SmallmConfig& cfg);

// The k-split a launch of cfg runs (gemm's, or with partial_sums gemm_partial_sums'): ctas
// CTAs per token tile split the stripes' k-block rows (make_row_partition(U, ctas, KBn), U and KBn
// fixed by the shape and cfg), each stripe's parts summed in ascending k order; cluster >= 2 for a
// cluster geometry (run with clusters, or for partial sums without), 0 for the stream-K
// partition. The same function launch_smallm plans with, the cluster-residency fallback on
// `stream`'s SMs included; host queries only (cached occupancy, one cluster-occupancy query where
// the geometry clusters), no stream operation. Two launches of one problem and cfg with equal
// splits add the same k-ranges in the same order: gemm_partial_sums' parts summed as gemm.h says
// give gemm's bits (GemmFuzz.PartialSumsMatchReference asserts it). Throws as launch_smallm
// where the family has no kernel for the types.
struct SmallmSplit {
  int64_t ctas = 0;
  int64_t cluster = 0;
  friend bool operator==(const SmallmSplit& x, const SmallmSplit& y) {
    return x.ctas == y.ctas && x.cluster == y.cluster;
  }
};
SmallmSplit smallm_launch_split(int64_t M, int64_t N, int64_t K, AType a, BType b, int64_t group_size, bool has_zeros,
                                const SmallmConfig& cfg, int sm_count, bool partial_sums, cudaStream_t stream);

// Asynchronous launch on `stream` (nothing when M == 0). p.workspace must hold
// smallm_workspace_bytes(p, cfg) bytes, zero-filled before the first call; every launch
// leaves it zeroed. With p.partial_sums set it writes the smallm_partial_sums_count parts there
// instead of out (no workspace, no reduction, no epilogue). Throws mixgemm::Error (kNotSupported) when !smallm_can_implement,
// and (kCudaError) when the launch fails (cudaGetLastError). `cluster`: SmallmCluster.
// Returns the CTAs per stripe of the cluster split-K (or of the partial sums' cluster geometry) it
// ran, 0 for the workspace split (and for partial sums over the stream-K partition): a cluster geometry whose clusters are not all resident at once
// falls back to the workspace split (its own k-parts, so other bits within rounding).
int64_t launch_smallm(const GemmParams& p, const SmallmConfig& cfg, cudaStream_t stream,
                   SmallmCluster cluster = SmallmCluster::kAuto, SmallmReduce reduce = SmallmReduce::kAuto);

}  // namespace mixgemm::kernels
