// prepack_bench.cpp - --prepack-bench: mixgemm::prepack on the Llama-2-70B gate_up matrix
// (K = 8192, N = 57344) of u4b8 weights, for the 16-bit-MMA and the 8-bit-MMA layouts, from
// GPTQ-packed int32 and from unpacked bytes. GB/s counts bytes read + written, so "% of
// floor" is the percentage of the measured device-to-device copy bandwidth.
// With --verify, a smaller matrix is also prepacked on the GPU and compared byte for byte
// with prepack_cpu.
#include <cuda_runtime_api.h>

#include <cstring>
#include <vector>

#include "mixgemm/error.h"
#include "mixgemm/prepack.h"
#include "runner.h"

namespace mixgemm::bench {

namespace {

struct PrepackCase {
  const char* label;
  WeightFormat format;
  ScalarType a_type;
};

size_t source_bytes(WeightFormat f, int64_t K, int64_t N) {
  return f == WeightFormat::kUnpacked ? static_cast<size_t>(K * N) : static_cast<size_t>(K * N / 2);
}

// Unpacked sources hold one integer per byte: keep them in 0..15.
void fill_source(WeightFormat f, void* p, size_t bytes, uint64_t seed, cudaStream_t s) {
  if (f == WeightFormat::kUnpacked) fill_uniform_s8(p, bytes, 0, 15, seed, s);
  else fill_random_bytes(p, bytes, seed, s);
}

// GPU prepack vs prepack_cpu on a small matrix; returns an empty string when identical.
std::string check_against_cpu(const PrepackCase& c, cudaStream_t stream) {
  const int64_t K = 512, N = 1024;
  const size_t src_bytes = source_bytes(c.format, K, N);
  const size_t dst_bytes = prepacked_size(K, N, types::u4b8);
  DeviceBuffer src(src_bytes, "prepack check source"), dst(dst_bytes, "prepack check destination");
  fill_source(c.format, src.get(), src_bytes, 4242, stream);
  BENCH_CUDA(cudaMemsetAsync(dst.get(), 0xAB, dst_bytes, stream));
  prepack(src.get(), c.format, K, N, types::u4b8, c.a_type, dst.get(), stream);
  std::vector<uint8_t> h_src(src_bytes), h_gpu(dst_bytes), h_cpu(dst_bytes);
  BENCH_CUDA(cudaMemcpyAsync(h_src.data(), src.get(), src_bytes, cudaMemcpyDeviceToHost, stream));
  BENCH_CUDA(cudaMemcpyAsync(h_gpu.data(), dst.get(), dst_bytes, cudaMemcpyDeviceToHost, stream));
  BENCH_CUDA(cudaStreamSynchronize(stream));
  prepack_cpu(h_src.data(), c.format, K, N, types::u4b8, c.a_type, h_cpu.data());
  for (size_t i = 0; i < dst_bytes; ++i)
    if (h_gpu[i] != h_cpu[i])
      return "GPU prepack differs from prepack_cpu at byte " + std::to_string(i) + " of a 512 x 1024 matrix";
  return "";
}

}  // namespace

std::vector<ResultRow> run_prepack_bench(BenchContext& ctx) {
  const Options& opt = *ctx.opt;
  const int64_t K = 8192, N = 57344;
  const PrepackCase cases[] = {
      {"gptq->mma16", WeightFormat::kGptq, types::f16},
      {"gptq->mma8", WeightFormat::kGptq, types::s8},
      {"unpacked->mma16", WeightFormat::kUnpacked, types::f16},
  };
  std::vector<ResultRow> rows;
  Shape shape{"prepack/57344x8192", "prepack", "57344x8192", N, K, 1};
  for (const auto& c : cases) {
    ResultRow r = new_row(ctx, shape, 0, "prepack");
    r.type_spec = c.label;
    r.a_type = c.a_type.name();
    r.b_type = "u4b8";
    if (ctx.progress) ctx.progress(std::string("prepack ") + c.label);
    try {
      const size_t src_bytes = source_bytes(c.format, K, N);
      const size_t dst_bytes = prepacked_size(K, N, types::u4b8);
      std::string note;
      const int copies = rotation_count(ctx, static_cast<int64_t>(src_bytes + dst_bytes), opt.warmup + opt.iters, 0, note);
      std::vector<DeviceBuffer> src, dst;
      for (int i = 0; i < copies; ++i) {
        src.emplace_back(src_bytes, "prepack source");
        fill_source(c.format, src.back().get(), src_bytes, opt.seed * 1000 + 301 + i, ctx.stream);
        dst.emplace_back(dst_bytes, "prepack destination");
      }
      BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
      const auto launch = [&](int i) {
        const size_t j = static_cast<size_t>(i % copies);
        prepack(src[j].get(), c.format, K, N, types::u4b8, c.a_type, dst[j].get(), ctx.stream);
      };
      launch(0);  // refusals surface here
      BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
      if (opt.verify) {
        const std::string diff = check_against_cpu(c, ctx.stream);
        ++ctx.verified;
        r.verify = diff.empty() ? "pass" : "fail";
        if (!diff.empty()) {
          ++ctx.verify_failures;
          r.status = kVerifyFailed;
          note += (note.empty() ? "" : "; ") + diff;
        }
      }
      r.us = compute_stats(ctx.timer->run(launch, opt.warmup, opt.iters));
      r.timed = true;
      r.bytes.weights = static_cast<int64_t>(src_bytes);
      r.bytes.output = static_cast<int64_t>(dst_bytes);
      r.floor_us = floor_us(r.bytes, ctx.copy_gbps);
      r.note = note;
    } catch (const Error& e) {
      r.status = e.code() == ErrorCode::kNotSupported ? kNotSupported : (e.code() == ErrorCode::kInvalidArgument ? kInvalid : kFailed);
      r.note = e.what();
      if (e.code() == ErrorCode::kCudaError) throw BenchError(std::string("mixgemm::prepack: ") + e.what());
    } catch (const OutOfMemory& e) {
      r.status = kOutOfMemory;
      r.note = e.what();
    }
    rows.push_back(r);
  }
  return rows;
}

}  // namespace mixgemm::bench
