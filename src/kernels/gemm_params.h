// gemm_params.h - the plain struct that crosses the host/device line.
//
// The API layer (src/api) validates a mixgemm::GemmArgs, picks a schedule and
// fills one GemmParams; a kernel family's launcher takes it by value. No
// std:: types, no framework types: everything here is a pointer, an integer or
// an enum, so the struct can be a __grid_constant__ kernel parameter.
#pragma once

#include <cstdint>

namespace mixgemm::kernels {

// Element types as the kernels see them (one byte, switchable in a warp-uniform branch).
enum class AType : uint8_t { kF16, kBF16, kS8, kE4M3 };
enum class BType : uint8_t { kU4B8, kU4, kU8B128, kU8 };
enum class OutType : uint8_t { kF16, kBF16 };

// Facts of the element types that every kernel family's host side asks.
inline constexpr bool is_a16(AType a) { return a == AType::kF16 || a == AType::kBF16; }
inline constexpr int weight_bits(BType b) { return (b == BType::kU4B8 || b == BType::kU4) ? 4 : 8; }
inline constexpr bool is_unsigned(BType b) { return b == BType::kU4 || b == BType::kU8; }

struct GemmParams {
  int32_t M, N, K;
  int64_t lda;  // elements
  int64_t ldo;  // elements
  AType a_type;
  BType b_type;
  OutType out_type;
  bool has_zeros;
  int32_t group_size;  // 0: no group scales (per-channel only); else divides K

  const void* a;             // [M, lda] activations
  const void* b;             // prepacked weights (include/mixgemm/layout.h)
  const void* group_scales;  // [K/group_size, N] row-major, or null
  const void* group_zeros;   // prepacked zero points (docs/semantics.md), or null
  const float* channel_scales;  // [N] or null
  const float* token_scales;    // [M] or null
  const void* bias;             // [N] of out type, or null
  void* out;                    // [M, ldo] (null for partial sums)
  void* partial_sums;           // gemm_partial_sums: [S, M, N] f32 / s32 raw sums, or null (smallm only)

  void* workspace;           // workspace_size() bytes, zeroed once by the caller, left zeroed
  uint64_t workspace_bytes;
  int32_t sm_count;          // multiprocessors of the current device
  bool pdl;                  // GemmArgs::programmatic_dependent_launch (smallm only)
};

}  // namespace mixgemm::kernels
