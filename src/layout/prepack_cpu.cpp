// prepack_cpu.cpp - CPU prepack / unpack into the layout of include/mixgemm/layout.h,
// shape and type checks, and the zero-point pre-multiplication of docs/semantics.md.
//
// The index map is layout::position(); nothing here re-derives it. The loops walk the
// destination block by block (512 bytes, one per (k-block, n-block)), so every block is
// written by one thread and the blocks are split between threads.
#include <algorithm>
#include <cstring>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/check.h"
#include "core/float_bits.h"
#include "layout/prepack_check.h"
#include "mixgemm/error.h"
#include "mixgemm/layout.h"
#include "mixgemm/prepack.h"

namespace mixgemm {

namespace prepack_detail {

using namespace mixgemm::types;

const char* format_name(WeightFormat f) {
  switch (f) {
    case WeightFormat::kUnpacked: return "kUnpacked";
    case WeightFormat::kGptq: return "kGptq";
    case WeightFormat::kAwq: return "kAwq";
  }
  return "unknown";
}

layout::Kind kind_for(ScalarType b_type, ScalarType a_type, const char* where) {
  const bool b4 = b_type == u4b8 || b_type == u4;
  const bool b8 = b_type == u8b128 || b_type == u8;
  MIXGEMM_REQUIRE(b4 || b8, where,
                  "b_type=" << b_type.name() << " is not a weight type; accepted: u4b8, u4, u8b128, u8");
  const bool a16 = a_type == f16 || a_type == bf16;
  const bool a8 = a_type == s8 || a_type == e4m3;
  MIXGEMM_REQUIRE(a16 || a8, where,
                  "a_type=" << a_type.name()
                            << " is not an activation type; accepted: f16, bf16 (16-bit MMA), s8, e4m3 (8-bit MMA)");
  if (a8 && b8) {
    MIXGEMM_NOT_SUPPORTED(where, "b_type=" << b_type.name() << " with a_type=" << a_type.name()
                                           << " is not supported; 8-bit activations accept u4b8 and u4 weights");
  }
  return layout::Kind{b4 ? 4 : 8, a16 ? 16 : 8};
}

layout::Kind check_shape(int64_t K, int64_t N, ScalarType b_type, ScalarType a_type, const char* where) {
  const layout::Kind kind = kind_for(b_type, a_type, where);
  MIXGEMM_REQUIRE(K >= 1 && N >= 1, where, "K=" << K << ", N=" << N << "; accepted: K, N >= 1");
  MIXGEMM_REQUIRE(K <= INT32_MAX && N <= INT32_MAX, where,
                  "K=" << K << ", N=" << N << "; accepted: K, N <= " << INT32_MAX);
  MIXGEMM_REQUIRE(N % layout::kBlockRows == 0, where,
                  "N=" << N << " is not a multiple of " << layout::kBlockRows
                       << " (the prepacked layout's block height); pad N up to "
                       << (N + layout::kBlockRows - 1) / layout::kBlockRows * layout::kBlockRows
                       << " with zero weights and drop the extra outputs");
  const int kb = kind.block_k();
  MIXGEMM_REQUIRE(K % kb == 0, where,
                  "K=" << K << " is not a multiple of " << kb << " (the prepacked layout's block depth for "
                       << kind.weight_bits << "-bit weights); pad K up to " << (K + kb - 1) / kb * kb
                       << " with zero weights and zero activations");
  return kind;
}

layout::Kind check_format(WeightFormat format, int64_t K, int64_t N, ScalarType b_type,
                          ScalarType a_type, const char* where) {
  const bool known = format == WeightFormat::kUnpacked || format == WeightFormat::kGptq ||
                     format == WeightFormat::kAwq;
  MIXGEMM_REQUIRE(known, where,
                  "format=" << static_cast<int>(format) << " is not a WeightFormat; accepted: kUnpacked, kGptq, kAwq");
  const layout::Kind kind = check_shape(K, N, b_type, a_type, where);
  MIXGEMM_REQUIRE(format == WeightFormat::kUnpacked || kind.weight_bits == 4, where,
                  "format=" << format_name(format) << " packs 4-bit weights but b_type=" << b_type.name()
                            << "; accepted for 8-bit weights: kUnpacked");
  return kind;
}

}  // namespace prepack_detail

namespace {

using prepack_detail::check_format;
using prepack_detail::check_shape;

// Reads q(k, n) from the source format.
struct Source {
  const uint8_t* p;
  WeightFormat format;
  int64_t N;

  uint32_t operator()(int64_t k, int64_t n) const {
    switch (format) {
      case WeightFormat::kUnpacked: return p[k * N + n];
      case WeightFormat::kGptq: {
        uint32_t w;
        std::memcpy(&w, p + 4 * ((k / 8) * N + n), 4);
        return (w >> (4 * (k % 8))) & 0xFu;
      }
      default: {  // kAwq
        uint32_t w;
        std::memcpy(&w, p + 4 * (k * (N / 8) + n / 8), 4);
        return (w >> (4 * prepack_detail::kAwqNibble[n % 8])) & 0xFu;
      }
    }
  }
};

// Runs f(block_begin, block_end) over [0, blocks) on up to hardware_concurrency threads.
template <class F>
void parallel_blocks(int64_t blocks, F&& f) {
  const int64_t min_per_thread = 2048;  // 1 MiB of output per thread at least
  const int64_t hw = std::max(1u, std::thread::hardware_concurrency());
  const int64_t threads = std::max<int64_t>(1, std::min(hw, blocks / min_per_thread));
  if (threads == 1) {
    f(int64_t{0}, blocks);
    return;
  }
  std::vector<std::thread> pool;
  const int64_t per = (blocks + threads - 1) / threads;
  for (int64_t t = 0; t < threads; ++t) {
    const int64_t b0 = t * per, b1 = std::min(blocks, b0 + per);
    if (b0 >= b1) break;
    pool.emplace_back([&f, b0, b1] { f(b0, b1); });
  }
  for (auto& th : pool) th.join();
}

// Block index -> its (k-block, n-block) per layout.h: block = kb * (N/16) + nb.
template <int kWeightBits, int kMmaBits, class Fn>
void for_each_weight_of_blocks(int64_t N, int64_t b0, int64_t b1, Fn&& fn) {
  constexpr layout::Kind kind{kWeightBits, kMmaBits};
  constexpr int KB = kind.block_k();
  const int64_t nblocks_n = N / layout::kBlockRows;
  for (int64_t b = b0; b < b1; ++b) {
    const int64_t kb = b / nblocks_n, nb = b % nblocks_n;
    for (int64_t k = kb * KB; k < (kb + 1) * KB; ++k)
      for (int64_t n = nb * layout::kBlockRows; n < (nb + 1) * layout::kBlockRows; ++n)
        fn(k, n, layout::position(kind, N, k, n));
  }
}

template <int kWeightBits, int kMmaBits>
void prepack_impl(const Source& src, int64_t K, int64_t N, uint8_t* dst) {
  const int64_t blocks = (K / layout::Kind{kWeightBits, kMmaBits}.block_k()) * (N / layout::kBlockRows);
  parallel_blocks(blocks, [&](int64_t b0, int64_t b1) {
    std::memset(dst + b0 * layout::kBlockBytes, 0, static_cast<size_t>((b1 - b0) * layout::kBlockBytes));
    for_each_weight_of_blocks<kWeightBits, kMmaBits>(N, b0, b1, [&](int64_t k, int64_t n, layout::Position p) {
      dst[p.byte] = static_cast<uint8_t>(dst[p.byte] | (src(k, n) << p.shift));
    });
  });
}

template <int kWeightBits, int kMmaBits>
void unpack_impl(const uint8_t* src, int64_t K, int64_t N, uint8_t* q) {
  const int64_t blocks = (K / layout::Kind{kWeightBits, kMmaBits}.block_k()) * (N / layout::kBlockRows);
  constexpr uint32_t mask = kWeightBits == 4 ? 0xFu : 0xFFu;
  parallel_blocks(blocks, [&](int64_t b0, int64_t b1) {
    for_each_weight_of_blocks<kWeightBits, kMmaBits>(N, b0, b1, [&](int64_t k, int64_t n, layout::Position p) {
      q[k * N + n] = static_cast<uint8_t>((src[p.byte] >> p.shift) & mask);
    });
  });
}

template <class Fn>
void dispatch_kind(layout::Kind kind, Fn&& fn) {
  if (kind.weight_bits == 4 && kind.mma_bits == 16) fn(std::integral_constant<int, 4>{}, std::integral_constant<int, 16>{});
  else if (kind.weight_bits == 8 && kind.mma_bits == 16) fn(std::integral_constant<int, 8>{}, std::integral_constant<int, 16>{});
  else if (kind.weight_bits == 4 && kind.mma_bits == 8) fn(std::integral_constant<int, 4>{}, std::integral_constant<int, 8>{});
  else fn(std::integral_constant<int, 8>{}, std::integral_constant<int, 8>{});
}

}  // namespace

size_t prepacked_size(int64_t K, int64_t N, ScalarType b_type) {
  using namespace mixgemm::types;
  const bool ok = b_type == u4b8 || b_type == u4 || b_type == u8b128 || b_type == u8;
  MIXGEMM_REQUIRE(ok, "prepacked_size",
                  "b_type=" << b_type.name() << " is not a weight type; accepted: u4b8, u4, u8b128, u8");
  MIXGEMM_REQUIRE(K >= 0 && N >= 0 && K <= INT32_MAX && N <= INT32_MAX, "prepacked_size",
                  "K=" << K << ", N=" << N << "; accepted: 0 <= K, N <= " << INT32_MAX);
  return static_cast<size_t>(layout::prepacked_bytes(layout::Kind{b_type.size_bits(), 16}, K, N));
}

void check_prepack_shape(int64_t K, int64_t N, ScalarType b_type, ScalarType a_type) {
  check_shape(K, N, b_type, a_type, "check_prepack_shape");
}

void prepack_cpu(const void* src, WeightFormat format, int64_t K, int64_t N, ScalarType b_type,
                 ScalarType a_type, uint8_t* dst) {
  constexpr const char* kWhere = "prepack_cpu";
  const layout::Kind kind = check_format(format, K, N, b_type, a_type, kWhere);
  MIXGEMM_REQUIRE(src != nullptr, kWhere, "src is null; accepted: host memory holding the " << K << " x " << N
                                                                                          << " weights in format "
                                                                                          << prepack_detail::format_name(format));
  MIXGEMM_REQUIRE(dst != nullptr, kWhere,
                  "dst is null; accepted: host memory of prepacked_size(K, N, b_type) = "
                      << layout::prepacked_bytes(kind, K, N) << " bytes");
  const uint8_t* s = static_cast<const uint8_t*>(src);
  if (format == WeightFormat::kUnpacked && kind.weight_bits == 4) {
    // Refuse before writing anything (error.h): unpacked 4-bit weights must be 0..15.
    const int64_t total = K * N;
    for (int64_t i = 0; i < total; ++i) {
      MIXGEMM_REQUIRE(s[i] <= 15, kWhere,
                      "src[" << i / N << "][" << i % N << "]=" << int(s[i]) << " is not a 4-bit integer; b_type="
                             << b_type.name() << " accepts stored values 0..15");
    }
  }
  const Source source{s, format, N};
  dispatch_kind(kind, [&](auto wb, auto mb) { prepack_impl<decltype(wb)::value, decltype(mb)::value>(source, K, N, dst); });
}

void unpack_cpu(const uint8_t* src, int64_t K, int64_t N, ScalarType b_type, ScalarType a_type, uint8_t* q) {
  constexpr const char* kWhere = "unpack_cpu";
  const layout::Kind kind = check_shape(K, N, b_type, a_type, kWhere);
  MIXGEMM_REQUIRE(src != nullptr, kWhere, "src is null; accepted: host memory holding prepacked weights");
  MIXGEMM_REQUIRE(q != nullptr, kWhere, "q is null; accepted: host memory of K*N = " << K * N << " bytes");
  dispatch_kind(kind, [&](auto wb, auto mb) { unpack_impl<decltype(wb)::value, decltype(mb)::value>(src, K, N, q); });
}

std::vector<uint8_t> prepack_zeros_cpu(const uint8_t* z, const void* scales, int64_t G, int64_t N,
                                       ScalarType a_type, ScalarType scale_type) {
  using namespace mixgemm::types;
  constexpr const char* kWhere = "prepack_zeros_cpu";
  MIXGEMM_REQUIRE(z != nullptr, kWhere, "z is null; accepted: host memory of G*N raw integer zero points");
  MIXGEMM_REQUIRE(G >= 1 && N >= 1, kWhere, "G=" << G << ", N=" << N << "; accepted: G, N >= 1");
  const bool a16 = a_type == f16 || a_type == bf16;
  MIXGEMM_REQUIRE(a16 || a_type == s8 || a_type == e4m3, kWhere,
                  "a_type=" << a_type.name() << " is not an activation type; accepted: f16, bf16, s8, e4m3");
  const size_t count = static_cast<size_t>(G * N);
  std::vector<uint8_t> out;

  if (a_type == s8) {
    // z * sg as u8 (sg = 1 without group scales).
    MIXGEMM_REQUIRE(scales == nullptr || scale_type == u8, kWhere,
                    "scale_type=" << scale_type.name() << " with a_type=s8; accepted: u8 (QQQ integer group scales)");
    const uint8_t* sg = static_cast<const uint8_t*>(scales);
    out.resize(count);
    for (size_t i = 0; i < count; ++i) {
      const uint32_t v = uint32_t{z[i]} * (sg ? sg[i] : 1u);
      MIXGEMM_REQUIRE(v <= 255, kWhere,
                      "z[" << i / N << "][" << i % N << "]=" << int(z[i]) << " times scale " << int(sg ? sg[i] : 1)
                           << " = " << v << " does not fit the u8 pre-multiplied zero; accepted: z * sg <= 255");
      out[i] = static_cast<uint8_t>(v);
    }
    return out;
  }

  // f16 / bf16 / e4m3: zs = RN_T(-(z * s)), s = 1 without group scales (then zs = T(-z), exact).
  // T: the activation type for 16-bit activations, f16 for e4m3.
  const ScalarType t = a16 ? a_type : f16;
  MIXGEMM_REQUIRE(scales == nullptr || scale_type == t, kWhere,
                  "scale_type=" << scale_type.name() << " with a_type=" << a_type.name() << "; accepted: "
                                << t.name());
  const uint16_t* s = static_cast<const uint16_t*>(scales);
  out.resize(2 * count);
  for (size_t i = 0; i < count; ++i) {
    const double sv = s ? (t == f16 ? numeric::from_f16(s[i]) : numeric::from_bf16(s[i])) : 1.0;
    const double exact = -(static_cast<double>(z[i]) * sv);  // z <= 255 and an f16/bf16 s: exact
    const uint16_t bits = t == f16 ? numeric::to_f16(exact) : numeric::to_bf16(exact);
    out[2 * i] = static_cast<uint8_t>(bits & 0xFF);
    out[2 * i + 1] = static_cast<uint8_t>(bits >> 8);
  }
  return out;
}

}  // namespace mixgemm
