// fast_div.h - unsigned division by a run-time-invariant divisor, as a multiply-high and
// two shifts (Granlund & Montgomery; the "round-up" form), for kernels that divide by the
// same group size in every chunk. Host computes the constants once per launch; the device
// evaluates q = n / d exactly for every 0 <= n < 2^31 and 2 <= d < 2^31.
//
//   l = ceil(log2(d)),  m = floor(2^32 * (2^l - d) / d) + 1   (fits in 32 bits)
//   t = mulhi(m, n),    q = (t + ((n - t) >> 1)) >> (l - 1)
//
// (t + ((n - t) >> 1)) is floor((n + t) / 2) without the 33-bit sum. Tested on the CPU over
// every divisor up to 4096 and the large ones that occur (tests/cpu/test_fast_div.cpp).
#pragma once

#include <cstdint>

namespace mixgemm::kernels {

struct FastDiv {
  uint32_t mul = 0;    // m
  uint32_t shift = 0;  // l - 1
};

inline FastDiv make_fast_div(uint32_t d) {  // host; requires 2 <= d < 2^31
  uint32_t l = 0;
  while ((uint64_t{1} << l) < d) ++l;
  const uint64_t m = ((uint64_t{1} << 32) * ((uint64_t{1} << l) - d)) / d + 1;
  return FastDiv{static_cast<uint32_t>(m), l - 1};
}

#if defined(__CUDACC__)
__host__ __device__
#endif
inline uint32_t fast_div(uint32_t n, FastDiv f) {
#if defined(__CUDA_ARCH__)
  const uint32_t t = __umulhi(f.mul, n);
#else
  const uint32_t t = static_cast<uint32_t>((static_cast<uint64_t>(f.mul) * n) >> 32);
#endif
  return (t + ((n - t) >> 1)) >> f.shift;
}

}  // namespace mixgemm::kernels
