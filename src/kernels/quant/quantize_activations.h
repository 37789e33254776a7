// quantize_activations.h - the activation quantization kernel's host launcher (the public
// entry, with its argument checks, is src/api/activation_quant.cpp).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace mixgemm::kernels {

// The plain struct the quantize grid takes: one token row per CTA.
struct QuantParams {
  const uint8_t* a;           // [M][lda] f16 or bf16, 16-byte aligned rows
  int64_t lda_bytes;
  uint8_t* q;                 // [M][ldq] s8 or e4m3, 16-byte aligned rows
  int64_t ldq;
  float* tok;                 // [M] token scales
  const float* static_scale;  // one f32 (static mode), or null (dynamic)
  int32_t K;                  // a multiple of 8
};

// Launches the grid for M rows on `stream`: a_bf16 selects bf16 (else f16) activations, to_s8 the
// s8 (else e4m3) output. Returns the launch's error (cudaGetLastError after the launch).
cudaError_t launch_quantize_activations(const QuantParams& p, bool a_bf16, bool to_s8, int64_t M,
                                        cudaStream_t stream);

}  // namespace mixgemm::kernels
