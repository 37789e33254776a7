// test_convert_emulation.cpp - the host emulation of every register converter
// (src/layout/convert_emulation.h, a transcription of src/kernels/convert/*.cuh)
// equals docs/semantics.md, computed here independently from (q, bias, scale, zero)
// with float_bits.h and the element placement of include/mixgemm/layout.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <sstream>
#include <vector>

#include "core/float_bits.h"
#include "kernels/convert/unit_form.h"
#include "layout/convert_emulation.h"
#include "mixgemm/layout.h"

namespace {

using mixgemm::emu::Half;
namespace emu = mixgemm::emu;
namespace nb = mixgemm::numeric;
namespace lay = mixgemm::layout;

constexpr uint32_t kSeed = 20240611u;

uint16_t to_h(Half h, double x) { return h == Half::kF16 ? nb::to_f16(x) : nb::to_bf16(x); }
double from_h(Half h, uint16_t v) { return h == Half::kF16 ? nb::from_f16(v) : nb::from_bf16(v); }
const char* name(Half h) { return h == Half::kF16 ? "f16" : "bf16"; }

uint16_t half_of(const uint32_t (&frag)[4], int e) {
  return static_cast<uint16_t>(frag[e / 2] >> (16 * (e % 2)));
}

// Fragment row (0: row g, 1: row g+8) of element e of the 16-bit-MMA fragment.
int row_half16(int e) { return lay::fragment_coord(lay::kW4M16, 0, e).r >= 8 ? 1 : 0; }

// q of element e in a 4-bit/16-bit-MMA k-step word, straight from the layout contract.
int q_u4_m16(uint32_t w, int e) { return (w >> lay::element_bit(lay::kW4M16, e)) & 0xF; }

// Words to test: every value in every nibble (others random) plus random words.
std::vector<uint32_t> nibble_sweep_words(std::mt19937& rng, int random_count) {
  std::vector<uint32_t> words;
  for (int p = 0; p < 8; ++p)
    for (uint32_t v = 0; v < 16; ++v)
      for (int rep = 0; rep < 4; ++rep) {
        uint32_t w = rng();
        w = (w & ~(0xFu << (4 * p))) | (v << (4 * p));
        words.push_back(w);
      }
  words.push_back(0u);
  words.push_back(0xFFFFFFFFu);
  words.push_back(0x76543210u);
  words.push_back(0xFEDCBA98u);
  for (int i = 0; i < random_count; ++i) words.push_back(rng());
  return words;
}

std::vector<std::pair<uint32_t, uint32_t>> byte_sweep_pairs(std::mt19937& rng, int random_count) {
  std::vector<std::pair<uint32_t, uint32_t>> v;
  for (int p = 0; p < 8; ++p)
    for (uint32_t b = 0; b < 256; ++b) {
      uint32_t lo = rng(), hi = rng();
      uint32_t& w = p < 4 ? lo : hi;
      const int sh = 8 * (p % 4);
      w = (w & ~(0xFFu << sh)) | (b << sh);
      v.emplace_back(lo, hi);
    }
  for (int i = 0; i < random_count; ++i) v.emplace_back(rng(), rng());
  return v;
}

// Finite 16-bit float patterns (all of them for f16, a spread for bf16 restricted to
// magnitudes where the reference's double arithmetic stays exact).
std::vector<uint16_t> scale_values(Half h) {
  std::vector<uint16_t> v;
  if (h == Half::kF16) {
    for (uint32_t b = 0; b < 0x10000u; b += 7) {
      if ((b & 0x7C00u) == 0x7C00u) continue;  // inf / NaN
      v.push_back(static_cast<uint16_t>(b));
    }
    v.push_back(0x3C00);  // 1
    v.push_back(0x7BFF);  // max
    v.push_back(0xFBFF);
    v.push_back(0x0001);  // smallest subnormal
    v.push_back(0x8000);  // -0
  } else {
    for (uint32_t b = 0; b < 0x10000u; b += 5) {
      const int exp = static_cast<int>((b >> 7) & 0xFF) - 127;
      if (exp < -12 || exp > 12) continue;
      v.push_back(static_cast<uint16_t>(b));
    }
    v.push_back(0x3F80);  // 1
    v.push_back(0x0000);
    v.push_back(0x8000);
  }
  return v;
}

// ---- primitives --------------------------------------------------------------------

TEST(ConvertEmulation, Lop3MatchesBooleanExpressions) {
  std::mt19937 rng(kSeed);
  for (int i = 0; i < 2000; ++i) {
    const uint32_t a = rng(), b = rng(), c = rng();
    EXPECT_EQ(emu::lop3(emu::kLutAndOr, a, b, c), (a & b) | c);
    EXPECT_EQ(emu::lop3(emu::kLutOrAnd, a, b, c), (a | b) & c);
    EXPECT_EQ(emu::lop3(emu::kLutSelect, a, b, c), (a & ~c) | (b & c));
    EXPECT_EQ(emu::lop3(0x96, a, b, c), a ^ b ^ c);
    EXPECT_EQ(emu::lop3(0xE8, a, b, c), (a & b) | (a & c) | (b & c));  // majority
    EXPECT_EQ(emu::lop3(0x00, a, b, c), 0u);
    EXPECT_EQ(emu::lop3(0xFF, a, b, c), 0xFFFFFFFFu);
  }
}

TEST(ConvertEmulation, PrmtDefaultModeWithSignReplicate) {
  const uint32_t a = 0x83828180u, b = 0x07060504u;
  EXPECT_EQ(emu::prmt(a, b, 0x3210u), a);
  EXPECT_EQ(emu::prmt(a, b, 0x7654u), b);
  EXPECT_EQ(emu::prmt(a, b, 0x4140u), 0x04810480u);
  EXPECT_EQ(emu::prmt(a, b, 0x0123u), 0x80818283u);
  // sign replicate: a's bytes have the sign bit set, b's do not
  EXPECT_EQ(emu::prmt(a, b, 0x8C98u), 0xFF00FFFFu);
  // only sel[15:0] counts
  EXPECT_EQ(emu::prmt(a, b, 0xFFFF3210u), a);
}

TEST(ConvertEmulation, HalfArithmeticIsOneRounding) {
  std::mt19937 rng(kSeed + 1);
  // f16: every product and sum of f16 values is exact in double.
  for (int i = 0; i < 200000; ++i) {
    uint32_t x = rng(), y = rng(), z = rng();
    auto finite = [](uint32_t v) {
      return (v & 0x7C00u) != 0x7C00u && (v & 0x7C000000u) != 0x7C000000u;
    };
    if (!finite(x) || !finite(y) || !finite(z)) continue;
    const uint32_t s = emu::sub_x2(Half::kF16, x, y), m = emu::mul_x2(Half::kF16, x, y),
                   f = emu::fma_x2(Half::kF16, x, y, z);
    for (int hh = 0; hh < 2; ++hh) {
      const double a = nb::from_f16(x >> (16 * hh)), b = nb::from_f16(y >> (16 * hh)),
                   c = nb::from_f16(z >> (16 * hh));
      uint16_t es = nb::to_f16(a - b), em = nb::to_f16(a * b), ef = nb::to_f16(a * b + c);
      if (std::isnan(a * b + c)) ef = 0x7FFF;
      if (std::isnan(a * b)) em = 0x7FFF;
      ASSERT_EQ(static_cast<uint16_t>(s >> (16 * hh)), es) << std::hex << x << " " << y;
      ASSERT_EQ(static_cast<uint16_t>(m >> (16 * hh)), em) << std::hex << x << " " << y;
      ASSERT_EQ(static_cast<uint16_t>(f >> (16 * hh)), ef) << std::hex << x << " " << y << " " << z;
    }
  }
  // bf16 fma where a double-precision sum would round twice:
  // (1 + 2^-4)^2 = 1.125 + 2^-8 is the midpoint between bf16 1.125 (0x3F90) and
  // 1.125 + 2^-7 (0x3F91); a tiny addend decides the direction.
  const uint32_t a = 0x3F88u, tiny = nb::to_bf16(std::ldexp(1.0, -100));
  EXPECT_EQ(emu::fma_x2(Half::kBF16, a, a, tiny) & 0xFFFFu, 0x3F91u);
  EXPECT_EQ(emu::fma_x2(Half::kBF16, a, a, tiny | 0x8000u) & 0xFFFFu, 0x3F90u);
  EXPECT_EQ(emu::fma_x2(Half::kBF16, a, a, 0u) & 0xFFFFu, 0x3F90u);  // tie to even
  // bf16 sub of far-apart values: 1 - 2^-100 rounds to 1
  EXPECT_EQ(emu::sub_x2(Half::kBF16, 0x3F80u, tiny) & 0xFFFFu, 0x3F80u);
  // f16 overflow -> inf; e4m3 saturation of inf -> 448
  EXPECT_EQ(emu::mul_x2(Half::kF16, 0x7BFFu, 0x4000u) & 0xFFFFu, 0x7C00u);
  EXPECT_EQ(emu::cvt_e4m3x2_f16x2(0xFC007C00u), 0xFE7Eu);
  // cvt: low half -> low byte
  EXPECT_EQ(emu::cvt_e4m3x2_f16x2((uint32_t{0x4000} << 16) | 0x3C00u), 0x4038u);
  // f32 sub
  EXPECT_EQ(emu::sub_f32(0x4B000085u, 0x4B000080u), 0x40A00000u);  // 5.0
}

// ---- 16-bit MMA converters -----------------------------------------------------------

TEST(ConvertEmulation, U4ToFrag16Exact) {
  std::mt19937 rng(kSeed + 2);
  const auto words = nibble_sweep_words(rng, 20000);
  for (Half h : {Half::kF16, Half::kBF16}) {
    for (int bias : {0, 8}) {
      for (uint32_t w : words) {
        uint32_t frag[4];
        if (bias == 0) emu::cvt_u4_frag16(h, w, frag);
        else emu::cvt_u4b8_frag16(h, w, frag);
        for (int e = 0; e < 8; ++e) {
          const int q = q_u4_m16(w, e);
          ASSERT_EQ(half_of(frag, e), to_h(h, q - bias))
              << name(h) << " bias " << bias << " word 0x" << std::hex << w << std::dec << " e " << e;
        }
      }
    }
  }
}

TEST(ConvertEmulation, U8ToFrag16Exact) {
  std::mt19937 rng(kSeed + 3);
  const auto pairs = byte_sweep_pairs(rng, 20000);
  for (Half h : {Half::kF16, Half::kBF16}) {
    for (int bias : {0, 128}) {
      for (auto [lo, hi] : pairs) {
        uint32_t frag[4];
        if (bias == 0) emu::cvt_u8_frag16(h, lo, hi, frag);
        else emu::cvt_u8b128_frag16(h, lo, hi, frag);
        for (int e = 0; e < 8; ++e) {
          const uint64_t both = lo | (uint64_t{hi} << 32);
          const int q = static_cast<int>((both >> (8 * e)) & 0xFF);
          ASSERT_EQ(half_of(frag, e), to_h(h, q - bias))
              << name(h) << " bias " << bias << " bytes 0x" << std::hex << hi << "_" << lo << " e "
              << std::dec << e;
        }
      }
    }
  }
}

TEST(ConvertEmulation, ScaleFrag16IsRoundOfProduct) {
  // u4b8 / u8b128 with scales: w = RN_T(T(q - B) * s), row g and row g+8 scales differ.
  std::mt19937 rng(kSeed + 4);
  for (Half h : {Half::kF16, Half::kBF16}) {
    const auto scales = scale_values(h);
    for (size_t i = 0; i < scales.size(); ++i) {
      const uint16_t sg = scales[i], sg8 = scales[(i * 7919 + 13) % scales.size()];
      const uint32_t w = rng();
      uint32_t frag[4];
      emu::cvt_u4b8_frag16(h, w, frag);
      emu::scale_frag16(h, frag, sg, sg8);
      for (int e = 0; e < 8; ++e) {
        const double s = from_h(h, row_half16(e) ? sg8 : sg);
        const uint16_t want = to_h(h, static_cast<double>(q_u4_m16(w, e) - 8) * s);
        ASSERT_EQ(half_of(frag, e), want) << name(h) << " w 0x" << std::hex << w << " s 0x" << sg
                                          << "/0x" << sg8 << std::dec << " e " << e;
      }
      // and the 8-bit path
      const uint32_t lo = rng(), hi = rng();
      emu::cvt_u8b128_frag16(h, lo, hi, frag);
      emu::scale_frag16(h, frag, sg, sg8);
      for (int e = 0; e < 8; ++e) {
        const uint64_t both = lo | (uint64_t{hi} << 32);
        const int q = static_cast<int>((both >> (8 * e)) & 0xFF);
        const double s = from_h(h, row_half16(e) ? sg8 : sg);
        ASSERT_EQ(half_of(frag, e), to_h(h, (q - 128) * s)) << name(h) << " e " << e;
      }
    }
  }
}

TEST(ConvertEmulation, ScaleZeroFrag16IsOneFma) {
  // u4 / u8 with zeros: zs = RN_T(-(z * s)), w = RN_T(q * s + zs) with one rounding.
  std::mt19937 rng(kSeed + 5);
  for (Half h : {Half::kF16, Half::kBF16}) {
    const auto scales = scale_values(h);
    for (size_t i = 0; i < scales.size(); ++i) {
      const uint16_t sg = scales[i], sg8 = scales[(i * 104729 + 7) % scales.size()];
      for (int bits : {4, 8}) {
        const int zmax = bits == 4 ? 15 : 255;
        const int zg = static_cast<int>(rng() % (zmax + 1)), zg8 = static_cast<int>(rng() % (zmax + 1));
        const uint16_t zsg = to_h(h, -(zg * from_h(h, sg)));
        const uint16_t zsg8 = to_h(h, -(zg8 * from_h(h, sg8)));
        uint32_t frag[4];
        const uint32_t lo = rng(), hi = rng();
        if (bits == 4) emu::cvt_u4_frag16(h, lo, frag);
        else emu::cvt_u8_frag16(h, lo, hi, frag);
        emu::scale_zero_frag16(h, frag, sg, sg8, zsg, zsg8);
        for (int e = 0; e < 8; ++e) {
          int q;
          if (bits == 4) {
            q = q_u4_m16(lo, e);
          } else {
            const uint64_t both = lo | (uint64_t{hi} << 32);
            q = static_cast<int>((both >> (8 * e)) & 0xFF);
          }
          const bool r8 = row_half16(e);
          const double s = from_h(h, r8 ? sg8 : sg), zs = from_h(h, r8 ? zsg8 : zsg);
          const uint16_t want = to_h(h, q * s + zs);  // exact in double for these ranges
          ASSERT_EQ(half_of(frag, e), want)
              << name(h) << " bits " << bits << " q " << q << " s 0x" << std::hex
              << (r8 ? sg8 : sg) << " zs 0x" << (r8 ? zsg8 : zsg) << std::dec << " e " << e;
        }
      }
    }
  }
}

TEST(ConvertEmulation, PerChannelZeroIsExactSubtraction) {
  // no group scales: prepack stores zs = T(-z); fma(q, 1, -z) = q - z exactly.
  for (Half h : {Half::kF16, Half::kBF16}) {
    const uint16_t one = to_h(h, 1.0);
    for (int z = 0; z < 16; ++z) {
      for (uint32_t w : {0x76543210u, 0xFEDCBA98u, 0x0F1E2D3Cu}) {
        uint32_t frag[4];
        emu::cvt_u4_frag16(h, w, frag);
        emu::scale_zero_frag16(h, frag, one, one, to_h(h, -z), to_h(h, -z));
        for (int e = 0; e < 8; ++e) ASSERT_EQ(half_of(frag, e), to_h(h, q_u4_m16(w, e) - z));
      }
    }
  }
}

// ---- 8-bit MMA converters ------------------------------------------------------------

int nib(uint32_t x, int i) { return (x >> (4 * i)) & 0xF; }
int byte_s8(uint32_t x, int i) { return static_cast<int8_t>(static_cast<uint8_t>(x >> (8 * i))); }
uint8_t byte_u8(uint32_t x, int i) { return static_cast<uint8_t>(x >> (8 * i)); }

TEST(ConvertEmulation, U4x4ToS8AllNibblePatterns) {
  std::mt19937 rng(kSeed + 6);
  for (uint32_t n = 0; n < 0x10000u; ++n) {
    const uint32_t x = n | (rng() << 16);  // upper half must be ignored
    EXPECT_EQ(emu::spread_nibbles(x),
              uint32_t(nib(x, 0)) | uint32_t(nib(x, 1)) << 8 | uint32_t(nib(x, 2)) << 16 |
                  uint32_t(nib(x, 3)) << 24);
    for (int i = 0; i < 4; ++i)
      ASSERT_EQ(byte_u8(emu::nibble_msb_mask(x), i), nib(x, i) >= 8 ? 0xFF : 0x00) << n;
    for (int bias : {0, 8}) {
      const uint32_t r = emu::cvt_u4x4_s8(x, bias);
      for (int i = 0; i < 4; ++i)
        ASSERT_EQ(byte_s8(r, i), nib(x, i) - bias) << "bias " << bias << " nibbles 0x" << std::hex << x;
    }
  }
}

TEST(ConvertEmulation, U4x4ToE4m3AllNibblePatterns) {
  std::mt19937 rng(kSeed + 7);
  for (uint32_t n = 0; n < 0x10000u; ++n) {
    const uint32_t x = n | (rng() << 16);
    for (int bias : {0, 8}) {
      const uint32_t r = emu::cvt_u4x4_e4m3(x, bias);
      for (int i = 0; i < 4; ++i) {
        ASSERT_EQ(byte_u8(r, i), nb::to_e4m3_sat(nib(x, i) - bias))
            << "bias " << bias << " nibbles 0x" << std::hex << x;
        ASSERT_EQ(nb::from_e4m3(byte_u8(r, i)), nib(x, i) - bias);  // and exact
      }
    }
  }
}

TEST(ConvertEmulation, U4x4ToE5m2Bias8AllNibblePatterns) {
  // The per-channel e4m3 wgmma operand: e5m2(q - 8) must hold q - 8 exactly (the same
  // value, and so the same products, as cvt_u4x4_e4m3(.., 8)).
  std::mt19937 rng(kSeed + 17);
  for (uint32_t n = 0; n < 0x10000u; ++n) {
    const uint32_t x = n | (rng() << 16);  // upper half must be ignored
    const uint32_t r = emu::cvt_u4x4_e5m2_b8(x);
    const uint32_t e = emu::cvt_u4x4_e4m3(x, 8);
    for (int i = 0; i < 4; ++i) {
      ASSERT_EQ(nb::from_e5m2(byte_u8(r, i)), nib(x, i) - 8) << "nibbles 0x" << std::hex << x;
      ASSERT_EQ(nb::from_e5m2(byte_u8(r, i)), nb::from_e4m3(byte_u8(e, i)));
      ASSERT_EQ(byte_u8(r, i) == 0x80, false);  // zero is +0
    }
  }
}

TEST(ConvertEmulation, U4x4ToS8GroupScaleEveryValidInput) {
  // w8 = q * sg - zsg, zsg = 8 * sg (u4b8) or z * sg (u4 with zeros); valid inputs only:
  // every element of the word must satisfy the precondition (docs/semantics.md).
  std::mt19937 rng(kSeed + 8);
  int checked = 0;
  for (uint32_t sg = 1; sg <= 16; ++sg) {
    for (int z = 0; z < 16; ++z) {  // z = 8 is u4b8 (zsg = 8 * sg)
      const uint32_t zsg = static_cast<uint32_t>(z) * sg;
      if (zsg > 255) continue;
      std::vector<int> valid;
      for (int q = 0; q < 16; ++q) {
        const int v = q * static_cast<int>(sg) - static_cast<int>(zsg);
        if (v >= -128 && v <= 127) valid.push_back(q);
      }
      if (valid.empty()) continue;
      const size_t nv = valid.size();
      for (size_t code = 0; code < nv * nv * nv * nv; code += 1 + (rng() % 3)) {
        size_t c = code;
        uint32_t x = 0;
        for (int i = 0; i < 4; ++i) {
          x |= static_cast<uint32_t>(valid[c % nv]) << (4 * i);
          c /= nv;
        }
        x |= rng() << 16;
        const uint32_t r = emu::cvt_u4x4_s8_gscale(x, sg, zsg);
        for (int i = 0; i < 4; ++i)
          ASSERT_EQ(byte_s8(r, i), nib(x, i) * static_cast<int>(sg) - static_cast<int>(zsg))
              << "sg " << sg << " zsg " << zsg << " nibbles 0x" << std::hex << x;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100000);
}

TEST(ConvertEmulation, U8x4ToS8) {
  std::mt19937 rng(kSeed + 9);
  for (int i = 0; i < 200000; ++i) {
    const uint32_t z = (i < 1000) ? 128u : rng() % 256;
    // bytes with q - z in [-128, 127]
    uint32_t x = 0;
    for (int b = 0; b < 4; ++b) {
      const int lo = std::max(0, static_cast<int>(z) - 128), hi = std::min(255, static_cast<int>(z) + 127);
      const int q = lo + static_cast<int>(rng() % (hi - lo + 1));
      x |= static_cast<uint32_t>(q) << (8 * b);
    }
    const uint32_t r = emu::cvt_u8x4_s8(x, z);
    for (int b = 0; b < 4; ++b)
      ASSERT_EQ(byte_s8(r, b), byte_u8(x, b) - static_cast<int>(z)) << std::hex << x << " z " << z;
  }
  EXPECT_EQ(emu::cvt_u8x4_s8(0xFF80007Fu, 128), 0x7F0080FFu);
}

TEST(ConvertEmulation, U4x4ToE4m3GroupScaleIsF16ThenE4m3) {
  // w8 = RN_e4m3sat(w16), w16 = RN_f16((q - B) * s) or RN_f16(q * s + zs).
  std::mt19937 rng(kSeed + 10);
  const auto scales = scale_values(Half::kF16);
  for (size_t i = 0; i < scales.size(); ++i) {
    const uint16_t s = scales[i];
    const double sd = nb::from_f16(s);
    const int z = static_cast<int>(rng() % 16);
    const uint16_t zs = (i % 5 == 0) ? static_cast<uint16_t>(rng() & 0x7BFF) : nb::to_f16(-(z * sd));
    const double zsd = nb::from_f16(zs);
    for (int rep = 0; rep < 4; ++rep) {
      const uint32_t x = rng();
      const uint32_t rz = emu::cvt_u4x4_e4m3_gscale(x, s, zs, true);
      const uint32_t rb8 = emu::cvt_u4x4_e4m3_gscale(x, s, zs, false);
      const uint32_t rb0 = emu::cvt_u4x4_e4m3_gscale_bias(x, s, zs, false, 0);
      for (int k = 0; k < 4; ++k) {
        const int q = nib(x, k);
        ASSERT_EQ(byte_u8(rz, k), nb::to_e4m3_sat(nb::from_f16(nb::to_f16(q * sd + zsd))))
            << "zero: q " << q << " s 0x" << std::hex << s << " zs 0x" << zs;
        ASSERT_EQ(byte_u8(rb8, k), nb::to_e4m3_sat(nb::from_f16(nb::to_f16((q - 8) * sd))))
            << "u4b8: q " << q << " s 0x" << std::hex << s;
        ASSERT_EQ(byte_u8(rb0, k), nb::to_e4m3_sat(nb::from_f16(nb::to_f16(q * sd))))
            << "u4: q " << q << " s 0x" << std::hex << s;
      }
    }
  }
}


// ---- the unit form (convert_16bit.cuh; unit_form.h) --------------------------------------
namespace unit = mixgemm::kernels::convert::unit;

using emu::unit_domain;  // every scale of the unit form's domain

// 2^u of a base image (base = 2^(u+9)).
double unit_of_base(Half h, uint32_t base16) { return from_h(h, static_cast<uint16_t>(base16)) / 512.0; }

// The unit-form fragment of word w with scales (sg, sg8) at bases (bg, bg8) equals the semantic
// weights RN((q - 8) s) times 2^u, element by element (bit for bit in the 16-bit type).
::testing::AssertionResult unit_frag_exact(Half h, uint32_t w, uint16_t sg, uint16_t sg8, uint32_t bg,
                                           uint32_t bg8) {
  const uint32_t s2 = sg | (uint32_t{sg8} << 16), base2 = bg | (bg8 << 16);
  uint32_t S2, C2, frag[4];
  emu::unit_factors(h, emu::unit_t(h, s2, base2), S2, C2);
  emu::cvt_u4_unit_frag16(h, w, S2, C2, frag);
  for (int e = 0; e < 8; ++e) {
    const int rh = row_half16(e);
    const double s = from_h(h, rh ? sg8 : sg), scale_u = unit_of_base(h, rh ? bg8 : bg);
    const double want = from_h(h, to_h(h, static_cast<double>(q_u4_m16(w, e) - 8) * s)) * scale_u;
    const double got = from_h(h, half_of(frag, e));
    if (got != want && !(got == 0 && want == 0)) {
      std::ostringstream m;  // AssertionResult's << does not keep std::hex between items
      m << name(h) << " w 0x" << std::hex << w << " s 0x" << sg << "/0x" << sg8 << " base 0x" << bg << "/0x" << bg8
        << std::dec << " e " << e << ": got " << got << " want " << want;
      return ::testing::AssertionFailure() << m.str();
    }
  }
  return ::testing::AssertionSuccess();
}

// The 16 words with every nibble q, and words whose nibbles differ (the element placement).
std::vector<uint32_t> unit_words() {
  std::vector<uint32_t> v;
  for (uint32_t q = 0; q < 16; ++q) v.push_back(q * 0x11111111u);
  v.push_back(0x76543210u);
  v.push_back(0xFEDCBA98u);
  v.push_back(0x08F17E29u);
  return v;
}

// Calls f(s, base) for every step-th 16-bit pattern s (b = 0, step, 2 step, ...) that is a scale of the
// domain, with the base the kernels move a row to for it from the segment's first base.
template <class F>
void for_domain_scales(Half h, uint32_t step, F&& f) {
  const bool bf = h == Half::kBF16;
  const uint32_t base0 = unit::consts(bf).base0 & 0xFFFFu;
  for (uint32_t b = 0; b < 0x10000u; b += step) {
    const uint16_t s = static_cast<uint16_t>(b);
    if (unit_domain(h, s)) f(s, unit::base_for_scale(bf, s, base0));
  }
}

TEST(ConvertEmulation, UnitFormIsExactAtTheRebasedUnit) {
  // Every scale of the domain, at the unit the kernels move a row to for it (base_for_scale from
  // the segment's first base): inside the window for every normal scale, and exact for all.
  const auto words = unit_words();
  for (Half h : {Half::kF16, Half::kBF16}) {
    const bool bf = h == Half::kBF16;
    int checked = 0;
    for_domain_scales(h, 1, [&](uint16_t s, uint32_t base) {
      if (::testing::Test::HasFailure()) return;  // one report, not one per scale
      const bool normal = (s & (bf ? 0x7F80u : 0x7C00u)) != 0;
      if (normal) {
        EXPECT_TRUE(emu::unit_in_window(h, emu::unit_t(h, s | (uint32_t{s} << 16), base | (base << 16))))
            << name(h) << " s 0x" << std::hex << s << " base 0x" << base;
      }
      // row g+8 takes another scale at its own unit: the halves are independent
      const uint16_t s8 = static_cast<uint16_t>((s * 40503u + 7u) & 0xFFFFu);
      const uint16_t s8d = unit_domain(h, s8) ? s8 : s;
      const uint32_t base8 = unit::base_for_scale(bf, s8d, unit::consts(bf).base0 & 0xFFFFu);
      for (uint32_t w : words) EXPECT_TRUE(unit_frag_exact(h, w, s, s8d, base, base8));
      ++checked;
    });
    EXPECT_GT(checked, bf ? 60000 : 55000) << name(h);
  }
}

TEST(ConvertEmulation, UnitFormWithZeroPointsIsExact) {
  // u4 with zero points: w = RN(q s + zs), zs = RN(-(z s)) as prepack stores it (zs = 0: u4 without
  // them), through the same fma with C = zs 2^u (unit_zero_term), at the rebased unit: every fifth
  // scale of the domain x every z, every q in every position; where every weight of the group is
  // finite (beyond, the semantics' weight is inf and the unit form's finite). Also s = 1 with
  // zs = -z (zero points without group scales).
  const auto words = unit_words();
  for (Half h : {Half::kF16, Half::kBF16}) {
    const bool bf = h == Half::kBF16;
    long checked = 0;
    auto check = [&](uint16_t s, uint32_t base) {
      if (::testing::Test::HasFailure()) return;  // one report, not one per scale
      uint32_t S2, C2;
      emu::unit_factors(h, emu::unit_t(h, s | (uint32_t{s} << 16), base | (base << 16)), S2, C2);
      for (int z = 0; z < 16; ++z) {
        const uint16_t zs = to_h(h, -(z * from_h(h, s)));
        bool finite = std::isfinite(from_h(h, zs));
        for (int q = 0; q < 16 && finite; ++q) finite = std::isfinite(from_h(h, to_h(h, q * from_h(h, s) + from_h(h, zs))));
        if (!finite) continue;
        const uint32_t Z2 = emu::unit_zero_term(h, zs | (uint32_t{zs} << 16), base | (base << 16));
        for (uint32_t w : words) {
          uint32_t frag[4];
          emu::cvt_u4_unit_frag16(h, w, S2, Z2, frag);
          for (int e = 0; e < 8; ++e) {
            const double want =
                from_h(h, to_h(h, q_u4_m16(w, e) * from_h(h, s) + from_h(h, zs))) * unit_of_base(h, base);
            const double got = from_h(h, half_of(frag, e));
            ASSERT_TRUE(got == want || (got == 0 && want == 0))
                << name(h) << " s 0x" << std::hex << s << " zs 0x" << zs << " w 0x" << w << std::dec << " e " << e
                << ": got " << got << " want " << want;
          }
        }
        ++checked;
      }
    };
    for_domain_scales(h, 5, check);
    const uint16_t one = to_h(h, 1.0);
    check(one, unit::base_for_scale(bf, one, unit::consts(bf).base0 & 0xFFFFu));
    EXPECT_GT(checked, 150000) << name(h);
  }
}

TEST(ConvertEmulation, UnitFormIsExactInsideItsWindow) {
  // Wherever the window test passes, at any unit, the fragment is exact: every base the kernels
  // can hold (f16 2^-14..2^11, bf16 2^-117..2^9) against every third (f16) / thirteenth (bf16)
  // scale of the domain.
  const auto words = unit_words();
  for (Half h : {Half::kF16, Half::kBF16}) {
    const bool bf = h == Half::kBF16;
    const int kmin = bf ? -117 : -14, kmax = bf ? 9 : 11, step = bf ? 13 : 3;
    long inside = 0;
    for (int k = kmin; k <= kmax; ++k) {
      const uint32_t base = unit::pow2_bits(bf, k);
      for (uint32_t b = 0; b < 0x10000u; b += step) {
        const uint16_t s = static_cast<uint16_t>(b);
        if (!unit_domain(h, s)) continue;
        if (!emu::unit_in_window(h, emu::unit_t(h, s | (uint32_t{s} << 16), base | (base << 16)))) continue;
        ++inside;
        for (uint32_t w : words) ASSERT_TRUE(unit_frag_exact(h, w, s, s, base, base));
      }
    }
    EXPECT_GT(inside, bf ? 200000 : 100000) << name(h);
  }
}

TEST(ConvertEmulation, UnitFormFactorsArePowersOfTwo) {
  // The rebase factor is 2^(u_new - u_old), the value factor 2^-u, and moving a row then
  // returning it to real values equals returning it from the old unit.
  for (Half h : {Half::kF16, Half::kBF16}) {
    const bool bf = h == Half::kBF16;
    const int kmin = bf ? -117 : -14, kmax = bf ? 9 : 11;
    for (int a = kmin; a <= kmax; ++a) {
      const uint32_t ba = unit::pow2_bits(bf, a);
      ASSERT_EQ(unit_of_base(h, ba), std::ldexp(1.0, a - 9)) << name(h) << " k " << a;
      ASSERT_EQ(emu::unit_value_factor(h, ba << 16, 1), std::ldexp(1.0f, 9 - a)) << name(h) << " k " << a;
      for (int b = kmin; b <= kmax; ++b) {
        const uint32_t bb = unit::pow2_bits(bf, b);
        const float f = std::bit_cast<float>(unit::rebase_factor_bits(bf, bb, ba));
        ASSERT_EQ(f, std::ldexp(1.0f, b - a)) << name(h) << " " << a << " -> " << b;
        ASSERT_EQ(emu::unit_value_factor(h, bb, 0) * f, emu::unit_value_factor(h, ba, 0));
      }
    }
    // a zero scale keeps the row's base (factor 1) whichever half it sits in
    uint32_t base2 = unit::pow2_bits(bf, 3) | (unit::pow2_bits(bf, -2) << 16);
    const uint32_t before = base2;
    EXPECT_EQ(emu::unit_rebase_half(h, 0x80000000u, base2, 1), 1.0f);
    EXPECT_EQ(emu::unit_rebase_half(h, 0x00000000u, base2, 0), 1.0f);
    EXPECT_EQ(base2, before);
  }
}

TEST(ConvertEmulation, UnitFormColumnBookkeeping) {
  // Columns through sequences of groups as the kernels run them: per group the window test on the
  // unit held so far, a rebase of the column's f32 sum when it fails, the group's products
  // a * w' accumulated in f32 in the unit, and the value factor at the end; against the same
  // f32 sums of a * w in real values. Products of two 16-bit floats are exact in f32 and f32
  // rounding commutes with powers of two, so the two agree bit for bit. Scales span 20 binades,
  // with zeros and subnormals (f16), in runs that stay inside a window and jumps that leave it.
  std::mt19937 rng(kSeed + 40);
  for (Half h : {Half::kF16, Half::kBF16}) {
    const bool bf = h == Half::kBF16;
    int rebases = 0;
    for (int col = 0; col < 4000; ++col) {
      uint32_t base2 = unit::consts(bf).base0;
      float acc_u[2] = {0, 0}, acc[2] = {0, 0};
      double centre = std::ldexp(1.0, static_cast<int>(rng() % 20) - (bf ? 14 : 16));
      const int groups = 1 + static_cast<int>(rng() % 12);
      for (int gi = 0; gi < groups; ++gi) {
        uint16_t sv[2];
        for (int r = 0; r < 2; ++r) {
          const uint32_t kind = rng() % 16;
          double s = centre * std::ldexp(1.0 + (rng() % 1000) / 1000.0, static_cast<int>(rng() % 5) - 2);
          if (kind == 0) s = 0;
          if (kind == 1 && !bf) s = std::ldexp(static_cast<double>(1 + rng() % 1023), -24);  // subnormal
          if (kind == 2) centre = std::ldexp(centre, static_cast<int>(rng() % 9) - 4);       // a jump
          if (rng() & 1) s = -s;
          sv[r] = to_h(h, s);
          if (!unit_domain(h, sv[r])) sv[r] = to_h(h, 1.0);
        }
        const uint32_t s2 = sv[0] | (uint32_t{sv[1]} << 16);
        uint32_t t2 = emu::unit_t(h, s2, base2);
        if (!emu::unit_in_window(h, t2)) {
          for (int r = 0; r < 2; ++r) {
            const float f = emu::unit_rebase_half(h, s2, base2, r);
            rebases += f != 1.0f;
            acc_u[r] *= f;
          }
          t2 = emu::unit_t(h, s2, base2);
        }
        uint32_t S2, C2;
        emu::unit_factors(h, t2, S2, C2);
        for (int step = 0; step < 4; ++step) {
          const uint32_t w = rng();
          uint32_t fu[4], fb[4];
          emu::cvt_u4_unit_frag16(h, w, S2, C2, fu);
          emu::cvt_u4b8_frag16(h, w, fb);
          emu::scale_frag16(h, fb, sv[0], sv[1]);
          for (int e = 0; e < 8; ++e) {
            const float a = static_cast<float>(from_h(h, to_h(h, std::ldexp((static_cast<int>(rng() % 2001) - 1000),
                                                                              -static_cast<int>(rng() % 12)))));
            const int r = row_half16(e);
            acc_u[r] += a * static_cast<float>(from_h(h, half_of(fu, e)));
            acc[r] += a * static_cast<float>(from_h(h, half_of(fb, e)));
          }
        }
      }
      for (int r = 0; r < 2; ++r) {
        const float v = acc_u[r] * emu::unit_value_factor(h, base2, r);
        ASSERT_EQ(std::bit_cast<uint32_t>(v), std::bit_cast<uint32_t>(acc[r]))
            << name(h) << " column " << col << " row " << r << ": " << v << " vs " << acc[r];
      }
    }
    EXPECT_GT(rebases, 500) << name(h);  // the sequences exercise the rebase
  }
}

// 8-bit weights with f16 scales (cvt_u8_unit_frag16): byte pairs {lo, hi} with every q in every
// position, and bytes that differ (the element placement).
std::vector<std::pair<uint32_t, uint32_t>> unit_byte_pairs() {
  std::vector<std::pair<uint32_t, uint32_t>> v;
  for (uint32_t q = 0; q < 256; q += 5) v.emplace_back(q * 0x01010101u, (255 - q) * 0x01010101u);
  v.emplace_back(0x03020100u, 0x07060504u);
  v.emplace_back(0x80FF7F00u, 0x017E81FEu);
  return v;
}

// The 8-bit unit-form fragment of {lo, hi} with scales (sg, sg8) at bases (bg, bg8) and C2 (u8b128:
// unit_factors' C; u8: zs 2^u from zs) equals the semantic weights times 2^u: RN((q - 128) s) for
// u8b128, RN(q s + zs) for u8 (zs given: z_of_row >= 0).
::testing::AssertionResult unit8_frag_exact(uint32_t lo, uint32_t hi, uint16_t sg, uint16_t sg8, uint32_t bg,
                                            uint32_t bg8, int zs_g = -1, int zs_g8 = -1) {
  constexpr Half h = Half::kF16;
  const uint32_t s2 = sg | (uint32_t{sg8} << 16), base2 = bg | (bg8 << 16);
  const bool u8 = zs_g >= 0;
  uint32_t S2, C2, frag[4];
  emu::unit_factors(h, emu::unit_t(h, s2, base2), S2, C2, 8);
  if (u8) C2 = emu::unit_zero_term(h, static_cast<uint32_t>(zs_g) | (static_cast<uint32_t>(zs_g8) << 16), base2);
  emu::cvt_u8_unit_frag16(lo, hi, S2, C2, frag);
  const uint64_t both = lo | (uint64_t{hi} << 32);
  for (int e = 0; e < 8; ++e) {
    const int rh = row_half16(e);
    const int q = static_cast<int>((both >> (8 * e)) & 0xFF);
    const double s = from_h(h, rh ? sg8 : sg), scale_u = unit_of_base(h, rh ? bg8 : bg);
    const double w = u8 ? from_h(h, to_h(h, q * s + from_h(h, static_cast<uint16_t>(rh ? zs_g8 : zs_g))))
                        : from_h(h, to_h(h, static_cast<double>(q - 128) * s));
    const double want = w * scale_u, got = from_h(h, half_of(frag, e));
    if (got != want && !(got == 0 && want == 0)) {
      std::ostringstream m;
      m << "u8" << (u8 ? "" : "b128") << " bytes 0x" << std::hex << hi << "_" << lo << " s 0x" << sg << "/0x" << sg8
        << " base 0x" << bg << "/0x" << bg8 << std::dec << " e " << e << ": got " << got << " want " << want;
      return ::testing::AssertionFailure() << m.str();
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(ConvertEmulation, UnitFormEightBitIsExact) {
  // u8b128 with f16 scales: every scale of the 8-bit domain (|s| <= 511.75: 128 |s| stays finite)
  // at the unit the kernels move a row to for it (inside the window for every normal scale), the
  // other row at another scale and unit; and every fourth scale at every base the kernels can hold
  // wherever the window test passes.
  constexpr Half h = Half::kF16;
  const auto pairs = unit_byte_pairs();
  const uint32_t base0 = unit::consts(false, 8).base0 & 0xFFFFu;
  int checked = 0;
  for (uint32_t b = 0; b < 0x10000u; ++b) {
    const uint16_t s = static_cast<uint16_t>(b);
    if (!unit_domain(h, s, 8)) continue;
    const uint32_t base = unit::base_for_scale(false, s, base0);
    if ((s & 0x7C00u) != 0)
      ASSERT_TRUE(emu::unit_in_window(h, emu::unit_t(h, s | (uint32_t{s} << 16), base | (base << 16))))
          << "s 0x" << std::hex << s;
    const uint16_t s8 = static_cast<uint16_t>((s * 40503u + 7u) & 0xFFFFu);
    const uint16_t s8d = unit_domain(h, s8, 8) ? s8 : s;
    const uint32_t base8 = unit::base_for_scale(false, s8d, base0);
    for (auto [lo, hi] : pairs) ASSERT_TRUE(unit8_frag_exact(lo, hi, s, s8d, base, base8));
    ++checked;
  }
  EXPECT_GT(checked, 45000);
  long inside = 0;
  for (int k = -14; k <= 11; ++k) {
    const uint32_t base = unit::pow2_bits(false, k);
    for (uint32_t b = 0; b < 0x10000u; b += 4) {
      const uint16_t s = static_cast<uint16_t>(b);
      if (!unit_domain(h, s, 8)) continue;
      if (!emu::unit_in_window(h, emu::unit_t(h, s | (uint32_t{s} << 16), base | (base << 16)))) continue;
      ++inside;
      for (auto [lo, hi] : pairs) ASSERT_TRUE(unit8_frag_exact(lo, hi, s, s, base, base));
    }
  }
  EXPECT_GT(inside, 50000);
}

TEST(ConvertEmulation, UnitFormEightBitWithZeroPointsIsExact) {
  // u8 with zero points: w = RN(q s + zs), zs = RN(-(z s)) as prepack stores it (0: u8 without them),
  // C = zs 2^u: every seventh f16 scale with finite weights for the z tried (the group's weights all
  // finite), z over 0..255, at the rebased unit.
  constexpr Half h = Half::kF16;
  const auto pairs = unit_byte_pairs();
  const uint32_t base0 = unit::consts(false, 8).base0 & 0xFFFFu;
  long checked = 0;
  for (uint32_t b = 0; b < 0x10000u; b += 7) {
    const uint16_t s = static_cast<uint16_t>(b);
    if ((s & 0x7C00u) == 0x7C00u) continue;
    const uint32_t base = unit::base_for_scale(false, s, base0);
    for (int z : {0, 1, 8, 77, 128, 200, 255}) {
      const uint16_t zs = to_h(h, -(z * from_h(h, s)));
      bool finite = std::isfinite(from_h(h, zs));
      for (int q = 0; q < 256 && finite; ++q) finite = std::isfinite(from_h(h, to_h(h, q * from_h(h, s) + from_h(h, zs))));
      if (!finite) continue;
      for (auto [lo, hi] : pairs) ASSERT_TRUE(unit8_frag_exact(lo, hi, s, s, base, base, zs, zs));
      ++checked;
    }
  }
  EXPECT_GT(checked, 40000);
}

}  // namespace
