// runner.h - what the bench's driver (bench.cpp) calls to measure one shape with one kernel.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "device.h"
#include "metrics.h"
#include "options.h"
#include "report.h"
#include "shapes.h"
#include "type_spec.h"

namespace mixgemm::bench {

struct BenchContext {
  const Options* opt = nullptr;
  DeviceFacts dev;
  double copy_gbps = 0;
  cudaStream_t stream = nullptr;
  int green_sms = 0;  // --green-sms: the SMs the stream's green context owns (0: none, the whole GPU)
  // The SMs mixgemm plans for: the green context's, else the device's.
  int plan_sms() const { return green_sms > 0 ? green_sms : dev.sm_count; }
  EventTimer* timer = nullptr;
  L2Policy policy = L2Policy::kRotate;
  void* lt_handle = nullptr;  // cublasLtHandle_t, created once
  DeviceBuffer lt_workspace;  // cuBLASLt workspace
  // Progress line on stderr ("" clears it); progress_skip(n) counts n steps done silently.
  std::function<void(const std::string&)> progress;
  std::function<void(int)> progress_skip;
  std::function<void(const std::string&)> progress_note;  // same line, does not count a step
  // Totals of --verify.
  int verified = 0, verify_failures = 0;
  int verify_loose = 0;  // rows with outputs the reference gives no finite bound for
  // Rows whose output was not finite / never written.
  int bad_outputs = 0;
  // fp8 baseline scale granularities used in this run ("rowwise", "per-tensor").
  std::vector<std::string> fp8_scale_modes;
};

// A row of `kernel` on `shape` at M with the fields every runner fills alike: the GPU, the run's
// copy bandwidth, and type_spec = kernel until the runner names a type config.
inline ResultRow new_row(const BenchContext& ctx, const Shape& shape, int64_t M, const std::string& kernel) {
  ResultRow r;
  r.gpu = ctx.dev.name;
  r.shape = shape;
  r.M = M;
  r.kernel = kernel;
  r.type_spec = kernel;
  r.copy_gbps = ctx.copy_gbps;
  return r;
}

// The note of a row whose weights / activations rotate over copies for cold L2 ("" when neither does).
inline std::string rotation_note(int w_copies, int a_copies) {
  if (w_copies <= 1 && a_copies <= 1) return "";
  return "rotating " + std::to_string(w_copies) + "w/" + std::to_string(a_copies) + "a copies";
}

// Copies of a buffer set to rotate through for cold L2 (1 unless the policy is kRotate):
// enough that the rotated bytes cover 3x L2, at least 2, at most max_copies, and no more
// than fit in free memory next to `reserve_bytes` (note says when it had to cut).
int rotation_count(const BenchContext& ctx, int64_t bytes_per_copy, int max_copies, int64_t reserve_bytes,
                   std::string& note);

// One row per M of m_list, base_row(M) with `status` and `note`: every row of a shape whose
// buffers could not be set up (out of memory).
template <class BaseRow>
std::vector<ResultRow> rows_with_status(const std::vector<int64_t>& m_list, BaseRow base_row, const char* status,
                                        const std::string& note) {
  std::vector<ResultRow> rows;
  for (int64_t M : m_list) {
    ResultRow r = base_row(M);
    r.status = status;
    r.note = note;
    rows.push_back(r);
  }
  return rows;
}

// One row per M (ctx.opt->m_list) for baseline `b` on `shape`.
std::vector<ResultRow> run_baseline(BenchContext& ctx, Baseline b, const Shape& shape);

// --stream-read: one row per M (the same bytes for every M) timing a kernel that only reads
// the shape's int4 weights and f16 group-128 scales (kernel "stream_read"): the weight
// stream's own time in this run, launch and ramp included, next to the floor's bytes over the
// copy bandwidth.
std::vector<ResultRow> run_stream_read(BenchContext& ctx, const Shape& shape);

// The timed runs of one row (us per launch): the event timer (one event pair per launch), or with
// --graph-batch N, after the same warm-up and settle, N launches per CUDA graph (time_graph_batch).
std::vector<double> time_launches(BenchContext& ctx, const std::function<void(int)>& launch);

// --marlin / --qqq: rows timing a published kernel on `shape` at every M, as an external
// reference (reference_kernels.cpp): marlin_w4a16 (IST-DASLab's Marlin, type specs f16.u4b8.g128
// and f16.u4b8.gch) and qqq_w4a8 (QQQ, s8.u4b8.g128 and s8.u4b8.gch). Built only with
// MIXGEMM_BENCH_MARLIN_SOURCE / MIXGEMM_BENCH_QQQ_SOURCE (*_available() says whether this binary
// has it); otherwise run_* throws, saying how to build it.
bool marlin_available();
bool qqq_available();
std::vector<ResultRow> run_marlin(BenchContext& ctx, const Shape& shape);
std::vector<ResultRow> run_qqq(BenchContext& ctx, const Shape& shape);

// One row per (schedule, M) for mixgemm with `spec` on `shape`. schedules: the list to time
// (empty string = the heuristic's choice).
std::vector<ResultRow> run_mixgemm(BenchContext& ctx, const TypeSpec& spec, const Shape& shape,
                                   const std::vector<std::string>& schedules);

// --prepack-bench: times mixgemm::prepack on a 57344 x 8192 int4 matrix; returns rows
// (kernel "prepack", M = 0) with GB/s counting bytes read + written.
std::vector<ResultRow> run_prepack_bench(BenchContext& ctx);

void create_cublaslt(BenchContext& ctx);
void destroy_cublaslt(BenchContext& ctx);

}  // namespace mixgemm::bench
