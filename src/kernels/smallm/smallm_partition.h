// smallm_partition.h - the stream-K split of the U = stripes x KBn weight rows over the C
// CTAs of one token tile, without 64-bit divisions (host and device; CPU-tested against
// the plain int64 formulas in tests/cpu/test_smallm_partition.cpp).
//
//   CTA c owns rows [row_start(c), row_start(c + 1)),  row_start(c) = floor(c U / C)
//   cta_of_row(u) = the CTA that owns row u = floor(((u + 1) C - 1) / U)
//
// c U reaches 2^40 (U < 2^31, C <= a few hundred), so the plain forms are 64-bit integer
// divisions: ~70 instructions each, and the final split-K reduction evaluates one per
// contributor of the stripe on the kernel's critical path (ncu, session 3). Here:
//   row_start(c) = c q + floor(c r / C)   with U = q C + r  (c r < C^2 < 2^31: fast_div)
//   cta_of_row(u): the quotient in double precision. x = (u + 1) C - 1 < 2^53 is exact, and
//     x / U is either an integer (then the correctly rounded quotient is exact) or at least
//     1/U >= 2^-31 below the next integer k <= C, while the rounding error is at most
//     k 2^-53 < 2^-43: truncation gives the exact floor.
//   stripe / k-block of row u: u < 2^31, fast_div by KBn.
#pragma once

#include <cstdint>

#include "kernels/fast_div.h"

namespace mixgemm::kernels::smallm {

struct RowPartition {
  int64_t U = 0;     // rows (stripes x KBn), < 2^31
  int32_t C = 1;     // CTAs per token tile, 1 <= C <= U, C^2 < 2^31
  int32_t KBn = 1;   // k-blocks per stripe
  uint32_t q = 0;    // U / C
  uint32_t r = 0;    // U % C
  FastDiv c_div;     // / C   (unused when C == 1)
  FastDiv kbn_div;   // / KBn (unused when KBn == 1)
};

inline RowPartition make_row_partition(int64_t U, int32_t C, int32_t KBn) {  // host
  RowPartition p;
  p.U = U;
  p.C = C;
  p.KBn = KBn;
  p.q = static_cast<uint32_t>(U / C);
  p.r = static_cast<uint32_t>(U % C);
  if (C >= 2) p.c_div = make_fast_div(static_cast<uint32_t>(C));
  if (KBn >= 2) p.kbn_div = make_fast_div(static_cast<uint32_t>(KBn));
  return p;
}

#if defined(__CUDACC__)
#define MIXGEMM_HD __host__ __device__ __forceinline__
#else
#define MIXGEMM_HD inline
#endif

// floor(c U / C), for 0 <= c <= C.
MIXGEMM_HD int64_t row_start(const RowPartition& p, int32_t c) {
  const uint32_t cr = static_cast<uint32_t>(c) * p.r;
  return static_cast<int64_t>(c) * p.q + (p.C == 1 ? cr : fast_div(cr, p.c_div));
}

// The CTA whose range holds row u (0 <= u < U).
MIXGEMM_HD int32_t cta_of_row(const RowPartition& p, int64_t u) {
  const double x = static_cast<double>((u + 1) * p.C - 1);
  return static_cast<int32_t>(x / static_cast<double>(p.U));
}

// u / KBn (stripe of row u), for 0 <= u < 2^31.
MIXGEMM_HD int32_t stripe_of_row(const RowPartition& p, int64_t u) {
  const uint32_t n = static_cast<uint32_t>(u);
  return static_cast<int32_t>(p.KBn == 1 ? n : fast_div(n, p.kbn_div));
}

#undef MIXGEMM_HD

}  // namespace mixgemm::kernels::smallm
