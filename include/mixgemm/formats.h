// mixgemm/formats.h - the storage formats of real quantized checkpoints (GPTQ, AWQ), packed
// and unpacked, on the host.
//
// mixgemm's own unpacked form is one stored integer per byte: q[K][N] (weights) and
// z[G][N] (zero points, the integer z of w = (q - z) * s). These functions convert between
// that form and the int32 words of the checkpoints, bit for bit. Words are int32 as in the
// checkpoints; "nibble p" of a word is bits [4p, 4p + 4) of its two's-complement value.
//
//   GPTQ qweight [K/8][N]  : nibble i of word [r][n] holds q(8r + i, n)       (row k % 8 == i)
//        (8-bit: [K/4][N], byte i holds q(4r + i, n))
//   GPTQ qzeros  [G][N/8]  : nibble j of word [g][c] holds the zero of column 8c + j; GPTQ v1
//        checkpoints (AutoGPTQ, GPTQ-for-LLaMa: every "gptq" checkpoint unless it says v2)
//        store z - 1, v2 stores z (8-bit: [G][N/4], byte j)
//   GPTQ scales  [G][N] f16: already mixgemm's group-scale layout
//   GPTQ g_idx   [K] int32 : the group of row k (act-order / desc_act checkpoints)
//   AWQ  qweight [K][N/8]  : column 8c + j of row k sits at nibble {0,4,1,5,2,6,3,7}[j] of word [k][c]
//   AWQ  qzeros  [G][N/8]  : same order, stores z
//   AWQ  scales  [G][N] f16: already mixgemm's layout
// docs/semantics.md ("Checkpoint formats") shows a worked word of each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mixgemm {

// ---- GPTQ -----------------------------------------------------------------------------------
// bits = 4 or 8. K must be a multiple of 32 / bits; every q must fit in `bits`.
std::vector<int32_t> gptq_pack_qweight(const uint8_t* q, int64_t K, int64_t N, int bits = 4);
std::vector<uint8_t> gptq_unpack_qweight(const int32_t* qweight, int64_t K, int64_t N, int bits = 4);

enum class GptqZeroFormat {
  kV1,  // stores z - 1 (what GPTQ v1 checkpoints hold); unpack returns stored + 1, so 1..2^bits.
        // A z of 0 cannot be stored (v1 checkpoints wrap it to 2^bits) and is refused.
  kV2,  // stores z itself (GPTQModel's v2 format); 0..2^bits - 1
};
// N must be a multiple of 32 / bits.
std::vector<int32_t> gptq_pack_qzeros(const uint8_t* z, int64_t G, int64_t N, int bits = 4,
                                      GptqZeroFormat format = GptqZeroFormat::kV1);
std::vector<uint8_t> gptq_unpack_qzeros(const int32_t* qzeros, int64_t G, int64_t N, int bits = 4,
                                        GptqZeroFormat format = GptqZeroFormat::kV1);

// True when g_idx[k] == k / group_size for every k: the checkpoint needs no reordering
// (plain, non-act-order GPTQ). group_size must divide K.
bool gptq_g_idx_is_trivial(const int32_t* g_idx, int64_t K, int64_t group_size);

// An act-order (desc_act) checkpoint as mixgemm runs it. mixgemm's groups are contiguous
// (g = k / group_size), so the rows are sorted by group:
//   sorted row r is checkpoint row perm[r]   (a stable sort of the rows by g_idx)
// and the GEMM is exact with
//   q_sorted[r][n] = q[perm[r]][n]        (permute_rows)
//   a_sorted[m][r] = a[m][perm[r]]        (permute_columns, on every activation matrix)
//   group scales / zeros unchanged, group_size = K / G.
// Throws mixgemm::Error unless every g_idx is in [0, G) and every group holds exactly K / G rows.
struct ActOrder {
  std::vector<int32_t> perm;  // [K]
  int64_t group_size = 0;     // K / G
};
ActOrder gptq_act_order(const int32_t* g_idx, int64_t K, int64_t G);

// dst[r][n] = src[perm[r]][n] for a [K][N] array of elem_bytes-sized elements.
std::vector<uint8_t> permute_rows(const void* src, size_t elem_bytes, int64_t K, int64_t N,
                                  const std::vector<int32_t>& perm);
// dst[m][r] = src[m][perm[r]] for an [M][ld_src] array (dst is [M][ld_dst]); elem_bytes each.
void permute_columns(const void* src, size_t elem_bytes, int64_t M, int64_t K, int64_t ld_src,
                     const std::vector<int32_t>& perm, void* dst, int64_t ld_dst);

// Per-row expansion of per-group data (scales or zeros): dst[k][n] = src[g_idx[k]][n]
// ([G][N] -> [K][N], elem_bytes each). The result is a group_size = 1 table: the reference
// accepts it, gemm() does not (it needs 16 | group_size); prefer gptq_act_order.
std::vector<uint8_t> expand_groups_per_row(const void* src, size_t elem_bytes, const int32_t* g_idx,
                                           int64_t K, int64_t G, int64_t N);

// ---- AWQ (4-bit only) -------------------------------------------------------------------------
// N must be a multiple of 8; every value must fit in 4 bits.
std::vector<int32_t> awq_pack_qweight(const uint8_t* q, int64_t K, int64_t N);
std::vector<uint8_t> awq_unpack_qweight(const int32_t* qweight, int64_t K, int64_t N);
std::vector<int32_t> awq_pack_qzeros(const uint8_t* z, int64_t G, int64_t N);
std::vector<uint8_t> awq_unpack_qzeros(const int32_t* qzeros, int64_t G, int64_t N);

// The nibble that holds column j (0..7) of each group of 8 in AWQ's packing.
inline constexpr int awq_nibble(int j) {
  constexpr int kOrder[8] = {0, 4, 1, 5, 2, 6, 3, 7};
  return kOrder[j];
}

}  // namespace mixgemm
