// mixgemm/gemm.h - the mixed-input GEMM entry points (host API).
//
//   out[m,n] = cast_out( tok[m] * ch[n] * sum_k a[m,k] * w[k,n] + bias[n] )
//
// with w[k,n] rebuilt from the prepacked quantized weights exactly as
// docs/semantics.md defines. All pointers are device pointers. gemm() never
// allocates, never synchronizes the host, and is safe inside CUDA graph capture
// and from several host threads at once (each call with its own workspace).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "mixgemm/error.h"
#include "mixgemm/scalar_type.h"

typedef struct CUstream_st* cudaStream_t;

namespace mixgemm {

// The types of one GEMM configuration.
struct TypeConfig {
  ScalarType a;      // activations: f16, bf16, s8, e4m3
  ScalarType b;      // weights: u4b8, u4, u8b128, u8
  ScalarType scale;  // group-scale type (f16/bf16 for 16-bit a; u8 integer scales for s8 (QQQ);
                     // f16 for e4m3); ignored when group_size == 0
  bool has_zeros;    // b is u4/u8 with zero points
  ScalarType out;    // f16 or bf16

  std::string name() const;  // e.g. "f16.u4b8.s=f16.out=f16"
};

// Shapes and strides of one call, everything the heuristic and the validation need.
struct GemmProblem {
  int64_t M = 0, N = 0, K = 0;
  TypeConfig types{};
  int64_t group_size = 0;  // 0: no group scales; K: per-channel; else 16 | group_size | K
};

struct GemmArgs {
  GemmProblem problem;

  const void* a = nullptr;         // [M, K] row-major, element type types.a, 16-byte aligned
  int64_t lda = 0;                 // row stride of a in elements (>= K, multiple of 8 for 16-bit, 16 for 8-bit)
  const void* b = nullptr;         // prepacked weights (mixgemm::prepack), K x N, 16-byte aligned
  const void* group_scales = nullptr;  // [K/group_size, N] row-major, types.scale, 16-byte aligned
  const void* group_zeros = nullptr;   // prepacked zero points (mixgemm::prepack_zeros), when has_zeros, 16-byte aligned
  const float* channel_scales = nullptr;  // [N] f32, optional (ch), 4-byte aligned
  const float* token_scales = nullptr;    // [M] f32, optional (tok), 4-byte aligned
  const void* bias = nullptr;             // [N], type types.out, optional, 4-byte aligned

  void* out = nullptr;  // [M, N] row-major, types.out, 16-byte aligned; shares no byte with an input or the workspace
  int64_t ldo = 0;      // row stride of out in elements (>= N, multiple of 8)

  // Device memory of at least workspace_size(problem) bytes, 256-byte aligned, zero-filled
  // once before its first use. gemm leaves its first 64 KB (arrival counters) zero and the
  // rest is scratch, so one workspace (the largest size any call needs) can serve every
  // shape, type and schedule in turn, as long as the calls sharing it are ordered on one
  // stream (docs/design.md, "Workspace").
  void* workspace = nullptr;
  size_t workspace_bytes = 0;

  std::string schedule;  // empty: the heuristic chooses; else one of supported_schedules(types)
  // The stream gemm launches on: 0 (the default stream), cudaStreamPerThread, or a stream of the
  // current device (one of another device is refused, naming both devices).
  cudaStream_t stream = nullptr;

  // true: a decode (smallm) launch is a CUDA programmatic dependent of the kernel before it on
  // the stream: it may start while that kernel runs and read the prepacked weights b (which that
  // kernel must not write), and waits for the kernel's completion before it reads anything else
  // (a, token_scales, scales, zeros, bias, ch) or writes out or the workspace. It gains only
  // when the kernel before triggers its dependents early, as quantize_activations does
  // (gemm_with_activation_quant sets it); with any other kernel it is correct and gains
  // nothing. gemm_partial_sums (always a decode launch) takes it too. sm90 launches ignore it.
  bool programmatic_dependent_launch = false;

  // The SMs the call's work is sized for: 0 (the default) all of the current device's; n in
  // 1..(the device's count) when the stream runs on fewer, e.g. a stream of a CUDA green context
  // that owns n SMs, or SMs left to a kernel that overlaps this one. The heuristic, the split-K /
  // stream-K partitions and the persistent grids then plan for n SMs (on a green context's
  // stream a plan for the whole device would run in waves). The workspace need changes with it:
  // size the workspace with workspace_size(problem, n). A value above the device's count or
  // below 0 is refused. Results stay deterministic for a given n (a different n may split K
  // differently: the sums agree within docs/semantics.md's bound, not bit for bit).
  int sm_count = 0;
};

// Bytes of workspace gemm() needs for this problem on the current device (its SM count, or
// `sm_count` SMs of it as GemmArgs::sm_count says, sets how the work is split; 132 SMs are
// assumed when no device can be queried). The
// maximum over every schedule, so any forced schedule fits, and over every M' <= M, so a
// workspace sized for the largest batch serves every smaller one (what a call needs is not
// monotone in M by itself); 0 for M = 0. Never synchronizes; a setup-time query (up to ~0.2 ms
// at M = 8192).
size_t workspace_size(const GemmProblem& problem, int sm_count = 0);

// Names of the schedules that can run `types`, in a stable order.
std::vector<std::string> supported_schedules(const TypeConfig& types);

// The schedule the heuristic picks for this problem on a GPU with `sm_count` SMs (where gemm()
// runs the problem as two row slices, see describe_plan, the first slice's schedule).
std::string choose_schedule(const GemmProblem& problem, int sm_count);

// What gemm() runs for this problem when no schedule is forced: choose_schedule's name for one
// launch, or "<schedule>[<rows>]+<schedule>" when it runs rows [0, rows) and [rows, M) as two
// launches in order on the stream, each with the heuristic's pick for its rows (an M that fits
// the token tiles badly, e.g. 320 = 256 + 64; docs/design.md, "Row split"). MIXGEMM_ROW_SPLIT=0
// in the environment makes gemm() run one launch (and these two functions say so).
std::string describe_plan(const GemmProblem& problem, int sm_count);

// Validates everything, picks or checks the schedule, and launches on args.stream.
// Throws mixgemm::Error (nothing written) on any invalid argument or when no kernel
// implements the configuration. M = 0 (no tokens: an empty batch, an expert that drew none)
// is checked like any call, except that a and out may be null and no workspace is needed
// (workspace_size says 0), and launches nothing. choose_schedule, describe_plan and the
// partial-sum entries, which describe a launch, refuse M = 0.
void gemm(const GemmArgs& args);

// Validation alone, without a launch: what gemm() checks before it launches (the arguments,
// the regions, the plan and every planned launch's kernel-family can_implement), except what
// needs the device (its compute capability, where each pointer lives, the stream's device). The current device's SM
// count sizes the workspace and the plan (132 without a device). Exposed for tests and callers
// that want to check once at model load.
void check_gemm_args(const GemmArgs& args);

// ---- Split-K partial sums (decode) ------------------------------------------------------
// A decode launch (M <= 16) splits K between several CTAs per column stripe and sums their
// partial sums before the epilogue, in a second small grid or a cluster exchange: on a 4096 x
// 4096 layer that sum costs about as much as a quarter of the GEMM. gemm_partial_sums leaves
// it to the caller, whose next kernel (a residual add and norm, an activation: what a
// compiler such as torch inductor fuses anyway) can take it for free. It writes
//
//   parts[s][m][n] = sum over k in part s of a[m,k] * w[k,n]     s = 0 .. S-1, [S, M, N] dense
//
// the k-ranges of a column's parts ascending and contiguous (they may differ between column
// stripes, and a part whose range is empty holds zeros), f32 (s32 for s8 activations, exact), no
// epilogue; S = partial_sums_count(problem, schedule), 2..16. Then
//
//   out[m,n] = cast_out(tok[m] * ch[n] * acc + bias[n]),  acc = ((parts[0] + parts[1]) + ...) + parts[S-1]
//
// (f32 additions in that order, one fma for the epilogue as gemm's) is bit for bit what gemm
// writes when its launch splits K the same way (docs/semantics.md, "Partial sums"). Arguments
// as gemm's, except: out, channel_scales, token_scales and bias must be null (the caller
// applies them), the workspace is not used, and the schedule (forced or the heuristic's) must
// have a partial-sum form. Never allocates or synchronizes; CUDA-graph safe.
void gemm_partial_sums(const GemmArgs& args, void* parts);

// S for gemm_partial_sums on the current device (132 SMs without one; `sm_count` SMs of it when
// not 0, which must then be the GemmArgs::sm_count of the gemm_partial_sums call) with `schedule`
// (empty: the heuristic's pick), or 0 where that schedule has none: the sm90 schedules (M > 16, and since
// session 79 the large layers at decode that the heuristic gives sm90's 256 x 16: f16 / bf16 and
// per-channel e4m3 at M = 9..16, grouped e4m3 at M <= 16 (M = 9..16 since session 83), on layers of >= 26 Mi weights;
// core::choose_among's decode_tile), decode schedules with 32- or
// 64-token tiles, and shapes where no column stripe is shared by two CTAs (or more than 16 would be);
// call gemm there.
int64_t partial_sums_count(const GemmProblem& problem, const std::string& schedule = "", int sm_count = 0);

}  // namespace mixgemm
