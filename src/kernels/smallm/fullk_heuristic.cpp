// fullk_heuristic.cpp - the fullk family's pure host side: schedule names, the config list,
// legality, shared-memory size and the pick. No CUDA call and no CUDA type here, so all of
// it runs in the CPU tests.
#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>

#include "kernels/smallm/fullk.h"
#include "kernels/smallm/fullk_kernel_params.h"

namespace mixgemm::kernels {

namespace {


// n-blocks of the largest CTA: CTA c owns [c NB / C, (c+1) NB / C) with C = min(NB, SMs).
int64_t nb_per_cta(const GemmParams& p) {
  const int64_t NB = p.N / 16, C = std::max<int64_t>(1, std::min<int64_t>(NB, p.sm_count > 0 ? p.sm_count : 1));
  return (NB + C - 1) / C;
}

bool valid_config(const FullkConfig& c) {
  return (c.token_tile == 8 || c.token_tile == 16) && (c.warps == 8 || c.warps == 12 || c.warps == 16) &&
         (c.l2_prefetch == 0 || c.l2_prefetch == 1);
}

}  // namespace

std::string FullkConfig::name() const {
  return "smallm_fullk_t" + std::to_string(token_tile) + "_w" + std::to_string(warps) + "_p" +
         std::to_string(l2_prefetch);
}

bool fullk_parse_name(std::string_view name, FullkConfig* cfg) {
  int tm = 0, w = 0, pf = 0;
  char tail = 0;
  const std::string s(name);
  if (std::sscanf(s.c_str(), "smallm_fullk_t%d_w%d_p%d%c", &tm, &w, &pf, &tail) != 3) return false;
  const FullkConfig c{tm, w, pf};
  if (!valid_config(c) || c.name() != s) return false;
  if (cfg) *cfg = c;
  return true;
}

std::vector<FullkConfig> fullk_configs(AType a, BType b) {
  if (!is_a16(a) || weight_bits(b) != 4) return {};
  return {{8, 16, 1}, {8, 12, 1}, {8, 8, 1}, {16, 16, 1}, {16, 8, 1}, {8, 16, 0}, {8, 8, 0}};
}

int64_t fullk_smem_bytes(int64_t M, int64_t K, int64_t max_nb_per_cta, const FullkConfig& cfg) {
  const int nt = cfg.token_tile / 8;
  const int64_t rows = std::min<int64_t>(std::max<int64_t>(M, 1), cfg.token_tile);
  // Partial tiles: one slot per (n-block of the CTA) + (warp) index (fullk_gemm.cuh, flush),
  // for the largest n-block count a CTA gets on the largest GPU the launcher sees.
  return rows * smallm::fullk_act_stride(K) + (max_nb_per_cta + cfg.warps) * nt * 512;
}

bool fullk_can_implement(const GemmParams& p, const FullkConfig& cfg, std::string* why) {
  std::ostringstream os;
  auto aligned = [](const void* q) { return (reinterpret_cast<uintptr_t>(q) & 15) == 0; };
  if (!valid_config(cfg)) os << "fullk: not a schedule of the family: " << cfg.name();
  else if (!is_a16(p.a_type) || weight_bits(p.b_type) != 4)
    os << "fullk: serves f16/bf16 activations with 4-bit weights only";
  else if (p.M < 0 || p.N <= 0 || p.K <= 0 || p.N % 16 != 0 || p.K % 64 != 0)
    os << "fullk: N must be a positive multiple of 16 and K of 64 (N=" << p.N << ", K=" << p.K << ")";
  else if (p.group_size != 0 && p.group_size % 64 != 0)
    os << "fullk: group_size must be 0 or a multiple of 64 (got " << p.group_size << ")";
  else if (p.has_zeros && !is_unsigned(p.b_type))
    os << "fullk: zero points only with u4 weights";
  else if (!aligned(p.a) || !aligned(p.b) || (p.group_scales && !aligned(p.group_scales)) ||
           (p.group_zeros && !aligned(p.group_zeros)) || (p.lda * 2) % 16 != 0)
    os << "fullk: a, b, scales, zeros and lda * 2 bytes must be 16-byte aligned";
  else if (fullk_smem_bytes(p.M, p.K, nb_per_cta(p), cfg) > smallm::kFullkMaxSmem)
    os << "fullk: " << cfg.name() << " needs " << fullk_smem_bytes(p.M, p.K, nb_per_cta(p), cfg) << " bytes of shared memory";
  const std::string s = os.str();
  if (!s.empty()) {
    if (why) *why = s;
    return false;
  }
  return true;
}

bool fullk_pick(int64_t M, int64_t N, int64_t K, int sm_count, AType a, BType b, int64_t group_size,
                FullkConfig* cfg) {
  if (M < 1 || M > kFullkMaxTokens || N <= 0 || K <= 0) return false;
  // Whole n-blocks per CTA: up to 3 (N <= 3 x 16 x SMs, e.g. 4096 and 6144 on 132 SMs) the
  // 8-warp CTA is fastest (its warps' ranges are longer: fewer segments and partial tiles),
  // above that 16 warps (s14 timing: 4096 x 4096 14.9 vs 15.5 us, 57344 x 8192 79.4 vs 94.3).
  const int64_t NB = N / 16, C = std::max<int64_t>(1, std::min<int64_t>(NB, sm_count > 0 ? sm_count : 1));
  const FullkConfig c{8, (NB + C - 1) / C <= 3 ? 8 : 16, 1};
  GemmParams p{};
  p.M = static_cast<int32_t>(M);
  p.N = static_cast<int32_t>(N);
  p.K = static_cast<int32_t>(K);
  p.lda = K;
  p.ldo = N;
  p.a_type = a;
  p.b_type = b;
  p.group_size = static_cast<int32_t>(group_size);
  p.sm_count = sm_count;
  if (!fullk_can_implement(p, c, nullptr)) return false;  // types, group size, shared memory
  if (cfg) *cfg = c;
  return true;
}

}  // namespace mixgemm::kernels
