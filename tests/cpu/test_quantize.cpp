// Quantizers: RTN error bounds for every group size and type, QQQ's two-level form,
// the fp8 rescaling, and the activation quantizers bit for bit against the formulas of
// docs/semantics.md written out again here.
#include <gtest/gtest.h>

#include "cpu/test_util.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/float_bits.h"
#include "mixgemm/error.h"
#include "mixgemm/quantize.h"
#include "mixgemm/reference.h"

namespace {

using namespace mixgemm;
namespace num = mixgemm::numeric;

uint64_t base_seed() { return mixgemm::test::seed_from_env(777ull); }

std::vector<float> gaussian(int64_t count, std::mt19937_64& rng, double sigma = 1.0) {
  std::normal_distribution<double> d(0.0, sigma);
  std::vector<float> w(static_cast<size_t>(count));
  for (auto& x : w) x = float(d(rng));
  return w;
}

double scale_at(const QuantizedWeight& qw, int64_t g, int64_t n) {
  if (qw.group_size == 0) return qw.channel_scales[size_t(n)];
  if (qw.scale_type == types::u8) return qw.group_scales[size_t(g * qw.N + n)];
  uint16_t b;
  std::memcpy(&b, &qw.group_scales[size_t(2 * (g * qw.N + n))], 2);
  return qw.scale_type == types::f16 ? num::from_f16(b) : num::from_bf16(b);
}

using mixgemm::test::error_of;

// |w - (q - B|z) * s| <= s / 2 for every element, every type and group size.
TEST(Quantize, RtnErrorIsAtMostHalfAScale) {
  const uint64_t seed = base_seed();
  std::mt19937_64 rng(seed);
  const int64_t K = 768, N = 24;
  for (ScalarType type : {types::u4b8, types::u8b128, types::u4, types::u8})
    for (int64_t gs : {int64_t(0), int64_t(16), int64_t(32), int64_t(48), int64_t(64), int64_t(128),
                       int64_t(256), K})
      for (ScalarType st : {types::f16, types::bf16})
        for (ScalarType wt : {types::f32, types::f16, types::bf16}) {
          SCOPED_TRACE("seed=" + std::to_string(seed) + " " + type.name() + " gs=" + std::to_string(gs) +
                       " scales=" + st.name() + " w=" + wt.name());
          std::vector<float> wf = gaussian(K * N, rng, 0.02);
          // A shifted column makes the asymmetric range non-trivial; a zero column tests amax = 0.
          for (int64_t k = 0; k < K; ++k) {
            wf[size_t(k * N + 1)] += 0.05f;
            wf[size_t(k * N + 2)] = 0.0f;
          }
          std::vector<uint16_t> w16(wf.size());
          for (size_t i = 0; i < wf.size(); ++i) {
            w16[i] = wt == types::f16 ? num::to_f16(wf[i]) : num::to_bf16(wf[i]);
            if (wt != types::f32) wf[i] = float(wt == types::f16 ? num::from_f16(w16[i]) : num::from_bf16(w16[i]));
          }
          const void* src = wt == types::f32 ? static_cast<const void*>(wf.data()) : w16.data();
          const QuantizedWeight qw = quantize_weights_rtn(src, wt, K, N, type, gs, st);
          ASSERT_EQ(qw.q.size(), size_t(K * N));
          ASSERT_EQ(qw.has_zeros(), !type.has_bias());
          const int64_t G = qw.groups();
          const int qmax = type.size_bits() == 4 ? 15 : 255;
          const int64_t gsz = gs == 0 ? K : gs;
          for (int64_t k = 0; k < K; ++k)
            for (int64_t n = 0; n < N; ++n) {
              const int64_t g = k / gsz;
              ASSERT_LT(g, G);
              const int q = qw.q[size_t(k * N + n)];
              ASSERT_LE(q, qmax);
              const double s = scale_at(qw, g, n);
              ASSERT_GT(s, 0.0);
              const int center = qw.has_zeros() ? qw.zeros[size_t(g * N + n)] : type.bias;
              ASSERT_LE(center, qmax);
              const double err = std::fabs(double(wf[size_t(k * N + n)]) - (q - center) * s);
              ASSERT_LE(err, s / 2 * (1 + 1e-12)) << "k=" << k << " n=" << n;
            }
          // The zero column dequantizes to exactly 0.
          for (int64_t k = 0; k < K; ++k) {
            const int64_t g = k / gsz;
            const int center = qw.has_zeros() ? qw.zeros[size_t(g * N + 2)] : type.bias;
            ASSERT_EQ(qw.q[size_t(k * N + 2)], center);
          }
        }
}

// Scales are the exact RTN scale rounded up to their type (never below it).
TEST(Quantize, RtnScalesByHand) {
  // One column, one group: w = {-1, 0.25, 0.5, 1}. Symmetric u4b8: s = 1 / 7.5 rounded up in f16.
  const float w[4] = {-1.0f, 0.25f, 0.5f, 1.0f};
  QuantizedWeight qw = quantize_weights_rtn(w, types::f32, 4, 1, types::u4b8, 4, types::f16);
  uint16_t sb;
  std::memcpy(&sb, qw.group_scales.data(), 2);
  const double s = num::from_f16(sb);
  EXPECT_GE(s, 1.0 / 7.5);
  EXPECT_LT(num::from_f16(uint16_t(sb - 1)), 1.0 / 7.5);
  // q = rint(w / s) + 8, clamped: 1 / s is just below 7.5 -> 7 -> 15; -7.49.. -> -7 -> 1.
  EXPECT_EQ(qw.q[0], 1);
  EXPECT_EQ(qw.q[3], 15);
  EXPECT_EQ(qw.q[1], uint8_t(std::nearbyint(0.25 / s) + 8));
  // Asymmetric u4: lo = -1, hi = 1, s = 2 / 15, z = rint(1 / s) = 7 (s rounded up: 7.4999 -> 7).
  qw = quantize_weights_rtn(w, types::f32, 4, 1, types::u4, 4, types::f16);
  std::memcpy(&sb, qw.group_scales.data(), 2);
  EXPECT_GE(num::from_f16(sb), 2.0 / 15.0);
  EXPECT_EQ(qw.zeros[0], 7);
  EXPECT_EQ(qw.q[0], 0);
  EXPECT_EQ(qw.q[3], 14);
  // Per-channel (group_size 0): the scale is f32, rounded up.
  qw = quantize_weights_rtn(w, types::f32, 4, 1, types::u4b8, 0);
  ASSERT_EQ(qw.channel_scales.size(), 1u);
  EXPECT_TRUE(qw.group_scales.empty());
  EXPECT_GE(double(qw.channel_scales[0]), 1.0 / 7.5);
  EXPECT_LT(double(std::nextafter(qw.channel_scales[0], 0.0f)), 1.0 / 7.5);
  // All positive weights: the asymmetric range still includes 0, so z = 0.
  const float pos[2] = {1.0f, 3.0f};
  qw = quantize_weights_rtn(pos, types::f32, 2, 1, types::u8, 2, types::bf16);
  EXPECT_EQ(qw.zeros[0], 0);
  EXPECT_EQ(qw.q[1], 255);
}

TEST(Quantize, RelativeErrorIsSmallForGaussianWeights) {
  std::mt19937_64 rng(base_seed() + 1);
  const int64_t K = 512, N = 64;
  const std::vector<float> w = gaussian(K * N, rng);
  const double e4 = relative_frobenius_error(w.data(), types::f32,
                                             quantize_weights_rtn(w.data(), types::f32, K, N, types::u4b8, 128),
                                             types::f16);
  const double e4z = relative_frobenius_error(w.data(), types::f32,
                                              quantize_weights_rtn(w.data(), types::f32, K, N, types::u4, 128),
                                              types::f16);
  const double e8 = relative_frobenius_error(w.data(), types::f32,
                                             quantize_weights_rtn(w.data(), types::f32, K, N, types::u8b128, 128),
                                             types::f16);
  // Uniform rounding noise: rms error = s / sqrt(12) with s ~ 2 amax / 15 ~ 2 * 3 sigma / 15.
  EXPECT_GT(e4, 0.05);
  EXPECT_LT(e4, 0.15);
  EXPECT_LT(e4z, 0.15);
  EXPECT_LT(e8, 0.01);
  EXPECT_GT(e8, 0.0);
}

TEST(Quantize, QqqTwoLevel) {
  const uint64_t seed = base_seed() + 2;
  std::mt19937_64 rng(seed);
  const int64_t K = 256, N = 16;
  std::vector<float> w = gaussian(K * N, rng);
  for (int64_t k = 0; k < 128; ++k) w[size_t(k * N + 3)] *= 0.01f;  // a quiet group: small sg
  for (int64_t gs : {int64_t(0), int64_t(64), int64_t(128), K}) {
    SCOPED_TRACE("seed=" + std::to_string(seed) + " gs=" + std::to_string(gs));
    const QuantizedWeight qw = quantize_weights_qqq(w.data(), types::f32, K, N, gs);
    EXPECT_EQ(qw.type, types::u4b8);
    EXPECT_EQ(qw.scale_type, types::u8);
    ASSERT_EQ(qw.channel_scales.size(), size_t(N));
    const int64_t gsz = gs == 0 ? K : gs;
    int min_sg = 16;
    for (int64_t k = 0; k < K; ++k)
      for (int64_t n = 0; n < N; ++n) {
        const int sg = gs == 0 ? 1 : qw.group_scales[size_t((k / gsz) * N + n)];
        ASSERT_GE(sg, 1);
        ASSERT_LE(sg, 16);
        min_sg = std::min(min_sg, sg);
        const int w8 = (qw.q[size_t(k * N + n)] - 8) * sg;
        ASSERT_GE(w8, -128);
        ASSERT_LE(w8, 127);
        const double step = double(sg) * qw.channel_scales[size_t(n)];
        ASSERT_LE(std::fabs(double(w[size_t(k * N + n)]) - w8 * double(qw.channel_scales[size_t(n)])),
                  step / 2 * (1 + 1e-12));
      }
    if (gs == 64) EXPECT_EQ(min_sg, 1);  // the quiet group uses the finest integer scale
    // It runs through the s8 reference without refusal, close to the f64 product.
    const int64_t M = 3;
    std::vector<int8_t> a(size_t(M * K));
    for (auto& x : a) x = int8_t(int(rng() % 255) - 127);
    std::vector<uint16_t> out(size_t(M * N));
    ReferenceArgs r;
    r.problem.M = M;
    r.problem.N = N;
    r.problem.K = K;
    r.problem.types = TypeConfig{types::s8, types::u4b8, types::u8, false, types::f16};
    r.problem.group_size = gs;
    r.a = a.data();
    r.lda = K;
    r.q = qw.q.data();
    r.group_scales = qw.group_scales_data();
    r.channel_scales = qw.channel_scales_data();
    r.out = out.data();
    r.ldo = N;
    ASSERT_NO_THROW(reference_gemm(r));
    const std::vector<double> dq = dequantize_weights(qw, types::s8);
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        double exact = 0;
        for (int64_t k = 0; k < K; ++k) exact += double(a[size_t(m * K + k)]) * dq[size_t(k * N + n)];
        EXPECT_NEAR(num::from_f16(out[size_t(m * N + n)]), exact, std::fabs(exact) * 2e-3 + 1e-2);
      }
  }
}

TEST(Quantize, Fp8RescaleKeepsE4m3InRange) {
  const uint64_t seed = base_seed() + 3;
  std::mt19937_64 rng(seed);
  const int64_t K = 256, N = 32;
  const std::vector<float> w = gaussian(K * N, rng, 0.05);
  for (ScalarType type : {types::u4b8, types::u4})
    for (ScalarType st : {types::f16, types::bf16}) {
      SCOPED_TRACE("seed=" + std::to_string(seed) + " " + type.name() + " " + st.name());
      const QuantizedWeight qw = quantize_weights_rtn(w.data(), types::f32, K, N, type, 64, st);
      const QuantizedWeight f8 = rescale_for_fp8(qw);
      EXPECT_EQ(f8.scale_type, types::f16);
      EXPECT_EQ(f8.q, qw.q);
      EXPECT_EQ(f8.zeros, qw.zeros);
      for (int64_t n = 0; n < N; ++n) {
        double peak = 0;
        for (int64_t g = 0; g < qw.groups(); ++g) {
          int m = 0;
          for (int64_t k = g * 64; k < (g + 1) * 64; ++k) {
            const int c = f8.has_zeros() ? f8.zeros[size_t(g * N + n)] : 8;
            m = std::max(m, std::abs(f8.q[size_t(k * N + n)] - c));
          }
          const double s_new = scale_at(f8, g, n), s_old = scale_at(qw, g, n);
          ASSERT_LE(m * std::fabs(s_new), 448.0);
          peak = std::max(peak, m * std::fabs(s_new));
          // s' * c' reproduces s to f16 precision.
          ASSERT_NEAR(s_new * f8.channel_scales[size_t(n)], s_old, std::fabs(s_old) * std::ldexp(1.0, -10));
        }
        EXPECT_GT(peak, 448.0 * (1 - std::ldexp(1.0, -9))) << "column " << n << " does not use the e4m3 range";
      }
      // The e4m3 path's weights stay close to the original (e4m3 has 3 mantissa bits).
      const double e = relative_frobenius_error(w.data(), types::f32, f8, types::e4m3);
      const double e16 = relative_frobenius_error(w.data(), types::f32, qw, st);
      EXPECT_LT(e, e16 + 0.05);
    }
}

// ---- activations ----------------------------------------------------------------------------
// The formulas of docs/semantics.md, written out again with explicit f32 operations.
uint8_t expect_s8(float a, float inv, float lo) {
  const float y = a * inv;
  float r = std::nearbyint(y);
  r = r < lo ? lo : r > 127.0f ? 127.0f : r;
  return uint8_t(int8_t(r));
}

TEST(Quantize, DynamicActivationsByHand) {
  const float a[4] = {1.0f, -2.0f, 0.5f, 0.0f};
  QuantizedActivations qa = quantize_activations_dynamic(a, types::f32, 1, 4, 4, types::s8);
  EXPECT_EQ(qa.token_scales[0], 2.0f / 127.0f);
  // inv = RN_f32(127 / 2) = 63.5: 1 -> 63.5 -> 64 (tie to even), -2 -> -127, 0.5 -> 31.75 -> 32.
  EXPECT_EQ(int8_t(qa.q[0]), 64);
  EXPECT_EQ(int8_t(qa.q[1]), -127);
  EXPECT_EQ(int8_t(qa.q[2]), 32);
  EXPECT_EQ(int8_t(qa.q[3]), 0);
  qa = quantize_activations_dynamic(a, types::f32, 1, 4, 4, types::e4m3);
  EXPECT_EQ(qa.token_scales[0], 2.0f / 448.0f);
  // inv = 224: 224, -448, 112 are e4m3 values.
  EXPECT_EQ(num::from_e4m3(qa.q[0]), 224.0);
  EXPECT_EQ(num::from_e4m3(qa.q[1]), -448.0);
  EXPECT_EQ(num::from_e4m3(qa.q[2]), 112.0);
  EXPECT_EQ(qa.q[3], 0);
  // An all-zero row: tok = 1, q = 0.
  const float zero[3] = {0, 0, 0};
  qa = quantize_activations_dynamic(zero, types::f32, 1, 3, 3, types::s8);
  EXPECT_EQ(qa.token_scales[0], 1.0f);
  EXPECT_EQ(qa.q, std::vector<uint8_t>(3, 0));
  // Static: clamp to [-128, 127] for s8; saturate to +-448 for e4m3.
  const float big[3] = {-1000.0f, 1000.0f, 1.26f};
  qa = quantize_activations_static(big, types::f32, 1, 3, 3, types::s8, 0.01f);
  EXPECT_EQ(qa.token_scales[0], 0.01f);
  EXPECT_EQ(int8_t(qa.q[0]), -128);
  EXPECT_EQ(int8_t(qa.q[1]), 127);
  EXPECT_EQ(int8_t(qa.q[2]), int8_t(expect_s8(1.26f, 1.0f / 0.01f, -128.0f)));
  qa = quantize_activations_static(big, types::f32, 1, 3, 3, types::e4m3, 1.0f);
  EXPECT_EQ(num::from_e4m3(qa.q[0]), -448.0);
  EXPECT_EQ(num::from_e4m3(qa.q[1]), 448.0);
}

TEST(Quantize, ActivationsMatchTheFormulasBitForBit) {
  const uint64_t seed = base_seed() + 4;
  std::mt19937_64 rng(seed);
  const int64_t M = 37, K = 203, lda = 210;
  for (ScalarType in : {types::f32, types::f16, types::bf16}) {
    SCOPED_TRACE("seed=" + std::to_string(seed) + " in=" + in.name());
    std::vector<float> af(size_t(M * lda));
    std::vector<uint16_t> a16(af.size());
    std::normal_distribution<double> d(0, 1);
    for (int64_t m = 0; m < M; ++m) {
      const double row_scale = std::ldexp(1.0, int(rng() % 40) - 20);
      for (int64_t k = 0; k < lda; ++k) {
        double v = d(rng) * row_scale;
        if (in == types::f16) v = num::from_f16(a16[size_t(m * lda + k)] = num::to_f16(std::clamp(v, -6e4, 6e4)));
        if (in == types::bf16) v = num::from_bf16(a16[size_t(m * lda + k)] = num::to_bf16(v));
        af[size_t(m * lda + k)] = float(v);
      }
    }
    const void* src = in == types::f32 ? static_cast<const void*>(af.data()) : a16.data();
    for (ScalarType to : {types::s8, types::e4m3}) {
      const float R = to == types::s8 ? 127.0f : 448.0f;
      const QuantizedActivations qa = quantize_activations_dynamic(src, in, M, K, lda, to);
      for (int64_t m = 0; m < M; ++m) {
        float amax = 0;
        for (int64_t k = 0; k < K; ++k) amax = std::max(amax, std::fabs(af[size_t(m * lda + k)]));
        const float tok = amax == 0 ? 1.0f : amax / R;
        const float inv = R / amax;
        ASSERT_EQ(qa.token_scales[size_t(m)], tok) << "m=" << m;
        for (int64_t k = 0; k < K; ++k) {
          const float x = af[size_t(m * lda + k)];
          const uint8_t want = amax == 0 ? 0 : to == types::s8 ? expect_s8(x, inv, -127.0f) : num::to_e4m3_sat(double(x * inv));
          ASSERT_EQ(qa.q[size_t(m * K + k)], want) << "m=" << m << " k=" << k;
          // And the quantized value is within half a step of the activation.
          if (to == types::s8) {
            ASSERT_LE(std::fabs(double(int8_t(want)) * tok - x), double(tok) * 0.5 * (1 + 1e-3) + 1e-30);
          }
        }
      }
      const float static_scale = 0.05f;
      const QuantizedActivations qs = quantize_activations_static(src, in, M, K, lda, to, static_scale);
      const float sinv = 1.0f / static_scale;
      for (int64_t m = 0; m < M; ++m)
        for (int64_t k = 0; k < K; ++k) {
          const float x = af[size_t(m * lda + k)];
          const uint8_t want = to == types::s8 ? expect_s8(x, sinv, -128.0f) : num::to_e4m3_sat(double(x * sinv));
          ASSERT_EQ(qs.q[size_t(m * K + k)], want) << "static m=" << m << " k=" << k;
        }
    }
  }
}

TEST(Quantize, EveryValidationErrorNamesItsArgument) {
  const float w[4] = {1, 2, 3, 4};
  const float bad[2] = {1, NAN};
  struct Case {
    const char* expect;
    std::function<void()> call;
  };
  const std::vector<Case> cases = {
      {"quantize_weights_rtn: type=s8", [&] { quantize_weights_rtn(w, types::f32, 4, 1, types::s8, 2); }},
      {"scale_type=u8", [&] { quantize_weights_rtn(w, types::f32, 4, 1, types::u4b8, 2, types::u8); }},
      {"w_type=s8", [&] { quantize_weights_rtn(w, types::s8, 4, 1, types::u4b8, 2); }},
      {"w is null", [&] { quantize_weights_rtn(nullptr, types::f32, 4, 1, types::u4b8, 2); }},
      {"K=0", [&] { quantize_weights_rtn(w, types::f32, 0, 1, types::u4b8, 0); }},
      {"N=0", [&] { quantize_weights_rtn(w, types::f32, 4, 0, types::u4b8, 0); }},
      {"group_size=3", [&] { quantize_weights_rtn(w, types::f32, 4, 1, types::u4b8, 3); }},
      {"w[k=1][n=0] is not finite", [&] { quantize_weights_rtn(bad, types::f32, 2, 1, types::u4, 0); }},
      {"does not fit f16", [&] {
         const float huge[2] = {1e9f, -1e9f};
         quantize_weights_rtn(huge, types::f32, 2, 1, types::u4b8, 2, types::f16);
       }},
      {"quantize_weights_qqq: group_size=3", [&] { quantize_weights_qqq(w, types::f32, 4, 1, 3); }},
      {"rescale_for_fp8: qw.type=u8b128", [&] {
         rescale_for_fp8(quantize_weights_rtn(w, types::f32, 4, 1, types::u8b128, 2));
       }},
      {"rescale_for_fp8: qw.group_size=0", [&] {
         rescale_for_fp8(quantize_weights_rtn(w, types::f32, 4, 1, types::u4b8, 0));
       }},
      {"types.scale", [&] {  // bf16 scales cannot feed f16 activations
         dequantize_weights(quantize_weights_rtn(w, types::f32, 4, 1, types::u4b8, 2, types::bf16), types::f16);
       }},
      {"to=f16", [&] { quantize_activations_dynamic(w, types::f32, 1, 4, 4, types::f16); }},
      {"a_type=u8", [&] { quantize_activations_dynamic(w, types::u8, 1, 4, 4, types::s8); }},
      {"lda=3", [&] { quantize_activations_dynamic(w, types::f32, 1, 4, 3, types::s8); }},
      {"a is null", [&] { quantize_activations_dynamic(nullptr, types::f32, 1, 4, 4, types::s8); }},
      {"a[m=0][k=1] is not finite", [&] { quantize_activations_dynamic(bad, types::f32, 1, 2, 2, types::s8); }},
      {"scale=0", [&] { quantize_activations_static(w, types::f32, 1, 4, 4, types::s8, 0.0f); }},
      {"scale=-1", [&] { quantize_activations_static(w, types::f32, 1, 4, 4, types::e4m3, -1.0f); }},
  };
  for (const Case& c : cases) {
    const std::string msg = error_of(c.call);
    EXPECT_NE(msg.find(c.expect), std::string::npos) << "expected '" << c.expect << "' in: '" << msg << "'";
    EXPECT_NE(msg.find("mixgemm::"), std::string::npos) << msg;
  }
}

}  // namespace
