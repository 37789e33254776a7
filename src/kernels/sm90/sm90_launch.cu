// sm90_launch.cu - host launcher of the sm90 family: checks, the activation tensor
// map, the persistent grid.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "core/env_switch.h"
#include "core/print_config.h"
#include "kernels/cluster_launch.h"
#include "kernels/sm90/sm90.h"
#include "kernels/sm90/sm90_common.cuh"
#include "kernels/sm90/sm90_instances.h"
#include "kernels/sm90/sm90_trace.h"
#include "kernels/workspace_layout.h"
#include "mixgemm/error.h"

namespace mixgemm::kernels {

namespace {

[[noreturn]] void cuda_fail(const char* what, cudaError_t e) {
  throw Error(ErrorCode::kCudaError, std::string("mixgemm sm90: ") + what + ": " + cudaGetErrorString(e));
}

bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; }

// The compiled instance for (a, b, cfg); fn == nullptr when this build has none.
sm90::Sm90KernelInfo find_instance(AType a, BType b, const Sm90Config& cfg) {
  for (int i = 0; i < sm90::kSm90InstanceCount; ++i) {
    const auto& in = sm90::kSm90Instances[i];
    if (in.a == a && in.wbits == weight_bits(b) && in.tile_n == cfg.tile_n && in.tile_t == cfg.tile_t)
      return in.info();
  }
  return {nullptr, 0, nullptr, nullptr};
}

// A driver function by name and ABI version through the runtime (this file links no libcuda);
// nullptr where the driver does not give it.
void* driver_entry_point(const char* name, unsigned version) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult q{};
  if (cudaGetDriverEntryPointByVersion(name, &p, version, cudaEnableDefault, &q) != cudaSuccess ||
      q != cudaDriverEntryPointSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return p;
}

PFN_cuTensorMapEncodeTiled_v12000 encode_fn() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* p = driver_entry_point("cuTensorMapEncodeTiled", 12000);
    if (!p) throw Error(ErrorCode::kCudaError, "mixgemm sm90: cuTensorMapEncodeTiled is not available from the driver");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}

// Whether this host thread has a current driver context (cuCtxGetCurrent through its entry point;
// where the driver does not give it, "no", which binds the primary context as before session 102).
bool has_current_context() {
  static const auto get = reinterpret_cast<PFN_cuCtxGetCurrent_v4000>(driver_entry_point("cuCtxGetCurrent", 4000));
  CUcontext c = nullptr;
  return get != nullptr && get(&c) == CUDA_SUCCESS && c != nullptr;
}

}  // namespace

bool sm90_can_implement(const GemmParams& p, const Sm90Config& cfg, std::string* why, Sm90SplitMode mode) {
  if (!sm90_shape_ok(p.M, p.N, p.K, p.a_type, p.b_type, p.group_size, cfg, why)) return false;
  auto fail = [&](const std::string& w) {
    if (why) *why = w;
    return false;
  };
  if (!find_instance(p.a_type, p.b_type, cfg).fn) return fail(cfg.name() + " is not compiled in this build");
  if (!aligned16(p.a) || !aligned16(p.b) || !aligned16(p.out))
    return fail("a, b and out must be 16-byte aligned");
  if (p.group_size > 0 && !aligned16(p.group_scales)) return fail("group_scales must be 16-byte aligned");
  if (p.has_zeros && !aligned16(p.group_zeros)) return fail("group_zeros must be 16-byte aligned");
  if (p.lda % 8 != 0 || p.ldo % 8 != 0) return fail("lda and ldo must be multiples of 8 elements");
  const size_t ws =
      sm90_workspace_bytes(p.M, p.N, p.K, cfg, p.sm_count > 0 ? p.sm_count : 1, p.a_type, p.b_type, mode);
  if (ws > 0 && (p.workspace == nullptr || p.workspace_bytes < ws || !aligned16(p.workspace)))
    return fail("the workspace must hold " + std::to_string(ws) + " bytes (16-byte aligned)");
  return true;
}

void launch_sm90(const GemmParams& p, const Sm90Config& cfg, cudaStream_t stream, Sm90SplitMode split_mode,
                 Sm90Exchange exchange) {
  if (p.M == 0) return;
  std::string why;
  if (!sm90_can_implement(p, cfg, &why, split_mode)) throw Error(ErrorCode::kNotSupported, "sm90: " + why);
  // How the group scales / zero points are staged. Group rows: group_size 0 with zero points
  // is one row per column (G = 1, gs = K).
  const bool grouped = p.group_size > 0;
  const int gs = grouped ? p.group_size : p.K;
  const sm90::Sm90ScaleMode mode = !grouped && !p.has_zeros ? sm90::kSm90ScaleNone
                                   : gs % 64 == 0           ? sm90::kSm90ScaleBlock
                                                            : sm90::kSm90ScaleStep;
  const sm90::Sm90KernelInfo info = find_instance(p.a_type, p.b_type, cfg);
  // GPTQ's variant (biased weights, one group row per 64-k block) and the per-channel one
  // (biased weights, no group scales or zero points) have kernels of their own on the tiles
  // that otherwise read the variant at run time (sm90_info).
  const bool biased = !is_unsigned(p.b_type);
  const bool gptq_variant = mode == sm90::kSm90ScaleBlock && !p.has_zeros && biased;
  const bool plain_variant = mode == sm90::kSm90ScaleNone && biased;
  const bool awq_variant = mode == sm90::kSm90ScaleBlock && !biased;  // fn_awq: 4-bit weights only
  const sm90::Sm90KernelFn fn = gptq_variant && info.fn_gptq     ? info.fn_gptq
                                : plain_variant && info.fn_plain ? info.fn_plain
                                : awq_variant && info.fn_awq     ? info.fn_awq
                                                                 : info.fn;
  const int smem = info.smem_bytes;
  {
    // Raise the dynamic shared-memory limit once per (kernel, device).
    static std::mutex mu;
    static std::vector<std::pair<const void*, int>> done;
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) cuda_fail("cudaGetDevice", e);
    // The driver's cuTensorMapEncodeTiled below needs a current context, and a fresh thread has
    // none until a runtime call binds one: then cudaSetDevice binds the device's primary context.
    // Only then: where the caller made a context current (a CUDA green context's, say),
    // cudaSetDevice would replace it by the primary one, and the caller's later runtime calls on
    // this thread would leave its partition (session 102: GemmApi.GreenContextStreams; it did so
    // on every launch before). Not a stream operation: fine inside graph capture.
    if (!has_current_context()) {
      e = cudaSetDevice(dev);
      if (e != cudaSuccess) cuda_fail("cudaSetDevice", e);
    }
    std::lock_guard<std::mutex> lock(mu);
    const auto key = std::make_pair(reinterpret_cast<const void*>(fn), dev);
    if (std::find(done.begin(), done.end(), key) == done.end()) {
      e = cudaFuncSetAttribute(reinterpret_cast<const void*>(fn), cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
      if (e != cudaSuccess) cuda_fail("cudaFuncSetAttribute", e);
      done.push_back(key);
    }
  }

  const int sm_count = p.sm_count > 0 ? p.sm_count : 1;
  sm90::Sm90KernelParams k{};
  {
    // Activations [M][lda]: dims (K, M) innermost first, row stride lda * element bytes;
    // box 64 k x tile_t tokens; 128-byte (16-bit) or 64-byte (8-bit) swizzle, wgmma's B
    // layout. 8-bit activations (s8, e4m3): 64-byte rows, the 64-byte swizzle.
    // The last token tile, when M is not a multiple of the token tile and a full box would
    // zero-fill enough rows (sm90_tail_box_for), also gets a map whose box holds the M % tile_t
    // rows that exist (act_tail_map, sm90_kernel_params.h): TMA's zero fill of a full box's rows
    // past M costs time (bench/results/2026-12-03-h200/s52-tail/, s64-tailbox/).
    const bool a8 = p.a_type == AType::kS8 || p.a_type == AType::kE4M3;
    auto encode_act = [&](CUtensorMap* map, int rows, const char* which) {
      const cuuint64_t dims[2] = {static_cast<cuuint64_t>(p.K), static_cast<cuuint64_t>(p.M)};
      const cuuint64_t strides[1] = {static_cast<cuuint64_t>(p.lda) * (a8 ? 1 : 2)};
      const cuuint32_t box[2] = {static_cast<cuuint32_t>(sm90::kKBlock), static_cast<cuuint32_t>(rows)};
      const cuuint32_t estr[2] = {1, 1};
      const CUresult r = encode_fn()(map,
                                     a8                         ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                                     : p.a_type == AType::kBF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                                                : CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
                                     2, const_cast<void*>(p.a), dims, strides, box, estr,
                                     CU_TENSOR_MAP_INTERLEAVE_NONE,
                                     a8 ? CU_TENSOR_MAP_SWIZZLE_64B : CU_TENSOR_MAP_SWIZZLE_128B,
                                     CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
      if (r != CUDA_SUCCESS)
        throw Error(ErrorCode::kCudaError, std::string("mixgemm sm90: cuTensorMapEncodeTiled (") + which +
                                               ") failed (" + std::to_string(r) + ")");
    };
    encode_act(&k.act_map, cfg.tile_t, "activations");
    const int tail_rows = static_cast<int>(p.M % cfg.tile_t);
    k.tail_tt = -1;
    k.tail_act_bytes = 0;
    const int act_bytes = a8 ? 1 : 2;
    if (sm90::sm90_tail_box_for(cfg.tile_t, act_bytes, p.M)) {
      encode_act(&k.act_tail_map, tail_rows, "activations, last token tile");
      k.tail_tt = static_cast<int32_t>((p.M + cfg.tile_t - 1) / cfg.tile_t - 1);
      k.tail_act_bytes = static_cast<uint32_t>(tail_rows * sm90::kKBlock * act_bytes);
    }
  }
  {
    // Output [M][ldo] 16-bit: dims (N, M), row stride ldo * 2 bytes (ldo % 8 == 0: 16-byte rows),
    // box 64 columns x sm90_out_box_tokens(tile_t) tokens (a token half from 128 up) with the 128-byte swizzle (the epilogue's staging layout); the
    // TMA store clips rows past M and columns past N.
    const cuuint64_t dims[2] = {static_cast<cuuint64_t>(p.N), static_cast<cuuint64_t>(p.M)};
    const cuuint64_t strides[1] = {static_cast<cuuint64_t>(p.ldo) * 2};
    const cuuint32_t box[2] = {64, static_cast<cuuint32_t>(sm90::sm90_out_box_tokens(cfg.tile_t))};
    const cuuint32_t estr[2] = {1, 1};
    const CUresult r = encode_fn()(&k.out_map,
                                   p.out_type == OutType::kBF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                                                : CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
                                   2, p.out, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                   CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
      throw Error(ErrorCode::kCudaError, "mixgemm sm90: cuTensorMapEncodeTiled (output) failed (" + std::to_string(r) + ")");
  }
  const Sm90Split split = sm90_split(p.M, p.N, p.K, cfg, sm_count, p.a_type, p.b_type, split_mode);
  const int64_t n_tiles = (p.N + cfg.tile_n - 1) / cfg.tile_n;
  const int64_t t_tiles = (p.M + cfg.tile_t - 1) / cfg.tile_t;
  const int64_t tiles = n_tiles * t_tiles;
  const sm90::Sm90Part part = sm90::sm90_make_part(
      static_cast<int>(split.whole), split.splits, static_cast<int>(p.K / 64), split.stream,
      static_cast<uint32_t>(split.stream > 0 ? (tiles - split.whole) * (p.K / 64) : 0));
  const int64_t units = sm90::sm90_unit_count(tiles, part);
  if (units > INT32_MAX || tiles > INT32_MAX) throw Error(ErrorCode::kNotSupported, "sm90: too many tiles");
  k.b = static_cast<const uint8_t*>(p.b);
  k.scales = grouped ? static_cast<const uint8_t*>(p.group_scales) : nullptr;
  k.zeros = p.has_zeros ? static_cast<const uint8_t*>(p.group_zeros) : nullptr;
  k.ch = p.channel_scales;
  k.tok = p.token_scales;
  k.bias = static_cast<const uint8_t*>(p.bias);
  k.out = static_cast<uint8_t*>(p.out);
  if (split.splits > 1 || split.stream > 0) {
    // The shared workspace layout (kernels/workspace_layout.h): counters at 0 (one per split
    // or streamed tile), which the kernel leaves zero, partials behind the whole counter area.
    if (tiles - split.whole > kWorkspaceMaxCounters) throw Error(ErrorCode::kNotSupported, "sm90: too many split tiles");
    k.counters = static_cast<int32_t*>(p.workspace);
    k.partials = reinterpret_cast<float*>(static_cast<uint8_t*>(p.workspace) + kWorkspaceCounterBytes);
  }
  k.ldo = p.ldo;
  k.b_kstride = static_cast<int64_t>(p.N / 16) * layout::kBlockBytes;
  k.M = p.M;
  k.N = p.N;
  k.K = p.K;
  k.NB = p.N / 16;
  k.n_tiles = static_cast<int32_t>(n_tiles);
  k.t_tiles = static_cast<int32_t>(t_tiles);
  k.tiles = static_cast<int32_t>(tiles);
  k.units = static_cast<int32_t>(units);
  k.part = part;
  if (n_tiles >= 2) k.n_tiles_div = make_fast_div(static_cast<uint32_t>(n_tiles));
  k.gs = gs;
  if (gs >= 2) k.gs_div = make_fast_div(static_cast<uint32_t>(gs));
  k.has_scales = grouped;
  k.has_zeros = p.has_zeros;
  k.mode = mode;
  k.srows = mode == sm90::kSm90ScaleNone ? 0 : mode == sm90::kSm90ScaleBlock ? 1 : 64 / gs;
  k.b_unsigned = is_unsigned(p.b_type);
  k.out_bf16 = p.out_type == OutType::kBF16;
  // MIXGEMM_SM90_EXCHANGE=0: the exchange off without a rebuild (A/B timing), read once.
  static const bool exchange_env_off = core::env_equals("MIXGEMM_SM90_EXCHANGE", "0");
  k.split_exchange = exchange == Sm90Exchange::kOff || exchange_env_off ? 0 : exchange == Sm90Exchange::kOn ? 1 : 2;

  // Stream-K: exactly `stream` CTAs (their ranges are what sm90_partition.h decodes).
  const unsigned grid = static_cast<unsigned>(split.stream > 0 ? split.stream : std::min<int64_t>(units, sm_count));
#ifdef MIXGEMM_SM90_TRACE
  const sm90::Sm90TraceLaunch trace = sm90::sm90_trace_begin(
      std::to_string(p.M) + " " + std::to_string(p.N) + " " + std::to_string(p.K) + " a" +
          std::to_string(static_cast<int>(p.a_type)) + " b" + std::to_string(static_cast<int>(p.b_type)) + " " +
          cfg.name() + " mode" + std::to_string(mode) + " splits" + std::to_string(split.splits) + " stream" +
          std::to_string(split.stream),
      stream);
  k.trace = trace.buf;
#endif
  void* args[] = {&k};
  // MIXGEMM_SM90_CLUSTER_LAUNCH=2 (a diagnostic, read once): launch an even grid as 2-CTA clusters, the
  // kernel unchanged (it uses no cluster feature). Session 35's cluster exchange ran every CTA's mainloop
  // 15% longer (s35-cluster-trace/); this tells whether the clustered launch alone does that.
  static const bool cluster_launch = core::env_equals("MIXGEMM_SM90_CLUSTER_LAUNCH", "2");
  cudaError_t e;
  if (cluster_launch && grid % 2 == 0) {
    cudaLaunchConfig_t lc{};
    lc.gridDim = dim3(grid);
    lc.blockDim = dim3(sm90::kThreads);
    lc.dynamicSmemBytes = static_cast<size_t>(smem);
    lc.stream = stream;
    cudaLaunchAttribute a = cluster_dim_attr(2);
    lc.attrs = &a;
    lc.numAttrs = 1;
    e = cudaLaunchKernelExC(&lc, reinterpret_cast<const void*>(fn), args);
  } else {
    e = cudaLaunchKernel(reinterpret_cast<const void*>(fn), dim3(grid), dim3(sm90::kThreads), args,
                         static_cast<size_t>(smem), stream);
  }
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) cuda_fail("kernel launch", e);
#ifdef MIXGEMM_SM90_TRACE
  sm90::sm90_trace_end(trace, grid, stream);
#endif
  // MIXGEMM_PRINT_CONFIG=1 (gemm() prints the schedule): also how this launch splits K.
  if (core::print_config_enabled()) {
    if (split.stream > 0)
      std::fprintf(stderr, "[mixgemm]   %s: %u CTAs, %lld tiles: %lld whole, %lld streamed (stream-K, %u k-blocks)\n",
                   cfg.name().c_str(), grid, static_cast<long long>(tiles), static_cast<long long>(split.whole),
                   static_cast<long long>(tiles - split.whole), part.stream_blocks);
    else
      std::fprintf(stderr, "[mixgemm]   %s: %u CTAs, %lld tiles: %lld whole, %lld in %d k-parts\n", cfg.name().c_str(),
                   grid, static_cast<long long>(tiles), static_cast<long long>(split.whole),
                   static_cast<long long>(tiles - split.whole), split.splits);
  }
}

}  // namespace mixgemm::kernels
