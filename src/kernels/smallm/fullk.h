// fullk.h - host interface of the whole-column small-M kernel (fullk_gemm.cuh).
//
// Schedules are named  smallm_fullk_t<TM>_w<W>_p<P>:
//   TM  token tile (8 or 16 tokens per CTA); M > TM runs ceil(M/TM) token tiles
//   W   warps per CTA (8, 12 or 16), one CTA per SM; each CTA owns whole 16-row n-blocks
//       over the full K and its warps split them along K (no workspace, no split-K
//       across CTAs).
//   P   1: each weight block is also requested into L2 one ring depth (8 items) before its
//       register load; 0: off.
// Serves 16-bit activations (f16, bf16) with 4-bit weights (u4b8; u4 with or without
// zero points), no groups or groups that are a multiple of 64 (64, 128, 256, ..., K).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/gemm_params.h"

typedef struct CUstream_st* cudaStream_t;

namespace mixgemm::kernels {

struct FullkConfig {
  int token_tile = 8;  // 8 or 16
  int warps = 16;      // 8, 12 or 16
  int l2_prefetch = 1;  // 0 or 1

  std::string name() const;  // "smallm_fullk_t8_w16_p1"
  friend bool operator==(const FullkConfig& x, const FullkConfig& y) {
    return x.token_tile == y.token_tile && x.warps == y.warps && x.l2_prefetch == y.l2_prefetch;
  }
};

// Inverse of FullkConfig::name(); false (cfg untouched) for any other string.
bool fullk_parse_name(std::string_view name, FullkConfig* cfg);

// Every schedule of the family for an (activation, weight) pair; empty where it does not run.
std::vector<FullkConfig> fullk_configs(AType a, BType b);

// Shared-memory bytes of one CTA at M tokens (the tile's activation rows, whole K, and one
// partial tile per n-block and warp); the schedule serves shapes where this fits an SM.
int64_t fullk_smem_bytes(int64_t M, int64_t K, int64_t max_nb_per_cta, const FullkConfig& cfg);

// Shape / type / alignment legality, pure host checks (no CUDA call).
bool fullk_can_implement(const GemmParams& p, const FullkConfig& cfg, std::string* why);

// Tokens up to which gemm() runs this family (M = 1, 2: the activations it stages per CTA,
// M x K x 2 bytes, cost more than its gain beyond; docs/design-smallm.md, "Session 14").
inline constexpr int64_t kFullkMaxTokens = 2;

// The heuristic: the schedule gemm() runs for this problem, if the family serves it (M <=
// kFullkMaxTokens, 16-bit activations, 4-bit weights, groups of 64 k or more, shared memory).
// Pure function.
bool fullk_pick(int64_t M, int64_t N, int64_t K, int sm_count, AType a, BType b, int64_t group_size,
                FullkConfig* cfg);

// Asynchronous launch on `stream` (nothing when M == 0); no workspace. Throws
// mixgemm::Error (kNotSupported) when !fullk_can_implement, (kCudaError) when the launch fails.
void launch_smallm_fullk(const GemmParams& p, const FullkConfig& cfg, cudaStream_t stream);

}  // namespace mixgemm::kernels
