// fragment_words.cuh - the two register-level accessors every mainloop uses on a lane's 16-byte
// weight fragment (a uint4 loaded from the prepacked layout, include/mixgemm/layout.h) and on a
// staged 16-bit scale / zero.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

namespace mixgemm::kernels::convert {

// Word i (0..3) of the fragment. 4-bit weights: word i is k16 step i of a 64-k block (with the
// 8-bit MMA, half a k32 step); 8-bit weights: words 2s, 2s+1 are k16 step s of a 32-k block. The
// index is a compile-time constant after unrolling, so this is a register, not a select.
__device__ __forceinline__ uint32_t word(const uint4& v, int i) {
  return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

// Words 2i, 2i+1: k16 step i of a 32-k block of 8-bit weights, or k32 step i of 4-bit weights for
// the 8-bit MMA.
__device__ __forceinline__ uint2 word_pair(const uint4& v, int i) {
  return make_uint2(word(v, 2 * i), word(v, 2 * i + 1));
}

// The low 16 bits as T (__half or __nv_bfloat16), bit for bit.
template <class T>
__device__ __forceinline__ T as16(uint32_t bits) {
  static_assert(std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>, "a 16-bit float type");
  if constexpr (std::is_same_v<T, __half>) return __ushort_as_half(static_cast<unsigned short>(bits));
  else return __ushort_as_bfloat16(static_cast<unsigned short>(bits));
}

}  // namespace mixgemm::kernels::convert
