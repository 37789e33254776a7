// gemm.cpp - the public gemm entry point: validate, choose a schedule, launch.
//
// Layers (CUTLASS's device-adapter idea): check_gemm_args = can_implement,
// workspace_size = workspace, gemm = run. Everything before the launch is host
// arithmetic plus cheap attribute queries (no allocation, no synchronization), so
// a gemm call can be captured into a CUDA graph and issued from many threads.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "core/check.h"
#include "core/dispatch.h"
#include "core/print_config.h"
#include "core/problem.h"
#include "core/regions.h"
#include "api/gemm_call.h"
#include "mixgemm/gemm.h"
#include "mixgemm/prepack.h"

namespace mixgemm {

namespace {

constexpr const char* kWhere = "gemm";

// Device facts, read once per device with attribute queries (never a device sync).
struct DeviceFacts {
  int sm_count = 0;
  int cc_major = 0, cc_minor = 0;
};
constexpr int kMaxDevices = 64;
std::atomic<int> g_sm_count[kMaxDevices];
std::atomic<int> g_cc[kMaxDevices];

DeviceFacts current_device_facts() {
  int dev = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e != cudaSuccess)
    throw Error(ErrorCode::kCudaError,
                std::string("mixgemm::gemm: no usable CUDA device (cudaGetDevice: ") + cudaGetErrorString(e) + ")");
  DeviceFacts f;
  if (dev >= 0 && dev < kMaxDevices && g_sm_count[dev].load(std::memory_order_relaxed) > 0) {
    f.sm_count = g_sm_count[dev].load(std::memory_order_relaxed);
    int cc = g_cc[dev].load(std::memory_order_relaxed);
    f.cc_major = cc / 10;
    f.cc_minor = cc % 10;
    return f;
  }
  if (cudaDeviceGetAttribute(&f.sm_count, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&f.cc_major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&f.cc_minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess) {
    throw Error(ErrorCode::kCudaError, "mixgemm::gemm: cannot query device attributes of device " +
                                           std::to_string(dev));
  }
  if (dev >= 0 && dev < kMaxDevices) {
    g_cc[dev].store(f.cc_major * 10 + f.cc_minor, std::memory_order_relaxed);
    g_sm_count[dev].store(f.sm_count, std::memory_order_relaxed);
  }
  return f;
}

void require_aligned(const void* p, size_t align, const char* name, const char* where = kWhere) {
  MIXGEMM_REQUIRE(reinterpret_cast<uintptr_t>(p) % align == 0, where,
                  name << " is not " << align << "-byte aligned; accepted: a " << align
                       << "-byte aligned address");
}

// The current device's SM count; without a usable device, an H100/H200's (132).
int current_sm_count_or_default() {
  try {
    return current_device_facts().sm_count;
  } catch (const Error&) {
    (void)cudaGetLastError();
    return core::kDefaultSmCount;
  }
}

// The SMs a call plans for: `requested` (GemmArgs::sm_count, or the sm_count argument of a
// query) when not 0, else all of the current device's `device_sms` (132 without a device).
int planned_sm_count(int requested, int device_sms, const char* where) {
  MIXGEMM_REQUIRE(requested >= 0 && requested <= device_sms, where,
                  "sm_count=" << requested << " is not a number of SMs of the current device (" << device_sms
                              << " SMs); accepted: 0 (all of them) or 1.." << device_sms);
  return requested == 0 ? device_sms : requested;
}

// A forced schedule must be one of supported_schedules(types); empty (the heuristic) always passes.
void require_schedule_of(const TypeConfig& types, const std::string& schedule, const char* where) {
  if (schedule.empty()) return;
  const auto names = supported_schedules(types);
  if (std::find(names.begin(), names.end(), schedule) != names.end()) return;
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  MIXGEMM_REQUIRE(false, where,
                  "schedule='" << schedule << "' is not a schedule of " << types.name()
                               << "; accepted: " << (list.empty() ? "(none)" : list));
}

// What gemm and gemm_partial_sums check alike: the problem, the operands (not out), the schedule.
// allow_empty (gemm): M = 0 passes, and then a may be null (it has no rows).
void check_inputs(const GemmArgs& args, const char* where, bool allow_empty = false) {
  const GemmProblem& p = args.problem;
  core::check_problem(p, where, allow_empty);
  const TypeConfig& t = p.types;
  const int a_bytes = t.a.size_bits() / 8;

  MIXGEMM_REQUIRE(args.a != nullptr || p.M == 0, where, "a is null; accepted: a device pointer to [M, lda] activations");
  MIXGEMM_REQUIRE(args.b != nullptr, where, "b is null; accepted: the device pointer prepack() wrote");
  MIXGEMM_REQUIRE(args.lda >= p.K, where, "lda=" << args.lda << " < K=" << p.K << "; accepted: lda >= K");
  MIXGEMM_REQUIRE(args.lda % (16 / a_bytes) == 0, where,
                  "lda=" << args.lda << " is not a multiple of " << 16 / a_bytes
                         << " elements; rows of a must start 16-byte aligned");
  require_aligned(args.a, 16, "a", where);
  require_aligned(args.b, 16, "b", where);

  const bool grouped = p.group_size > 0;
  MIXGEMM_REQUIRE(!grouped || args.group_scales != nullptr, where,
                  "group_scales is null but group_size=" << p.group_size
                                                         << "; pass [K/group_size, N] scales of type "
                                                         << t.scale.name() << ", or group_size=0");
  MIXGEMM_REQUIRE(grouped || args.group_scales == nullptr, where,
                  "group_scales given with group_size=0; set group_size (K for per-channel) or pass null");
  MIXGEMM_REQUIRE(!t.has_zeros || args.group_zeros != nullptr, where,
                  "group_zeros is null but types.has_zeros is set; pass prepack_zeros_cpu() output, [" << core::num_groups(p)
                                                                                              << ", N]");
  MIXGEMM_REQUIRE(t.has_zeros || args.group_zeros == nullptr, where,
                  "group_zeros given but types.has_zeros is false; use b=u4/u8 with has_zeros=true, or pass null");
  // Both kernel families copy the scale and zero rows in 16-byte pieces (sm90 by TMA bulk
  // copies, smallm by cp.async): rows start 16-byte aligned (N % 16 == 0), so the base must too.
  if (args.group_scales) require_aligned(args.group_scales, 16, "group_scales", where);
  if (args.group_zeros) require_aligned(args.group_zeros, 16, "group_zeros", where);

  require_schedule_of(t, args.schedule, where);
}

// The byte regions a call reads: a [M, lda] (row stride lda, K live elements), the prepacked
// weights, and the optional scales, zero points, ch, tok and bias.
struct NamedRegion {
  const char* name;
  core::Region r;
};
std::vector<NamedRegion> input_regions(const GemmArgs& args) {
  const GemmProblem& p = args.problem;
  const int64_t ea = p.types.a.size_bits() / 8;
  const int64_t G = core::num_groups(p);
  const int64_t zb = p.types.a == types::s8 ? 1 : 2;  // prepacked zero points: u8 for s8, else 16-bit
  return {{"a", core::matrix(args.a, p.M, args.lda * ea, p.K * ea)},
          {"b", core::span(args.b, static_cast<int64_t>(prepacked_size(p.K, p.N, p.types.b)))},
          {"group_scales", core::span(args.group_scales, G * p.N * (p.types.scale.size_bits() / 8))},
          {"group_zeros", core::span(args.group_zeros, G * p.N * zb)},
          {"channel_scales", core::span(args.channel_scales, p.N * 4)},
          {"token_scales", core::span(args.token_scales, p.M * 4)},
          {"bias", core::span(args.bias, p.N * (p.types.out.size_bits() / 8))}};
}

// What a call writes (`name`: out, parts or the workspace) must share no byte with what it reads.
void require_disjoint(const char* name, const core::Region& w, const std::vector<NamedRegion>& inputs,
                      const char* where) {
  for (const NamedRegion& in : inputs)
    MIXGEMM_REQUIRE(!core::regions_overlap(w, in.r), where,
                    name << " overlaps " << in.name << "; accepted: " << name
                         << " in memory that no input of the call uses (it is written while they are read)");
}

DeviceFacts require_sm90(const char* where) {
  const DeviceFacts dev = current_device_facts();
  MIXGEMM_REQUIRE(dev.cc_major == 9, where,
                  "the current device has compute capability " << dev.cc_major << "." << dev.cc_minor
                                                               << "; mixgemm's kernels are built for sm_90a (H100/H200)");
  return dev;
}

}  // namespace

namespace {

// Everything gemm() checks that needs no device (the arguments, the workspace for a GPU of
// `sm_count` SMs, the regions, every planned launch's can_implement); returns the plan.
// M = 0 (no tokens) is checked as any call, except that a and out may be null and no workspace
// is needed, and plans no launch (gemm still asks the device its facts, the pointers and the
// stream, then launches nothing).
std::vector<core::PlannedLaunch> check_and_plan(const GemmArgs& args, int sm_count) {
  check_inputs(args, kWhere, /*allow_empty=*/true);
  const GemmProblem& p = args.problem;
  const bool empty = p.M == 0;
  MIXGEMM_REQUIRE(args.out != nullptr || empty, kWhere, "out is null; accepted: a device pointer to [M, ldo] outputs");
  MIXGEMM_REQUIRE(args.ldo >= p.N, kWhere, "ldo=" << args.ldo << " < N=" << p.N << "; accepted: ldo >= N");
  MIXGEMM_REQUIRE(args.ldo % 8 == 0, kWhere,
                  "ldo=" << args.ldo << " is not a multiple of 8 elements; rows of out must start 16-byte aligned");
  require_aligned(args.out, 16, "out");
  if (args.channel_scales) require_aligned(args.channel_scales, 4, "channel_scales");
  if (args.token_scales) require_aligned(args.token_scales, 4, "token_scales");
  if (args.bias) require_aligned(args.bias, 4, "bias");

  const size_t need = empty ? 0 : core::workspace_bytes(p, sm_count);  // p was validated above
  MIXGEMM_REQUIRE(args.workspace_bytes >= need, kWhere,
                  "workspace_bytes=" << args.workspace_bytes << " < " << need
                                     << ", what this call needs; accepted: workspace_size(problem) bytes (which "
                                        "also serve every smaller M), or more");
  MIXGEMM_REQUIRE(need == 0 || args.workspace != nullptr, kWhere,
                  "workspace is null but this problem needs " << need << " bytes (workspace_size)");
  if (args.workspace) require_aligned(args.workspace, 256, "workspace");

  // Neither out nor the part of the workspace the call uses may alias an input or each other.
  std::vector<NamedRegion> inputs = input_regions(args);
  const int64_t eo = p.types.out.size_bits() / 8;
  const core::Region out = core::matrix(args.out, p.M, args.ldo * eo, p.N * eo);
  const core::Region ws = core::span(args.workspace, static_cast<int64_t>(need));
  require_disjoint("out", out, inputs, kWhere);
  require_disjoint("workspace", ws, inputs, kWhere);
  require_disjoint("out", out, {{"workspace", ws}}, kWhere);

  if (empty) return {};
  // Without a forced schedule a badly tile-fitting M may run as two row slices, each with the
  // heuristic's pick for its rows (core::plan_call), in order on the stream. Every launch is
  // checked here, before the first one runs: a refused call writes nothing.
  std::vector<core::PlannedLaunch> plan = core::plan_call(args, sm_count);
  for (const core::PlannedLaunch& l : plan) core::require_runnable(args, l, sm_count);
  return plan;
}

}  // namespace

void check_gemm_args(const GemmArgs& args) {
  (void)check_and_plan(args, planned_sm_count(args.sm_count, current_sm_count_or_default(), kWhere));
}

size_t workspace_size(const GemmProblem& problem, int sm_count) {
  core::check_problem(problem, "workspace_size", /*allow_empty=*/true);
  const int sms = planned_sm_count(sm_count, current_sm_count_or_default(), "workspace_size");
  if (problem.M == 0) return 0;  // gemm launches nothing
  return core::workspace_bytes_up_to(problem, sms);
}

std::vector<std::string> supported_schedules(const TypeConfig& types) {
  core::check_type_config(types, "supported_schedules");
  return core::schedule_names(types);
}

namespace {

// What gemm() would launch for `problem` without a forced schedule (no pointers are needed).
std::vector<core::PlannedLaunch> plan_of(const GemmProblem& problem, int sm_count) {
  GemmArgs args;
  args.problem = problem;
  return core::plan_call(args, sm_count);
}

}  // namespace

std::string choose_schedule(const GemmProblem& problem, int sm_count) {
  core::check_problem(problem, "choose_schedule");
  return plan_of(problem, sm_count).front().schedule;
}

std::string describe_plan(const GemmProblem& problem, int sm_count) {
  core::check_problem(problem, "describe_plan");
  const std::vector<core::PlannedLaunch> plan = plan_of(problem, sm_count);
  std::string s = plan.front().schedule;
  if (plan.size() > 1) {
    s.append("[").append(std::to_string(plan.front().rows)).append("]+");
    s.append(plan.back().schedule);
  }
  return s;
}

namespace api {

// A pointer the current device can read: device memory of this device, or managed memory.
void require_device_pointer(const void* p, const char* name, const char* where) {
  if (p == nullptr) return;
  cudaPointerAttributes attr{};
  cudaError_t e = cudaPointerGetAttributes(&attr, p);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky-free error this query may leave
    MIXGEMM_REQUIRE(false, where, name << " is not a pointer known to CUDA; accepted: device memory");
  }
  MIXGEMM_REQUIRE(attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged, where,
                  name << " points to host memory; accepted: device memory of the current device");
  int dev = 0;
  (void)cudaGetDevice(&dev);
  MIXGEMM_REQUIRE(attr.type == cudaMemoryTypeManaged || attr.device == dev, where,
                  name << " lives on device " << attr.device << " but the current device is " << dev
                       << "; call cudaSetDevice(" << attr.device << ") first");
}

// A stream of the current device. A stream of another device would fail the launch with a
// bare "invalid resource handle"; the default streams (null, legacy, per-thread) are always the
// current device's. cudaStreamGetDevice is one of the queries stream capture forbids (it would
// invalidate the capture: cudaErrorStreamCaptureUnsupported), so a capturing stream is not asked:
// capture records no launch on a stream of another device either (the launch fails there).
void require_stream_of_current_device(cudaStream_t stream, const char* where) {
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread) return;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  cudaError_t e = cudaStreamIsCapturing(stream, &capture);
  if (e == cudaSuccess && capture != cudaStreamCaptureStatusNone) return;
  int stream_dev = -1;
  if (e == cudaSuccess) e = cudaStreamGetDevice(stream, &stream_dev);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    MIXGEMM_REQUIRE(false, where, "stream is not a usable CUDA stream (" << cudaGetErrorString(e)
                                      << "); accepted: a live stream of the current device, or 0");
  }
  int dev = 0;
  (void)cudaGetDevice(&dev);
  MIXGEMM_REQUIRE(stream_dev == dev, where,
                  "stream belongs to device " << stream_dev << " but the current device is " << dev
                                              << "; call cudaSetDevice(" << stream_dev
                                              << ") first, or pass a stream of device " << dev);
}

CheckedCall check_call(const GemmArgs& args) {
  const DeviceFacts dev = current_device_facts();
  CheckedCall call;
  call.sm_count = planned_sm_count(args.sm_count, dev.sm_count, kWhere);
  call.plan = check_and_plan(args, call.sm_count);
  require_sm90(kWhere);
  require_device_pointer(args.a, "a", kWhere);
  require_device_pointer(args.b, "b", kWhere);
  require_device_pointer(args.out, "out", kWhere);
  require_device_pointer(args.group_scales, "group_scales", kWhere);
  require_device_pointer(args.group_zeros, "group_zeros", kWhere);
  require_device_pointer(args.channel_scales, "channel_scales", kWhere);
  require_device_pointer(args.token_scales, "token_scales", kWhere);
  require_device_pointer(args.bias, "bias", kWhere);
  require_device_pointer(args.workspace, "workspace", kWhere);
  require_stream_of_current_device(args.stream, kWhere);
  return call;
}

void run_call(const GemmArgs& args, const CheckedCall& call) {
  const int64_t M = args.problem.M;
  for (const core::PlannedLaunch& l : call.plan) {
    if (core::print_config_enabled()) {
      std::fprintf(stderr, "[mixgemm] M=%lld N=%lld K=%lld types=%s group=%lld -> %s%s", static_cast<long long>(M),
                   static_cast<long long>(args.problem.N), static_cast<long long>(args.problem.K),
                   args.problem.types.name().c_str(), static_cast<long long>(args.problem.group_size),
                   l.schedule.c_str(), args.schedule.empty() ? " (heuristic)" : " (forced)");
      if (l.rows != M)
        std::fprintf(stderr, " rows [%lld, %lld)", static_cast<long long>(l.m0), static_cast<long long>(l.m0 + l.rows));
      if (args.sm_count != 0) std::fprintf(stderr, " for %d SMs", call.sm_count);
      std::fprintf(stderr, "\n");
    }
    core::launch(l.rows == M ? args : core::row_slice(args, l.m0, l.rows), l.schedule, call.sm_count);
  }
}

}  // namespace api

void gemm(const GemmArgs& args) { api::run_call(args, api::check_call(args)); }

int64_t partial_sums_count(const GemmProblem& problem, const std::string& schedule, int sm_count) {
  constexpr const char* where = "partial_sums_count";
  core::check_problem(problem, where);
  require_schedule_of(problem.types, schedule, where);
  return core::plan_partial_sums(problem, schedule, planned_sm_count(sm_count, current_sm_count_or_default(), where))
      .parts;
}

void gemm_partial_sums(const GemmArgs& args, void* parts) {
  constexpr const char* where = "gemm_partial_sums";
  check_inputs(args, where);
  MIXGEMM_REQUIRE(args.out == nullptr, where,
                  "out is set; gemm_partial_sums writes only `parts` (pass out = null, or call gemm)");
  MIXGEMM_REQUIRE(args.channel_scales == nullptr && args.token_scales == nullptr && args.bias == nullptr, where,
                  "channel_scales, token_scales and bias must be null: the parts are raw sums and the caller "
                  "applies the epilogue to their sum (or call gemm)");
  MIXGEMM_REQUIRE(parts != nullptr, where, "parts is null; accepted: a device pointer to [S, M, N] sums, "
                                           "S = partial_sums_count(problem, schedule)");
  require_aligned(parts, 16, "parts", where);
  // The plan first (pure: the current device's SM count, 132 without one, or args.sm_count of
  // it), so that a problem without a partial-sum form is refused as such on any machine.
  const int sm_count = planned_sm_count(args.sm_count, current_sm_count_or_default(), where);
  const core::PartialSumsPlan plan = core::plan_partial_sums(args.problem, args.schedule, sm_count);
  MIXGEMM_REQUIRE(plan.parts >= 2, where,
                  "no partial-sum form for M=" << args.problem.M << " N=" << args.problem.N << " K=" << args.problem.K
                      << " " << args.problem.types.name()
                      << (args.schedule.empty() ? std::string(" (heuristic pick ") + plan.schedule + ")"
                                                : " with schedule " + args.schedule)
                      << "; partial_sums_count says 0: decode schedules with token tiles of 8 or 16 and at least two "
                         "CTAs per column stripe have one (call gemm instead)");
  // [S, M, N] sums of 4 bytes (s32 for s8, else f32).
  require_disjoint("parts", core::span(parts, plan.parts * args.problem.M * args.problem.N * 4),
                   input_regions(args), where);
  (void)require_sm90(where);
  api::require_device_pointer(args.a, "a", where);
  api::require_device_pointer(args.b, "b", where);
  api::require_device_pointer(parts, "parts", where);
  api::require_device_pointer(args.group_scales, "group_scales", where);
  api::require_device_pointer(args.group_zeros, "group_zeros", where);
  api::require_stream_of_current_device(args.stream, where);
  if (core::print_config_enabled())
    std::fprintf(stderr, "[mixgemm] M=%lld N=%lld K=%lld types=%s group=%lld -> %s (%s), %lld partial sums%s\n",
                 static_cast<long long>(args.problem.M), static_cast<long long>(args.problem.N),
                 static_cast<long long>(args.problem.K), args.problem.types.name().c_str(),
                 static_cast<long long>(args.problem.group_size), plan.schedule.c_str(),
                 args.schedule.empty() ? "heuristic" : "forced", static_cast<long long>(plan.parts),
                 args.sm_count != 0 ? (" for " + std::to_string(sm_count) + " SMs").c_str() : "");
  core::launch_partial_sums(args, plan.schedule, parts, sm_count);
}

}  // namespace mixgemm
