// formats.cpp - GPTQ / AWQ checkpoint packing (include/mixgemm/formats.h).
//
// Every word is built and read through uint32_t so that a value in the top nibble (the sign
// bit of the int32 the checkpoints store) round-trips without implementation-defined shifts.
#include "mixgemm/formats.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "mixgemm/error.h"
#include "reference/reference_detail.h"

namespace mixgemm {

using reference_detail::fail;

namespace {

int32_t to_word(uint32_t u) {
  int32_t w;
  std::memcpy(&w, &u, 4);
  return w;
}
uint32_t from_word(int32_t w) {
  uint32_t u;
  std::memcpy(&u, &w, 4);
  return u;
}

void check_bits(int bits, const char* where) {
  if (bits != 4 && bits != 8) fail(where, "bits=" + std::to_string(bits) + "; accepted: 4, 8");
}

void check_shape(int64_t rows, int64_t cols, const char* rows_name, const char* cols_name,
                 int64_t multiple, const char* multiple_of, const void* ptr, const char* ptr_name,
                 const char* where) {
  if (rows < 0) fail(where, std::string(rows_name) + "=" + std::to_string(rows) + " must be >= 0");
  if (cols < 0) fail(where, std::string(cols_name) + "=" + std::to_string(cols) + " must be >= 0");
  const int64_t v = std::string(multiple_of) == rows_name ? rows : cols;
  if (v % multiple != 0)
    fail(where, std::string(multiple_of) + "=" + std::to_string(v) + " is not a multiple of " +
                    std::to_string(multiple) + " (the values per int32 word); pad it");
  if (rows * cols > 0 && ptr == nullptr) fail(where, std::string(ptr_name) + " is null");
}

void check_value(uint32_t v, uint32_t max, const char* name, int64_t r, int64_t c, const char* where) {
  if (v > max)
    fail(where, std::string(name) + "[" + std::to_string(r) + "][" + std::to_string(c) + "]=" +
                    std::to_string(v) + " exceeds " + std::to_string(max) + ", the largest value of the field");
}

}  // namespace

// ---- GPTQ -----------------------------------------------------------------------------------

std::vector<int32_t> gptq_pack_qweight(const uint8_t* q, int64_t K, int64_t N, int bits) {
  constexpr const char* kWhere = "gptq_pack_qweight";
  check_bits(bits, kWhere);
  const int per = 32 / bits;
  const uint32_t mask = (1u << bits) - 1;
  check_shape(K, N, "K", "N", per, "K", q, "q", kWhere);
  std::vector<int32_t> out(size_t(K / per * N));
  for (int64_t r = 0; r < K / per; ++r)
    for (int64_t n = 0; n < N; ++n) {
      uint32_t word = 0;
      for (int i = 0; i < per; ++i) {
        const uint32_t v = q[(r * per + i) * N + n];
        check_value(v, mask, "q", r * per + i, n, kWhere);
        word |= v << (bits * i);  // row k % per == i at field i
      }
      out[size_t(r * N + n)] = to_word(word);
    }
  return out;
}

std::vector<uint8_t> gptq_unpack_qweight(const int32_t* qweight, int64_t K, int64_t N, int bits) {
  constexpr const char* kWhere = "gptq_unpack_qweight";
  check_bits(bits, kWhere);
  const int per = 32 / bits;
  const uint32_t mask = (1u << bits) - 1;
  check_shape(K, N, "K", "N", per, "K", qweight, "qweight", kWhere);
  std::vector<uint8_t> q(size_t(K * N));
  for (int64_t k = 0; k < K; ++k)
    for (int64_t n = 0; n < N; ++n)
      q[size_t(k * N + n)] = uint8_t((from_word(qweight[(k / per) * N + n]) >> (bits * (k % per))) & mask);
  return q;
}

std::vector<int32_t> gptq_pack_qzeros(const uint8_t* z, int64_t G, int64_t N, int bits, GptqZeroFormat format) {
  constexpr const char* kWhere = "gptq_pack_qzeros";
  check_bits(bits, kWhere);
  const int per = 32 / bits;
  const uint32_t mask = (1u << bits) - 1;
  check_shape(G, N, "G", "N", per, "N", z, "z", kWhere);
  const bool v1 = format == GptqZeroFormat::kV1;
  std::vector<int32_t> out(size_t(G * (N / per)));
  for (int64_t g = 0; g < G; ++g)
    for (int64_t c = 0; c < N / per; ++c) {
      uint32_t word = 0;
      for (int j = 0; j < per; ++j) {
        const int64_t n = c * per + j;
        const uint32_t zv = z[g * N + n];
        if (v1 && zv == 0)
          fail(kWhere, "z[" + std::to_string(g) + "][" + std::to_string(n) +
                           "]=0 cannot be stored in GPTQ v1 (which stores z - 1); accepted: 1.." +
                           std::to_string(mask + 1) + ", or GptqZeroFormat::kV2");
        const uint32_t stored = v1 ? zv - 1 : zv;
        check_value(stored, mask, v1 ? "z - 1 of z" : "z", g, n, kWhere);
        word |= stored << (bits * j);  // column n % per == j at field j
      }
      out[size_t(g * (N / per) + c)] = to_word(word);
    }
  return out;
}

std::vector<uint8_t> gptq_unpack_qzeros(const int32_t* qzeros, int64_t G, int64_t N, int bits,
                                        GptqZeroFormat format) {
  constexpr const char* kWhere = "gptq_unpack_qzeros";
  check_bits(bits, kWhere);
  const int per = 32 / bits;
  const uint32_t mask = (1u << bits) - 1;
  check_shape(G, N, "G", "N", per, "N", qzeros, "qzeros", kWhere);
  if (bits == 8 && format == GptqZeroFormat::kV1) {
    // v1 8-bit zeros unpack to 1..256; 256 does not fit the uint8_t result.
    for (int64_t i = 0; i < G * (N / per); ++i)
      for (int j = 0; j < per; ++j)
        if (((from_word(qzeros[i]) >> (8 * j)) & 0xFF) == 0xFF)
          fail(kWhere, "qzeros word " + std::to_string(i) + " stores 255 (z = 256), which does not fit "
                       "an 8-bit zero point");
  }
  std::vector<uint8_t> z(size_t(G * N));
  for (int64_t g = 0; g < G; ++g)
    for (int64_t n = 0; n < N; ++n) {
      const uint32_t stored = (from_word(qzeros[g * (N / per) + n / per]) >> (bits * (n % per))) & mask;
      z[size_t(g * N + n)] = uint8_t(format == GptqZeroFormat::kV1 ? stored + 1 : stored);
    }
  return z;
}

bool gptq_g_idx_is_trivial(const int32_t* g_idx, int64_t K, int64_t group_size) {
  constexpr const char* kWhere = "gptq_g_idx_is_trivial";
  if (K < 1) fail(kWhere, "K=" + std::to_string(K) + " must be >= 1");
  if (group_size < 1 || K % group_size != 0)
    fail(kWhere, "group_size=" + std::to_string(group_size) + " does not divide K=" + std::to_string(K));
  if (g_idx == nullptr) fail(kWhere, "g_idx is null");
  for (int64_t k = 0; k < K; ++k)
    if (g_idx[k] != k / group_size) return false;
  return true;
}

ActOrder gptq_act_order(const int32_t* g_idx, int64_t K, int64_t G) {
  constexpr const char* kWhere = "gptq_act_order";
  if (K < 1) fail(kWhere, "K=" + std::to_string(K) + " must be >= 1");
  if (G < 1 || K % G != 0)
    fail(kWhere, "G=" + std::to_string(G) + " does not divide K=" + std::to_string(K) +
                     "; accepted: the number of group-scale rows, a divisor of K");
  if (g_idx == nullptr) fail(kWhere, "g_idx is null; accepted: a host int32 [K] array");
  std::vector<int64_t> count(size_t(G), 0);
  for (int64_t k = 0; k < K; ++k) {
    if (g_idx[k] < 0 || g_idx[k] >= G)
      fail(kWhere, "g_idx[" + std::to_string(k) + "]=" + std::to_string(g_idx[k]) + " is outside [0, G=" +
                       std::to_string(G) + ")");
    ++count[size_t(g_idx[k])];
  }
  for (int64_t g = 0; g < G; ++g)
    if (count[size_t(g)] != K / G)
      fail(kWhere, "group " + std::to_string(g) + " holds " + std::to_string(count[size_t(g)]) +
                       " rows of g_idx; sorting gives contiguous groups only when each holds K/G=" +
                       std::to_string(K / G) + " (use expand_groups_per_row with the reference instead)");
  ActOrder out;
  out.group_size = K / G;
  out.perm.resize(size_t(K));
  for (int64_t k = 0; k < K; ++k) out.perm[size_t(k)] = int32_t(k);
  std::stable_sort(out.perm.begin(), out.perm.end(),
                   [&](int32_t x, int32_t y) { return g_idx[x] < g_idx[y]; });
  return out;
}

namespace {
void check_perm(const std::vector<int32_t>& perm, int64_t K, const char* where) {
  if (int64_t(perm.size()) != K)
    fail(where, "perm has " + std::to_string(perm.size()) + " entries; accepted: K=" + std::to_string(K));
  std::vector<bool> seen(size_t(K), false);
  for (int64_t r = 0; r < K; ++r) {
    if (perm[size_t(r)] < 0 || perm[size_t(r)] >= K || seen[size_t(perm[size_t(r)])])
      fail(where, "perm is not a permutation of 0..K-1 (entry " + std::to_string(r) + ")");
    seen[size_t(perm[size_t(r)])] = true;
  }
}
}  // namespace

std::vector<uint8_t> permute_rows(const void* src, size_t elem_bytes, int64_t K, int64_t N,
                                  const std::vector<int32_t>& perm) {
  constexpr const char* kWhere = "permute_rows";
  check_perm(perm, K, kWhere);
  if (N < 0) fail(kWhere, "N=" + std::to_string(N) + " must be >= 0");
  if (K * N > 0 && src == nullptr) fail(kWhere, "src is null");
  const size_t row = size_t(N) * elem_bytes;
  std::vector<uint8_t> out(size_t(K) * row);
  for (int64_t r = 0; r < K; ++r)
    if (row) std::memcpy(&out[size_t(r) * row], static_cast<const uint8_t*>(src) + size_t(perm[size_t(r)]) * row, row);
  return out;
}

void permute_columns(const void* src, size_t elem_bytes, int64_t M, int64_t K, int64_t ld_src,
                     const std::vector<int32_t>& perm, void* dst, int64_t ld_dst) {
  constexpr const char* kWhere = "permute_columns";
  check_perm(perm, K, kWhere);
  if (M < 0) fail(kWhere, "M=" + std::to_string(M) + " must be >= 0");
  if (ld_src < K) fail(kWhere, "ld_src=" + std::to_string(ld_src) + " is less than K=" + std::to_string(K));
  if (ld_dst < K) fail(kWhere, "ld_dst=" + std::to_string(ld_dst) + " is less than K=" + std::to_string(K));
  if (M > 0 && (src == nullptr || dst == nullptr)) fail(kWhere, src == nullptr ? "src is null" : "dst is null");
  if (M > 0 && src == dst) fail(kWhere, "src and dst are the same array; accepted: distinct arrays");
  const auto* s = static_cast<const uint8_t*>(src);
  auto* d = static_cast<uint8_t*>(dst);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t r = 0; r < K; ++r)
      std::memcpy(d + (size_t(m * ld_dst + r)) * elem_bytes, s + size_t(m * ld_src + perm[size_t(r)]) * elem_bytes,
                  elem_bytes);
}

std::vector<uint8_t> expand_groups_per_row(const void* src, size_t elem_bytes, const int32_t* g_idx,
                                           int64_t K, int64_t G, int64_t N) {
  constexpr const char* kWhere = "expand_groups_per_row";
  if (K < 1 || G < 1 || N < 0)
    fail(kWhere, "K=" + std::to_string(K) + ", G=" + std::to_string(G) + ", N=" + std::to_string(N) +
                     "; accepted: K >= 1, G >= 1, N >= 0");
  if (g_idx == nullptr || (N > 0 && src == nullptr)) fail(kWhere, g_idx == nullptr ? "g_idx is null" : "src is null");
  const size_t row = size_t(N) * elem_bytes;
  std::vector<uint8_t> out(size_t(K) * row);
  for (int64_t k = 0; k < K; ++k) {
    if (g_idx[k] < 0 || g_idx[k] >= G)
      fail(kWhere, "g_idx[" + std::to_string(k) + "]=" + std::to_string(g_idx[k]) + " is outside [0, G=" +
                       std::to_string(G) + ")");
    if (row) std::memcpy(&out[size_t(k) * row], static_cast<const uint8_t*>(src) + size_t(g_idx[k]) * row, row);
  }
  return out;
}

// ---- AWQ ------------------------------------------------------------------------------------
namespace {
std::vector<int32_t> awq_pack(const uint8_t* v, int64_t rows, int64_t N, const char* rows_name,
                              const char* name, const char* where) {
  check_shape(rows, N, rows_name, "N", 8, "N", v, name, where);
  std::vector<int32_t> out(size_t(rows * (N / 8)));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < N / 8; ++c) {
      uint32_t word = 0;
      for (int j = 0; j < 8; ++j) {
        const uint32_t x = v[r * N + c * 8 + j];
        check_value(x, 15, name, r, c * 8 + j, where);
        word |= x << (4 * awq_nibble(j));
      }
      out[size_t(r * (N / 8) + c)] = to_word(word);
    }
  return out;
}
std::vector<uint8_t> awq_unpack(const int32_t* packed, int64_t rows, int64_t N, const char* rows_name,
                                const char* name, const char* where) {
  check_shape(rows, N, rows_name, "N", 8, "N", packed, name, where);
  std::vector<uint8_t> out(size_t(rows * N));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t n = 0; n < N; ++n)
      out[size_t(r * N + n)] = uint8_t((from_word(packed[r * (N / 8) + n / 8]) >> (4 * awq_nibble(int(n % 8)))) & 0xF);
  return out;
}
}  // namespace

std::vector<int32_t> awq_pack_qweight(const uint8_t* q, int64_t K, int64_t N) {
  return awq_pack(q, K, N, "K", "q", "awq_pack_qweight");
}
std::vector<uint8_t> awq_unpack_qweight(const int32_t* qweight, int64_t K, int64_t N) {
  return awq_unpack(qweight, K, N, "K", "qweight", "awq_unpack_qweight");
}
std::vector<int32_t> awq_pack_qzeros(const uint8_t* z, int64_t G, int64_t N) {
  return awq_pack(z, G, N, "G", "z", "awq_pack_qzeros");
}
std::vector<uint8_t> awq_unpack_qzeros(const int32_t* qzeros, int64_t G, int64_t N) {
  return awq_unpack(qzeros, G, N, "G", "qzeros", "awq_unpack_qzeros");
}

}  // namespace mixgemm
