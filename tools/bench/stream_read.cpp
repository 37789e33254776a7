// stream_read.cpp - the --stream-read rows: how long reading a layer's int4 weights and
// group-128 scales takes by itself in this run (cold L2 by the same rotation as the mixgemm
// rows, the same event timer), so a small-M kernel's time can be read against what the
// weight stream alone costs at that size, launch and ramp included, not only against the
// bytes / copy-bandwidth floor. And the launch_only rows: an empty kernel of the same grid,
// timed the same way: the fixed cost t0 every launch pays in this measurement. A kernel whose
// stream ran at the copy bandwidth but only after t0 would reach floor / (t0 + floor) of the
// floor (the row's note); a real kernel overlaps part of its launch ramp with its first loads,
// so this is an estimate of the reachable fraction, not a bound.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <string>
#include <vector>

#include "runner.h"

namespace mixgemm::bench {

std::vector<ResultRow> run_stream_read(BenchContext& ctx, const Shape& shape) {
  const Options& opt = *ctx.opt;
  const int64_t N = shape.N, K = shape.K;
  ByteCount bytes;
  bytes.weights = N * K / 2;               // int4
  bytes.scales = (K / 128) * N * 2;        // f16 group scales, g128
  const int64_t per_copy = (bytes.total() + 15) / 16 * 16;
  const int blocks = 4 * ctx.plan_sms();  // 4 x 256 threads x 4 x 16 B = 64 KB in flight per SM
  std::vector<ResultRow> rows;
  const auto base_row = [&](int64_t M) {
    ResultRow r = new_row(ctx, shape, M, "stream_read");
    r.a_type = r.out_type = "-";
    r.b_type = "u4.g128";
    r.schedule = std::to_string(blocks) + "x256";
    return r;
  };
  std::string note;
  std::vector<DeviceBuffer> src;
  DeviceBuffer sink;
  try {
    const int copies = rotation_count(ctx, per_copy, opt.warmup + opt.iters, 0, note);
    for (int c = 0; c < copies; ++c) {
      src.emplace_back(static_cast<size_t>(per_copy), "stream-read source");
      fill_random_bytes(src.back().get(), static_cast<size_t>(per_copy), opt.seed * 1000 + 31 + c, ctx.stream);
    }
    sink = DeviceBuffer(sizeof(unsigned), "stream-read sink");
    BENCH_CUDA(cudaMemsetAsync(sink.get(), 0, sizeof(unsigned), ctx.stream));
    BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
  } catch (const OutOfMemory& e) {
    return rows_with_status(opt.m_list, base_row, kOutOfMemory, e.what());
  }
  const int copies = static_cast<int>(src.size());
  const auto launch = [&](int i) {
    stream_read(src[i % copies].get(), static_cast<size_t>(per_copy), sink.as<unsigned>(), blocks, ctx.stream);
  };
  // The empty kernel depends on nothing of M: timed once per shape, reported on every M's row.
  const auto launch_only = [&](int) { launch_empty(blocks, ctx.stream); };
  const Stats empty_us = compute_stats(ctx.timer->run(launch_only, opt.warmup, opt.iters));
  // The same two kernels back to back inside one CUDA graph (kGraphN launches per replay, the
  // read rotating over its copies as above), as a decode step's kernels run: rows
  // launch_only_graph / stream_read_graph, per-launch times with the stream's launch boundary and
  // the event pair amortized over the graph.
  constexpr int kGraphN = 32;
  const Stats empty_graph_us = compute_stats(time_graph_batch(launch_only, kGraphN, opt.iters, ctx.stream));
  const Stats read_graph_us = compute_stats(time_graph_batch(launch, kGraphN, opt.iters, ctx.stream));
  for (int64_t M : opt.m_list) {
    ResultRow row = base_row(M);
    if (ctx.progress) ctx.progress(shape.name + " tp" + std::to_string(shape.tp) + " stream_read M=" + std::to_string(M));
    row.us = compute_stats(ctx.timer->run(launch, opt.warmup, opt.iters));
    row.timed = true;
    row.bytes = bytes;
    row.floor_us = floor_us(bytes, ctx.copy_gbps);
    row.note = "int4 weights + g128 f16 scales only (M-independent)" +
               (copies > 1 ? "; rotating " + std::to_string(copies) + " copies" : std::string()) +
               (note.empty() ? "" : "; " + note);
    rows.push_back(row);

    ResultRow e = base_row(M);
    e.kernel = e.type_spec = "launch_only";
    e.b_type = "-";
    e.us = empty_us;
    e.timed = true;
    // No bytes, no floor of its own: its note says what t0 leaves of the layer's floor.
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "empty kernel, same grid; t0 + floor (%.1f MB at the copy bandwidth, %.2f us) would be "
                  "%.1f%% of the floor",
                  bytes.total() / 1e6, row.floor_us, 100.0 * row.floor_us / (row.floor_us + e.us.median));
    e.note = buf;
    rows.push_back(e);

    ResultRow rg = row;
    rg.kernel = rg.type_spec = "stream_read_graph";
    rg.us = read_graph_us;
    rg.note = "the stream_read kernel, " + std::to_string(kGraphN) + " launches back to back in one CUDA graph, per launch";
    rows.push_back(rg);
    ResultRow eg = e;
    eg.kernel = eg.type_spec = "launch_only_graph";
    eg.us = empty_graph_us;
    std::snprintf(buf, sizeof buf,
                  "empty kernel, same grid, %d launches in one CUDA graph, per launch; t0 + floor would be "
                  "%.1f%% of the floor",
                  kGraphN, 100.0 * row.floor_us / (row.floor_us + eg.us.median));
    eg.note = buf;
    rows.push_back(eg);
  }
  return rows;
}

}  // namespace mixgemm::bench
