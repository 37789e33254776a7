// mixgemm/activation_quant.h - per-token activation quantization on the GPU, and the
// convenience entry that runs it in front of a W4A8 gemm.
//
// Bit-exact with the CPU quantizers of mixgemm/quantize.h (docs/semantics.md, section 6):
//   dynamic: amax = max_k |a|, tok = RN_f32(amax / R), inv = RN_f32(R / amax),
//            q = clamp(rint(RN_f32(a * inv)), -127, 127) (s8) or RN_e4m3sat(RN_f32(a * inv));
//            R = 127 (s8) or 448 (e4m3); amax = 0 gives tok = 1 and q = 0.
//   static:  tok = s, inv = RN_f32(1 / s), then as above with the s8 clamp at -128.
#pragma once

#include <cstdint>

#include "mixgemm/gemm.h"
#include "mixgemm/scalar_type.h"

typedef struct CUstream_st* cudaStream_t;

namespace mixgemm {

struct ActivationQuantArgs {
  int64_t M = 0, K = 0;
  const void* a = nullptr;   // device [M][lda], f16 or bf16; K, lda multiples of 8, 16-byte aligned
  ScalarType a_type = types::f16;
  int64_t lda = 0;
  ScalarType to = types::s8;  // s8 or e4m3
  void* q = nullptr;          // device [M][ldq] bytes; ldq multiple of 16, 16-byte aligned
  int64_t ldq = 0;
  float* token_scales = nullptr;         // device [M]: tok of the gemm epilogue
  const float* static_scale = nullptr;   // device pointer to one f32 > 0 (static mode); null: dynamic
  cudaStream_t stream = nullptr;
};

// Asynchronous on args.stream; no allocation, no host sync. Throws mixgemm::Error (nothing
// launched) on an invalid argument. M = 0 (no tokens) is checked like any call (a, q and
// token_scales may be null) and launches nothing.
void quantize_activations(const ActivationQuantArgs& args);

// Quantizes 16-bit activations `a16` [M][lda16] (type a16_type, f16 or bf16) to
// args.problem.types.a (s8 or e4m3) into the caller's buffers `q_buf` ([M][K] bytes,
// 16-byte aligned) and `tok_buf` ([M] f32), then runs gemm(args) on them. args.a, args.lda
// and args.token_scales are replaced by these buffers; everything else is as for gemm().
// `static_scale`: device pointer to a per-tensor f32 scale, or null for dynamic per-token.
// M = 0 launches nothing, as both halves do.
void gemm_with_activation_quant(GemmArgs args, const void* a16, ScalarType a16_type, int64_t lda16,
                                void* q_buf, float* tok_buf, const float* static_scale = nullptr);

}  // namespace mixgemm
