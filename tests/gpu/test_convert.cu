// test_convert.cu - the device register converters (src/kernels/convert/*.cuh) equal
// their host emulation (src/layout/convert_emulation.h) bit for bit. Together with
// tests/cpu/test_convert_emulation.cpp (emulation == docs/semantics.md) this pins the
// device converters to the semantics.
//
// Inputs: every value in every nibble/byte position, all 2^16 nibble patterns for the
// 8-bit-MMA converters, every finite f16 (and bf16) scale, plus random words. Outputs
// are pre-filled with a poison pattern so an unwritten slot shows up as a mismatch.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/convert/convert_16bit.cuh"
#include "kernels/convert/convert_8bit.cuh"
#include "core/float_bits.h"
#include "gpu/gpu_test_util.h"
#include "layout/convert_emulation.h"
#include "mixgemm/layout.h"

namespace {

namespace cv = mixgemm::kernels::convert;
namespace emu = mixgemm::emu;
namespace lay = mixgemm::layout;

constexpr uint32_t kSeed = 0x5EED0C0Du;
constexpr uint32_t kPoison = 0xA5A5A5A5u;

// std::mt19937 yields uint_fast32_t (64-bit on Linux); this one yields uint32_t.
struct Rng {
  std::mt19937 g;
  explicit Rng(uint32_t seed) : g(seed) {}
  uint32_t operator()() { return static_cast<uint32_t>(g()); }
};

template <class T>
struct DeviceBuffer {
  T* p = nullptr;
  size_t n = 0;
  explicit DeviceBuffer(size_t count) : n(count) {
    if (cudaMalloc(&p, count * sizeof(T) + 16) != cudaSuccess) p = nullptr;
  }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

// ---- 16-bit MMA fragment converters ----------------------------------------------

enum Mode16 : int { kU4 = 0, kU4B8 = 1, kU8 = 2, kU8B128 = 3 };
enum Post16 : int { kNone = 0, kScale = 1, kScaleZero = 2 };

struct Case16 {
  uint32_t lo, hi;          // weight bits: lo for 4-bit, {lo, hi} for 8-bit
  uint16_t s_g, s_g8;       // scales (T bits)
  uint16_t zs_g, zs_g8;     // prepacked zeros (T bits)
};

template <class T>
__device__ T from_bits(uint16_t b) {
  if constexpr (std::is_same_v<T, __half>) {
    return __ushort_as_half(b);
  } else {
    return __ushort_as_bfloat16(b);
  }
}

template <class T>
__global__ void frag16_kernel(const Case16* cases, size_t n, int mode, int post, uint32_t* out) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const Case16 c = cases[i];
    uint32_t f[4];
    switch (mode) {
      case kU4: cv::cvt_u4_frag16<T>(c.lo, f); break;
      case kU4B8: cv::cvt_u4b8_frag16<T>(c.lo, f); break;
      case kU8: cv::cvt_u8_frag16<T>(make_uint2(c.lo, c.hi), f); break;
      default: cv::cvt_u8b128_frag16<T>(make_uint2(c.lo, c.hi), f); break;
    }
    if (post == kScale) {
      cv::scale_frag16<T>(f, from_bits<T>(c.s_g), from_bits<T>(c.s_g8));
    } else if (post == kScaleZero) {
      cv::scale_zero_frag16<T>(f, from_bits<T>(c.s_g), from_bits<T>(c.s_g8), from_bits<T>(c.zs_g),
                               from_bits<T>(c.zs_g8));
    }
    for (int r = 0; r < 4; ++r) out[4 * i + r] = f[r];
  }
}

void emulate16(emu::Half h, const Case16& c, int mode, int post, uint32_t (&f)[4]) {
  switch (mode) {
    case kU4: emu::cvt_u4_frag16(h, c.lo, f); break;
    case kU4B8: emu::cvt_u4b8_frag16(h, c.lo, f); break;
    case kU8: emu::cvt_u8_frag16(h, c.lo, c.hi, f); break;
    default: emu::cvt_u8b128_frag16(h, c.lo, c.hi, f); break;
  }
  if (post == kScale) emu::scale_frag16(h, f, c.s_g, c.s_g8);
  else if (post == kScaleZero) emu::scale_zero_frag16(h, f, c.s_g, c.s_g8, c.zs_g, c.zs_g8);
}

bool finite16(emu::Half h, uint16_t b) {
  return h == emu::Half::kF16 ? (b & 0x7C00u) != 0x7C00u : (b & 0x7F80u) != 0x7F80u;
}

uint16_t random_finite(emu::Half h, Rng& rng) {
  for (;;) {
    const uint16_t b = static_cast<uint16_t>(rng());
    if (finite16(h, b)) return b;
  }
}

// Words where, over 4 consecutive cases j = 0..3, the four elements of each row take
// q = 4j .. 4j+3: with the same scale in 4 cases every (q, s) pair is covered.
uint32_t covering_word_u4(int j) {
  uint32_t w = 0;
  int seen[2] = {0, 0};
  for (int e = 0; e < 8; ++e) {
    const int row = lay::fragment_coord(lay::kW4M16, 0, e).r >= 8 ? 1 : 0;
    const uint32_t q = static_cast<uint32_t>(4 * j + seen[row]++);
    w |= q << lay::element_bit(lay::kW4M16, e);
  }
  return w;
}

std::vector<Case16> make_cases16(emu::Half h, bool eight_bit) {
  Rng rng(kSeed + (h == emu::Half::kF16 ? 1 : 2) + (eight_bit ? 10 : 0));
  std::vector<Case16> cases;
  auto push = [&](uint32_t lo, uint32_t hi, uint16_t s, uint16_t s8, uint16_t z, uint16_t z8) {
    cases.push_back(Case16{lo, hi, s, s8, z, z8});
  };
  // every finite scale value, in both rows, against all q
  for (uint32_t b = 0; b < 0x10000u; ++b) {
    const uint16_t s = static_cast<uint16_t>(b);
    if (!finite16(h, s)) continue;
    const uint16_t zs = random_finite(h, rng);
    for (int j = 0; j < 4; ++j) {
      if (eight_bit) {
        // random bytes, plus the extreme values 0, 1, 127, 128, 254, 255 in the first case
        uint32_t lo = rng(), hi = rng();
        if (j == 0) { lo = 0xFF80007Fu; hi = 0x017E81FEu; }
        push(lo, hi, s, s, zs, zs);
      } else {
        push(covering_word_u4(j), rng(), s, s, zs, zs);
      }
    }
  }
  // every value in every nibble / byte position
  const uint32_t values = eight_bit ? 256 : 16;
  for (int p = 0; p < 8; ++p)
    for (uint32_t v = 0; v < values; ++v) {
      uint32_t lo = rng(), hi = rng();
      if (eight_bit) {
        uint32_t& w = p < 4 ? lo : hi;
        w = (w & ~(0xFFu << (8 * (p % 4)))) | (v << (8 * (p % 4)));
      } else {
        lo = (lo & ~(0xFu << (4 * p))) | (v << (4 * p));
      }
      push(lo, hi, random_finite(h, rng), random_finite(h, rng), random_finite(h, rng),
           random_finite(h, rng));
    }
  // random everything, with realistic zero points zs = RN(-(z * s)) for a share of them
  for (int i = 0; i < 300000; ++i) {
    Case16 c{rng(), rng(), random_finite(h, rng), random_finite(h, rng), random_finite(h, rng),
             random_finite(h, rng)};
    if (i % 3 == 0) {
      const double zg = rng() % 16u, zg8 = rng() % 16u;
      auto to = [h](double x) { return h == emu::Half::kF16 ? mixgemm::numeric::to_f16(x) : mixgemm::numeric::to_bf16(x); };
      auto from = [h](uint16_t x) { return h == emu::Half::kF16 ? mixgemm::numeric::from_f16(x) : mixgemm::numeric::from_bf16(x); };
      c.zs_g = to(-(zg * from(c.s_g)));
      c.zs_g8 = to(-(zg8 * from(c.s_g8)));
    }
    cases.push_back(c);
  }
  return cases;
}

template <class T>
void run_frag16(emu::Half h, bool eight_bit) {
  const std::vector<Case16> cases = make_cases16(h, eight_bit);
  const size_t n = cases.size();
  DeviceBuffer<Case16> d_cases(n);
  DeviceBuffer<uint32_t> d_out(4 * n);
  ASSERT_NE(d_cases.p, nullptr);
  ASSERT_NE(d_out.p, nullptr);
  MIXGEMM_CUDA_OK(cudaMemcpy(d_cases.p, cases.data(), n * sizeof(Case16), cudaMemcpyHostToDevice));
  std::vector<uint32_t> got(4 * n);
  const int modes[2] = {eight_bit ? kU8 : kU4, eight_bit ? kU8B128 : kU4B8};
  const char* tname = h == emu::Half::kF16 ? "f16" : "bf16";
  for (int mode : modes) {
    for (int post : {kNone, kScale, kScaleZero}) {
      MIXGEMM_CUDA_OK(cudaMemset(d_out.p, 0xA5, 4 * n * sizeof(uint32_t)));
      frag16_kernel<T><<<1024, 256>>>(d_cases.p, n, mode, post, d_out.p);
      MIXGEMM_CUDA_OK(cudaGetLastError());
      MIXGEMM_CUDA_OK(cudaDeviceSynchronize());
      MIXGEMM_CUDA_OK(cudaMemcpy(got.data(), d_out.p, 4 * n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
      size_t bad = 0;
      std::ostringstream first;
      for (size_t i = 0; i < n; ++i) {
        uint32_t want[4];
        emulate16(h, cases[i], mode, post, want);
        for (int r = 0; r < 4; ++r) {
          if (got[4 * i + r] != want[r]) {
            if (bad < 8)
              first << "\n  case " << i << std::hex << " w=0x" << cases[i].hi << "_" << cases[i].lo
                    << " s=0x" << cases[i].s_g << "/0x" << cases[i].s_g8 << " zs=0x" << cases[i].zs_g
                    << "/0x" << cases[i].zs_g8 << " reg " << r << ": device 0x" << got[4 * i + r]
                    << " host 0x" << want[r] << (got[4 * i + r] == kPoison ? " (poison: unwritten)" : "")
                    << std::dec;
            ++bad;
          }
        }
      }
      EXPECT_EQ(bad, 0u) << tname << " mode " << mode << " (0 u4, 1 u4b8, 2 u8, 3 u8b128) post "
                         << post << " (0 none, 1 scale, 2 scale+zero), seed 0x" << std::hex << kSeed
                         << std::dec << ", " << bad << " mismatching registers of " << 4 * n
                         << first.str();
    }
  }
}

TEST(ConvertGpu, U4Frag16F16MatchesEmulation) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  run_frag16<__half>(emu::Half::kF16, false);
}
TEST(ConvertGpu, U4Frag16BF16MatchesEmulation) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  run_frag16<__nv_bfloat16>(emu::Half::kBF16, false);
}
TEST(ConvertGpu, U8Frag16F16MatchesEmulation) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  run_frag16<__half>(emu::Half::kF16, true);
}
TEST(ConvertGpu, U8Frag16BF16MatchesEmulation) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  run_frag16<__nv_bfloat16>(emu::Half::kBF16, true);
}


// ---- the unit form (convert_16bit.cuh): the kernels' sequence for one row pair --------------
// t = s * base; when the window test fails, both rows move to their scales' units (the factors
// 2^(u_new - u_old)) and t is formed again; then S / C, the fragment of one word, and the value
// factors 2^-u. Every output register against the emulation, bit for bit: in particular the
// hardware's fma.rn.{f16,bf16}x2 on the subnormal halves the masked nibbles are, and its HSETP2
// window test. Scales: every one of the domain (docs/design-smallm.md, "The unit form") in row g,
// a random one in row g+8, at the segment's first base and at random bases. 8-bit weights (f16):
// the same sequence with the fragment of the bytes {w, w8} (cvt_u8_unit_frag16) and kF16W8's factors.
struct CaseUnit {
  uint32_t w, s2, base2, zs2;  // zs2: zero terms for unit_zero_term (at the final bases)
  uint32_t w8;                 // 8-bit weights: bytes 4..7 (w holds bytes 0..3)
};
constexpr int kUnitOut = 14;

template <class T, int kWBits>
__global__ void unit_kernel(const CaseUnit* cases, size_t n, uint32_t* out) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const CaseUnit c = cases[i];
    uint32_t base2 = c.base2, t2 = cv::unit_t<T>(c.s2, base2);
    const uint32_t ok = cv::unit_in_window<T>(t2);
    float f0 = 1.0f, f1 = 1.0f;
    if (!ok) {
      f0 = cv::unit_rebase_half<T>(c.s2, base2, 0);
      f1 = cv::unit_rebase_half<T>(c.s2, base2, 1);
      t2 = cv::unit_t<T>(c.s2, base2);
    }
    uint32_t S2, C2, f[4];
    cv::unit_factors<T, kWBits>(t2, S2, C2);
    if constexpr (kWBits == 4) cv::cvt_u4_unit_frag16<T>(c.w, S2, C2, f);
    else cv::cvt_u8_unit_frag16<T>(make_uint2(c.w, c.w8), S2, C2, f);
    uint32_t* o = out + kUnitOut * i;
    for (int r = 0; r < 4; ++r) o[r] = f[r];
    o[4] = t2;
    o[5] = ok;
    o[6] = S2;
    o[7] = C2;
    o[8] = base2;
    o[9] = __float_as_uint(f0);
    o[10] = __float_as_uint(f1);
    o[11] = __float_as_uint(cv::unit_value_factor<T>(base2, 0));
    o[12] = __float_as_uint(cv::unit_value_factor<T>(base2, 1));
    o[13] = cv::unit_zero_term<T>(c.zs2, base2);
  }
}

void emulate_unit(emu::Half h, int wbits, const CaseUnit& c, uint32_t (&o)[kUnitOut]) {
  uint32_t base2 = c.base2, t2 = emu::unit_t(h, c.s2, base2);
  const bool ok = emu::unit_in_window(h, t2);
  float f0 = 1.0f, f1 = 1.0f;
  if (!ok) {
    f0 = emu::unit_rebase_half(h, c.s2, base2, 0);
    f1 = emu::unit_rebase_half(h, c.s2, base2, 1);
    t2 = emu::unit_t(h, c.s2, base2);
  }
  uint32_t S2, C2, f[4];
  emu::unit_factors(h, t2, S2, C2, wbits);
  if (wbits == 4) emu::cvt_u4_unit_frag16(h, c.w, S2, C2, f);
  else emu::cvt_u8_unit_frag16(c.w, c.w8, S2, C2, f);
  for (int r = 0; r < 4; ++r) o[r] = f[r];
  o[4] = t2;
  o[5] = ok ? 1u : 0u;
  o[6] = S2;
  o[7] = C2;
  o[8] = base2;
  auto bits = [](float x) { uint32_t b; std::memcpy(&b, &x, 4); return b; };
  o[9] = bits(f0);
  o[10] = bits(f1);
  o[11] = bits(emu::unit_value_factor(h, base2, 0));
  o[12] = bits(emu::unit_value_factor(h, base2, 1));
  o[13] = emu::unit_zero_term(h, c.zs2, base2);
}


template <class T, int kWBits = 4>
void run_unit(emu::Half h) {
  namespace un = mixgemm::kernels::convert::unit;
  const bool bf = h == emu::Half::kBF16;
  Rng rng(kSeed + (bf ? 41 : 40) + (kWBits == 8 ? 8 : 0));
  auto domain_scale = [&] {
    for (;;) {
      const uint16_t b = static_cast<uint16_t>(rng());
      if (emu::unit_domain(h, b, kWBits)) return b;
    }
  };
  const int kmin = bf ? -117 : -14, kmax = bf ? 9 : 11;
  // prepack's zero terms RN(-(z s)) of both rows for a random z
  auto zero_terms = [&](uint32_t s2) {
    uint32_t zs2 = 0;
    for (int r = 0; r < 2; ++r) {
      const uint16_t sb = static_cast<uint16_t>(s2 >> (16 * r));
      const double sv = bf ? mixgemm::numeric::from_bf16(sb) : mixgemm::numeric::from_f16(sb);
      const double z = rng() % (kWBits == 8 ? 256u : 16u);
      zs2 |= uint32_t{bf ? mixgemm::numeric::to_bf16(-(z * sv)) : mixgemm::numeric::to_f16(-(z * sv))} << (16 * r);
    }
    return zs2;
  };
  auto random_base = [&] { return un::pow2_bits(bf, kmin + static_cast<int>(rng() % uint32_t(kmax - kmin + 1))); };
  std::vector<CaseUnit> cases;
  for (uint32_t b = 0; b < 0x10000u; ++b) {
    const uint16_t sv = static_cast<uint16_t>(b);
    if (!emu::unit_domain(h, sv, kWBits)) continue;
    for (int j = 0; j < 4; ++j) {
      const uint32_t s2 = sv | (uint32_t{domain_scale()} << 16);
      const uint32_t base0 = un::consts(bf, kWBits).base0;
      const uint32_t base2 = j < 2 ? base0 : (random_base() | (random_base() << 16));
      // 8-bit: bytes 0x00 / 0xFF / 0x80 / 0x7F in turn beside random ones (both ends of q - 128)
      const uint32_t w = kWBits == 4 ? covering_word_u4(j) : (rng() & 0x00FFFF00u) | (0xFF807F00u >> (8 * j) & 0xFFu);
      cases.push_back(CaseUnit{w, s2, base2, zero_terms(s2), rng()});
    }
  }
  for (int i = 0; i < 200000; ++i) {
    const uint32_t s2 = domain_scale() | (uint32_t{domain_scale()} << 16);
    cases.push_back(CaseUnit{rng(), s2, random_base() | (random_base() << 16), zero_terms(s2), rng()});
  }
  const size_t n = cases.size();
  DeviceBuffer<CaseUnit> d_cases(n);
  DeviceBuffer<uint32_t> d_out(kUnitOut * n);
  ASSERT_NE(d_cases.p, nullptr);
  ASSERT_NE(d_out.p, nullptr);
  MIXGEMM_CUDA_OK(cudaMemcpy(d_cases.p, cases.data(), n * sizeof(CaseUnit), cudaMemcpyHostToDevice));
  MIXGEMM_CUDA_OK(cudaMemset(d_out.p, 0xA5, kUnitOut * n * sizeof(uint32_t)));
  unit_kernel<T, kWBits><<<1024, 256>>>(d_cases.p, n, d_out.p);
  MIXGEMM_CUDA_OK(cudaGetLastError());
  MIXGEMM_CUDA_OK(cudaDeviceSynchronize());
  std::vector<uint32_t> got(kUnitOut * n);
  MIXGEMM_CUDA_OK(cudaMemcpy(got.data(), d_out.p, got.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  size_t bad = 0, rebased = 0;
  std::ostringstream first;
  for (size_t i = 0; i < n; ++i) {
    uint32_t want[kUnitOut];
    emulate_unit(h, kWBits, cases[i], want);
    rebased += want[5] == 0;
    for (int r = 0; r < kUnitOut; ++r) {
      if (got[kUnitOut * i + r] == want[r]) continue;
      if (bad < 8)
        first << "\n  case " << i << std::hex << " w=0x" << cases[i].w << " s2=0x" << cases[i].s2 << " base2=0x"
              << cases[i].base2 << " out " << std::dec << r << std::hex << ": device 0x" << got[kUnitOut * i + r]
              << " host 0x" << want[r] << (got[kUnitOut * i + r] == kPoison ? " (poison: unwritten)" : "") << std::dec;
      ++bad;
    }
  }
  EXPECT_GT(rebased, n / 8) << "the cases exercise the rebase";
  EXPECT_EQ(bad, 0u) << (bf ? "bf16" : "f16") << " unit form, " << kWBits << "-bit weights, seed 0x" << std::hex << kSeed << std::dec << ", "
                     << bad << " mismatching outputs of " << kUnitOut * n
                     << " (0-3 fragment, 4 t, 5 window, 6 S, 7 C, 8 base, 9-10 rebase, 11-12 value, 13 zero term)" << first.str();
}

TEST(ConvertGpu, UnitFormMatchesEmulation) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  run_unit<__half>(emu::Half::kF16);
  run_unit<__nv_bfloat16>(emu::Half::kBF16);
  run_unit<__half, 8>(emu::Half::kF16);
}
// ---- 8-bit MMA register converters ----------------------------------------------

enum Op8 : int {
  kSpread = 0,
  kMsbMask,
  kS8Bias0,
  kS8Bias8,
  kS8GScale,     // p0 = sg, p1 = zsg
  kS8GScalePre,  // p0 = sg, p1 = zsg (offset computed from it on the host side of the call)
  kU8S8,         // p0 = z
  kE4m3Bias0,
  kE4m3Bias8,
  kE4m3GZero,    // p0 = s (f16 bits), p1 = zs (f16 bits)
  kE4m3GB8,
  kE4m3GB0,
  kLut16,        // tables fixed below
  // kHi: the same converters on nibbles 4..7 (bits [16,32) of x), emulated as cvt(x >> 16)
  kSpreadHi,
  kS8Bias8Hi,
  kS8GScalePreHi,
  kE4m3GB8Hi,
  kE5m2B8,
  kE5m2B8Hi,
  // lut16x8 through tables built by e4m3_gscale_table: row g (nibbles 0..3) with (s, zs) =
  // (p0, p1), row g+8 (nibbles 4..7) with the roles swapped, (p1, p0), so that a table mix-up
  // shows; must equal cvt_u4x4_e4m3_gscale_bias on the same nibbles and scales.
  kE4m3LutB8,      // u4b8: bias 8, no zero
  kE4m3LutB8Hi,
  kE4m3LutZero,    // u4 with zero points
  kE4m3LutZeroHi,
  kE4m3LutB0,      // u4 with scales only: bias 0, no zero
  kE4m3LutB0Hi,
  // The same tables assembled half by half from e4m3_gscale_table_half (the sm90 wide GPTQ
  // kernel's warp-shared build: lane L builds half L & 1 of one row), u4b8 and bias 0.
  kE4m3LutWordB8,
  kE4m3LutWordB8Hi,
  kE4m3LutWordB0,
  kNumOps8
};
const char* kOp8Names[kNumOps8] = {"spread_nibbles", "nibble_msb_mask", "cvt_u4x4_s8(0)",
                                   "cvt_u4x4_s8(8)", "cvt_u4x4_s8_gscale", "cvt_u4x4_s8_gscale_pre",
                                   "cvt_u8x4_s8", "cvt_u4x4_e4m3(0)", "cvt_u4x4_e4m3(8)",
                                   "cvt_u4x4_e4m3_gscale(zero)", "cvt_u4x4_e4m3_gscale(u4b8)",
                                   "cvt_u4x4_e4m3_gscale_bias(0)", "lut16x4", "spread_nibbles<hi>",
                                   "cvt_u4x4_s8<hi>(8)", "cvt_u4x4_s8_gscale_pre<hi>",
                                   "cvt_u4x4_e4m3_gscale_bias<hi>(8)", "cvt_u4x4_e5m2_b8",
                                   "cvt_u4x4_e5m2_b8<hi>", "lut16x8(e4m3 table, u4b8) lo",
                                   "lut16x8(e4m3 table, u4b8) hi", "lut16x8(e4m3 table, zero) lo",
                                   "lut16x8(e4m3 table, zero) hi", "lut16x8(e4m3 table, bias 0) lo",
                                   "lut16x8(e4m3 table, bias 0) hi", "lut16x8(table halves, u4b8) lo",
                                   "lut16x8(table halves, u4b8) hi", "lut16x8(table halves, bias 0) lo"};
constexpr uint32_t kT0 = 0x80FF7F01u, kT1 = 0x12345678u, kT2 = 0x9ABCDEF0u, kT3 = 0x0F1E2D3Cu;

struct Case8 {
  uint32_t x, p0, p1;
};

__global__ void op8_kernel(const Case8* cases, size_t n, int op, uint32_t* out) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const Case8 c = cases[i];
    uint32_t r;
    switch (op) {
      case kSpread: r = cv::spread_nibbles(c.x); break;
      case kMsbMask: r = cv::nibble_msb_mask(c.x); break;
      case kS8Bias0: r = cv::cvt_u4x4_s8(c.x, 0); break;
      case kS8Bias8: r = cv::cvt_u4x4_s8(c.x, 8); break;
      case kS8GScale: r = cv::cvt_u4x4_s8_gscale(c.x, c.p0, c.p1); break;
      case kS8GScalePre: r = cv::cvt_u4x4_s8_gscale_pre(c.x, c.p0, cv::s8_gscale_offset(c.p1)); break;
      case kU8S8: r = cv::cvt_u8x4_s8(c.x, c.p0); break;
      case kE4m3Bias0: r = cv::cvt_u4x4_e4m3(c.x, 0); break;
      case kE4m3Bias8: r = cv::cvt_u4x4_e4m3(c.x, 8); break;
      case kE4m3GZero:
        r = cv::cvt_u4x4_e4m3_gscale(c.x, __ushort_as_half(uint16_t(c.p0)), __ushort_as_half(uint16_t(c.p1)), true);
        break;
      case kE4m3GB8:
        r = cv::cvt_u4x4_e4m3_gscale(c.x, __ushort_as_half(uint16_t(c.p0)), __ushort_as_half(uint16_t(c.p1)), false);
        break;
      case kE4m3GB0:
        r = cv::cvt_u4x4_e4m3_gscale_bias(c.x, __ushort_as_half(uint16_t(c.p0)),
                                          __ushort_as_half(uint16_t(c.p1)), false, 0);
        break;
      case kSpreadHi: r = cv::spread_nibbles<true>(c.x); break;
      case kS8Bias8Hi: r = cv::cvt_u4x4_s8<true>(c.x, 8); break;
      case kS8GScalePreHi: r = cv::cvt_u4x4_s8_gscale_pre<true>(c.x, c.p0, cv::s8_gscale_offset(c.p1)); break;
      case kE4m3GB8Hi:
        r = cv::cvt_u4x4_e4m3_gscale_bias<true>(c.x, __ushort_as_half(uint16_t(c.p0)),
                                                __ushort_as_half(uint16_t(c.p1)), false, 8);
        break;
      case kE5m2B8: r = cv::cvt_u4x4_e5m2_b8(c.x); break;
      case kE5m2B8Hi: r = cv::cvt_u4x4_e5m2_b8<true>(c.x); break;
      case kE4m3LutB8:
      case kE4m3LutB8Hi:
      case kE4m3LutZero:
      case kE4m3LutZeroHi:
      case kE4m3LutB0:
      case kE4m3LutB0Hi: {
        const bool hz = op == kE4m3LutZero || op == kE4m3LutZeroHi;
        const int32_t bias = (op == kE4m3LutB8 || op == kE4m3LutB8Hi) ? 8 : 0;
        const __half a = __ushort_as_half(uint16_t(c.p0)), b = __ushort_as_half(uint16_t(c.p1));
        const uint4 tg = cv::e4m3_gscale_table(a, b, hz, bias);
        const uint4 tg8 = cv::e4m3_gscale_table(b, a, hz, bias);
        uint32_t lo, hi;
        cv::lut16x8(c.x, tg, tg8, lo, hi);
        r = (op == kE4m3LutB8 || op == kE4m3LutZero || op == kE4m3LutB0) ? lo : hi;
        break;
      }
      case kE4m3LutWordB8:
      case kE4m3LutWordB8Hi:
      case kE4m3LutWordB0: {
        const uint32_t a = cv::detail::splat2(__ushort_as_half(uint16_t(c.p0)));
        const uint32_t b = cv::detail::splat2(__ushort_as_half(uint16_t(c.p1)));
        uint32_t ta[4], tb[4];
        for (int h = 0; h < 2; ++h) {
          if (op == kE4m3LutWordB0) {
            cv::e4m3_gscale_table_half<0>(a, h, ta[2 * h], ta[2 * h + 1]);
            cv::e4m3_gscale_table_half<0>(b, h, tb[2 * h], tb[2 * h + 1]);
          } else {
            cv::e4m3_gscale_table_half<8>(a, h, ta[2 * h], ta[2 * h + 1]);
            cv::e4m3_gscale_table_half<8>(b, h, tb[2 * h], tb[2 * h + 1]);
          }
        }
        uint32_t lo, hi;
        cv::lut16x8(c.x, make_uint4(ta[0], ta[1], ta[2], ta[3]), make_uint4(tb[0], tb[1], tb[2], tb[3]), lo, hi);
        r = op == kE4m3LutWordB8Hi ? hi : lo;
        break;
      }
      default: r = cv::lut16x4(c.x, kT0, kT1, kT2, kT3); break;
    }
    out[i] = r;
  }
}

uint32_t emulate8(const Case8& c, int op) {
  switch (op) {
    case kSpread: return emu::spread_nibbles(c.x);
    case kMsbMask: return emu::nibble_msb_mask(c.x);
    case kS8Bias0: return emu::cvt_u4x4_s8(c.x, 0);
    case kS8Bias8: return emu::cvt_u4x4_s8(c.x, 8);
    case kS8GScale: return emu::cvt_u4x4_s8_gscale(c.x, c.p0, c.p1);
    case kS8GScalePre: return emu::cvt_u4x4_s8_gscale_pre(c.x, c.p0, emu::s8_gscale_offset(c.p1));
    case kU8S8: return emu::cvt_u8x4_s8(c.x, c.p0);
    case kE4m3Bias0: return emu::cvt_u4x4_e4m3(c.x, 0);
    case kE4m3Bias8: return emu::cvt_u4x4_e4m3(c.x, 8);
    case kE4m3GZero: return emu::cvt_u4x4_e4m3_gscale(c.x, uint16_t(c.p0), uint16_t(c.p1), true);
    case kE4m3GB8: return emu::cvt_u4x4_e4m3_gscale(c.x, uint16_t(c.p0), uint16_t(c.p1), false);
    case kE4m3GB0: return emu::cvt_u4x4_e4m3_gscale_bias(c.x, uint16_t(c.p0), uint16_t(c.p1), false, 0);
    case kSpreadHi: return emu::spread_nibbles(c.x >> 16);
    case kS8Bias8Hi: return emu::cvt_u4x4_s8(c.x >> 16, 8);
    case kS8GScalePreHi: return emu::cvt_u4x4_s8_gscale_pre(c.x >> 16, c.p0, emu::s8_gscale_offset(c.p1));
    case kE4m3GB8Hi: return emu::cvt_u4x4_e4m3_gscale_bias(c.x >> 16, uint16_t(c.p0), uint16_t(c.p1), false, 8);
    case kE5m2B8: return emu::cvt_u4x4_e5m2_b8(c.x);
    case kE5m2B8Hi: return emu::cvt_u4x4_e5m2_b8(c.x >> 16);
    case kE4m3LutB8: return emu::cvt_u4x4_e4m3_gscale_bias(c.x, uint16_t(c.p0), uint16_t(c.p1), false, 8);
    case kE4m3LutB8Hi: return emu::cvt_u4x4_e4m3_gscale_bias(c.x >> 16, uint16_t(c.p1), uint16_t(c.p0), false, 8);
    case kE4m3LutZero: return emu::cvt_u4x4_e4m3_gscale_bias(c.x, uint16_t(c.p0), uint16_t(c.p1), true, 0);
    case kE4m3LutZeroHi: return emu::cvt_u4x4_e4m3_gscale_bias(c.x >> 16, uint16_t(c.p1), uint16_t(c.p0), true, 0);
    case kE4m3LutB0: return emu::cvt_u4x4_e4m3_gscale_bias(c.x, uint16_t(c.p0), uint16_t(c.p1), false, 0);
    case kE4m3LutB0Hi: return emu::cvt_u4x4_e4m3_gscale_bias(c.x >> 16, uint16_t(c.p1), uint16_t(c.p0), false, 0);
    case kE4m3LutWordB8: return emu::cvt_u4x4_e4m3_gscale_bias(c.x, uint16_t(c.p0), uint16_t(c.p1), false, 8);
    case kE4m3LutWordB8Hi: return emu::cvt_u4x4_e4m3_gscale_bias(c.x >> 16, uint16_t(c.p1), uint16_t(c.p0), false, 8);
    case kE4m3LutWordB0: return emu::cvt_u4x4_e4m3_gscale_bias(c.x, uint16_t(c.p0), uint16_t(c.p1), false, 0);
    default: return emu::lut16x4(c.x, kT0, kT1, kT2, kT3);
  }
}

std::vector<Case8> make_cases8(int op) {
  // The kHi ops take their base op's cases with the two halves of x swapped: every nibble
  // pattern the base op sees in bits [0,16) reaches them in bits [16,32).
  const int base = op == kSpreadHi        ? kSpread
                   : op == kS8Bias8Hi     ? kS8Bias8
                   : op == kS8GScalePreHi ? kS8GScalePre
                   : op == kE4m3GB8Hi     ? kE4m3GB8
                   : op == kE5m2B8Hi      ? kE5m2B8
                                          : op;
  if (base != op) {
    std::vector<Case8> cases = make_cases8(base);
    for (Case8& c : cases) c.x = (c.x << 16) | (c.x >> 16);
    return cases;
  }
  Rng rng(kSeed + 100 + op);
  std::vector<Case8> cases;
  const bool gscale_s8 = op == kS8GScale || op == kS8GScalePre;
  const bool gscale_e4m3 = op == kE4m3GZero || op == kE4m3GB8 || op == kE4m3GB0 || op == kE4m3LutB8 ||
                           op == kE4m3LutB8Hi || op == kE4m3LutZero || op == kE4m3LutZeroHi ||
                           op == kE4m3LutB0 || op == kE4m3LutB0Hi || op == kE4m3LutWordB8 ||
                           op == kE4m3LutWordB8Hi || op == kE4m3LutWordB0;
  if (gscale_s8) {
    // all nibble patterns x sg 0..17 x a few zsg (device == host for any input, valid or not)
    for (uint32_t sg = 0; sg <= 17; ++sg)
      for (uint32_t zsg : {0u, 8u * sg, 255u, static_cast<uint32_t>(rng() % 256)})
        for (uint32_t n = 0; n < 0x10000u; ++n) cases.push_back({n | (rng() << 16), sg, zsg});
  } else if (gscale_e4m3) {
    // every finite f16 scale x random nibbles, and all nibble patterns x a few scales
    for (uint32_t s = 0; s < 0x10000u; ++s) {
      if ((s & 0x7C00u) == 0x7C00u) continue;
      for (int rep = 0; rep < 4; ++rep) {
        uint32_t zs;
        do { zs = rng() & 0xFFFFu; } while ((zs & 0x7C00u) == 0x7C00u);
        cases.push_back({rng(), s, zs});
      }
    }
    for (uint32_t s : {0x3C00u, 0x2E66u, 0xB800u, 0x5BD0u, 0x0001u})
      for (uint32_t n = 0; n < 0x10000u; ++n) cases.push_back({n | (rng() << 16), s, 0xC400u});
  } else if (op == kU8S8) {
    for (int i = 0; i < 1 << 20; ++i) cases.push_back({rng(), (i & 1) ? 128u : rng() % 256, 0});
  } else {
    for (uint32_t n = 0; n < 0x10000u; ++n)
      for (int rep = 0; rep < 4; ++rep) cases.push_back({n | (rng() << 16), 0, 0});
  }
  return cases;
}

TEST(ConvertGpu, EightBitConvertersMatchEmulation) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  for (int op = 0; op < kNumOps8; ++op) {
    const std::vector<Case8> cases = make_cases8(op);
    const size_t n = cases.size();
    DeviceBuffer<Case8> d_cases(n);
    DeviceBuffer<uint32_t> d_out(n);
    ASSERT_NE(d_cases.p, nullptr);
    ASSERT_NE(d_out.p, nullptr);
    MIXGEMM_CUDA_OK(cudaMemcpy(d_cases.p, cases.data(), n * sizeof(Case8), cudaMemcpyHostToDevice));
    MIXGEMM_CUDA_OK(cudaMemset(d_out.p, 0xA5, n * sizeof(uint32_t)));
    op8_kernel<<<1024, 256>>>(d_cases.p, n, op, d_out.p);
    MIXGEMM_CUDA_OK(cudaGetLastError());
    MIXGEMM_CUDA_OK(cudaDeviceSynchronize());
    std::vector<uint32_t> got(n);
    MIXGEMM_CUDA_OK(cudaMemcpy(got.data(), d_out.p, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    size_t bad = 0;
    std::ostringstream first;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t want = emulate8(cases[i], op);
      if (got[i] != want) {
        if (bad < 8)
          first << "\n  case " << i << std::hex << " x=0x" << cases[i].x << " p0=0x" << cases[i].p0
                << " p1=0x" << cases[i].p1 << ": device 0x" << got[i] << " host 0x" << want
                << (got[i] == kPoison ? " (poison: unwritten)" : "") << std::dec;
        ++bad;
      }
    }
    EXPECT_EQ(bad, 0u) << kOp8Names[op] << ": " << bad << " of " << n << " mismatch, seed 0x"
                       << std::hex << kSeed + 100 + op << std::dec << first.str();
  }
}

}  // namespace
