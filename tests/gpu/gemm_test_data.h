// gemm_test_data.h - inputs, reference and comparison shared by the kernel-family GPU
// tests (test_smallm.cu, test_sm90.cu): random quantized problems within the semantics'
// preconditions, in two flavours ("int": small integers and power-of-two scales, where
// the reference's acc_quantum makes the comparison bit-exact; "rnd": random values with
// the derived tolerance of docs/semantics.md section 8), their device copies, and the
// element-wise comparison that also requires rows >= M and padding columns to keep the
// NaN poison.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "core/dispatch.h"
#include "common/problem_draw.h"
#include "core/float_bits.h"
#include "gpu/gpu_test_util.h"
#include "kernels/gemm_params.h"
#include "mixgemm/error.h"
#include "mixgemm/gemm.h"
#include "mixgemm/prepack.h"
#include "mixgemm/reference.h"
#include "mixgemm/scalar_type.h"

namespace mixgemm::test {

namespace ty = mixgemm::types;
namespace nm = mixgemm::numeric;
using mixgemm::GemmProblem;
using mixgemm::ScalarType;
using mixgemm::kernels::GemmParams;

// ---- small helpers (Rng, the enum <-> ScalarType maps: common/problem_draw.h) ----------------
inline uint16_t to16(ScalarType t, double v) { return t == ty::bf16 ? nm::to_bf16(v) : nm::to_f16(v); }
inline double from16(ScalarType t, uint16_t b) { return t == ty::bf16 ? nm::from_bf16(b) : nm::from_f16(b); }

template <class T>
struct DevBuf {
  T* p = nullptr;
  size_t n = 0;
  DevBuf() = default;
  explicit DevBuf(size_t count) : n(count) {
    if (count && cudaMalloc(&p, count * sizeof(T)) != cudaSuccess) p = nullptr;
  }
  DevBuf(const DevBuf&) = delete;
  DevBuf& operator=(const DevBuf&) = delete;
  DevBuf(DevBuf&& o) noexcept : p(o.p), n(o.n) { o.p = nullptr; }
  DevBuf& operator=(DevBuf&& o) noexcept {
    std::swap(p, o.p);
    std::swap(n, o.n);
    return *this;
  }
  ~DevBuf() {
    if (p) cudaFree(p);
  }
  void upload(const std::vector<T>& v) {
    n = v.size();
    if (!p && n) cudaMalloc(&p, n * sizeof(T));
    if (n) cudaMemcpy(p, v.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  }
};

// ---- one data set ----------------------------------------------------------------------
struct Spec {
  AType a = AType::kF16;
  BType b = BType::kU4B8;
  bool zeros = false;
  int64_t group_size = 0;  // 0: none; K: per-channel; else the group size
  OutType out = OutType::kF16;
  bool bias = false, tok = false, ch = false;
  bool integer = false;  // small integers + power-of-two scales (bit-exact comparison)
  int64_t N = 272, K = 768;
  uint64_t seed = 1;
  // e4m3 tolerance model: products reach an f32 register at least every this many k
  // (1: smallm's f16 HMMA; 0: never, the whole K in the fp8 wgmma accumulator).
  int64_t fp8_promotion_k = 1;
  // 16-bit group scales spread over 20 binades (2^-18 .. 2^2: f16 subnormals at the bottom), one
  // in 16 zero, signs mixed: the unit form's windows and rebases (convert_16bit.cuh). Random data.
  bool scale_spread = false;

  std::string name() const {
    std::ostringstream os;
    os << st(a).name() << "." << st(b).name() << (zeros ? "+z" : "") << ".g" << group_size
       << ".out=" << st(out).name() << (bias ? ".bias" : "") << (tok ? ".tok" : "") << (ch ? ".ch" : "")
       << (integer ? ".int" : ".rnd") << (scale_spread ? ".spread" : "") << " N=" << N << " K=" << K << " seed=" << seed;
    return os.str();
  }
  GemmProblem problem(int64_t M) const { return problem_of(a, b, zeros, out, M, N, K, group_size); }
};

struct Data {
  Spec s;
  int64_t lda = 0, ldo = 0, G = 1;
  int64_t rows = 0;             // token rows of a and out (the largest M tested)
  std::vector<uint8_t> a;       // [rows][lda] elements of the activation type (bytes)
  std::vector<uint8_t> q;       // [K][N]
  std::vector<uint8_t> scales;  // [G][N] raw elements of the scale type
  std::vector<uint8_t> z;       // [G][N] raw integer zero points
  std::vector<float> ch, tok;
  std::vector<uint16_t> bias;
  std::vector<uint16_t> ref;    // [ref_rows][N]
  std::vector<double> tol;      // [ref_rows][N], for s.fp8_promotion_k
  std::vector<double> abs_acc;  // [ref_rows][N]: the reference's sum of |products| (tolerances())
  std::vector<double> quantum;  // [ref_rows][N]: its common quantum of the products
};

// The reference of R token rows: outputs and the diagnostics the tolerances need, each [R][N].
struct RefRows {
  std::vector<uint16_t> ref;
  std::vector<double> abs_acc, quantum;
};

// The per-element tolerances of R reference rows (independent of M and of the schedule) when the
// kernel promotes its e4m3 accumulation every fp8_promotion_k k (docs/semantics.md 8.1; 0: never).
// tok: the rows' token scales (null: none).
inline std::vector<double> tolerances_of(const Spec& s, const RefRows& rr, const float* tok, const std::vector<float>& ch,
                                         int64_t fp8_promotion_k) {
  const int64_t R = static_cast<int64_t>(rr.ref.size()) / s.N, N = s.N;
  const GemmProblem p = s.problem(R);
  const ScalarType ot = st(s.out);
  std::vector<double> tol(static_cast<size_t>(R * N));
  for (int64_t m = 0; m < R; ++m)
    for (int64_t n = 0; n < N; ++n) {
      const size_t i = static_cast<size_t>(m * N + n);
      mixgemm::ToleranceOptions opt;
      opt.acc_quantum = rr.quantum[i];
      opt.fp8_promotion_k = fp8_promotion_k;
      const float tv = tok ? tok[m] : 1.0f;
      const float cv = ch.empty() ? 1.0f : ch[n];
      const double ts = std::fabs(static_cast<double>(tv * cv));
      tol[i] = mixgemm::gemm_tolerance(p, rr.abs_acc[i], ts, from16(ot, rr.ref[i]), opt);
    }
  return tol;
}

inline std::vector<double> tolerances(const Data& d, int64_t fp8_promotion_k) {
  const RefRows rr{d.ref, d.abs_acc, d.quantum};
  return tolerances_of(d.s, rr, d.tok.empty() ? nullptr : d.tok.data(), d.ch, fp8_promotion_k);
}

// The CPU reference of R token rows whose activations are a ([R][d.lda], the activation type's bytes)
// and token scales tok (null: none), with d's weights, scales, zero points, channel scales and bias.
inline RefRows reference_rows(const Data& d, const uint8_t* a, const float* tok, int64_t R) {
  const int64_t N = d.s.N;
  RefRows rr;
  rr.ref.assign(static_cast<size_t>(R * N), 0);
  rr.abs_acc.assign(static_cast<size_t>(R * N), 0.0);
  rr.quantum.assign(static_cast<size_t>(R * N), 0.0);
  mixgemm::ReferenceArgs ra;
  ra.problem = d.s.problem(R);
  ra.a = a;
  ra.lda = d.lda;
  ra.q = d.q.data();
  ra.group_scales = d.scales.empty() ? nullptr : d.scales.data();
  ra.zeros = d.z.empty() ? nullptr : d.z.data();
  ra.channel_scales = d.ch.empty() ? nullptr : d.ch.data();
  ra.token_scales = tok;
  ra.bias = d.bias.empty() ? nullptr : d.bias.data();
  ra.out = rr.ref.data();
  ra.ldo = N;
  ra.abs_acc_out = rr.abs_acc.data();
  ra.acc_quantum_out = rr.quantum.data();
  mixgemm::reference_gemm(ra);
  return rr;
}

// Builds random inputs within the semantics' preconditions (`rows` token rows) and runs the
// reference for the first ref_rows tokens.
inline Data make_data(const Spec& s, int rows, int ref_rows) {
  Data d;
  d.s = s;
  Rng r{s.seed * 0x2545F4914F6CDD1Dull + 17};
  const int64_t M = rows, N = s.N, K = s.K;
  d.rows = rows;
  const int eb = a16(s.a) ? 2 : 1;
  d.lda = K + (eb == 2 ? 24 : 48);  // a row stride that is not K (16-byte multiple)
  d.ldo = N + 8;
  d.G = s.group_size > 0 ? K / s.group_size : 1;
  const ScalarType at = st(s.a), sct = scale_type(s.a);
  const bool w4 = wbits(s.b) == 4;
  const int qmax = w4 ? 15 : 255;

  // activations
  d.a.assign(static_cast<size_t>(M * d.lda * eb), 0);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t k = 0; k < K; ++k) {
      const size_t i = static_cast<size_t>(m * d.lda + k);
      if (a16(s.a)) {
        const double v = s.integer ? r.uniform(-2, 2) : 2.0 * r.unit() - 1.0;
        const uint16_t h = to16(at, v);
        d.a[2 * i] = static_cast<uint8_t>(h & 0xFF);
        d.a[2 * i + 1] = static_cast<uint8_t>(h >> 8);
      } else if (s.a == AType::kS8) {
        d.a[i] = static_cast<uint8_t>(static_cast<int8_t>(r.uniform(-128, 127)));
      } else {  // e4m3: small integers, or any finite value of magnitude <= 8
        d.a[i] = s.integer ? nm::to_e4m3_sat(r.uniform(-3, 3)) : nm::to_e4m3_sat((2.0 * r.unit() - 1.0) * 8.0);
      }
    }
  // weights, zero points, group scales
  d.q.resize(static_cast<size_t>(K * N));
  for (auto& v : d.q) v = static_cast<uint8_t>(r.uniform(0, qmax));
  const size_t gn = static_cast<size_t>(d.G * N);
  if (s.zeros) {
    d.z.resize(gn);
    for (auto& v : d.z) v = static_cast<uint8_t>(r.uniform(0, qmax));
  }
  if (s.group_size > 0) {
    if (s.a == AType::kS8) {
      // QQQ: w8 = (q - 8) * sg or (q - z) * sg (or q * sg) must stay in int8, z * sg <= 255.
      d.scales.resize(gn);
      const int smax = s.b == BType::kU4B8 ? 16 : 8;
      for (auto& v : d.scales) v = static_cast<uint8_t>(r.uniform(1, smax));
    } else {
      d.scales.resize(2 * gn);
      for (size_t i = 0; i < gn; ++i) {
        double v;
        if (s.integer) {
          v = std::ldexp(1.0, r.uniform(-2, 0));  // 0.25, 0.5, 1
        } else if (s.scale_spread) {
          v = r.uniform(0, 15) == 0 ? 0.0 : std::ldexp(1.0 + r.unit(), r.uniform(-18, 1));
          if (r.uniform(0, 1)) v = -v;
        } else {
          v = std::ldexp(1.0 + r.unit(), -r.uniform(3, 6)) * (w4 ? 1.0 : 1.0 / 16);
        }
        if (!s.integer && s.a == AType::kE4M3 && r.uniform(0, 7) == 0) v *= 64;  // some e4m3 saturation
        const uint16_t h = to16(sct, v);
        d.scales[2 * i] = static_cast<uint8_t>(h & 0xFF);
        d.scales[2 * i + 1] = static_cast<uint8_t>(h >> 8);
      }
    }
  }
  // epilogue operands
  auto f32_of = [&](bool integer_pow2) {
    return integer_pow2 ? static_cast<float>(std::ldexp(1.0, r.uniform(-1, 0))) : static_cast<float>(0.5 + r.unit());
  };
  if (s.ch) {
    d.ch.resize(N);
    for (auto& v : d.ch) v = f32_of(s.integer);
  }
  if (s.tok) {
    d.tok.resize(M);
    for (auto& v : d.tok) v = f32_of(s.integer);
  }
  const ScalarType ot = st(s.out);
  if (s.bias) {
    d.bias.resize(N);
    for (auto& v : d.bias) v = to16(ot, s.integer ? r.uniform(-4, 4) : 2.0 * r.unit() - 1.0);
  }

  // reference for the first ref_rows tokens (a token's output row depends only on it)
  RefRows rr = reference_rows(d, d.a.data(), d.tok.empty() ? nullptr : d.tok.data(), ref_rows);
  d.ref = std::move(rr.ref);
  d.abs_acc = std::move(rr.abs_acc);
  d.quantum = std::move(rr.quantum);
  d.tol = tolerances(d, s.fp8_promotion_k);
  return d;
}

// Device copies of one data set.
struct DevData {
  DevBuf<uint8_t> a, b, scales, zeros, ws;
  DevBuf<float> ch, tok;
  DevBuf<uint16_t> bias, out;
  size_t ws_bytes = 0;
  int sm_count = 1;

  // ws_of(sm_count): the workspace bytes the tested schedules need.
  template <class WsOf>
  DevData(const Data& d, WsOf ws_of) {
    const Spec& s = d.s;
    a.upload(d.a);
    std::vector<uint8_t> packed(mixgemm::prepacked_size(s.K, s.N, st(s.b)));
    mixgemm::prepack_cpu(d.q.data(), mixgemm::WeightFormat::kUnpacked, s.K, s.N, st(s.b), st(s.a),
                         packed.data());
    b.upload(packed);
    if (!d.scales.empty()) scales.upload(d.scales);
    if (s.zeros) {
      zeros.upload(mixgemm::prepack_zeros_cpu(d.z.data(), d.scales.empty() ? nullptr : d.scales.data(), d.G,
                                              s.N, st(s.a), scale_type(s.a)));
    }
    if (!d.ch.empty()) ch.upload(d.ch);
    if (!d.tok.empty()) tok.upload(d.tok);
    if (!d.bias.empty()) bias.upload(d.bias);
    out = DevBuf<uint16_t>(static_cast<size_t>(d.rows * d.ldo));
    cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, 0);
    ws_bytes = ws_of(sm_count);
    ws = DevBuf<uint8_t>(ws_bytes + 256);
    cudaMemset(ws.p, 0, ws_bytes + 256);
  }

  // The public gemm()'s arguments for the first M tokens of d (schedule empty: the heuristic's).
  mixgemm::GemmArgs gemm_args(const Data& d, int M, const std::string& schedule = "") const {
    mixgemm::GemmArgs g;
    g.problem = d.s.problem(M);
    g.a = a.p;
    g.lda = d.lda;
    g.b = b.p;
    g.group_scales = scales.p;  // null unless uploaded (grouped problems)
    g.group_zeros = zeros.p;    // null unless uploaded (zero points)
    g.channel_scales = ch.p;
    g.token_scales = tok.p;
    g.bias = bias.p;
    g.out = out.p;
    g.ldo = d.ldo;
    g.workspace = ws.p;
    g.workspace_bytes = ws_bytes;
    g.schedule = schedule;
    return g;
  }

  // The kernel families' parameters of the same call: the library's own translation (core::params_of).
  GemmParams params(const Data& d, int M) const { return mixgemm::core::params_of(gemm_args(d, M), sm_count); }
};

// Compares rows < M with the reference; rows >= M and padding columns must stay poisoned.
// Returns the number of bad elements, the first few described in *msg.
inline int64_t compare(const Data& d, const std::vector<uint16_t>& out, int M, std::string* msg) {
  const ScalarType ot = st(d.s.out);
  int64_t bad = 0;
  std::ostringstream os;
  for (int64_t m = 0; m < d.rows; ++m)
    for (int64_t n = 0; n < d.ldo; ++n) {
      const uint16_t v = out[static_cast<size_t>(m * d.ldo + n)];
      bool ok;
      double ref = 0, tol = 0;
      if (m < M && n < d.s.N) {
        const size_t i = static_cast<size_t>(m * d.s.N + n);
        ref = from16(ot, d.ref[i]);
        tol = d.tol[i];
        ok = mixgemm::within_tolerance(from16(ot, v), ref, tol);
      } else {
        ok = v == 0xFFFF;  // untouched poison
      }
      if (!ok) {
        if (bad < 4) {
          os << " [m=" << m << " n=" << n << " got=" << from16(ot, v) << " (0x" << std::hex << v << std::dec
             << ") ref=" << ref << " tol=" << tol << (m >= M || n >= d.s.N ? " outside the output" : "") << "]";
        }
        ++bad;
      }
    }
  *msg = os.str();
  return bad;
}

// Runs one kernel launch at M tokens on dd and returns the whole output buffer (rows x
// ldo), NaN-poisoned before the launch; empty (with *err) when `can_implement` refuses, the
// launch throws, or CUDA fails. `can_implement(p, &why)` and `launch(p)` are the family's.
template <class CanImplement, class Launch>
std::vector<uint16_t> run_kernel_once(const Data& d, const DevData& dd, int M, CanImplement can_implement,
                                      Launch launch, std::string* err) {
  std::vector<uint16_t> host(static_cast<size_t>(d.rows * d.ldo));
  if (poison_16bit(dd.out.p, host.size()) != cudaSuccess) {
    *err = "poison failed";
    return {};
  }
  const GemmParams p = dd.params(d, M);
  std::string why;
  if (!can_implement(p, &why)) {
    *err = "can_implement refused: " + why;
    return {};
  }
  try {
    launch(p);
  } catch (const mixgemm::Error& e) {
    *err = std::string("launch threw: ") + e.what();
    return {};
  }
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaMemcpy(host.data(), dd.out.p, host.size() * 2, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    *err = std::string("CUDA: ") + cudaGetErrorString(e);
    return {};
  }
  return host;
}

}  // namespace mixgemm::test
