// reference_gemm.cpp - the CPU reference of docs/semantics.md.
//
// How it stays exact: every narrow value (activation, dequantized weight) is exactly
// representable in f32, so a product of two of them is exact in f64 (24 + 24 <= 53
// significant bits) whether or not the compiler fuses it into an FMA. The sum runs in f64
// in ascending k for every element, independent of blocking and threads, so the result is
// deterministic. s8 x s8 sums are integers below 2^31 and therefore exact in f64.
//
// How it is fast enough (4096^3 in seconds on 2 cores): the weights are dequantized once
// into an f32 matrix, the activations decoded once; then a packed, register-blocked
// 4 x 8 micro-kernel (compiled for AVX2/AVX-512 where the host has them) runs over
// (128-row, 128-column) tasks shared by std::threads.
#include "mixgemm/reference.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "core/float_bits.h"
#include "mixgemm/error.h"
#include "reference/reference_detail.h"

namespace mixgemm {

namespace num = numeric;

namespace reference_detail {

[[noreturn]] void fail(const char* where, const std::string& what) {
  throw Error(ErrorCode::kInvalidArgument, std::string("mixgemm::") + where + ": " + what);
}

ActKind act_kind(ScalarType a) {
  if (a == types::f16) return ActKind::kF16;
  if (a == types::bf16) return ActKind::kBF16;
  if (a == types::s8) return ActKind::kS8;
  return ActKind::kE4M3;
}

// Validates the types and the shape of a problem (not the pointers).
void check_problem(const GemmProblem& p, const char* where) {
  const TypeConfig& t = p.types;
  if (!(t.a == types::f16 || t.a == types::bf16 || t.a == types::s8 || t.a == types::e4m3))
    fail(where, "types.a=" + t.a.name() + " is not an activation type; accepted: f16, bf16, s8, e4m3");
  if (!(t.b == types::u4b8 || t.b == types::u4 || t.b == types::u8b128 || t.b == types::u8))
    fail(where, "types.b=" + t.b.name() + " is not a weight type; accepted: u4b8, u4, u8b128, u8");
  if (!(t.out == types::f16 || t.out == types::bf16))
    fail(where, "types.out=" + t.out.name() + " is not an output type; accepted: f16, bf16");
  if (t.has_zeros && t.b.has_bias())
    fail(where, "types.has_zeros=true with types.b=" + t.b.name() +
                    " (a biased type has no zero points); accepted: has_zeros with u4 or u8");
  if (p.K < 1) fail(where, "K=" + std::to_string(p.K) + " must be >= 1");
  if (p.M < 0) fail(where, "M=" + std::to_string(p.M) + " must be >= 0");
  if (p.N < 0) fail(where, "N=" + std::to_string(p.N) + " must be >= 0");
  if (t.a == types::s8 && p.K > kMaxKS8)
    fail(where, "K=" + std::to_string(p.K) + " exceeds " + std::to_string(kMaxKS8) +
                    ", the largest K whose s8 x s8 sum fits the s32 accumulator");
  if (p.group_size < 0 || (p.group_size > 0 && p.K % p.group_size != 0))
    fail(where, "group_size=" + std::to_string(p.group_size) + " does not divide K=" +
                    std::to_string(p.K) + "; accepted: 0 (no group scales) or a divisor of K");
  if (p.group_size != 0) {
    ScalarType want = t.a == types::s8 ? types::u8 : t.a == types::e4m3 ? types::f16 : t.a;
    if (!(t.scale == want))
      fail(where, "types.scale=" + t.scale.name() + " with types.a=" + t.a.name() +
                      "; accepted: " + want.name() +
                      " (16-bit activations: the activation type; s8: u8 integer scales; e4m3: f16)");
  }
}

int64_t group_count(const GemmProblem& p) { return p.group_size == 0 ? 1 : p.K / p.group_size; }

uint32_t max_stored(ScalarType b) { return b.size_bits() == 4 ? 15u : 255u; }

// RN_T(x): one round-to-nearest-even from the exact double x to f16 or bf16, back as double.
double round_to(ActKind t, double x) {
  return t == ActKind::kBF16 ? num::from_bf16(num::to_bf16(x)) : num::from_f16(num::to_f16(x));
}

// The 16-bit weight of docs/semantics.md in type T (f16/bf16), from the exact inputs.
// Each line is one rounding of an exact double (q*s, (q-B)*s, q*s+zs are exact in f64:
// at most 8 + 11 significant bits over a span of at most 2^9 * |s|).
double weight16(ActKind t, int32_t qv, int32_t bias, bool has_scale, double s, int32_t z,
                bool has_zero) {
  if (!has_scale) return has_zero ? double(qv - z) : double(qv - bias);  // exact in T
  if (has_zero) {
    const double zs = round_to(t, -(double(z) * s));  // prepack's pre-multiplied zero
    return round_to(t, double(qv) * s + zs);           // hfma2: one rounding
  }
  return round_to(t, double(qv - bias) * s);  // hmul2 (B = 0 for u4/u8 without zeros)
}

bool weight_inputs_ok(const GemmProblem& p, uint32_t qv, bool has_scale, uint32_t sg, uint32_t z,
                      bool has_zero) {
  const uint32_t qmax = max_stored(p.types.b);
  if (qv > qmax || (has_zero && z > qmax)) return false;
  if (p.types.a == types::s8) {
    const int32_t centered = has_zero ? int32_t(qv) - int32_t(z) : int32_t(qv) - p.types.b.bias;
    const int32_t w8 = centered * int32_t(has_scale ? sg : 1u);
    if (w8 < -128 || w8 > 127) return false;
    if (has_zero && has_scale && z * sg > 255) return false;
  }
  return true;
}

// Throws the message for the first rule (q, sg, z) breaks; `at` names the element.
void check_weight_inputs(const GemmProblem& p, uint32_t qv, bool has_scale, uint32_t sg, uint32_t z,
                         bool has_zero, const char* where, const std::string& at) {
  const uint32_t qmax = max_stored(p.types.b);
  if (qv > qmax)
    fail(where, "q" + at + "=" + std::to_string(qv) + " exceeds " + std::to_string(qmax) +
                    ", the largest stored value of " + p.types.b.name());
  if (has_zero && z > qmax)
    fail(where, "zeros" + at + "=" + std::to_string(z) + " exceeds " + std::to_string(qmax) +
                    ", the largest zero point of " + p.types.b.name());
  if (p.types.a == types::s8) {
    const int32_t centered = has_zero ? int32_t(qv) - int32_t(z) : int32_t(qv) - p.types.b.bias;
    const int32_t w8 = centered * int32_t(has_scale ? sg : 1u);
    if (w8 < -128 || w8 > 127)
      fail(where, "s8 weight w8 = (q - " + std::string(has_zero ? "z" : "B") + ")" +
                      (has_scale ? " * group_scales" : "") + " = " + std::to_string(w8) + at +
                      " (q=" + std::to_string(qv) + (has_scale ? ", sg=" + std::to_string(sg) : "") +
                      (has_zero ? ", z=" + std::to_string(z) : "") +
                      ") is outside [-128, 127]; accepted: inputs that keep every w8 an int8");
    if (has_zero && has_scale && z * sg > 255)
      fail(where, "zeros*group_scales = " + std::to_string(z * sg) + at +
                      " exceeds 255, the u8 that prepack stores for s8 zero points");
  }
}

double weight_value(const GemmProblem& p, uint32_t qv, bool has_scale, uint32_t scale_bits,
                    uint32_t z, bool has_zero) {
  const ActKind kind = act_kind(p.types.a);
  const int32_t bias = p.types.b.bias;
  switch (kind) {
    case ActKind::kF16:
    case ActKind::kBF16: {
      const double s = has_scale ? (kind == ActKind::kF16 ? num::from_f16(uint16_t(scale_bits))
                                                          : num::from_bf16(uint16_t(scale_bits)))
                                 : 1.0;
      return weight16(kind, int32_t(qv), bias, has_scale, s, int32_t(z), has_zero);
    }
    case ActKind::kS8: {
      const int32_t centered = has_zero ? int32_t(qv) - int32_t(z) : int32_t(qv) - bias;
      return double(centered * int32_t(has_scale ? scale_bits : 1u));
    }
    case ActKind::kE4M3: {
      // Per channel: the integer (exact in f16) to e4m3; per group: the f16 weight to e4m3.
      const double s = has_scale ? num::from_f16(uint16_t(scale_bits)) : 1.0;
      const double w16 = weight16(ActKind::kF16, int32_t(qv), bias, has_scale, s, int32_t(z), has_zero);
      return num::from_e4m3(num::to_e4m3_sat(w16));
    }
  }
  return 0.0;
}

uint32_t load_bits(ScalarType t, const void* base, int64_t index) {
  if (t.size_bits() == 16) return static_cast<const uint16_t*>(base)[index];
  return static_cast<const uint8_t*>(base)[index];
}

void parallel_for(int64_t count, int threads, const std::function<void(int64_t)>& body) {
  if (count <= 0) return;
  const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(threads, count));
  if (workers == 1) {
    for (int64_t i = 0; i < count; ++i) body(i);
    return;
  }
  std::atomic<int64_t> next{0};
  auto run = [&] {
    for (int64_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) body(i);
  };
  std::vector<std::thread> pool;
  pool.reserve(size_t(workers - 1));
  for (int64_t t = 1; t < workers; ++t) pool.emplace_back(run);
  run();
  for (auto& th : pool) th.join();
}

int resolve_threads(int threads) {
  if (threads > 0) return threads;
  const unsigned hc = std::thread::hardware_concurrency();
  return hc == 0 ? 1 : int(hc);
}

}  // namespace reference_detail

using namespace reference_detail;

namespace {

// ---- the blocked f64 product ----------------------------------------------------------------
constexpr int kMR = 4;         // rows per micro-tile
constexpr int kNR = 8;         // columns per micro-tile
constexpr int64_t kMB = 128;   // rows per task
constexpr int64_t kNB = 128;   // columns per task
constexpr int64_t kKB = 256;   // k per packed block

// c[kMR][kNR] += sum over kb of a_panel[k][kMR] * w_panel[k][kNR] (ascending k).
// Products of two f32-representable values are exact in f64, so fused or unfused
// multiply-adds give the same bits: the clones differ in speed only.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
void micro_kernel(int64_t kb, const double* __restrict a_panel, const double* __restrict w_panel,
                  double* __restrict c, int64_t ldc) {
  double acc[kMR][kNR];
  for (int r = 0; r < kMR; ++r)
    for (int j = 0; j < kNR; ++j) acc[r][j] = c[r * ldc + j];
  for (int64_t k = 0; k < kb; ++k) {
    const double* a = a_panel + k * kMR;
    const double* w = w_panel + k * kNR;
    for (int r = 0; r < kMR; ++r)
      for (int j = 0; j < kNR; ++j) acc[r][j] += a[r] * w[j];
  }
  for (int r = 0; r < kMR; ++r)
    for (int j = 0; j < kNR; ++j) c[r * ldc + j] = acc[r][j];
}

// acc[M][N] (row-major, ldc = N rounded) = sum_k A[m][k] * W[k][n] with A, W given as f32
// matrices holding exact values; `absolute` sums |a| * |w| instead.
void product_f64(const float* a, const float* w, int64_t M, int64_t N, int64_t K, bool absolute,
                 double* acc, int threads) {
  const int64_t m_tasks = (M + kMB - 1) / kMB;
  const int64_t n_tasks = (N + kNB - 1) / kNB;
  parallel_for(m_tasks * n_tasks, threads, [&](int64_t task) {
    const int64_t m0 = (task / n_tasks) * kMB, n0 = (task % n_tasks) * kNB;
    const int64_t mb = std::min(kMB, M - m0), nb = std::min(kNB, N - n0);
    const int64_t mpad = (mb + kMR - 1) / kMR * kMR, npad = (nb + kNR - 1) / kNR * kNR;
    std::vector<double> a_pack(size_t(mpad * kKB)), w_pack(size_t(npad * kKB));
    std::vector<double> c(size_t(mpad * npad), 0.0);
    for (int64_t k0 = 0; k0 < K; k0 += kKB) {
      const int64_t kb = std::min(kKB, K - k0);
      // A panels: [mpad/kMR][kb][kMR]; rows past M are zero (their results are discarded).
      for (int64_t mp = 0; mp < mpad; mp += kMR)
        for (int64_t k = 0; k < kb; ++k)
          for (int r = 0; r < kMR; ++r) {
            const int64_t m = m0 + mp + r;
            double v = m < M ? double(a[m * K + k0 + k]) : 0.0;
            a_pack[size_t(mp * kb + k * kMR + r)] = absolute ? std::fabs(v) : v;
          }
      // W panels: [npad/kNR][kb][kNR]; columns past N are zero.
      for (int64_t np = 0; np < npad; np += kNR)
        for (int64_t k = 0; k < kb; ++k)
          for (int j = 0; j < kNR; ++j) {
            const int64_t n = n0 + np + j;
            double v = n < N ? double(w[(k0 + k) * N + n]) : 0.0;
            w_pack[size_t(np * kb + k * kNR + j)] = absolute ? std::fabs(v) : v;
          }
      for (int64_t mp = 0; mp < mpad; mp += kMR)
        for (int64_t np = 0; np < npad; np += kNR)
          micro_kernel(kb, &a_pack[size_t(mp * kb)], &w_pack[size_t(np * kb)],
                       &c[size_t(mp * npad + np)], npad);
    }
    for (int64_t r = 0; r < mb; ++r)
      for (int64_t j = 0; j < nb; ++j) acc[(m0 + r) * N + n0 + j] = c[size_t(r * npad + j)];
  });
}

// Exponent of the lowest set bit of a finite nonzero float (x = odd * 2^result).
int lowest_bit_exponent(float x) {
  int e;
  const double f = std::frexp(double(x), &e);  // |f| in [0.5, 1), 24 significant bits at most
  auto m = static_cast<uint64_t>(std::fabs(f) * 16777216.0);  // exact integer
  int tz = 0;
  while ((m & 1u) == 0) {
    m >>= 1;
    ++tz;
  }
  return e - 24 + tz;
}

// Per-vector quantum summary: the min lowest-bit exponent over the finite nonzero elements.
struct Quantum {
  bool any_nonzero = false;
  bool non_finite = false;
  int min_exp = std::numeric_limits<int>::max();
  void add(float x) {
    if (!std::isfinite(x)) {
      non_finite = true;
    } else if (x != 0.0f) {
      any_nonzero = true;
      min_exp = std::min(min_exp, lowest_bit_exponent(x));
    }
  }
};

void check_reference_args(const ReferenceArgs& args) {
  constexpr const char* kWhere = "reference_gemm";
  const GemmProblem& p = args.problem;
  check_problem(p, kWhere);
  const TypeConfig& t = p.types;
  if (p.M > 0 && args.a == nullptr) fail(kWhere, "a is null; accepted: a host [M][lda] array of " + t.a.name());
  if (p.M > 0 && args.lda < p.K)
    fail(kWhere, "lda=" + std::to_string(args.lda) + " is less than K=" + std::to_string(p.K));
  if (p.N > 0 && args.q == nullptr) fail(kWhere, "q is null; accepted: a host uint8_t [K][N] array");
  if (p.M > 0 && p.N > 0 && args.out == nullptr)
    fail(kWhere, "out is null; accepted: a host [M][ldo] array of " + t.out.name());
  if (p.M > 0 && args.ldo < p.N)
    fail(kWhere, "ldo=" + std::to_string(args.ldo) + " is less than N=" + std::to_string(p.N));
  if (p.group_size != 0 && args.group_scales == nullptr)
    fail(kWhere, "group_scales is null with group_size=" + std::to_string(p.group_size) +
                     "; accepted: a host [K/group_size][N] array of " + t.scale.name());
  if (p.group_size == 0 && args.group_scales != nullptr)
    fail(kWhere, "group_scales is given with group_size=0 (no group scales); accepted: null, or set "
                 "group_size");
  if (t.has_zeros && args.zeros == nullptr)
    fail(kWhere, "zeros is null with types.has_zeros=true; accepted: a host uint8_t [G][N] array");
  if (!t.has_zeros && args.zeros != nullptr)
    fail(kWhere, "zeros is given with types.has_zeros=false; accepted: null, or set has_zeros");
  // Contents of the weight inputs: every (q, sg, z) must be in range (see check_weight_inputs).
  const int64_t gs = p.group_size == 0 ? p.K : p.group_size;
  const bool has_scale = p.group_size != 0;
  const bool scale_is_int = t.a == types::s8;
  for (int64_t k = 0; k < p.K; ++k) {
    const int64_t g = k / gs;
    for (int64_t n = 0; n < p.N; ++n) {
      const uint32_t qv = args.q[k * p.N + n];
      const uint32_t z = t.has_zeros ? args.zeros[g * p.N + n] : 0u;
      const uint32_t sg = has_scale && scale_is_int ? load_bits(t.scale, args.group_scales, g * p.N + n) : 1u;
      if (!weight_inputs_ok(p, qv, has_scale, sg, z, t.has_zeros))
        check_weight_inputs(p, qv, has_scale, sg, z, t.has_zeros, kWhere,
                            "[k=" + std::to_string(k) + "][n=" + std::to_string(n) + "]");
    }
  }
}

}  // namespace

// ---- public ---------------------------------------------------------------------------------

double element_value(ScalarType t, const void* base, int64_t index) {
  if (t == types::f16) return num::from_f16(static_cast<const uint16_t*>(base)[index]);
  if (t == types::bf16) return num::from_bf16(static_cast<const uint16_t*>(base)[index]);
  if (t == types::e4m3) return num::from_e4m3(static_cast<const uint8_t*>(base)[index]);
  if (t == types::s8) return static_cast<const int8_t*>(base)[index];
  if (t == types::f32) return static_cast<const float*>(base)[index];
  if (t == types::s32) return static_cast<const int32_t*>(base)[index];
  if (t.is_integer() && t.size_bits() <= 8 && !t.is_signed)
    return double(static_cast<const uint8_t*>(base)[index]) - t.bias;
  fail("element_value", "type " + t.name() + " has no host encoding; accepted: f16, bf16, e4m3, s8, "
                        "u8 (and other unsigned types up to 8 bits), f32, s32");
}

double reference_weight(const GemmProblem& p, uint8_t q, const void* scale_elem, uint8_t z,
                        bool has_zero) {
  constexpr const char* kWhere = "reference_weight";
  check_problem(p, kWhere);
  if (has_zero && !p.types.b.is_integer()) fail(kWhere, "has_zero with a non-integer weight type");
  if (has_zero && p.types.b.has_bias())
    fail(kWhere, "has_zero=true with types.b=" + p.types.b.name() + "; accepted: u4 or u8");
  const bool has_scale = scale_elem != nullptr;
  const uint32_t scale_bits = has_scale ? load_bits(p.types.scale, scale_elem, 0) : 0u;
  check_weight_inputs(p, q, has_scale, p.types.a == types::s8 ? scale_bits : 1u, z, has_zero, kWhere, "");
  return weight_value(p, q, has_scale, scale_bits, z, has_zero);
}

void reference_weights(const GemmProblem& p, const uint8_t* q, const void* group_scales,
                       const uint8_t* zeros, double* w) {
  constexpr const char* kWhere = "reference_weights";
  check_problem(p, kWhere);
  if (p.N > 0 && q == nullptr) fail(kWhere, "q is null");
  if (p.N > 0 && w == nullptr) fail(kWhere, "w is null");
  if (p.group_size != 0 && group_scales == nullptr)
    fail(kWhere, "group_scales is null with group_size=" + std::to_string(p.group_size));
  if (p.types.has_zeros && zeros == nullptr) fail(kWhere, "zeros is null with types.has_zeros=true");
  const int64_t gs = p.group_size == 0 ? p.K : p.group_size;
  const bool has_scale = p.group_size != 0;
  for (int64_t k = 0; k < p.K; ++k)
    for (int64_t n = 0; n < p.N; ++n) {
      const int64_t gi = (k / gs) * p.N + n;
      const uint32_t z = p.types.has_zeros ? zeros[gi] : 0u;
      const uint32_t sb = has_scale ? load_bits(p.types.scale, group_scales, gi) : 0u;
      const uint32_t sg = p.types.a == types::s8 ? sb : 1u;
      if (!weight_inputs_ok(p, q[k * p.N + n], has_scale, sg, z, p.types.has_zeros))
        check_weight_inputs(p, q[k * p.N + n], has_scale, sg, z,
                            p.types.has_zeros, kWhere,
                            "[k=" + std::to_string(k) + "][n=" + std::to_string(n) + "]");
      w[k * p.N + n] = weight_value(p, q[k * p.N + n], has_scale, sb, z, p.types.has_zeros);
    }
}

void reference_gemm(const ReferenceArgs& args, int threads) {
  check_reference_args(args);
  const GemmProblem& p = args.problem;
  const TypeConfig& t = p.types;
  const int64_t M = p.M, N = p.N, K = p.K;
  if (M == 0 || N == 0) return;
  threads = resolve_threads(threads);

  // 1. The weights the tensor cores see, as exact f32 values. 4-bit weights go through a
  //    16-entry table per (group, column) so each distinct rounding is computed once.
  const int64_t gs = p.group_size == 0 ? K : p.group_size;
  const int64_t G = K / gs;
  const bool has_scale = p.group_size != 0;
  std::vector<float> w(size_t(K * N));
  const bool four_bit = t.b.size_bits() == 4;
  parallel_for(G, threads, [&](int64_t g) {
    std::vector<float> table(four_bit ? size_t(N * 16) : 0);
    if (four_bit)
      for (int64_t n = 0; n < N; ++n) {
        const uint32_t z = t.has_zeros ? args.zeros[g * N + n] : 0u;
        const uint32_t sb = has_scale ? load_bits(t.scale, args.group_scales, g * N + n) : 0u;
        for (uint32_t qv = 0; qv < 16; ++qv)
          table[size_t(n * 16 + qv)] = float(weight_value(p, qv, has_scale, sb, z, t.has_zeros));
      }
    for (int64_t k = g * gs; k < (g + 1) * gs; ++k)
      for (int64_t n = 0; n < N; ++n) {
        const uint8_t qv = args.q[k * N + n];
        if (four_bit) {
          w[size_t(k * N + n)] = table[size_t(n * 16 + qv)];
        } else {
          const uint32_t z = t.has_zeros ? args.zeros[g * N + n] : 0u;
          const uint32_t sb = has_scale ? load_bits(t.scale, args.group_scales, g * N + n) : 0u;
          w[size_t(k * N + n)] = float(weight_value(p, qv, has_scale, sb, z, t.has_zeros));
        }
      }
  });

  // 2. The activations as exact f32 values.
  std::vector<float> a(size_t(M * K));
  {
    const ActKind kind = act_kind(t.a);
    std::vector<float> table;  // all 2^16 (16-bit) or 2^8 (e4m3) encodings, decoded once
    if (kind == ActKind::kF16 || kind == ActKind::kBF16) {
      table.resize(65536);
      for (uint32_t b = 0; b < 65536; ++b)
        table[b] = float(kind == ActKind::kF16 ? num::from_f16(uint16_t(b)) : num::from_bf16(uint16_t(b)));
    } else if (kind == ActKind::kE4M3) {
      table.resize(256);
      for (uint32_t b = 0; b < 256; ++b) table[b] = float(num::from_e4m3(uint8_t(b)));
    }
    parallel_for(M, threads, [&](int64_t m) {
      for (int64_t k = 0; k < K; ++k) {
        const int64_t i = m * args.lda + k;
        float v;
        switch (kind) {
          case ActKind::kF16:
          case ActKind::kBF16: v = table[static_cast<const uint16_t*>(args.a)[i]]; break;
          case ActKind::kE4M3: v = table[static_cast<const uint8_t*>(args.a)[i]]; break;
          default: v = float(static_cast<const int8_t*>(args.a)[i]); break;
        }
        a[size_t(m * K + k)] = v;
      }
    });
  }

  // 3. The accumulator (and optionally sum |a*w|), f64, ascending k.
  std::vector<double> acc_local;
  double* acc = args.acc_out;
  if (acc == nullptr) {
    acc_local.resize(size_t(M * N));
    acc = acc_local.data();
  }
  product_f64(a.data(), w.data(), M, N, K, /*absolute=*/false, acc, threads);
  if (args.abs_acc_out != nullptr) product_f64(a.data(), w.data(), M, N, K, true, args.abs_acc_out, threads);

  if (args.acc_quantum_out != nullptr) {
    std::vector<Quantum> row(static_cast<size_t>(M)), col(static_cast<size_t>(N));
    for (int64_t m = 0; m < M; ++m)
      for (int64_t k = 0; k < K; ++k) row[size_t(m)].add(a[size_t(m * K + k)]);
    for (int64_t k = 0; k < K; ++k)
      for (int64_t n = 0; n < N; ++n) col[size_t(n)].add(w[size_t(k * N + n)]);
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        const Quantum& r = row[size_t(m)];
        const Quantum& c = col[size_t(n)];
        double qv;
        if (r.non_finite || c.non_finite) qv = 0.0;  // unknown
        else if (!r.any_nonzero || !c.any_nonzero) qv = std::numeric_limits<double>::infinity();
        else qv = std::ldexp(1.0, r.min_exp + c.min_exp);
        args.acc_quantum_out[m * N + n] = qv;
      }
  }

  // 4. The epilogue, exactly as the kernels: RN_f32(acc), RN_f32(tok*ch), one f32 fma with
  //    the bias (exact in f32), then one RN to the output type.
  const bool out_bf16 = t.out == types::bf16;
  auto* out = static_cast<uint16_t*>(args.out);
  const auto* bias = static_cast<const uint16_t*>(args.bias);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      const float acc32 = static_cast<float>(acc[m * N + n]);  // RN_f32
      float scale = 1.0f;
      if (args.token_scales != nullptr && args.channel_scales != nullptr)
        scale = args.token_scales[m] * args.channel_scales[n];  // RN_f32(tok * ch)
      else if (args.token_scales != nullptr)
        scale = args.token_scales[m];
      else if (args.channel_scales != nullptr)
        scale = args.channel_scales[n];
      const float b = bias == nullptr ? 0.0f
                                      : float(out_bf16 ? num::from_bf16(bias[n]) : num::from_f16(bias[n]));
      const float y = std::fma(acc32, scale, b);  // one f32 rounding
      out[m * args.ldo + n] = out_bf16 ? num::to_bf16(double(y)) : num::to_f16(double(y));
    }
}

// ---- tolerances -----------------------------------------------------------------------------
namespace {
// gamma_n = n u / (1 - n u) (Higham); +inf when n u >= 1 (no bound).
double gamma(double n, double u) {
  const double nu = n * u;
  return nu >= 1.0 ? std::numeric_limits<double>::infinity() : nu / (1.0 - nu);
}

// Spacing of the output grid in the binade of x >= 0 (the larger neighbour gap at powers of 2).
double out_spacing(ScalarType out, double x) {
  const int mant = out == types::bf16 ? 7 : 10;
  const int emin = out == types::bf16 ? -126 : -14;
  if (x < std::ldexp(1.0, emin)) return std::ldexp(1.0, emin - mant);
  int e;
  std::frexp(x, &e);  // x in [2^(e-1), 2^e)
  return std::ldexp(1.0, e - 1 - mant);
}

// Smallest magnitude that rounds to infinity in the output type.
double out_overflow(ScalarType out) {
  return out == types::bf16 ? std::ldexp(2.0 - std::ldexp(1.0, -8), 127)   // max + half ulp
                            : 65520.0;
}
}  // namespace

double accumulation_error_bound(const GemmProblem& p, double abs_acc, const ToleranceOptions& options) {
  check_problem(p, "accumulation_error_bound");
  if (p.types.a == types::s8) return 0.0;  // s32 accumulation is exact
  const bool fp8 = p.types.a == types::e4m3;
  const int acc_bits = fp8 ? 14 : 24;  // significand bits of the tensor-core accumulator
  const double q = options.acc_quantum;
  if (q > 0 && !std::isnan(abs_acc) &&
      (std::isinf(q) || (q >= std::ldexp(1.0, -126) && abs_acc < std::ldexp(q, acc_bits))))
    return 0.0;  // every partial sum is a multiple of q below 2^p q: representable, any order
  if (!std::isfinite(abs_acc)) return std::numeric_limits<double>::infinity();
  // A summation tree over n leaves has at most 2n - 2 edges; each edge carries at most one
  // unit u of relative error (docs/semantics.md, 8.1): gamma_{2n-2}(u).
  auto tree = [](double leaves, double u) { return gamma(2.0 * leaves - 2.0, u); };
  const double K = double(p.K);
  const double u32 = std::ldexp(1.0, -23);  // one f32 ulp relative: truncating tensor-core adds
  double g;
  if (!fp8) {
    g = tree(K, u32);
  } else {
    const double u13 = std::ldexp(1.0, -13);  // e8m13 accumulator, truncating
    const int64_t P = (options.fp8_promotion_k <= 0 || options.fp8_promotion_k >= p.K) ? p.K
                                                                                        : options.fp8_promotion_k;
    const double g8 = tree(double(P), u13);
    g = P == p.K ? g8 : g8 + tree(std::ceil(K / double(P)), u32) * (1.0 + g8);
  }
  // The reference's own f64 sum of K terms in ascending order (K - 1 RN additions).
  g += gamma(K - 1.0, std::ldexp(1.0, -53));
  return g * abs_acc;
}

double gemm_tolerance(const GemmProblem& p, double abs_acc, double tok_ch_scale_abs,
                      double ref_out_value, const ToleranceOptions& options) {
  const double e_acc = accumulation_error_bound(p, abs_acc, options);
  if (e_acc == 0.0) return 0.0;  // same f32 accumulator, same epilogue: same bits
  const double inf = std::numeric_limits<double>::infinity();
  if (!std::isfinite(ref_out_value) || !std::isfinite(e_acc) || !std::isfinite(tok_ch_scale_abs)) return inf;
  const ScalarType out = p.types.out;
  const double u24 = std::ldexp(1.0, -24), tiny32 = std::ldexp(1.0, -149);
  const double ts = std::fabs(tok_ch_scale_abs);
  const double ref = std::fabs(ref_out_value);
  // |acc_gpu - RN_f32(acc_ref)|: the model bound plus the reference's own RN_f32.
  const double d_acc = e_acc + u24 * abs_acc + tiny32;
  // The f32 fma inputs differ by ts * d_acc; each side's fma adds one f32 rounding.
  const double h_ref = 0.5 * out_spacing(out, ref);
  const double y_ref = ref + h_ref;                   // |Y_ref| bound (before RN_out)
  const double x_ref = y_ref / (1.0 - u24) + tiny32;  // |exact fma value| bound, reference side
  const double x_gpu = x_ref + ts * d_acc;
  const double d = (ts * d_acc + u24 * (x_ref + x_gpu) + 2.0 * tiny32) * (1.0 + std::ldexp(1.0, -20));
  const double y_gpu = y_ref + d;
  if (y_gpu >= out_overflow(out)) return inf;  // the GPU side may round to infinity
  const double h_gpu = 0.5 * out_spacing(out, y_gpu);
  return h_ref + d + h_gpu;
}

bool within_tolerance(double value, double reference, double tolerance) {
  if (std::isnan(value) || std::isnan(reference)) return std::isnan(value) && std::isnan(reference);
  if (value == reference) return true;
  if (std::isinf(tolerance)) return true;
  if (std::isinf(value) || std::isinf(reference)) return false;
  return std::fabs(value - reference) <= tolerance;
}

}  // namespace mixgemm
