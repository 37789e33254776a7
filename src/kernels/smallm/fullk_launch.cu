// fullk_launch.cu - host side and the instances of the whole-column small-M kernel.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <sstream>
#include <tuple>

#include "kernels/smallm/fullk.h"
#include "kernels/smallm/fullk_gemm.cuh"
#include "mixgemm/error.h"

namespace mixgemm::kernels {

namespace {

using FullkKernelFn = void (*)(smallm::FullkParams);

FullkKernelFn pick_kernel(AType a, int tm) {
  if (a == AType::kF16) return tm == 8 ? smallm::smallm_fullk_kernel<AType::kF16, 1> : smallm::smallm_fullk_kernel<AType::kF16, 2>;
  if (a == AType::kBF16) return tm == 8 ? smallm::smallm_fullk_kernel<AType::kBF16, 1> : smallm::smallm_fullk_kernel<AType::kBF16, 2>;
  return nullptr;
}

constexpr int64_t kMaxSmemPerBlock = 227 * 1024;

bool valid_config(const FullkConfig& c) {
  return (c.token_tile == 8 || c.token_tile == 16) && (c.warps == 8 || c.warps == 12 || c.warps == 16);
}

// Raises the kernel's dynamic shared-memory limit once per (kernel, device). Host-side
// only (no stream operation): safe during graph capture.
void allow_smem(FullkKernelFn fn) {
  static std::mutex mu;
  static std::map<std::pair<const void*, int>, bool> done;
  int dev = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e != cudaSuccess) throw Error(ErrorCode::kCudaError, std::string("mixgemm fullk: cudaGetDevice: ") + cudaGetErrorString(e));
  std::lock_guard<std::mutex> lock(mu);
  const auto key = std::make_pair(reinterpret_cast<const void*>(fn), dev);
  if (done.count(key)) return;
  e = cudaFuncSetAttribute(reinterpret_cast<const void*>(fn), cudaFuncAttributeMaxDynamicSharedMemorySize,
                           static_cast<int>(kMaxSmemPerBlock));
  if (e != cudaSuccess)
    throw Error(ErrorCode::kCudaError, std::string("mixgemm fullk: cudaFuncSetAttribute: ") + cudaGetErrorString(e));
  done[key] = true;
}

}  // namespace

std::string FullkConfig::name() const {
  return "smallm_fullk_t" + std::to_string(token_tile) + "_w" + std::to_string(warps);
}

bool fullk_parse_name(std::string_view name, FullkConfig* cfg) {
  int tm = 0, w = 0;
  char tail = 0;
  const std::string s(name);
  if (std::sscanf(s.c_str(), "smallm_fullk_t%d_w%d%c", &tm, &w, &tail) != 2) return false;
  const FullkConfig c{tm, w};
  if (!valid_config(c) || c.name() != s) return false;
  if (cfg) *cfg = c;
  return true;
}

std::vector<FullkConfig> fullk_configs(AType a, BType b) {
  if (!is_a16(a) || weight_bits(b) != 4) return {};
  return {{8, 16}, {8, 12}, {8, 8}, {16, 16}, {16, 8}};
}

int64_t fullk_smem_bytes(int64_t M, const FullkConfig& cfg) {
  const int nt = cfg.token_tile / 8;
  const int64_t rows = std::min<int64_t>(std::max<int64_t>(M, 1), cfg.token_tile);
  return int64_t{cfg.warps} * smallm::fullk_depth(nt) * smallm::fullk_slot_bytes(static_cast<int>(rows)) +
         int64_t{cfg.warps} * nt * 512;
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
  else if (fullk_smem_bytes(p.M, cfg) > kMaxSmemPerBlock)
    os << "fullk: " << cfg.name() << " needs " << fullk_smem_bytes(p.M, cfg) << " bytes of shared memory";
  const std::string s = os.str();
  if (!s.empty()) {
    if (why) *why = s;
    return false;
  }
  return true;
}

void launch_smallm_fullk(const GemmParams& p, const FullkConfig& cfg, cudaStream_t stream) {
  if (p.M == 0) return;
  std::string why;
  if (!fullk_can_implement(p, cfg, &why)) throw Error(ErrorCode::kNotSupported, why);
  const FullkKernelFn fn = pick_kernel(p.a_type, cfg.token_tile);
  allow_smem(fn);
  const int nt = cfg.token_tile / 8;
  const int rows = std::min(p.M, cfg.token_tile);
  smallm::FullkParams k{};
  k.a = static_cast<const uint8_t*>(p.a);
  k.b = static_cast<const uint8_t*>(p.b);
  k.scales = p.group_size > 0 ? static_cast<const uint8_t*>(p.group_scales) : nullptr;
  k.zeros = p.has_zeros ? static_cast<const uint8_t*>(p.group_zeros) : nullptr;
  k.ch = p.channel_scales;
  k.tok = p.token_scales;
  k.bias = static_cast<const uint8_t*>(p.bias);
  k.out = static_cast<uint8_t*>(p.out);
  k.lda_bytes = p.lda * 2;
  k.ldo = p.ldo;
  k.M = p.M;
  k.N = p.N;
  k.K = p.K;
  k.NB = p.N / 16;
  k.KBn = p.K / 64;
  const int sms = p.sm_count > 0 ? p.sm_count : 1;
  k.C = std::min(k.NB, sms);
  // Groups: scales (and zero points, which share the group size; per-channel zero points
  // without scales are one group of K).
  const bool groups = p.group_size > 0 || p.has_zeros;
  const int gs = p.group_size > 0 ? p.group_size : p.K;
  k.mode = groups ? smallm::kScaleBlock : smallm::kScaleNone;
  k.gkb = groups ? gs / 64 : (1 << 30);
  k.slot_bytes = smallm::fullk_slot_bytes(rows);
  k.red_off = cfg.warps * smallm::fullk_depth(nt) * k.slot_bytes;
  k.has_scales = p.group_size > 0;
  k.has_zeros = p.has_zeros;
  k.b_unsigned = is_unsigned(p.b_type);
  k.out_bf16 = p.out_type == OutType::kBF16;
  const dim3 grid(static_cast<unsigned>(k.C), static_cast<unsigned>((p.M + cfg.token_tile - 1) / cfg.token_tile));
  const dim3 block(static_cast<unsigned>(cfg.warps * 32));
  void* args[] = {&k};
  cudaError_t e = cudaLaunchKernel(reinterpret_cast<const void*>(fn), grid, block, args,
                                   static_cast<size_t>(fullk_smem_bytes(p.M, cfg)), stream);
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) throw Error(ErrorCode::kCudaError, std::string("mixgemm fullk: kernel launch: ") + cudaGetErrorString(e));
}

}  // namespace mixgemm::kernels
