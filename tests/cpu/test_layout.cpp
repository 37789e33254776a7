// test_layout.cpp - the prepacked layout (include/mixgemm/layout.h, docs/layout.md) and
// the CPU prepack / unpack / zero-point preparation (src/layout/prepack_cpu.cpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "core/float_bits.h"
#include "layout/convert_emulation.h"
#include "mixgemm/error.h"
#include "mixgemm/layout.h"
#include "mixgemm/prepack.h"
#include "mixgemm/scalar_type.h"

namespace {

namespace lay = mixgemm::layout;
namespace ty = mixgemm::types;
using mixgemm::ScalarType;
using mixgemm::WeightFormat;

constexpr uint32_t kSeed = 0x1A7017u;
constexpr lay::Kind kKinds[4] = {lay::kW4M16, lay::kW8M16, lay::kW4M8, lay::kW8M8};

std::string kind_name(lay::Kind k) {
  return "W" + std::to_string(k.weight_bits) + "M" + std::to_string(k.mma_bits);
}

// A (b_type, a_type) pair that selects each kind (W8M8 is not served by prepack).
struct TypePair {
  ScalarType b, a;
};
const TypePair kPairs[] = {
    {ty::u4b8, ty::f16}, {ty::u4, ty::bf16}, {ty::u8b128, ty::f16}, {ty::u8, ty::bf16},
    {ty::u4b8, ty::s8},  {ty::u4, ty::e4m3},
};
lay::Kind kind_of(TypePair p) {
  return lay::Kind{p.b.size_bits(), (p.a == ty::f16 || p.a == ty::bf16) ? 16 : 8};
}

std::vector<uint8_t> random_q(int64_t K, int64_t N, int bits, std::mt19937& rng) {
  std::vector<uint8_t> q(static_cast<size_t>(K * N));
  for (auto& v : q) v = static_cast<uint8_t>(rng() & ((1u << bits) - 1));
  return q;
}

// ---- the index map ----------------------------------------------------------------

TEST(Layout, KindTable) {
  // the table at the top of layout.h
  EXPECT_EQ(lay::kW4M16.block_k(), 64);
  EXPECT_EQ(lay::kW4M16.ksteps(), 4);
  EXPECT_EQ(lay::kW4M16.bytes_per_kstep(), 4);
  EXPECT_EQ(lay::kW8M16.block_k(), 32);
  EXPECT_EQ(lay::kW8M16.ksteps(), 2);
  EXPECT_EQ(lay::kW8M16.bytes_per_kstep(), 8);
  EXPECT_EQ(lay::kW4M8.block_k(), 64);
  EXPECT_EQ(lay::kW4M8.ksteps(), 2);
  EXPECT_EQ(lay::kW4M8.bytes_per_kstep(), 8);
  EXPECT_EQ(lay::kW8M8.block_k(), 32);
  EXPECT_EQ(lay::kW8M8.ksteps(), 1);
  EXPECT_EQ(lay::kW8M8.bytes_per_kstep(), 16);
  for (lay::Kind k : kKinds) {
    // a block is exactly 512 bytes: 16 rows x block_k weights
    EXPECT_EQ(16 * k.block_k() * k.weight_bits / 8, lay::kBlockBytes) << kind_name(k);
    // a k-step's elements exactly fill its bytes
    EXPECT_EQ(k.elems_per_kstep() * k.weight_bits, 8 * k.bytes_per_kstep()) << kind_name(k);
  }
}

TEST(Layout, FragmentSlotAndCoordAreInverse) {
  for (lay::Kind k : kKinds) {
    const int rows = 16, cols = k.mma_k();
    std::vector<int> seen(32 * k.elems_per_kstep(), 0);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const lay::FragmentSlot s = lay::fragment_slot(k, r, c);
        ASSERT_GE(s.lane, 0);
        ASSERT_LT(s.lane, 32);
        ASSERT_GE(s.elem, 0);
        ASSERT_LT(s.elem, k.elems_per_kstep());
        ++seen[s.lane * k.elems_per_kstep() + s.elem];
        const lay::TileCoord t = lay::fragment_coord(k, s.lane, s.elem);
        ASSERT_EQ(t.r, r) << kind_name(k);
        ASSERT_EQ(t.c, c) << kind_name(k);
      }
    for (int v : seen) ASSERT_EQ(v, 1) << kind_name(k) << ": fragment_slot is not a bijection";
    for (int lane = 0; lane < 32; ++lane)
      for (int e = 0; e < k.elems_per_kstep(); ++e) {
        const lay::TileCoord t = lay::fragment_coord(k, lane, e);
        const lay::FragmentSlot s = lay::fragment_slot(k, t.r, t.c);
        ASSERT_EQ(s.lane, lane);
        ASSERT_EQ(s.elem, e);
      }
  }
}

TEST(Layout, FragmentMatchesPtxTables) {
  // mma.sync.m16n8k16 A (16-bit): a0,a1: (g, 2t+i); a2,a3: (g+8, 2t+i); a4,a5: (g, 2t+8+i);
  // a6,a7: (g+8, 2t+8+i). m16n8k32 A (8-bit): a0..a3: (g, 4t+i); a4..a7: (g+8, 4t+i);
  // a8..a11: (g, 16+4t+i); a12..a15: (g+8, 16+4t+i).
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane / 4, t = lane % 4;
    for (int e = 0; e < 8; ++e) {
      const int row = g + 8 * ((e / 2) % 2), col = 2 * t + (e % 2) + 8 * (e / 4);
      const lay::TileCoord c = lay::fragment_coord(lay::kW4M16, lane, e);
      EXPECT_EQ(c.r, row);
      EXPECT_EQ(c.c, col);
    }
    for (int e = 0; e < 16; ++e) {
      const int row = g + 8 * ((e / 4) % 2), col = 4 * t + (e % 4) + 16 * (e / 8);
      const lay::TileCoord c = lay::fragment_coord(lay::kW4M8, lane, e);
      EXPECT_EQ(c.r, row);
      EXPECT_EQ(c.c, col);
    }
  }
}

TEST(Layout, PositionIsABijectionOntoTheBuffer) {
  const std::pair<int64_t, int64_t> shapes[] = {{1, 1}, {2, 1}, {1, 3}, {3, 2}, {4, 4}, {2, 7}};
  for (lay::Kind k : kKinds) {
    for (auto [kblocks, nblocks] : shapes) {
      const int64_t K = kblocks * k.block_k(), N = nblocks * 16;
      const int64_t bytes = lay::prepacked_bytes(k, K, N);
      ASSERT_EQ(bytes, kblocks * nblocks * 512);
      const int per_byte = 8 / k.weight_bits;
      std::vector<int> hits(static_cast<size_t>(bytes * per_byte), 0);
      for (int64_t kk = 0; kk < K; ++kk)
        for (int64_t n = 0; n < N; ++n) {
          const lay::Position p = lay::position(k, N, kk, n);
          ASSERT_GE(p.byte, 0);
          ASSERT_LT(p.byte, bytes) << kind_name(k) << " k=" << kk << " n=" << n;
          ASSERT_TRUE(p.shift == 0 || (k.weight_bits == 4 && p.shift == 4));
          ++hits[static_cast<size_t>(p.byte * per_byte + p.shift / 4)];
        }
      for (size_t i = 0; i < hits.size(); ++i)
        ASSERT_EQ(hits[i], 1) << kind_name(k) << " K=" << K << " N=" << N << " slot " << i;
    }
  }
}

TEST(Layout, BlocksAreKBlockMajorAndLanesOwn16Bytes) {
  for (lay::Kind k : kKinds) {
    const int64_t K = 3 * k.block_k(), N = 5 * 16;
    for (int64_t kk = 0; kk < K; ++kk)
      for (int64_t n = 0; n < N; ++n) {
        const lay::Position p = lay::position(k, N, kk, n);
        const int64_t block = p.byte / 512;
        EXPECT_EQ(block, (kk / k.block_k()) * (N / 16) + n / 16);
        const int kin = static_cast<int>(kk % k.block_k());
        const int step = kin / k.mma_k();
        const int lane = static_cast<int>((p.byte % 512) / 16);
        const int in_lane = static_cast<int>(p.byte % 16);
        EXPECT_EQ(lane, lay::fragment_slot(k, static_cast<int>(n % 16), kin % k.mma_k()).lane);
        EXPECT_EQ(in_lane / k.bytes_per_kstep(), step);  // k-step s in bytes [s*B, (s+1)*B)
      }
  }
}

// docs/layout.md, "Worked example": a 128 x 32 (K x N) u4b8 matrix for f16 activations.
TEST(Layout, WorkedExampleFromDocs) {
  // (k=70, n=21): k-block 1, n-block 1 -> block 1*2+1 = 3 (byte 1536); k in block 6 -> k-step 0,
  // column 6; row 5 -> g=5, t=3 -> lane 23 (byte 1536+368 = 1904); element 0 -> nibble 0.
  const lay::Position a = lay::position(lay::kW4M16, 32, 70, 21);
  EXPECT_EQ(a.byte, 1904);
  EXPECT_EQ(a.shift, 0);
  // (k=91, n=30): block 3; k in block 27 -> k-step 1 (bytes 4..7 of the lane), column 11;
  // row 14 -> g=6, row g+8, t=1 -> lane 25 (byte 1936); element 7 -> nibble 7 of the
  // k-step's word = bit 28 + 32 = byte 7 of the lane, high nibble: byte 1943, shift 4.
  const lay::Position b = lay::position(lay::kW4M16, 32, 91, 30);
  EXPECT_EQ(b.byte, 1943);
  EXPECT_EQ(b.shift, 4);
  // And through prepack_cpu: a matrix that is 8 (value 0) everywhere except those two weights.
  std::vector<uint8_t> q(128 * 32, 8);
  q[70 * 32 + 21] = 0xB;
  q[91 * 32 + 30] = 0x3;
  std::vector<uint8_t> packed(mixgemm::prepacked_size(128, 32, ty::u4b8));
  ASSERT_EQ(packed.size(), 2048u);
  mixgemm::prepack_cpu(q.data(), WeightFormat::kUnpacked, 128, 32, ty::u4b8, ty::f16, packed.data());
  EXPECT_EQ(packed[1904], 0x8B);
  EXPECT_EQ(packed[1943], 0x38);
  int others = 0;
  for (size_t i = 0; i < packed.size(); ++i)
    if (i != 1904 && i != 1943 && packed[i] != 0x88) ++others;
  EXPECT_EQ(others, 0);
}

// ---- prepack / unpack ----------------------------------------------------------------

TEST(Prepack, RoundTripsOnManyShapes) {
  std::mt19937 rng(kSeed);
  const std::pair<int64_t, int64_t> shapes[] = {{64, 16},  {64, 32},   {128, 16},  {192, 48},
                                                {256, 128}, {640, 80}, {1024, 256}, {64, 4096}};
  for (const TypePair& tp : kPairs) {
    const lay::Kind k = kind_of(tp);
    for (auto [K, N] : shapes) {
      if (K % k.block_k()) continue;
      const auto q = random_q(K, N, k.weight_bits, rng);
      std::vector<uint8_t> packed(mixgemm::prepacked_size(K, N, tp.b), 0xCD), back(q.size(), 0xEE);
      mixgemm::prepack_cpu(q.data(), WeightFormat::kUnpacked, K, N, tp.b, tp.a, packed.data());
      mixgemm::unpack_cpu(packed.data(), K, N, tp.b, tp.a, back.data());
      ASSERT_EQ(back, q) << tp.b.name() << "/" << tp.a.name() << " K=" << K << " N=" << N << " seed " << kSeed;
      // every weight where position() says
      for (int i = 0; i < 200; ++i) {
        const int64_t kk = rng() % K, n = rng() % N;
        const lay::Position p = lay::position(k, N, kk, n);
        ASSERT_EQ((packed[p.byte] >> p.shift) & ((1 << k.weight_bits) - 1), q[kk * N + n]);
      }
    }
  }
  // a larger one through the threaded path
  const int64_t K = 4096, N = 2048;
  const auto q = random_q(K, N, 4, rng);
  std::vector<uint8_t> packed(mixgemm::prepacked_size(K, N, ty::u4)), back(q.size());
  mixgemm::prepack_cpu(q.data(), WeightFormat::kUnpacked, K, N, ty::u4, ty::s8, packed.data());
  mixgemm::unpack_cpu(packed.data(), K, N, ty::u4, ty::s8, back.data());
  ASSERT_EQ(back, q);
}

// GPTQ: int32 qweight[K/8][N], q(k,n) = nibble k%8 of qweight[k/8][n].
std::vector<int32_t> pack_gptq(const std::vector<uint8_t>& q, int64_t K, int64_t N) {
  std::vector<int32_t> out(static_cast<size_t>(K / 8 * N), 0);
  for (int64_t k = 0; k < K; ++k)
    for (int64_t n = 0; n < N; ++n) {
      uint32_t& w = reinterpret_cast<uint32_t&>(out[(k / 8) * N + n]);
      w |= uint32_t{q[k * N + n]} << (4 * (k % 8));
    }
  return out;
}

// AWQ: int32 qweight[K][N/8]; AWQ packs column order_map[i] = {0,2,4,6,1,3,5,7}[i] into nibble i.
std::vector<int32_t> pack_awq(const std::vector<uint8_t>& q, int64_t K, int64_t N) {
  const int order_map[8] = {0, 2, 4, 6, 1, 3, 5, 7};
  std::vector<int32_t> out(static_cast<size_t>(K * N / 8), 0);
  for (int64_t k = 0; k < K; ++k)
    for (int64_t c = 0; c < N / 8; ++c) {
      uint32_t w = 0;
      for (int i = 0; i < 8; ++i) w |= uint32_t{q[k * N + c * 8 + order_map[i]]} << (4 * i);
      out[k * (N / 8) + c] = static_cast<int32_t>(w);
    }
  return out;
}

TEST(Prepack, GptqAndAwqAgreeWithUnpacked) {
  std::mt19937 rng(kSeed + 1);
  const std::pair<int64_t, int64_t> shapes[] = {{64, 16}, {128, 48}, {256, 64}, {512, 272}};
  for (const TypePair& tp : kPairs) {
    if (tp.b.size_bits() != 4) continue;
    for (auto [K, N] : shapes) {
      const auto q = random_q(K, N, 4, rng);
      const size_t bytes = mixgemm::prepacked_size(K, N, tp.b);
      std::vector<uint8_t> ref(bytes), gptq(bytes, 0x11), awq(bytes, 0x22);
      mixgemm::prepack_cpu(q.data(), WeightFormat::kUnpacked, K, N, tp.b, tp.a, ref.data());
      const auto g = pack_gptq(q, K, N);
      const auto a = pack_awq(q, K, N);
      mixgemm::prepack_cpu(g.data(), WeightFormat::kGptq, K, N, tp.b, tp.a, gptq.data());
      mixgemm::prepack_cpu(a.data(), WeightFormat::kAwq, K, N, tp.b, tp.a, awq.data());
      ASSERT_EQ(gptq, ref) << "GPTQ " << tp.b.name() << "/" << tp.a.name() << " K=" << K << " N=" << N;
      ASSERT_EQ(awq, ref) << "AWQ " << tp.b.name() << "/" << tp.a.name() << " K=" << K << " N=" << N;
    }
  }
  // prepack.h's statement of AWQ's nibble order: column j sits at nibble {0,4,1,5,2,6,3,7}[j]
  std::vector<uint8_t> q(64 * 16, 0);
  for (int j = 0; j < 8; ++j) q[j] = static_cast<uint8_t>(j + 1);  // row k=0, columns 0..7
  const auto a = pack_awq(q, 64, 16);
  EXPECT_EQ(static_cast<uint32_t>(a[0]), 0x86427531u);
}

// The layout feeds the converters: each lane's k-step bytes, converted, is the MMA fragment
// of W^T (row = n, column = k) that layout.h's table describes.
TEST(Prepack, LaneFragmentsConvertToTheMmaFragment) {
  std::mt19937 rng(kSeed + 2);
  const int64_t K = 128, N = 32;
  for (int bits : {4, 8}) {
    for (int mma : {16, 8}) {
      if (bits == 8 && mma == 8) continue;
      const lay::Kind kind{bits, mma};
      const ScalarType b = bits == 4 ? ty::u4b8 : ty::u8b128;
      const ScalarType a = mma == 16 ? ty::f16 : ty::s8;
      const auto q = random_q(K, N, bits, rng);
      std::vector<uint8_t> packed(mixgemm::prepacked_size(K, N, b));
      mixgemm::prepack_cpu(q.data(), WeightFormat::kUnpacked, K, N, b, a, packed.data());
      for (int64_t kb = 0; kb < K / kind.block_k(); ++kb)
        for (int64_t nb = 0; nb < N / 16; ++nb)
          for (int lane = 0; lane < 32; ++lane) {
            const uint8_t* lp = packed.data() + (kb * (N / 16) + nb) * 512 + lane * 16;
            for (int s = 0; s < kind.ksteps(); ++s) {
              const uint8_t* sp = lp + s * kind.bytes_per_kstep();
              auto want = [&](int e) {
                const lay::TileCoord c = lay::fragment_coord(kind, lane, e);
                const int64_t k = kb * kind.block_k() + s * kind.mma_k() + c.c, n = nb * 16 + c.r;
                return static_cast<int>(q[k * N + n]) - (bits == 4 ? 8 : 128);
              };
              if (mma == 16) {
                uint32_t frag[4];
                uint32_t w0, w1 = 0;
                std::memcpy(&w0, sp, 4);
                if (bits == 4) {
                  mixgemm::emu::cvt_u4b8_frag16(mixgemm::emu::Half::kF16, w0, frag);
                } else {
                  std::memcpy(&w1, sp + 4, 4);
                  mixgemm::emu::cvt_u8b128_frag16(mixgemm::emu::Half::kF16, w0, w1, frag);
                }
                for (int e = 0; e < 8; ++e) {
                  const uint16_t h = static_cast<uint16_t>(frag[e / 2] >> (16 * (e % 2)));
                  ASSERT_EQ(mixgemm::numeric::from_f16(h), want(e)) << "bits " << bits << " lane " << lane << " e " << e;
                }
              } else {
                uint32_t w[2];
                std::memcpy(w, sp, 8);
                const uint32_t regs[4] = {mixgemm::emu::cvt_u4x4_s8(w[0], 8), mixgemm::emu::cvt_u4x4_s8(w[0] >> 16, 8),
                                          mixgemm::emu::cvt_u4x4_s8(w[1], 8), mixgemm::emu::cvt_u4x4_s8(w[1] >> 16, 8)};
                for (int e = 0; e < 16; ++e) {
                  const int v = static_cast<int8_t>(static_cast<uint8_t>(regs[e / 4] >> (8 * (e % 4))));
                  ASSERT_EQ(v, want(e)) << "lane " << lane << " e " << e;
                }
              }
            }
          }
    }
  }
}

// ---- sizes, shapes, errors --------------------------------------------------------------

TEST(Prepack, Sizes) {
  EXPECT_EQ(mixgemm::prepacked_size(4096, 4096, ty::u4b8), 4096u * 4096 / 2);
  EXPECT_EQ(mixgemm::prepacked_size(4096, 4096, ty::u4), 4096u * 4096 / 2);
  EXPECT_EQ(mixgemm::prepacked_size(4096, 4096, ty::u8b128), 4096u * 4096);
  EXPECT_EQ(mixgemm::prepacked_size(21760, 8192, ty::u8), 21760u * 8192);
  EXPECT_EQ(mixgemm::prepacked_size(0, 16, ty::u4), 0u);
}

// Expects fn to throw mixgemm::Error with `code` and a message containing every `parts`.
void expect_error(const std::function<void()>& fn, mixgemm::ErrorCode code,
                  std::vector<std::string> parts) {
  try {
    fn();
    ADD_FAILURE() << "no error thrown; expected one mentioning " << parts.at(0);
  } catch (const mixgemm::Error& e) {
    EXPECT_EQ(static_cast<int>(e.code()), static_cast<int>(code)) << e.what();
    for (const auto& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos)
        << "message '" << e.what() << "' lacks '" << p << "'";
  }
}

TEST(Prepack, ShapeAndTypeErrors) {
  using mixgemm::ErrorCode;
  using mixgemm::check_prepack_shape;
  EXPECT_NO_THROW(check_prepack_shape(64, 16, ty::u4b8, ty::f16));
  EXPECT_NO_THROW(check_prepack_shape(32, 16, ty::u8b128, ty::bf16));
  EXPECT_NO_THROW(check_prepack_shape(21760, 8192, ty::u4, ty::e4m3));
  expect_error([] { check_prepack_shape(64, 24, ty::u4b8, ty::f16); }, ErrorCode::kInvalidArgument,
               {"check_prepack_shape", "N=24", "multiple of 16", "pad N up to 32"});
  expect_error([] { check_prepack_shape(96, 16, ty::u4b8, ty::f16); }, ErrorCode::kInvalidArgument,
               {"K=96", "multiple of 64", "pad K up to 128"});
  expect_error([] { check_prepack_shape(48, 16, ty::u8, ty::f16); }, ErrorCode::kInvalidArgument,
               {"K=48", "multiple of 32", "pad K up to 64"});
  EXPECT_NO_THROW(check_prepack_shape(96, 16, ty::u8, ty::f16));
  expect_error([] { check_prepack_shape(0, 16, ty::u4, ty::f16); }, ErrorCode::kInvalidArgument, {"K=0"});
  expect_error([] { check_prepack_shape(64, -16, ty::u4, ty::f16); }, ErrorCode::kInvalidArgument, {"N=-16"});
  expect_error([] { check_prepack_shape(64, 16, ty::s8, ty::f16); }, ErrorCode::kInvalidArgument,
               {"b_type=s8", "u4b8, u4, u8b128, u8"});
  expect_error([] { check_prepack_shape(64, 16, ty::f16, ty::f16); }, ErrorCode::kInvalidArgument, {"b_type=f16"});
  expect_error([] { check_prepack_shape(64, 16, ty::u4b8, ty::u4); }, ErrorCode::kInvalidArgument,
               {"a_type=u4", "f16, bf16", "s8, e4m3"});
  expect_error([] { check_prepack_shape(64, 16, ty::u4b8, ty::f32); }, ErrorCode::kInvalidArgument, {"a_type=f32"});
  expect_error([] { check_prepack_shape(64, 16, ty::u8b128, ty::s8); }, ErrorCode::kNotSupported,
               {"b_type=u8b128", "a_type=s8", "u4b8 and u4"});
  expect_error([] { check_prepack_shape(64, 16, ty::u8, ty::e4m3); }, ErrorCode::kNotSupported, {"a_type=e4m3"});
  expect_error([] { (void)mixgemm::prepacked_size(64, 16, ty::s8); }, ErrorCode::kInvalidArgument,
               {"prepacked_size", "b_type=s8"});
  expect_error([] { (void)mixgemm::prepacked_size(-1, 16, ty::u4); }, ErrorCode::kInvalidArgument, {"K=-1"});
}

TEST(Prepack, ArgumentErrorsWriteNothing) {
  using mixgemm::ErrorCode;
  std::vector<uint8_t> q(64 * 16, 3), dst(512, 0x5A);
  auto untouched = [&] {
    for (uint8_t v : dst) if (v != 0x5A) return false;
    return true;
  };
  expect_error([&] { mixgemm::prepack_cpu(nullptr, WeightFormat::kUnpacked, 64, 16, ty::u4, ty::f16, dst.data()); },
               ErrorCode::kInvalidArgument, {"prepack_cpu", "src is null"});
  expect_error([&] { mixgemm::prepack_cpu(q.data(), WeightFormat::kUnpacked, 64, 16, ty::u4, ty::f16, nullptr); },
               ErrorCode::kInvalidArgument, {"dst is null", "512 bytes"});
  expect_error([&] { mixgemm::prepack_cpu(q.data(), WeightFormat::kGptq, 32, 16, ty::u8, ty::f16, dst.data()); },
               ErrorCode::kInvalidArgument, {"format=kGptq", "b_type=u8", "kUnpacked"});
  expect_error([&] { mixgemm::prepack_cpu(q.data(), WeightFormat::kAwq, 32, 16, ty::u8b128, ty::f16, dst.data()); },
               ErrorCode::kInvalidArgument, {"format=kAwq"});
  expect_error([&] { mixgemm::prepack_cpu(q.data(), static_cast<WeightFormat>(7), 64, 16, ty::u4, ty::f16, dst.data()); },
               ErrorCode::kInvalidArgument, {"format=7", "kUnpacked, kGptq, kAwq"});
  expect_error([&] { mixgemm::prepack_cpu(q.data(), WeightFormat::kUnpacked, 64, 20, ty::u4, ty::f16, dst.data()); },
               ErrorCode::kInvalidArgument, {"prepack_cpu", "N=20"});
  q[5 * 16 + 9] = 16;
  expect_error([&] { mixgemm::prepack_cpu(q.data(), WeightFormat::kUnpacked, 64, 16, ty::u4b8, ty::s8, dst.data()); },
               ErrorCode::kInvalidArgument, {"src[5][9]=16", "0..15"});
  EXPECT_TRUE(untouched());
  expect_error([&] { mixgemm::unpack_cpu(nullptr, 64, 16, ty::u4, ty::f16, q.data()); }, ErrorCode::kInvalidArgument,
               {"unpack_cpu", "src is null"});
  expect_error([&] { mixgemm::unpack_cpu(dst.data(), 64, 16, ty::u4, ty::f16, nullptr); },
               ErrorCode::kInvalidArgument, {"q is null"});
  expect_error([&] { mixgemm::unpack_cpu(dst.data(), 64, 16, ty::u8, ty::s8, q.data()); }, ErrorCode::kNotSupported,
               {"unpack_cpu"});
}

// ---- the layout's version -------------------------------------------------------------

// FNV-1a over bytes: a fingerprint of a prepacked buffer.
uint64_t fnv1a(const std::vector<uint8_t>& bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ull;
  return h;
}

// The bytes every served layout (and the zero points' prepacked form) gives for one fixed input,
// pinned to kPrepackedLayoutVersion: an engine that stored prepacked weights under version 1 can
// load them only while prepack writes these bytes. A change that moves any of them must bump the
// version (mixgemm/prepack.h) and update docs/layout.md, then re-pin the table (printed below).
// The input is an LCG's, not a library RNG's, so the pins do not depend on the standard library.
TEST(Prepack, BytesArePinnedToTheLayoutVersion) {
  static_assert(mixgemm::kPrepackedLayoutVersion == 1, "re-pin the fingerprints below for the new version");
  const int64_t K = 256, N = 48;
  uint32_t state = 12345;
  auto next = [&state] { return (state = state * 1664525u + 1013904223u) >> 24; };
  std::vector<uint8_t> q8(K * N);
  for (auto& v : q8) v = static_cast<uint8_t>(next());
  std::vector<uint8_t> q4(q8);
  for (auto& v : q4) v &= 0xF;
  struct Pin {
    ScalarType b, a;
    uint64_t fingerprint;
  };
  const Pin pins[] = {
      // u4b8 / u4 and f16 / bf16 share a layout (docs/layout.md): equal pins.
      {ty::u4b8, ty::f16, 0x4a4143caa236efd9ull}, {ty::u4, ty::bf16, 0x4a4143caa236efd9ull},
      {ty::u8b128, ty::f16, 0x02693069c8ebbb67ull}, {ty::u8, ty::bf16, 0x02693069c8ebbb67ull},
      {ty::u4b8, ty::s8, 0x55564fbe3da644d6ull},  {ty::u4, ty::e4m3, 0x55564fbe3da644d6ull},
  };
  for (const Pin& pin : pins) {
    std::vector<uint8_t> packed(mixgemm::prepacked_size(K, N, pin.b));
    mixgemm::prepack_cpu(pin.b.size_bits() == 4 ? q4.data() : q8.data(), WeightFormat::kUnpacked, K, N, pin.b,
                         pin.a, packed.data());
    EXPECT_EQ(fnv1a(packed), pin.fingerprint)
        << pin.b.name() << " x " << pin.a.name() << ": the prepacked bytes changed; fingerprint now 0x" << std::hex
        << fnv1a(packed) << "ull (bump kPrepackedLayoutVersion)";
  }
  // Zero points: 16-bit (f16 scales), e4m3 (f16 scales) and s8 (integer scales) forms, G = 2.
  std::vector<uint8_t> z(2 * N), sg(2 * N);
  std::vector<uint16_t> s16(2 * N);
  for (int64_t i = 0; i < 2 * N; ++i) {
    z[i] = static_cast<uint8_t>(next() & 0xF);
    sg[i] = static_cast<uint8_t>(1 + next() % 15);
    s16[i] = mixgemm::numeric::to_f16((1 + next() % 200) / 256.0);
  }
  const std::pair<std::vector<uint8_t>, uint64_t> zero_pins[] = {
      {mixgemm::prepack_zeros_cpu(z.data(), s16.data(), 2, N, ty::f16, ty::f16), 0xceaab0a5af57348dull},
      {mixgemm::prepack_zeros_cpu(z.data(), s16.data(), 2, N, ty::e4m3, ty::f16), 0xceaab0a5af57348dull},
      {mixgemm::prepack_zeros_cpu(z.data(), sg.data(), 2, N, ty::s8, ty::u8), 0xd6a2a861fd19e66aull},
  };
  for (const auto& [bytes, fingerprint] : zero_pins)
    EXPECT_EQ(fnv1a(bytes), fingerprint) << "zero points: fingerprint now 0x" << std::hex << fnv1a(bytes)
                                         << "ull (bump kPrepackedLayoutVersion)";
}

// ---- zero points --------------------------------------------------------------------------

TEST(PrepackZeros, SixteenBitAndE4m3AreRoundedNegatedProducts) {
  namespace nb = mixgemm::numeric;
  std::mt19937 rng(kSeed + 3);
  const int64_t G = 3, N = 32;
  std::vector<uint8_t> z(G * N);
  for (auto& v : z) v = static_cast<uint8_t>(rng() % 16);
  for (ScalarType t : {ty::f16, ty::bf16}) {
    std::vector<uint16_t> s(G * N);
    for (auto& v : s) v = t == ty::f16 ? nb::to_f16((rng() % 2000) / 997.0 + 1e-3) : nb::to_bf16((rng() % 2000) / 997.0 + 1e-3);
    const auto out = mixgemm::prepack_zeros_cpu(z.data(), s.data(), G, N, t, t);
    ASSERT_EQ(out.size(), static_cast<size_t>(2 * G * N));
    for (int64_t i = 0; i < G * N; ++i) {
      const uint16_t got = static_cast<uint16_t>(out[2 * i] | (out[2 * i + 1] << 8));
      const double sv = t == ty::f16 ? nb::from_f16(s[i]) : nb::from_bf16(s[i]);
      const uint16_t want = t == ty::f16 ? nb::to_f16(-(z[i] * sv)) : nb::to_bf16(-(z[i] * sv));
      ASSERT_EQ(got, want) << t.name() << " i " << i;
    }
    // per-channel (no scales): T(-z), exact
    const auto pc = mixgemm::prepack_zeros_cpu(z.data(), nullptr, 1, N, t, t);
    for (int64_t i = 0; i < N; ++i) {
      const uint16_t got = static_cast<uint16_t>(pc[2 * i] | (pc[2 * i + 1] << 8));
      ASSERT_EQ(t == ty::f16 ? nb::from_f16(got) : nb::from_bf16(got), -double(z[i]));
    }
  }
  // e4m3 group mode: f16 scales
  std::vector<uint16_t> s(G * N, nb::to_f16(0.3));
  const auto e = mixgemm::prepack_zeros_cpu(z.data(), s.data(), G, N, ty::e4m3, ty::f16);
  for (int64_t i = 0; i < G * N; ++i)
    ASSERT_EQ(static_cast<uint16_t>(e[2 * i] | (e[2 * i + 1] << 8)), nb::to_f16(-(z[i] * nb::from_f16(s[i]))));
}

TEST(PrepackZeros, S8IsZTimesIntegerScale) {
  const int64_t G = 2, N = 16;
  std::vector<uint8_t> z(G * N), sg(G * N);
  for (int64_t i = 0; i < G * N; ++i) {
    z[i] = static_cast<uint8_t>(i % 16);
    sg[i] = static_cast<uint8_t>(1 + i % 15);
  }
  auto out = mixgemm::prepack_zeros_cpu(z.data(), sg.data(), G, N, ty::s8, ty::u8);
  ASSERT_EQ(out.size(), static_cast<size_t>(G * N));
  for (int64_t i = 0; i < G * N; ++i) EXPECT_EQ(out[i], z[i] * sg[i]);
  out = mixgemm::prepack_zeros_cpu(z.data(), nullptr, 1, N, ty::s8, ty::u8);
  for (int64_t i = 0; i < N; ++i) EXPECT_EQ(out[i], z[i]);
}

TEST(PrepackZeros, Errors) {
  using mixgemm::ErrorCode;
  std::vector<uint8_t> z(32, 15), sg(32, 18);
  std::vector<uint16_t> s(32, 0x3C00);
  expect_error([&] { (void)mixgemm::prepack_zeros_cpu(nullptr, s.data(), 2, 16, ty::f16, ty::f16); },
               ErrorCode::kInvalidArgument, {"prepack_zeros_cpu", "z is null"});
  expect_error([&] { (void)mixgemm::prepack_zeros_cpu(z.data(), s.data(), 0, 16, ty::f16, ty::f16); },
               ErrorCode::kInvalidArgument, {"G=0"});
  expect_error([&] { (void)mixgemm::prepack_zeros_cpu(z.data(), s.data(), 2, 16, ty::f16, ty::bf16); },
               ErrorCode::kInvalidArgument, {"scale_type=bf16", "accepted: f16"});
  expect_error([&] { (void)mixgemm::prepack_zeros_cpu(z.data(), s.data(), 2, 16, ty::e4m3, ty::bf16); },
               ErrorCode::kInvalidArgument, {"scale_type=bf16", "a_type=e4m3"});
  expect_error([&] { (void)mixgemm::prepack_zeros_cpu(z.data(), sg.data(), 2, 16, ty::s8, ty::f16); },
               ErrorCode::kInvalidArgument, {"scale_type=f16", "u8"});
  expect_error([&] { (void)mixgemm::prepack_zeros_cpu(z.data(), sg.data(), 2, 16, ty::s8, ty::u8); },
               ErrorCode::kInvalidArgument, {"z[0][0]=15", "270"});
  expect_error([&] { (void)mixgemm::prepack_zeros_cpu(z.data(), sg.data(), 2, 16, ty::u4, ty::u8); },
               ErrorCode::kInvalidArgument, {"a_type=u4"});
}

}  // namespace
