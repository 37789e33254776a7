// quantize.cpp - CPU quantizers (docs/semantics.md, "Quantizers" and "Activation quantization").
//
// Weight quantizers run offline, so they compute in f64 and round once where a value is stored;
// every scale is rounded UP to its type so that the RTN bound |w - v * s| <= s / 2 survives
// the rounding (see the comments at each step). Activation quantizers are the bit-exact
// contract of a GPU kernel: only IEEE f32 operations, each rounded to nearest-even, in the
// stated order.
#include "mixgemm/quantize.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "core/float_bits.h"
#include "mixgemm/error.h"
#include "mixgemm/reference.h"
#include "reference/reference_detail.h"

namespace mixgemm {

namespace num = numeric;
using reference_detail::fail;

namespace {

double load_real(const void* base, ScalarType t, int64_t i) {
  if (t == types::f32) return static_cast<const float*>(base)[i];
  if (t == types::f16) return num::from_f16(static_cast<const uint16_t*>(base)[i]);
  return num::from_bf16(static_cast<const uint16_t*>(base)[i]);
}

void check_real_type(ScalarType t, const char* where, const char* what) {
  if (!(t == types::f32 || t == types::f16 || t == types::bf16))
    fail(where, std::string(what) + "=" + t.name() + " is not a real input type; accepted: f32, f16, bf16");
}

void check_weights(const void* w, ScalarType w_type, int64_t K, int64_t N, int64_t group_size,
                   const char* where) {
  check_real_type(w_type, where, "w_type");
  if (w == nullptr) fail(where, "w is null; accepted: a host [K][N] array");
  if (K < 1) fail(where, "K=" + std::to_string(K) + " must be >= 1");
  if (N < 1) fail(where, "N=" + std::to_string(N) + " must be >= 1");
  if (group_size < 0 || (group_size > 0 && K % group_size != 0))
    fail(where, "group_size=" + std::to_string(group_size) + " does not divide K=" + std::to_string(K) +
                    "; accepted: 0 (per-channel f32 scales), K, or another divisor of K");
  for (int64_t i = 0; i < K * N; ++i)
    if (!std::isfinite(load_real(w, w_type, i)))
      fail(where, "w[k=" + std::to_string(i / N) + "][n=" + std::to_string(i % N) +
                      "] is not finite; accepted: finite weights");
}

// RU_T(x) for x > 0: the smallest value of T that is >= x (round to nearest, then step up
// if that fell below x). T = f16 or bf16 (returns bits).
uint16_t round_up16(ScalarType t, double x) {
  uint16_t b = t == types::f16 ? num::to_f16(x) : num::to_bf16(x);
  const double v = t == types::f16 ? num::from_f16(b) : num::from_bf16(b);
  if (v < x) ++b;  // positive finite codes are ordered like their values
  return b;
}
double value16(ScalarType t, uint16_t b) { return t == types::f16 ? num::from_f16(b) : num::from_bf16(b); }

// RU_f32(x) for x > 0.
float round_up_f32(double x) {
  float f = static_cast<float>(x);  // RN
  if (double(f) < x) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}

// rint with ties to even (the default rounding mode), on an exact-or-RN_f64 quotient.
double rint_even(double x) { return std::nearbyint(x); }

uint8_t clamp_q(double v, double lo, double hi) { return static_cast<uint8_t>(std::clamp(v, lo, hi)); }

void put16(std::vector<uint8_t>& bytes, int64_t i, uint16_t v) {
  std::memcpy(&bytes[size_t(i) * 2], &v, 2);
}
uint16_t get16(const std::vector<uint8_t>& bytes, int64_t i) {
  uint16_t v;
  std::memcpy(&v, &bytes[size_t(i) * 2], 2);
  return v;
}

}  // namespace

QuantizedWeight quantize_weights_rtn(const void* w, ScalarType w_type, int64_t K, int64_t N,
                                     ScalarType type, int64_t group_size, ScalarType scale_type) {
  constexpr const char* kWhere = "quantize_weights_rtn";
  if (!(type == types::u4b8 || type == types::u8b128 || type == types::u4 || type == types::u8))
    fail(kWhere, "type=" + type.name() + " is not a weight type; accepted: u4b8, u8b128 (symmetric), "
                 "u4, u8 (asymmetric with zero points)");
  if (group_size != 0 && !(scale_type == types::f16 || scale_type == types::bf16))
    fail(kWhere, "scale_type=" + scale_type.name() + " is not a group-scale type; accepted: f16, bf16");
  check_weights(w, w_type, K, N, group_size, kWhere);

  QuantizedWeight out;
  out.K = K;
  out.N = N;
  out.type = type;
  out.group_size = group_size;
  out.scale_type = scale_type;
  const bool symmetric = type.has_bias();
  const int64_t gs = group_size == 0 ? K : group_size;
  const int64_t G = K / gs;
  const double qmax = type.size_bits() == 4 ? 15.0 : 255.0;
  const double B = type.bias;
  out.q.resize(size_t(K * N));
  if (group_size != 0) out.group_scales.resize(size_t(G * N * 2));
  else out.channel_scales.resize(size_t(N));
  if (!symmetric) out.zeros.resize(size_t(G * N));

  for (int64_t g = 0; g < G; ++g)
    for (int64_t n = 0; n < N; ++n) {
      double lo = 0.0, hi = 0.0;  // the range always includes 0 (so z is a valid integer)
      for (int64_t k = g * gs; k < (g + 1) * gs; ++k) {
        const double v = load_real(w, w_type, k * N + n);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
      // The exact scale: symmetric maps [-amax, amax] onto [-(B - 1/2), B - 1/2] (so the
      // rounded levels are -B..B, and B itself clamps to B - 1 with error exactly s/2);
      // asymmetric maps [lo, hi] onto [0, qmax].
      const double amax = std::max(-lo, hi);
      double s_exact = symmetric ? amax / (B - 0.5) : (hi - lo) / qmax;  // RN_f64
      if (s_exact == 0.0) s_exact = 1.0;  // an all-zero group: any scale; q = B (or z = 0)
      double s;
      if (group_size != 0) {
        const uint16_t bits = round_up16(scale_type, s_exact);
        s = value16(scale_type, bits);
        if (!std::isfinite(s) || s == 0.0)
          fail(kWhere, "group scale " + std::to_string(s_exact) + " of group g=" + std::to_string(g) +
                           ", column n=" + std::to_string(n) + " does not fit " + scale_type.name() +
                           "; accepted: weights whose scales are finite in the scale type");
        put16(out.group_scales, g * N + n, bits);
      } else {
        const float f = round_up_f32(s_exact);
        if (!std::isfinite(f)) fail(kWhere, "channel scale of column n=" + std::to_string(n) + " overflows f32");
        s = f;
        out.channel_scales[size_t(n)] = f;
      }
      // s >= s_exact, so |w / s| <= B - 1/2 (symmetric) and -lo / s <= qmax: no clamp can cost
      // more than s / 2.
      double z = B;
      if (!symmetric) {
        z = std::clamp(rint_even(-lo / s), 0.0, qmax);
        out.zeros[size_t(g * N + n)] = static_cast<uint8_t>(z);
      }
      for (int64_t k = g * gs; k < (g + 1) * gs; ++k) {
        const double v = load_real(w, w_type, k * N + n);
        out.q[size_t(k * N + n)] = clamp_q(rint_even(v / s) + z, 0.0, qmax);
      }
    }
  return out;
}

QuantizedWeight quantize_weights_qqq(const void* w, ScalarType w_type, int64_t K, int64_t N,
                                     int64_t group_size) {
  constexpr const char* kWhere = "quantize_weights_qqq";
  check_weights(w, w_type, K, N, group_size, kWhere);
  QuantizedWeight out;
  out.K = K;
  out.N = N;
  out.type = types::u4b8;
  out.group_size = group_size;
  out.scale_type = types::u8;
  out.q.resize(size_t(K * N));
  out.channel_scales.resize(size_t(N));
  const int64_t gs = group_size == 0 ? K : group_size;
  const int64_t G = K / gs;
  if (group_size != 0) out.group_scales.resize(size_t(G * N));

  for (int64_t n = 0; n < N; ++n) {
    double amax = 0.0;
    for (int64_t k = 0; k < K; ++k) amax = std::max(amax, std::fabs(load_real(w, w_type, k * N + n)));
    // Per channel: the f32 scale; with groups it leaves room for integer group scales up to
    // 16 (7.5 * 16 = 120), so w8 = (q - 8) * sg stays within [-128, 112].
    const double range = group_size == 0 ? 7.5 : 120.0;
    const float ch = amax == 0.0 ? 1.0f : round_up_f32(amax / range);
    if (!std::isfinite(ch)) fail(kWhere, "channel scale of column n=" + std::to_string(n) + " overflows f32");
    out.channel_scales[size_t(n)] = ch;
    for (int64_t g = 0; g < G; ++g) {
      int sg = 1;
      if (group_size != 0) {
        double gmax = 0.0;
        for (int64_t k = g * gs; k < (g + 1) * gs; ++k)
          gmax = std::max(gmax, std::fabs(load_real(w, w_type, k * N + n)));
        // The smallest sg with sg * 7.5 * ch >= gmax; the products are exact in f64
        // (5 + 4 + 24 bits), and sg = 16 always qualifies because 120 * ch >= amax >= gmax.
        while (sg < 16 && double(sg) * 7.5 * double(ch) < gmax) ++sg;
        out.group_scales[size_t(g * N + n)] = static_cast<uint8_t>(sg);
      }
      const double step = double(sg) * double(ch);  // exact
      for (int64_t k = g * gs; k < (g + 1) * gs; ++k) {
        const double v = load_real(w, w_type, k * N + n);
        out.q[size_t(k * N + n)] = clamp_q(rint_even(v / step) + 8.0, 0.0, 15.0);
      }
    }
  }
  return out;
}

QuantizedWeight rescale_for_fp8(const QuantizedWeight& qw) {
  constexpr const char* kWhere = "rescale_for_fp8";
  if (!(qw.type == types::u4b8 || qw.type == types::u4))
    fail(kWhere, "qw.type=" + qw.type.name() + "; accepted: u4b8 or u4 (4-bit weights)");
  if (qw.group_size == 0)
    fail(kWhere, "qw.group_size=0 (no group scales); accepted: group-scaled weights (the "
                 "per-channel e4m3 path needs no rescaling)");
  if (!(qw.scale_type == types::f16 || qw.scale_type == types::bf16))
    fail(kWhere, "qw.scale_type=" + qw.scale_type.name() + "; accepted: f16, bf16");
  const int64_t K = qw.K, N = qw.N, gs = qw.group_size, G = qw.groups();
  if (int64_t(qw.q.size()) != K * N || int64_t(qw.group_scales.size()) != G * N * 2 ||
      (qw.has_zeros() && int64_t(qw.zeros.size()) != G * N) ||
      (!qw.channel_scales.empty() && int64_t(qw.channel_scales.size()) != N))
    fail(kWhere, "qw's arrays do not match K=" + std::to_string(K) + ", N=" + std::to_string(N) +
                     ", group_size=" + std::to_string(gs));

  QuantizedWeight out = qw;
  out.scale_type = types::f16;
  out.channel_scales.assign(size_t(N), 1.0f);
  std::vector<double> m(size_t(G * N), 0.0);  // max |q - B| or |q - z| per group
  for (int64_t k = 0; k < K; ++k)
    for (int64_t n = 0; n < N; ++n) {
      const int64_t gi = (k / gs) * N + n;
      const double center = qw.has_zeros() ? qw.zeros[size_t(gi)] : qw.type.bias;
      m[size_t(gi)] = std::max(m[size_t(gi)], std::fabs(double(qw.q[size_t(k * N + n)]) - center));
    }
  for (int64_t n = 0; n < N; ++n) {
    const double c_old = qw.channel_scales.empty() ? 1.0 : double(qw.channel_scales[size_t(n)]);
    double peak = 0.0;  // max_g m * s (exact: 4-bit integer times a 16-bit float)
    for (int64_t g = 0; g < G; ++g)
      peak = std::max(peak, m[size_t(g * N + n)] * std::fabs(value16(qw.scale_type, get16(qw.group_scales, g * N + n))));
    const float c_new = peak == 0.0 || c_old == 0.0 ? 1.0f : round_up_f32(c_old * peak / 448.0);
    if (!std::isfinite(c_new)) fail(kWhere, "channel scale of column n=" + std::to_string(n) + " overflows f32");
    out.channel_scales[size_t(n)] = c_new;
    for (int64_t g = 0; g < G; ++g) {
      const double s = value16(qw.scale_type, get16(qw.group_scales, g * N + n));
      uint16_t b = num::to_f16(s * c_old / double(c_new));  // RN_f16(RN_f64(s * c / c'))
      // Keep m * s' <= 448: step |s'| down one f16 code at a time (codes of one sign are
      // ordered like their magnitudes).
      while ((b & 0x7FFF) != 0 && m[size_t(g * N + n)] * std::fabs(num::from_f16(b)) > 448.0) --b;
      put16(out.group_scales, g * N + n, b);
    }
  }
  return out;
}

std::vector<double> dequantize_weights(const QuantizedWeight& qw, ScalarType a_type) {
  GemmProblem p;
  p.M = 1;
  p.N = qw.N;
  p.K = qw.K;
  p.group_size = qw.group_size;
  p.types.a = a_type;
  p.types.b = qw.type;
  p.types.scale = qw.scale_type;
  p.types.has_zeros = qw.has_zeros();
  p.types.out = types::f16;
  std::vector<double> w(size_t(qw.K * qw.N));
  reference_weights(p, qw.q.data(), qw.group_scales_data(), qw.zeros_data(), w.data());
  if (!qw.channel_scales.empty())
    for (int64_t k = 0; k < qw.K; ++k)
      for (int64_t n = 0; n < qw.N; ++n) w[size_t(k * qw.N + n)] *= double(qw.channel_scales[size_t(n)]);
  return w;
}

double relative_frobenius_error(const void* w, ScalarType w_type, const QuantizedWeight& qw,
                                ScalarType a_type) {
  check_real_type(w_type, "relative_frobenius_error", "w_type");
  if (w == nullptr) fail("relative_frobenius_error", "w is null");
  const std::vector<double> dq = dequantize_weights(qw, a_type);
  double err = 0.0, ref = 0.0;
  for (int64_t i = 0; i < qw.K * qw.N; ++i) {
    const double v = load_real(w, w_type, i);
    err += (v - dq[size_t(i)]) * (v - dq[size_t(i)]);
    ref += v * v;
  }
  if (ref == 0.0) return err == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  return std::sqrt(err / ref);
}

// ---- activations ----------------------------------------------------------------------------

uint8_t quantize_activation_element(float x, float inv, ScalarType to, bool static_scale) {
  const float y = x * inv;  // RN_f32(a * inv)
  if (to == types::e4m3) return num::to_e4m3_sat(double(y));
  if (to != types::s8) fail("quantize_activation_element", "to=" + to.name() + "; accepted: s8, e4m3");
  // rint to nearest-even, then clamp; NaN (0 * inf, only when inv overflowed) gives 0 like
  // PTX cvt.rni.sat.s8.f32.
  if (std::isnan(y)) return 0;
  const float lo = static_scale ? -128.0f : -127.0f;
  const float r = std::clamp(std::nearbyint(y), lo, 127.0f);
  return static_cast<uint8_t>(static_cast<int8_t>(r));
}

namespace {
void check_activations(const void* a, ScalarType a_type, int64_t M, int64_t K, int64_t lda, ScalarType to,
                       const char* where) {
  check_real_type(a_type, where, "a_type");
  if (!(to == types::s8 || to == types::e4m3))
    fail(where, "to=" + to.name() + " is not a quantized activation type; accepted: s8, e4m3");
  if (M < 0) fail(where, "M=" + std::to_string(M) + " must be >= 0");
  if (K < 1) fail(where, "K=" + std::to_string(K) + " must be >= 1");
  if (lda < K) fail(where, "lda=" + std::to_string(lda) + " is less than K=" + std::to_string(K));
  if (M > 0 && a == nullptr) fail(where, "a is null; accepted: a host [M][lda] array");
  for (int64_t m = 0; m < M; ++m)
    for (int64_t k = 0; k < K; ++k)
      if (!std::isfinite(load_real(a, a_type, m * lda + k)))
        fail(where, "a[m=" + std::to_string(m) + "][k=" + std::to_string(k) +
                        "] is not finite; accepted: finite activations");
}
}  // namespace

QuantizedActivations quantize_activations_dynamic(const void* a, ScalarType a_type, int64_t M,
                                                  int64_t K, int64_t lda, ScalarType to) {
  check_activations(a, a_type, M, K, lda, to, "quantize_activations_dynamic");
  QuantizedActivations out;
  out.M = M;
  out.K = K;
  out.type = to;
  out.q.assign(size_t(M * K), 0);
  out.token_scales.assign(size_t(M), 1.0f);
  const float range = to == types::s8 ? 127.0f : 448.0f;
  for (int64_t m = 0; m < M; ++m) {
    float amax = 0.0f;  // exact: a maximum of f32 magnitudes
    for (int64_t k = 0; k < K; ++k)
      amax = std::max(amax, std::fabs(static_cast<float>(load_real(a, a_type, m * lda + k))));
    if (amax == 0.0f) continue;  // tok = 1, q = 0
    out.token_scales[size_t(m)] = amax / range;  // RN_f32(amax / R)
    const float inv = range / amax;               // RN_f32(R / amax)
    for (int64_t k = 0; k < K; ++k)
      out.q[size_t(m * K + k)] =
          quantize_activation_element(static_cast<float>(load_real(a, a_type, m * lda + k)), inv, to, false);
  }
  return out;
}

QuantizedActivations quantize_activations_static(const void* a, ScalarType a_type, int64_t M,
                                                 int64_t K, int64_t lda, ScalarType to, float scale) {
  constexpr const char* kWhere = "quantize_activations_static";
  check_activations(a, a_type, M, K, lda, to, kWhere);
  if (!(scale > 0.0f) || !std::isfinite(scale))
    fail(kWhere, "scale=" + std::to_string(scale) + " must be finite and > 0");
  QuantizedActivations out;
  out.M = M;
  out.K = K;
  out.type = to;
  out.q.assign(size_t(M * K), 0);
  out.token_scales.assign(size_t(M), scale);
  const float inv = 1.0f / scale;  // RN_f32(1 / s)
  for (int64_t m = 0; m < M; ++m)
    for (int64_t k = 0; k < K; ++k)
      out.q[size_t(m * K + k)] =
          quantize_activation_element(static_cast<float>(load_real(a, a_type, m * lda + k)), inv, to, true);
  return out;
}

}  // namespace mixgemm
