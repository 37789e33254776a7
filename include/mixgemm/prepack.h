// mixgemm/prepack.h - reorder quantized weights into mixgemm's prepacked layout
// (include/mixgemm/layout.h, docs/layout.md), once, offline.
//
// The layout depends only on (weight bits, MMA operand bits): u4b8 and u4 share
// one, and the activation type decides 16-bit (f16/bf16) or 8-bit (s8/e4m3) MMA.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mixgemm/scalar_type.h"

typedef struct CUstream_st* cudaStream_t;

namespace mixgemm {

// How the quantized weights arrive.
enum class WeightFormat {
  kUnpacked,  // uint8_t q[K][N], one stored integer per byte (0..15 for 4-bit, 0..255 for 8-bit)
  kGptq,      // int32 qweight[K/8][N]: q(k,n) = (qweight[k/8][n] >> (4*(k%8))) & 0xF   (4-bit only)
  kAwq,       // int32 qweight[K][N/8]: q(k,n) = (qweight[k][n/8] >> (4*awq_nibble(n%8))) & 0xF, (4-bit only)
              // with AWQ's order: column j of each 8 sits at nibble {0,4,1,5,2,6,3,7}[j]
};

// The version of the prepacked layout (layout.h, docs/layout.md) and of the zero points'
// prepacked form (prepack_zeros_cpu): an engine that stores prepacked weights on disk keeps it
// beside them and prepacks again when it differs. Any change to the bytes prepack_cpu,
// prepack or prepack_zeros_cpu write for some input bumps it (tests/cpu/test_layout.cpp pins
// the bytes of every served layout to this number).
inline constexpr int kPrepackedLayoutVersion = 1;

// Bytes of the prepacked buffer for a K x N matrix of `b_type`.
size_t prepacked_size(int64_t K, int64_t N, ScalarType b_type);

// Throws mixgemm::Error unless (K, N, b_type, a_type) can be prepacked; the message says
// which multiple is needed and how to pad.
void check_prepack_shape(int64_t K, int64_t N, ScalarType b_type, ScalarType a_type);

// CPU prepack: `src` in `format` (host memory) -> `dst` (prepacked_size bytes, host memory).
void prepack_cpu(const void* src, WeightFormat format, int64_t K, int64_t N, ScalarType b_type,
                 ScalarType a_type, uint8_t* dst);

// CPU unpack (inverse of prepack): prepacked `src` -> uint8_t q[K][N].
void unpack_cpu(const uint8_t* src, int64_t K, int64_t N, ScalarType b_type, ScalarType a_type,
                uint8_t* q);

// GPU prepack: device pointers, asynchronous on `stream`, byte-identical to prepack_cpu.
void prepack(const void* src, WeightFormat format, int64_t K, int64_t N, ScalarType b_type,
             ScalarType a_type, void* dst, cudaStream_t stream);

// Zero points in the form the kernels consume (docs/semantics.md), on the CPU:
//  16-bit activations / e4m3 group mode: zs[g][n] = RN_T(-(z[g][n] * s[g][n])) in the scale type T
//  s8 activations: z[g][n] * sg[g][n] (u8; sg = 1 when there are no group scales)
// `z` is uint8_t[G][N] (unpacked integers), `scales` the [G][N] group scales (or null for
// per-channel modes without group scales). Returns the bytes to upload (G*N elements).
std::vector<uint8_t> prepack_zeros_cpu(const uint8_t* z, const void* scales, int64_t G, int64_t N,
                                       ScalarType a_type, ScalarType scale_type);

}  // namespace mixgemm
