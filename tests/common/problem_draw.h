// problem_draw.h - random problems of gemm()'s accepted domain, for the randomized tests on both
// sides: GemmFuzz (tests/gpu/test_gemm_fuzz.cu, against the CPU reference on the GPU) and
// GemmArgsFuzz (tests/cpu/test_gemm_args_fuzz.cpp, the argument checks in CI). Pure C++, no CUDA.
// The draw of a seed is part of the recorded results (bench/results/*/s87-*: seeds and repro
// commands): change the sequence of Rng calls only with a new seed range noted there.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "kernels/gemm_params.h"
#include "mixgemm/gemm.h"
#include "mixgemm/scalar_type.h"

namespace mixgemm::test {

using mixgemm::kernels::AType;
using mixgemm::kernels::BType;
using mixgemm::kernels::OutType;

// The randomized tests' knobs: MIXGEMM_TEST_SEED (the first case's seed; each test offsets it by a
// constant of its own) and MIXGEMM_FUZZ_CASES (cases per test); unset or empty: the fallbacks.
inline uint64_t fuzz_env_u64(const char* name, uint64_t fallback) {
  const char* s = std::getenv(name);
  return s && *s ? std::strtoull(s, nullptr, 10) : fallback;
}
inline uint64_t fuzz_first_seed() { return fuzz_env_u64("MIXGEMM_TEST_SEED", 20261206); }
inline int fuzz_cases(int fallback) { return static_cast<int>(fuzz_env_u64("MIXGEMM_FUZZ_CASES", fallback)); }

// SplitMix64.
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int uniform(int lo, int hi) { return lo + static_cast<int>(next() % uint64_t(hi - lo + 1)); }
  double unit() { return (next() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)
};

inline ScalarType st(AType a) {
  switch (a) {
    case AType::kF16: return types::f16;
    case AType::kBF16: return types::bf16;
    case AType::kS8: return types::s8;
    default: return types::e4m3;
  }
}
inline ScalarType st(BType b) {
  switch (b) {
    case BType::kU4B8: return types::u4b8;
    case BType::kU4: return types::u4;
    case BType::kU8B128: return types::u8b128;
    default: return types::u8;
  }
}
inline ScalarType st(OutType o) { return o == OutType::kBF16 ? types::bf16 : types::f16; }
inline bool a16(AType a) { return a == AType::kF16 || a == AType::kBF16; }
inline int wbits(BType b) { return (b == BType::kU4B8 || b == BType::kU4) ? 4 : 8; }
inline bool unsigned_b(BType b) { return b == BType::kU4 || b == BType::kU8; }
inline ScalarType scale_type(AType a) { return a16(a) ? st(a) : (a == AType::kS8 ? types::u8 : types::f16); }

// The GemmProblem of a type configuration in kernel enums (the scale type follows the activation).
inline GemmProblem problem_of(AType a, BType b, bool zeros, OutType out, int64_t M, int64_t N, int64_t K,
                              int64_t group_size) {
  GemmProblem p;
  p.M = M;
  p.N = N;
  p.K = K;
  p.types.a = st(a);
  p.types.b = st(b);
  p.types.scale = scale_type(a);
  p.types.has_zeros = zeros;
  p.types.out = st(out);
  p.group_size = group_size;
  return p;
}

// GemmFuzz compares problems up to this M on every row; larger ones on kSampledRows rows. The
// draw's size budget counts the rows the CPU reference computes.
constexpr int kFullCheckMaxM = 600;
constexpr int kSampledRows = 48;

// One problem of the accepted domain (core/problem.cpp's check_problem, api/gemm.cpp's check_inputs)
// and its optional operands.
struct ProblemDraw {
  AType a = AType::kF16;
  BType b = BType::kU4B8;
  bool zeros = false;
  OutType out = OutType::kF16;
  int M = 1;
  int64_t N = 16, K = 64, group_size = 0;
  bool bias = false, tok = false, ch = false;
  bool integer = false;  // GemmFuzz: small integers and power-of-two scales (bit-exact comparison)

  GemmProblem problem() const { return problem_of(a, b, zeros, out, M, N, K, group_size); }
};

// The type configuration (every activation type; weights u4b8 / u4 with or without zero points, and
// u8b128 / u8 for 16-bit activations), the out type, M (3 / 10 each in 1..16, 17..128 and 129..600,
// 1 / 10 in 601..4096), N (a multiple of 16) and K (a multiple of the k-block) under a budget for
// the CPU reference (the rows it computes x N x K <= 1.2e8, N x K <= 2^25), the group size (none,
// per-channel, or a multiple of 16 / 32 for 8-bit activations dividing K) and the epilogue operands.
inline ProblemDraw draw_problem(uint64_t seed) {
  Rng mix{seed};
  Rng r{mix.next()};  // a hashed start: neighbouring seeds draw unrelated problems
  ProblemDraw d;
  const AType acts[] = {AType::kF16, AType::kBF16, AType::kS8, AType::kE4M3};
  d.a = acts[r.uniform(0, 3)];
  const bool a8 = !a16(d.a);
  // Weights: 8-bit weights only with 16-bit activations (semantics.md's type table).
  const BType w4[] = {BType::kU4B8, BType::kU4};
  const BType w48[] = {BType::kU4B8, BType::kU4, BType::kU8B128, BType::kU8};
  d.b = a8 ? w4[r.uniform(0, 1)] : w48[r.uniform(0, 3)];
  d.zeros = unsigned_b(d.b) && r.uniform(0, 3) != 0;  // u4 / u8 mostly with zero points, sometimes plain
  d.out = a8 ? (r.uniform(0, 1) ? OutType::kBF16 : OutType::kF16) : (d.a == AType::kBF16 ? OutType::kBF16 : OutType::kF16);
  const int band = r.uniform(0, 9);
  d.M = band < 3 ? r.uniform(1, 16) : band < 6 ? r.uniform(17, 128) : band < 9 ? r.uniform(129, 600) : r.uniform(601, 4096);
  const int kb = wbits(d.b) == 4 ? 64 : 32;
  const double budget = 1.2e8;
  for (;;) {
    d.N = 16 * static_cast<int64_t>(r.uniform(1, d.M <= 16 || d.M > kFullCheckMaxM ? 512 : 160));
    d.K = kb * static_cast<int64_t>(r.uniform(1, d.M <= 16 ? 256 : 96));
    if (d.N * d.K <= (int64_t{1} << 25) &&
        static_cast<double>(d.M <= kFullCheckMaxM ? d.M : kSampledRows) * d.N * d.K <= budget)
      break;
  }
  // Zero points need group scales for 8-bit activations' QQQ form and are allowed without them for
  // 16-bit activations (one row of zero points).
  std::vector<int64_t> groups = {0, d.K};
  for (int64_t g : {16, 32, 64, 128, 256})
    if (g % (a8 ? 32 : 16) == 0 && d.K % g == 0) groups.push_back(g);
  d.group_size = groups[static_cast<size_t>(r.uniform(0, static_cast<int>(groups.size()) - 1))];
  d.bias = r.uniform(0, 1);
  d.tok = r.uniform(0, 1) || a8;  // W4A8 takes per-token scales in practice
  d.ch = r.uniform(0, 1) || (a8 && d.group_size == 0);
  // Integer data in half the draws; e4m3 over long K always, where the unpromoted fp8 accumulator's
  // bound is too loose to check random data (reference.h).
  d.integer = r.uniform(0, 1) || (d.a == AType::kE4M3 && d.K > 4096);
  return d;
}

}  // namespace mixgemm::test
