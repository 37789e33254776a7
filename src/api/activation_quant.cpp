// activation_quant.cpp - the public activation quantization entries: argument checks, then the
// kernel's launcher (src/kernels/quant/), and the convenience entry that runs it in front of a
// W4A8 gemm.
#include "mixgemm/activation_quant.h"

#include <cuda_runtime_api.h>

#include <string>

#include "api/gemm_call.h"
#include "core/check.h"
#include "core/regions.h"
#include "kernels/quant/quantize_activations.h"

namespace mixgemm {

namespace {

// Everything quantize_activations checks, without launching.
void check_quantize_args(const ActivationQuantArgs& x, const char* where) {
  const bool a16 = x.a_type == types::f16 || x.a_type == types::bf16;
  MIXGEMM_REQUIRE(a16, where, "a_type=" << x.a_type.name() << "; accepted: f16, bf16");
  MIXGEMM_REQUIRE(x.to == types::s8 || x.to == types::e4m3, where, "to=" << x.to.name() << "; accepted: s8, e4m3");
  // M = 0 (no tokens) is checked as any call, a, q and token_scales may then be null, and nothing runs.
  MIXGEMM_REQUIRE(x.M >= 0 && x.M <= 0x7fffffff, where, "M=" << x.M << "; accepted: 0 <= M < 2^31");
  MIXGEMM_REQUIRE(x.K >= 8 && x.K % 8 == 0 && x.K <= 0x7fffffff, where,
                  "K=" << x.K << "; accepted: a positive multiple of 8 (16-byte rows)");
  MIXGEMM_REQUIRE(x.lda >= x.K && x.lda % 8 == 0, where,
                  "lda=" << x.lda << "; accepted: lda >= K=" << x.K << " and a multiple of 8");
  MIXGEMM_REQUIRE(x.ldq >= x.K && x.ldq % 16 == 0, where,
                  "ldq=" << x.ldq << "; accepted: ldq >= K=" << x.K << " and a multiple of 16");
  const bool empty = x.M == 0;
  MIXGEMM_REQUIRE((x.a != nullptr || empty) && reinterpret_cast<uintptr_t>(x.a) % 16 == 0, where,
                  "a is null or not 16-byte aligned; accepted: a 16-byte aligned device pointer");
  MIXGEMM_REQUIRE((x.q != nullptr || empty) && reinterpret_cast<uintptr_t>(x.q) % 16 == 0, where,
                  "q is null or not 16-byte aligned; accepted: a 16-byte aligned device pointer");
  MIXGEMM_REQUIRE((x.token_scales != nullptr || empty) && reinterpret_cast<uintptr_t>(x.token_scales) % 4 == 0, where,
                  "token_scales is null or not 4-byte aligned; accepted: a device [M] f32 array");
  MIXGEMM_REQUIRE(x.static_scale == nullptr || reinterpret_cast<uintptr_t>(x.static_scale) % 4 == 0, where,
                  "static_scale is not 4-byte aligned; accepted: a device pointer to one f32, or null");
  // What the grid writes (q, the token scales) shares no byte with what it reads or with each other.
  const core::Region a = core::matrix(x.a, x.M, x.lda * 2, x.K * 2);
  const core::Region q = core::matrix(x.q, x.M, x.ldq, x.K);
  const core::Region tok = core::span(x.token_scales, x.M * 4);
  const core::Region ss = core::span(x.static_scale, 4);
  MIXGEMM_REQUIRE(!core::regions_overlap(q, a) && !core::regions_overlap(q, ss) && !core::regions_overlap(q, tok), where,
                  "q overlaps a, static_scale or token_scales; accepted: q in memory of its own");
  MIXGEMM_REQUIRE(!core::regions_overlap(tok, a) && !core::regions_overlap(tok, ss), where,
                  "token_scales overlaps a or static_scale; accepted: token_scales in memory of its own");
}

// The pointers the grid reads and writes are device memory of the current device (a host
// pointer would fault inside the kernel and leave the context unusable). The stream is checked
// by the caller: gemm_with_activation_quant's gemm half has asked it already (one query, ~1 us).
void require_device_pointers(const ActivationQuantArgs& x, const char* where) {
  api::require_device_pointer(x.a, "a", where);
  api::require_device_pointer(x.q, "q", where);
  api::require_device_pointer(x.token_scales, "token_scales", where);
  api::require_device_pointer(x.static_scale, "static_scale", where);
}

void launch_checked(const ActivationQuantArgs& x, const char* where) {
  if (x.M == 0) return;  // no tokens: nothing to quantize (a grid of no blocks is a launch error)
  const kernels::QuantParams p{static_cast<const uint8_t*>(x.a), x.lda * 2, static_cast<uint8_t*>(x.q), x.ldq,
                               x.token_scales, x.static_scale, static_cast<int32_t>(x.K)};
  const cudaError_t e =
      kernels::launch_quantize_activations(p, x.a_type == types::bf16, x.to == types::s8, x.M, x.stream);
  if (e != cudaSuccess)
    throw Error(ErrorCode::kCudaError, std::string("mixgemm::") + where + ": launch failed: " + cudaGetErrorString(e));
}

}  // namespace

void quantize_activations(const ActivationQuantArgs& x) {
  constexpr const char* kWhere = "quantize_activations";
  check_quantize_args(x, kWhere);
  require_device_pointers(x, kWhere);
  api::require_stream_of_current_device(x.stream, kWhere);
  launch_checked(x, kWhere);
}

void gemm_with_activation_quant(GemmArgs args, const void* a16, ScalarType a16_type, int64_t lda16,
                                void* q_buf, float* tok_buf, const float* static_scale) {
  constexpr const char* kWhere = "gemm_with_activation_quant";
  const ScalarType to = args.problem.types.a;
  MIXGEMM_REQUIRE(to == types::s8 || to == types::e4m3, kWhere,
                  "types.a=" << to.name() << "; this entry quantizes to s8 or e4m3 (use gemm() for 16-bit)");
  // Both halves are checked, the gemm one with the buffers it will read, before anything runs.
  args.a = q_buf;
  args.lda = (args.problem.K + 15) / 16 * 16;
  args.token_scales = tok_buf;
  // The quantize grid triggers its dependents at entry: a decode GEMM starts streaming its
  // weights while the activations are quantized, and waits for them (docs/design-smallm.md,
  // "Session 38").
  args.programmatic_dependent_launch = true;
  ActivationQuantArgs qa;
  qa.M = args.problem.M;
  qa.K = args.problem.K;
  qa.a = a16;
  qa.a_type = a16_type;
  qa.lda = lda16;
  qa.to = to;
  qa.q = q_buf;
  qa.ldq = args.lda;
  qa.token_scales = tok_buf;
  qa.static_scale = static_scale;
  qa.stream = args.stream;
  const api::CheckedCall call = api::check_call(args);
  check_quantize_args(qa, kWhere);
  require_device_pointers(qa, kWhere);  // qa.stream is args.stream: check_call asked its device
  launch_checked(qa, kWhere);
  api::run_call(args, call);
}

}  // namespace mixgemm
