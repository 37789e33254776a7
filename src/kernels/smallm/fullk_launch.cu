// fullk_launch.cu - host side and the instances of the whole-column small-M kernel.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>

#include "kernels/smallm/fullk.h"
#include "kernels/smallm/fullk_gemm.cuh"
#include "mixgemm/error.h"

namespace mixgemm::kernels {

namespace {

using FullkKernelFn = void (*)(smallm::FullkParams);

template <AType A, int kNT>
FullkKernelFn pick_variant(bool uns, int var) {
  using namespace smallm;
  if (!uns) return var == kFullkScaled ? smallm_fullk_kernel<A, kNT, false, kFullkScaled>
                                       : smallm_fullk_kernel<A, kNT, false, kFullkPlain>;
  return var == kFullkZeroed   ? smallm_fullk_kernel<A, kNT, true, kFullkZeroed>
         : var == kFullkScaled ? smallm_fullk_kernel<A, kNT, true, kFullkScaled>
                               : smallm_fullk_kernel<A, kNT, true, kFullkPlain>;
}

FullkKernelFn pick_kernel(AType a, int tm, bool uns, int var) {
  if (a == AType::kF16) return tm == 8 ? pick_variant<AType::kF16, 1>(uns, var) : pick_variant<AType::kF16, 2>(uns, var);
  if (a == AType::kBF16) return tm == 8 ? pick_variant<AType::kBF16, 1>(uns, var) : pick_variant<AType::kBF16, 2>(uns, var);
  return nullptr;
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
                           static_cast<int>(smallm::kFullkMaxSmem));
  if (e != cudaSuccess)
    throw Error(ErrorCode::kCudaError, std::string("mixgemm fullk: cudaFuncSetAttribute: ") + cudaGetErrorString(e));
  done[key] = true;
}

}  // namespace

void launch_smallm_fullk(const GemmParams& p, const FullkConfig& cfg, cudaStream_t stream) {
  if (p.M == 0) return;
  std::string why;
  if (!fullk_can_implement(p, cfg, &why)) throw Error(ErrorCode::kNotSupported, why);
  const int var = p.has_zeros ? smallm::kFullkZeroed : p.group_size > 0 ? smallm::kFullkScaled : smallm::kFullkPlain;
  const FullkKernelFn fn = pick_kernel(p.a_type, cfg.token_tile, is_unsigned(p.b_type), var);
  allow_smem(fn);
  const int rows = std::min(p.M, cfg.token_tile);
  const int64_t NB = p.N / 16, C = std::min<int64_t>(NB, p.sm_count > 0 ? p.sm_count : 1);
  const int64_t smem = fullk_smem_bytes(p.M, p.K, (NB + C - 1) / C, cfg);
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
  k.gkb = groups ? gs / 64 : (1 << 30);
  if (!groups || k.gkb >= k.KBn) {  // one group per column (or none): the group never changes
    k.gshift = 30;
    k.gmask = 0x7fffffff;
  } else if ((k.gkb & (k.gkb - 1)) == 0) {
    k.gshift = 0;
    while ((1 << k.gshift) < k.gkb) ++k.gshift;
    k.gmask = k.gkb - 1;
  } else {
    k.gshift = -1;
    k.gmask = 0x7fffffff;
  }
  k.act_stride = static_cast<int32_t>(smallm::fullk_act_stride(p.K));
  k.red_off = rows * k.act_stride;
  k.l2_prefetch = static_cast<uint8_t>(cfg.l2_prefetch);
  k.has_scales = p.group_size > 0;
  k.has_zeros = p.has_zeros;
  k.b_unsigned = is_unsigned(p.b_type);
  k.out_bf16 = p.out_type == OutType::kBF16;
  const dim3 grid(static_cast<unsigned>(k.C), static_cast<unsigned>((p.M + cfg.token_tile - 1) / cfg.token_tile));
  const dim3 block(static_cast<unsigned>(cfg.warps * 32));
  void* args[] = {&k};
  cudaError_t e = cudaLaunchKernel(reinterpret_cast<const void*>(fn), grid, block, args,
                                   static_cast<size_t>(smem), stream);
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) throw Error(ErrorCode::kCudaError, std::string("mixgemm fullk: kernel launch: ") + cudaGetErrorString(e));
}

}  // namespace mixgemm::kernels
