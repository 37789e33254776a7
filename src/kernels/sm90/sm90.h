// sm90.h - host interface of the sm90 (Hopper wgmma) kernel family: 16-bit activations
// x 4-/8-bit prepacked weights, for large M (prefill).
//
// Schedules are named  sm90_<R>x<T>_1x1x1_coop_splitk:
//   R      weight rows per CTA tile (128: one m64 wgmma atom per consumer warpgroup,
//          256: two), the wgmma M side of the transposed problem
//   T      tokens per CTA tile (64, 128, 256), wgmma N
//   1x1x1  cluster shape (no multicast yet)
//   coop   two consumer warpgroups share each tile (cooperative), one producer warpgroup
//   splitk persistent grid; when the tiles do not fill the SMs, each tile's K is split
//          over several CTAs, and when they fill them in a fractional number of waves,
//          the tiles of the last wave may be (sm90_split); reduced in a fixed order in
//          the workspace
//
// Everything except launch_sm90 is pure host arithmetic (no CUDA call): the heuristic is
// unit-tested on the CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/gemm_params.h"

typedef struct CUstream_st* cudaStream_t;

namespace mixgemm::kernels {

struct Sm90Config {
  int tile_n = 128;  // weight rows per CTA tile: 128 or 256
  int tile_t = 128;  // tokens per CTA tile: 16, 32, 64, 128 or 256

  std::string name() const;  // "sm90_128x128_1x1x1_coop_splitk"
  friend bool operator==(const Sm90Config& x, const Sm90Config& y) {
    return x.tile_n == y.tile_n && x.tile_t == y.tile_t;
  }
};

// How sm90_split chooses (below): kAuto, the heuristic; kSplitK: split-K only; kStream:
// stream-K wherever it can run (the tests force both reductions on any shape).
enum class Sm90SplitMode { kAuto, kSplitK, kStream };

// Inverse of Sm90Config::name(); false (cfg untouched) for any other string.
bool sm90_parse_name(std::string_view name, Sm90Config* cfg);

// Every schedule this build compiled for (a, b), in a stable order (the generated
// instance table); empty for pairs the family does not run (8-bit activations).
std::vector<Sm90Config> sm90_configs(AType a, BType b);

// The promotion interval of e4m3 activations on a schedule in this build, in k (docs/semantics.md 5.2's
// P: the fp8 wgmma chain's sum is added into f32 registers at least every P k): 256 (the default; 64 or
// 128 by MIXGEMM_SM90_E4M3_PROMOTE_BLOCKS, sm90_kernel_params.h) on the tiles that issue whole 64-k
// blocks, 0 on 128 x 256
// (a work unit's whole k-range in one chain). What the tolerance model takes (ToleranceOptions).
int64_t sm90_e4m3_promotion_k(const Sm90Config& cfg);

// Whether this build compiled a restricted instance set (-DMIXGEMM_SM90_TYPES / _SCHEDULES):
// the GPU tests then skip, visibly, the type configs that have no instance.
bool sm90_instance_set_restricted();

// Every schedule of the generator's full list for (a, b), whether compiled or not
// (what the heuristic is written against; tests use it).
std::vector<Sm90Config> sm90_all_configs(AType a, BType b);

// Shape legality without pointers (pure): 16-bit activations, K % 64, N % 16, group size
// 0, 16, 32 or a multiple of 64 (or K), M >= 1.
bool sm90_shape_ok(int64_t M, int64_t N, int64_t K, AType a, BType b, int64_t group_size,
                   const Sm90Config& cfg, std::string* why);

// sm90_shape_ok plus pointers: 16-byte alignment of a, b, out, scales, zeros; the
// workspace when a split is needed; the compiled instance.
bool sm90_can_implement(const GemmParams& p, const Sm90Config& cfg, std::string* why,
                        Sm90SplitMode mode = Sm90SplitMode::kAuto);

// How a launch's tiles are split over K (pure; kernels/sm90/sm90_partition.h maps unit
// numbers to tiles and k-ranges from it). Split-K first:
//   tiles < sm_count: every tile in `splits` k-parts (whole = 0): the s <= 16 (and <= K/256)
//     that maximizes the fraction of busy SM-time (tiles*s over whole waves of sm_count),
//     each further split costing 3% (the partial tiles' traffic);
//   tiles >= sm_count: the first `whole` tiles (whole waves of sm_count) run whole, and the
//     r = tiles % sm_count tiles of the last, partial wave run in `splits` k-parts each
//     (splits <= sm_count / r) when the time model predicts that faster than a wave of r
//     whole tiles ("tail split"); splits = 1 otherwise.
// Then stream-K (`stream` = sm_count): the k-blocks of every tile (tiles < sm_count), of the
// last partial wave's tiles, or of those and one whole wave before them, spread evenly over
// the sm_count CTAs, where the time model predicts it at least 10% faster than the split-K
// above (the wave quantization of split-K: e.g. 80 tiles of 10240 x 8192 on 132 SMs).
// sm90_pick ranks each tile by its own split (stream-K included) at every M (since session 65;
// before, on the split-K model at M <= 128).
// Either way the split / streamed tiles are reduced in the workspace in a fixed order
// (ascending k: deterministic).
struct Sm90Split {
  int64_t whole = 0;  // tiles run whole, units [0, whole)
  int splits = 1;     // split-K: k-parts of each of the other tiles (1: no split)
  int stream = 0;     // stream-K: the CTAs the other tiles' k-blocks are spread over (0: split-K)
};
// The element types enter through stream-K's operand footprint (sm90_stream_live_bytes): every caller passes
// the call's own, so that the ranking, the workspace query and the launch agree on the split.
Sm90Split sm90_split(int64_t M, int64_t N, int64_t K, const Sm90Config& cfg, int sm_count, AType a, BType b,
                     Sm90SplitMode mode = Sm90SplitMode::kAuto);

// Stream-K desynchronizes the CTAs along K: a CTA's range begins wherever the previous one's ended, so the
// tiles that share an activation row block (one token tile: n_tiles consecutive tiles) or a weight row block (one
// n-tile) read the same k-block at different times, and the block must stay in L2 from its first read to its last.
// This is the time-average of those bytes over a launch that streams the tiles [whole, tiles) over P CTAs, in
// bytes: the kernel's ranges (sm90_stream_begin) taken as continuous, sampled at up to 8 groups of each kind,
// 64 tiles per group and 2 k per tile (gemm() plans every call on the host). Whole tiles and split-K parts walk K
// together (every part of a wave starts at the same k), so their footprint is a few k-blocks and is not counted.
double sm90_stream_live_bytes(int64_t M, int64_t N, int64_t K, const Sm90Config& cfg, AType a, BType b,
                              int64_t whole, int64_t P);

// Workspace bytes (counters + partial tiles) for this shape and split mode; 0 without a split.
size_t sm90_workspace_bytes(int64_t M, int64_t N, int64_t K, const Sm90Config& cfg, int sm_count, AType a, BType b,
                            Sm90SplitMode mode = Sm90SplitMode::kAuto);

// The heuristic's time model for one launch, in microseconds (H200 constants).
double sm90_predicted_us(int64_t M, int64_t N, int64_t K, int sm_count, AType a, BType b,
                         const Sm90Config& cfg);

// The best-predicted config among `candidates` that sm90_shape_ok accepts; false if none.
// `ranked_us` (optional) receives its time in the ranking model of the type pair (the per-type
// constants of sm90_heuristic.cpp); since session 66 core/dispatch.cpp compares it with smallm's
// model for 16-bit and s8 activations (e4m3 compares sm90_predicted_us).
bool sm90_pick(int64_t M, int64_t N, int64_t K, int sm_count, AType a, BType b,
               int64_t group_size, const std::vector<Sm90Config>& candidates, Sm90Config* out,
               double* ranked_us = nullptr);

// The tile to run in place of the ranked one: 256 x 64 at M <= 32 becomes the narrowest 256-row tile of at
// least M tokens among `candidates` (256 x 32, 256 x 16); any other tile is returned as it is. Pure.
Sm90Config sm90_narrow_token_tile(int64_t M, const Sm90Config& ranked, const std::vector<Sm90Config>& candidates);

// How the 128 x 256 and 128 x 128 tiles' two-part split-K tiles are reduced (sm90_epilogue.cuh):
// kOn, the default: when both parts have arrived, each sums, scales and stores one token half
// of the tile (the other part's half of its partial is all it loads); a part that arrives
// first and finds its partner absent stores its whole partial and leaves, and the partner
// reduces the whole tile. kOff: the last arriver always reduces the whole tile (also with
// MIXGEMM_SM90_EXCHANGE=0 in the environment, for A/B timing in one build). kLeaveFirst
// (tests): the first arriver decides at once, so the leave path runs too. Every mode gives
// the same bits (two parts: p0 + p1 == p1 + p0).
enum class Sm90Exchange { kOn, kOff, kLeaveFirst };

// Asynchronous launch on `stream`. Throws mixgemm::Error (kNotSupported) when
// !sm90_can_implement, (kCudaError) when the tensor map or the launch fails.
// `mode` forces split-K or stream-K (tests); gemm() runs kAuto and kOn.
void launch_sm90(const GemmParams& p, const Sm90Config& cfg, cudaStream_t stream,
                 Sm90SplitMode mode = Sm90SplitMode::kAuto, Sm90Exchange exchange = Sm90Exchange::kOn);

}  // namespace mixgemm::kernels
