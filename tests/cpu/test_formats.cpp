// GPTQ / AWQ packing against hand-computed words, round trips both ways, act-order, refusals.
#include <gtest/gtest.h>

#include "cpu/test_util.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core/float_bits.h"
#include "mixgemm/error.h"
#include "mixgemm/formats.h"
#include "mixgemm/reference.h"

namespace {

using namespace mixgemm;
namespace num = mixgemm::numeric;

uint64_t base_seed() { return mixgemm::test::seed_from_env(4242ull); }

int32_t word(uint32_t u) { return static_cast<int32_t>(u); }

TEST(Formats, GptqQweightByHand) {
  // K = 8, N = 2: column 0 rows 0..7 = 1..8, column 1 = 15, 0, 0, ..., 0, 15.
  std::vector<uint8_t> q(16, 0);
  for (int k = 0; k < 8; ++k) q[size_t(k * 2)] = uint8_t(k + 1);
  q[1] = 15;
  q[7 * 2 + 1] = 15;
  const std::vector<int32_t> packed = gptq_pack_qweight(q.data(), 8, 2);
  ASSERT_EQ(packed.size(), 2u);
  EXPECT_EQ(packed[0], word(0x87654321u));  // nibble i = row i; negative as an int32
  EXPECT_EQ(packed[1], word(0xF000000Fu));
  EXPECT_EQ(gptq_unpack_qweight(packed.data(), 8, 2), q);
  // 8-bit: a byte per row, 4 rows per word.
  const uint8_t q8[4] = {1, 2, 3, 255};
  const std::vector<int32_t> p8 = gptq_pack_qweight(q8, 4, 1, 8);
  EXPECT_EQ(p8[0], word(0xFF030201u));
  EXPECT_EQ(gptq_unpack_qweight(p8.data(), 4, 1, 8), std::vector<uint8_t>(q8, q8 + 4));
}

TEST(Formats, GptqQzerosByHand) {
  // One group, 8 columns of z = 8 (symmetric GPTQ): v1 stores 7s, v2 stores 8s.
  const std::vector<uint8_t> z8(8, 8);
  EXPECT_EQ(gptq_pack_qzeros(z8.data(), 1, 8)[0], word(0x77777777u));
  EXPECT_EQ(gptq_pack_qzeros(z8.data(), 1, 8, 4, GptqZeroFormat::kV2)[0], word(0x88888888u));
  // Column j at nibble j: z = 1..8 in v1 stores 0..7.
  std::vector<uint8_t> z(8);
  std::iota(z.begin(), z.end(), uint8_t(1));
  const std::vector<int32_t> p = gptq_pack_qzeros(z.data(), 1, 8);
  EXPECT_EQ(p[0], word(0x76543210u));
  EXPECT_EQ(gptq_unpack_qzeros(p.data(), 1, 8), z);
  // v1 stored 15 reads back as z = 16 (what v1 loaders compute; mixgemm's u4 zeros stop at 15).
  const int32_t all_f = word(0xFFFFFFFFu);
  EXPECT_EQ(gptq_unpack_qzeros(&all_f, 1, 8), std::vector<uint8_t>(8, 16));
  EXPECT_EQ(gptq_pack_qzeros(std::vector<uint8_t>(8, 16).data(), 1, 8)[0], all_f);
  // 8-bit zeros: 4 columns per word.
  const uint8_t zb[4] = {1, 2, 128, 255};
  EXPECT_EQ(gptq_pack_qzeros(zb, 1, 4, 8, GptqZeroFormat::kV2)[0], word(0xFF800201u));
  EXPECT_EQ(gptq_pack_qzeros(zb, 1, 4, 8)[0], word(0xFE7F0100u));
}

TEST(Formats, AwqByHand) {
  // Row 0, columns 0..7 = 0..7: column j at nibble {0,4,1,5,2,6,3,7}[j], so the nibbles
  // 0..7 hold columns 0,2,4,6,1,3,5,7 -> 0x75316420.
  std::vector<uint8_t> q(8);
  std::iota(q.begin(), q.end(), uint8_t(0));
  const std::vector<int32_t> p = awq_pack_qweight(q.data(), 1, 8);
  EXPECT_EQ(p[0], word(0x75316420u));
  EXPECT_EQ(awq_unpack_qweight(p.data(), 1, 8), q);
  // Zeros: same order, z stored as is.
  std::vector<uint8_t> z = {15, 0, 0, 0, 0, 0, 0, 9};
  EXPECT_EQ(awq_pack_qzeros(z.data(), 1, 8)[0], word(0x9000000Fu));
  EXPECT_EQ(awq_unpack_qzeros(awq_pack_qzeros(z.data(), 1, 8).data(), 1, 8), z);
  static_assert(awq_nibble(1) == 4 && awq_nibble(6) == 3);
}

TEST(Formats, RoundTripsBothWays) {
  const uint64_t seed = base_seed();
  std::mt19937_64 rng(seed);
  SCOPED_TRACE("seed=" + std::to_string(seed));
  for (int iter = 0; iter < 20; ++iter) {
    const int64_t K = 32 * (1 + int64_t(rng() % 4)), N = 8 * (1 + int64_t(rng() % 5)), G = 1 + int64_t(rng() % 3);
    std::vector<uint8_t> q4(size_t(K * N)), q8(q4.size()), z4(size_t(G * N)), z8(z4.size());
    for (auto& x : q4) x = uint8_t(rng() % 16);
    for (auto& x : q8) x = uint8_t(rng() % 256);
    for (auto& x : z4) x = uint8_t(1 + rng() % 15);
    for (auto& x : z8) x = uint8_t(1 + rng() % 255);
    // unpack(pack(x)) == x
    EXPECT_EQ(gptq_unpack_qweight(gptq_pack_qweight(q4.data(), K, N).data(), K, N), q4);
    EXPECT_EQ(gptq_unpack_qweight(gptq_pack_qweight(q8.data(), K, N, 8).data(), K, N, 8), q8);
    EXPECT_EQ(gptq_unpack_qzeros(gptq_pack_qzeros(z4.data(), G, N).data(), G, N), z4);
    EXPECT_EQ(gptq_unpack_qzeros(gptq_pack_qzeros(z8.data(), G, N, 8).data(), G, N, 8), z8);
    EXPECT_EQ(gptq_unpack_qzeros(gptq_pack_qzeros(z4.data(), G, N, 4, GptqZeroFormat::kV2).data(), G, N, 4,
                                 GptqZeroFormat::kV2),
              z4);
    EXPECT_EQ(awq_unpack_qweight(awq_pack_qweight(q4.data(), K, N).data(), K, N), q4);
    EXPECT_EQ(awq_unpack_qzeros(awq_pack_qzeros(z4.data(), G, N).data(), G, N), z4);
    // pack(unpack(words)) == words, for arbitrary words.
    std::vector<int32_t> wq(size_t(K / 8 * N)), wa(size_t(K * N / 8)), wz(size_t(G * N / 8));
    for (auto& x : wq) x = word(uint32_t(rng()));
    for (auto& x : wa) x = word(uint32_t(rng()));
    for (auto& x : wz) x = word(uint32_t(rng()));
    EXPECT_EQ(gptq_pack_qweight(gptq_unpack_qweight(wq.data(), K, N).data(), K, N), wq);
    EXPECT_EQ(awq_pack_qweight(awq_unpack_qweight(wa.data(), K, N).data(), K, N), wa);
    EXPECT_EQ(gptq_pack_qzeros(gptq_unpack_qzeros(wz.data(), G, N).data(), G, N), wz);
    EXPECT_EQ(awq_pack_qzeros(awq_unpack_qzeros(wz.data(), G, N).data(), G, N), wz);
    // GPTQ and AWQ agree on the values they hold.
    const std::vector<uint8_t> from_gptq = gptq_unpack_qweight(wq.data(), K, N);
    EXPECT_EQ(awq_unpack_qweight(awq_pack_qweight(from_gptq.data(), K, N).data(), K, N), from_gptq);
  }
}

// An act-order checkpoint, sorted by gptq_act_order, computes the same GEMM as the
// unsorted checkpoint with per-row scales (integer data: every sum is exact).
TEST(Formats, ActOrderSortEqualsPerRowGroups) {
  const uint64_t seed = base_seed() + 1;
  std::mt19937_64 rng(seed);
  SCOPED_TRACE("seed=" + std::to_string(seed));
  const int64_t M = 5, K = 64, N = 16, G = 4, gs = K / G;
  // g_idx: a random permutation of the rows, grouped by position (what desc_act produces).
  std::vector<int32_t> order(static_cast<size_t>(K));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<int32_t> g_idx(static_cast<size_t>(K));
  for (int64_t i = 0; i < K; ++i) g_idx[size_t(order[size_t(i)])] = int32_t(i / gs);
  EXPECT_FALSE(gptq_g_idx_is_trivial(g_idx.data(), K, gs));
  std::vector<uint8_t> q(size_t(K * N)), z(size_t(G * N));
  std::vector<uint16_t> s(size_t(G * N)), a(size_t(M * K));
  for (auto& x : q) x = uint8_t(rng() % 16);
  for (auto& x : z) x = uint8_t(rng() % 16);
  for (auto& x : s) x = num::to_f16(std::ldexp(1.0, int(rng() % 4) - 1));
  for (auto& x : a) x = num::to_f16(double(int(rng() % 9) - 4));

  const ActOrder ao = gptq_act_order(g_idx.data(), K, G);
  EXPECT_EQ(ao.group_size, gs);
  for (int64_t r = 0; r < K; ++r) EXPECT_EQ(g_idx[size_t(ao.perm[size_t(r)])], r / gs);
  const std::vector<uint8_t> q_sorted = permute_rows(q.data(), 1, K, N, ao.perm);
  std::vector<uint16_t> a_sorted(size_t(M * K));
  permute_columns(a.data(), 2, M, K, K, ao.perm, a_sorted.data(), K);

  std::vector<uint16_t> out_sorted(size_t(M * N)), out_rows(size_t(M * N));
  ReferenceArgs r;
  r.problem.M = M;
  r.problem.N = N;
  r.problem.K = K;
  r.problem.types = TypeConfig{types::f16, types::u4, types::f16, true, types::f16};
  r.problem.group_size = gs;
  r.a = a_sorted.data();
  r.lda = K;
  r.q = q_sorted.data();
  r.group_scales = s.data();
  r.zeros = z.data();
  r.out = out_sorted.data();
  r.ldo = N;
  reference_gemm(r);
  // Per-row expansion: group_size 1 in the original row order.
  const std::vector<uint8_t> s_rows = expand_groups_per_row(s.data(), 2, g_idx.data(), K, G, N);
  const std::vector<uint8_t> z_rows = expand_groups_per_row(z.data(), 1, g_idx.data(), K, G, N);
  r.problem.group_size = 1;
  r.a = a.data();
  r.q = q.data();
  r.group_scales = s_rows.data();
  r.zeros = z_rows.data();
  r.out = out_rows.data();
  reference_gemm(r);
  EXPECT_EQ(out_sorted, out_rows);

  // A trivial g_idx is recognized.
  std::vector<int32_t> trivial(static_cast<size_t>(K));
  for (int64_t k = 0; k < K; ++k) trivial[size_t(k)] = int32_t(k / gs);
  EXPECT_TRUE(gptq_g_idx_is_trivial(trivial.data(), K, gs));
  const ActOrder id = gptq_act_order(trivial.data(), K, G);
  for (int64_t k = 0; k < K; ++k) EXPECT_EQ(id.perm[size_t(k)], k);
}

using mixgemm::test::error_of;

TEST(Formats, EveryValidationErrorNamesItsArgument) {
  const std::vector<uint8_t> q(64, 3), big(64, 16), zero(8, 0);
  const std::vector<int32_t> words(16, 0), ff(1, word(0xFFFFFFFFu));
  const int32_t g_uneven[4] = {0, 0, 0, 1}, g_out[4] = {0, 0, 1, 2};
  const std::vector<int32_t> bad_perm = {0, 0};
  std::vector<uint8_t> dst(64);
  struct Case {
    const char* expect;
    std::function<void()> call;
  };
  const std::vector<Case> cases = {
      {"gptq_pack_qweight: bits=3", [&] { gptq_pack_qweight(q.data(), 8, 8, 3); }},
      {"K=4 is not a multiple of 8", [&] { gptq_pack_qweight(q.data(), 4, 8); }},
      {"q[0][0]=16 exceeds 15", [&] { gptq_pack_qweight(big.data(), 8, 8); }},
      {"q is null", [&] { gptq_pack_qweight(nullptr, 8, 8); }},
      {"gptq_unpack_qweight: K=12", [&] { gptq_unpack_qweight(words.data(), 12, 8); }},
      {"qweight is null", [&] { gptq_unpack_qweight(nullptr, 8, 8); }},
      {"z[0][0]=0 cannot be stored in GPTQ v1", [&] { gptq_pack_qzeros(zero.data(), 1, 8); }},
      {"N=4 is not a multiple of 8", [&] { gptq_pack_qzeros(q.data(), 1, 4); }},
      {"z[0][0]=16 exceeds 15", [&] { gptq_pack_qzeros(big.data(), 1, 8, 4, GptqZeroFormat::kV2); }},
      {"z = 256", [&] { gptq_unpack_qzeros(ff.data(), 1, 4, 8); }},
      {"gptq_g_idx_is_trivial: group_size=3", [&] { gptq_g_idx_is_trivial(g_uneven, 4, 3); }},
      {"group 0 holds 3 rows", [&] { gptq_act_order(g_uneven, 4, 2); }},
      {"g_idx[3]=2 is outside [0, G=2)", [&] { gptq_act_order(g_out, 4, 2); }},
      {"G=3 does not divide K=4", [&] { gptq_act_order(g_out, 4, 3); }},
      {"g_idx is null", [&] { gptq_act_order(nullptr, 4, 2); }},
      {"perm is not a permutation", [&] { permute_rows(q.data(), 1, 2, 8, bad_perm); }},
      {"perm has 2 entries; accepted: K=4", [&] { permute_rows(q.data(), 1, 4, 8, bad_perm); }},
      {"ld_src=1 is less than K=2", [&] {
         permute_columns(q.data(), 1, 1, 2, 1, std::vector<int32_t>{1, 0}, dst.data(), 2);
       }},
      {"src and dst are the same", [&] {
         permute_columns(dst.data(), 1, 1, 2, 2, std::vector<int32_t>{1, 0}, dst.data(), 2);
       }},
      {"expand_groups_per_row: g_idx[3]=2", [&] { expand_groups_per_row(q.data(), 1, g_out, 4, 2, 8); }},
      {"awq_pack_qweight: N=4 is not a multiple of 8", [&] { awq_pack_qweight(q.data(), 1, 4); }},
      {"awq_pack_qzeros: z[0][0]=16 exceeds 15", [&] { awq_pack_qzeros(big.data(), 1, 8); }},
      {"awq_unpack_qzeros: qzeros is null", [&] { awq_unpack_qzeros(nullptr, 1, 8); }},
  };
  for (const Case& c : cases) {
    const std::string msg = error_of(c.call);
    EXPECT_NE(msg.find(c.expect), std::string::npos) << "expected '" << c.expect << "' in: '" << msg << "'";
    EXPECT_NE(msg.find("mixgemm::"), std::string::npos) << msg;
  }
}

}  // namespace
