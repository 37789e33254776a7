// smallm_launch.cu - host launcher of the small-M kernel family.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "core/env_switch.h"
#include "core/print_config.h"
#include "kernels/cluster_launch.h"
#include "kernels/smallm/smallm.h"
#include "kernels/smallm/smallm_geometry.h"
#include "kernels/smallm/smallm_instances.h"
#include "kernels/smallm/smallm_kernel_params.h"
#include "mixgemm/error.h"
#include "mixgemm/layout.h"

namespace mixgemm::kernels {

namespace {

namespace sh = smallm_host;
static_assert(sh::kBlockBytes == layout::kBlockBytes, "block size");

// The kernel of (activation, weights, token tile) for the launch's scale mode (smallm_variant_of).
smallm::SmallmKernelFn pick_kernel(AType a, BType b, int tm, int mode) {
  const int wbits = sh::weight_bits(b);
  const int v = smallm::smallm_variant_of(mode, sh::is_unsigned(b));
  if (sh::is_a16(a))
    return wbits == 4 ? smallm::smallm_kernel_w4a16(a, tm, v) : smallm::smallm_kernel_w8a16(a, tm, v);
  return wbits == 4 ? smallm::smallm_kernel_w4a8(a, tm, v) : nullptr;
}

smallm::SmallmKernelFn pick_reduce_kernel(AType a, int tm) {
  return sh::is_a16(a) ? smallm::smallm_reduce_a16(a, tm) : smallm::smallm_reduce_a8(a, tm);
}

// kAuto: deferred unless MIXGEMM_SMALLM_DEFER=0.
bool defer_reduction(SmallmReduce r) {
  if (r != SmallmReduce::kAuto) return r == SmallmReduce::kDeferred;
  static const bool on = !core::env_equals("MIXGEMM_SMALLM_DEFER", "0");
  return on;
}

[[noreturn]] void cuda_fail(const char* what, cudaError_t e) {
  throw Error(ErrorCode::kCudaError, std::string("mixgemm smallm: ") + what + ": " + cudaGetErrorString(e));
}

// Resident CTAs per SM of `fn` with `smem` dynamic bytes, per device, cached per (kernel, device,
// threads, smem); a cache miss also raises the kernel's dynamic shared-memory limit (and, in builds
// with clusters > 8, allows them). Host-side queries only (no stream operation, no
// synchronization): safe during graph capture.
int resident_ctas(smallm::SmallmKernelFn fn, int threads, int64_t smem) {
  static std::mutex mu;
  static std::map<std::tuple<const void*, int, int, int64_t>, int> cache;
  int dev = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e != cudaSuccess) cuda_fail("cudaGetDevice", e);
  const auto key = std::make_tuple(reinterpret_cast<const void*>(fn), dev, threads, smem);
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  // The per-block limit (227 KiB) covers static and dynamic shared memory together, so the
  // dynamic ceiling is what the kernel's static __shared__ variables leave of it.
  cudaFuncAttributes attr{};
  e = cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(fn));
  if (e != cudaSuccess) cuda_fail("cudaFuncGetAttributes", e);
  e = cudaFuncSetAttribute(reinterpret_cast<const void*>(fn), cudaFuncAttributeMaxDynamicSharedMemorySize,
                           static_cast<int>(sh::kMaxSmemPerBlock - static_cast<int64_t>(attr.sharedSizeBytes)));
  if (e != cudaSuccess) cuda_fail("cudaFuncSetAttribute", e);
  // Clusters larger than 8 (experiment builds, MIXGEMM_SMALLM_CLUSTER_MAX > 8) are a non-portable
  // size the kernel must opt into; done here, on a cache miss, so that the uncached
  // cluster-residency query (resident_clusters) costs no attribute write per launch.
  if (smallm::kMaxClusterCtas > 8) {
    e = cudaFuncSetAttribute(reinterpret_cast<const void*>(fn), cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    if (e != cudaSuccess) cuda_fail("cudaFuncSetAttribute(NonPortableClusterSizeAllowed)", e);
  }
  int n = 0;
  e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, reinterpret_cast<const void*>(fn), threads,
                                                    static_cast<size_t>(smem));
  if (e != cudaSuccess) cuda_fail("cudaOccupancyMaxActiveBlocksPerMultiprocessor", e);
  cache.emplace(key, n);
  return n;
}

// Clusters of `cluster` CTAs of `fn` that the SMs of `stream`'s context hold at once. The query
// names the stream: the occupancy API then counts for the stream's context, so a stream of a CUDA
// green context gets its partition's count (on an H100, clusters of 8 at one CTA per SM: 15 on the
// whole device, 10 on an 80-SM partition, 2 on 16 SMs; clusters of 16 none) even while the primary
// context is current, where a query without it counts the whole device (session 102,
// bench/results/2026-12-07-h100/s102-green/). Not cached: a stream handle says nothing lasting about
// its context (handles are reused), and the query costs ~0.3 us of host time, made only where a
// geometry would cluster. A host-side query (no stream operation, no synchronization): legal during
// capture (GemmApi.GreenContextStreams captures one). Call resident_ctas(fn, ...) first: its first
// query of a kernel allows the non-portable sizes (> 8).
int resident_clusters(smallm::SmallmKernelFn fn, int threads, int64_t smem, int cluster, cudaStream_t stream) {
  cudaError_t e;
  cudaLaunchAttribute attr = cluster_dim_attr(cluster);
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(static_cast<unsigned>(cluster), 1, 1);
  cfg.blockDim = dim3(static_cast<unsigned>(threads), 1, 1);
  cfg.dynamicSmemBytes = static_cast<size_t>(smem);
  cfg.stream = stream;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  int n = 0;
  e = cudaOccupancyMaxActiveClusters(&n, reinterpret_cast<const void*>(fn), &cfg);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // not sticky: a size the SMs refuse means no clusters
    n = 0;
  }
  return n;
}

}  // namespace

int smallm_resident_ctas(int64_t M, int64_t N, int64_t K, AType a, BType b, int64_t group_size, bool has_zeros,
                         const SmallmConfig& cfg) {
  const sh::Geometry g = sh::make_geometry(M, N, K, a, b, group_size, has_zeros, cfg, 1);
  const smallm::SmallmKernelFn fn = pick_kernel(a, b, cfg.token_tile, static_cast<int>(g.mode));
  if (!fn) throw Error(ErrorCode::kNotSupported, "smallm: no kernel instance for " + cfg.name());
  return resident_ctas(fn, cfg.warps * 32, g.smem_bytes);
}

namespace {

// What a launch of cfg runs: the geometry (the partial sums' one, or the cluster rule's with the
// residency fallback), its kernel, and the persistent CTAs per token tile. launch_smallm and
// smallm_launch_split share it, so the split a test is told about is the one that runs.
struct LaunchPlan {
  sh::Geometry g;
  smallm::SmallmKernelFn fn = nullptr;
  int threads = 0;
  int64_t C = 0;
};

LaunchPlan plan_launch(int64_t M, int64_t N, int64_t K, AType a, BType b, int64_t group_size, bool has_zeros,
                       const SmallmConfig& cfg, int sm_count, bool parts, SmallmCluster cluster, cudaStream_t stream) {
  // MIXGEMM_SMALLM_CLUSTER=0 (read once): kAuto runs the workspace split everywhere (A/B timing
  // of the two reductions in one build; the heuristic itself stays a pure function).
  static const bool cluster_env_off = core::env_equals("MIXGEMM_SMALLM_CLUSTER", "0");
  if (cluster == SmallmCluster::kAuto && cluster_env_off) cluster = SmallmCluster::kOff;
  sm_count = sm_count > 0 ? sm_count : 1;
  LaunchPlan lp;
  // Partial sums: make_partial_sums_geometry's partition (the cluster geometry launched without
  // clusters, or the stream-K one); each segment writes its part (smallm_partial_sums_count,
  // checked by smallm_can_implement).
  lp.g = parts ? sh::make_partial_sums_geometry(M, N, K, a, b, group_size, has_zeros, cfg, sm_count)
               : sh::make_geometry(M, N, K, a, b, group_size, has_zeros, cfg, sm_count, cluster);
  lp.fn = pick_kernel(a, b, cfg.token_tile, static_cast<int>(lp.g.mode));
  if (!lp.fn) throw Error(ErrorCode::kNotSupported, "smallm: no kernel instance for " + cfg.name());
  lp.threads = cfg.warps * 32;
  const int fit = resident_ctas(lp.fn, lp.threads, lp.g.smem_bytes);
  if (fit < 1) throw Error(ErrorCode::kNotSupported, "smallm: " + cfg.name() + " does not fit on an SM");
  // Cluster split-K only where all the clusters are resident at once (one wave, as the
  // plain split); otherwise the plain split (its own k-parts, summed in the same k order).
  if (lp.g.cluster >= 2 && !parts &&
      (fit < cfg.ctas_per_sm ||
       int64_t{resident_clusters(lp.fn, lp.threads, lp.g.smem_bytes, static_cast<int>(lp.g.cluster), stream)} <
           lp.g.stripes))
    lp.g = sh::make_geometry(M, N, K, a, b, group_size, has_zeros, cfg, sm_count, SmallmCluster::kOff);
  // Persistent CTAs: never more than fit at once (a second wave would idle SMs at the end). Not
  // for partial sums: their partition is the one the caller sized the parts for (the schedule's
  // CTAs per SM, smallm_partial_sums_count), and with no CTA waiting for another a launch that
  // does not fit at once is only slower (a schedule whose stages leave one CTA per SM).
  lp.C = lp.g.cluster >= 2 || parts ? lp.g.C
                                    : std::min<int64_t>(lp.g.C, int64_t{std::min(cfg.ctas_per_sm, fit)} * sm_count);
  return lp;
}

}  // namespace

SmallmSplit smallm_launch_split(int64_t M, int64_t N, int64_t K, AType a, BType b, int64_t group_size, bool has_zeros,
                                const SmallmConfig& cfg, int sm_count, bool partial_sums, cudaStream_t stream) {
  const LaunchPlan lp = plan_launch(M, N, K, a, b, group_size, has_zeros, cfg, sm_count, partial_sums,
                                    SmallmCluster::kAuto, stream);
  SmallmSplit s;
  s.ctas = lp.C;
  s.cluster = lp.g.cluster >= 2 ? lp.g.cluster : 0;
  return s;
}

int64_t launch_smallm(const GemmParams& p, const SmallmConfig& cfg, cudaStream_t stream, SmallmCluster cluster,
                      SmallmReduce reduce) {
  if (p.M == 0) return 0;
  std::string why;
  if (!smallm_can_implement(p, cfg, &why)) throw Error(ErrorCode::kNotSupported, why);
  const bool parts = p.partial_sums != nullptr;
  const LaunchPlan lp = plan_launch(p.M, p.N, p.K, p.a_type, p.b_type, p.group_size, p.has_zeros, cfg, p.sm_count,
                                    parts, cluster, stream);
  const sh::Geometry& g = lp.g;
  const smallm::SmallmKernelFn fn = lp.fn;
  const int threads = lp.threads;
  const int64_t C = lp.C;

  smallm::SmallmKernelParams k{};
  k.a = static_cast<const uint8_t*>(p.a);
  k.b = static_cast<const uint8_t*>(p.b);
  k.scales = p.group_size > 0 ? static_cast<const uint8_t*>(p.group_scales) : nullptr;
  k.zeros = p.has_zeros ? static_cast<const uint8_t*>(p.group_zeros) : nullptr;
  k.ch = p.channel_scales;
  k.tok = p.token_scales;
  k.bias = static_cast<const uint8_t*>(p.bias);
  k.out = static_cast<uint8_t*>(p.out);
  k.counters = static_cast<int32_t*>(p.workspace);
  k.partials = parts ? nullptr : static_cast<uint8_t*>(p.workspace) + g.counter_bytes;
  k.parts = static_cast<uint8_t*>(p.partial_sums);
  k.lda_bytes = p.lda * g.eb;
  k.ldo = p.ldo;
  k.part = smallm::make_row_partition(g.U, static_cast<int32_t>(C), static_cast<int32_t>(g.KBn));
  k.M = p.M;
  k.N = p.N;
  k.K = p.K;
  k.NB = static_cast<int32_t>(g.NB);
  k.KBn = static_cast<int32_t>(g.KBn);
  k.stripes = static_cast<int32_t>(g.stripes);
  k.gs = static_cast<int32_t>(g.gs);
  k.gs_div = make_fast_div(static_cast<uint32_t>(std::max<int64_t>(g.gs, 2)));  // gs >= 16 when it is used
  k.g_rows = static_cast<int32_t>(g.g_rows);
  k.stage_bytes = static_cast<int32_t>(g.stage_bytes);
  k.act_bytes = static_cast<int32_t>(g.act_bytes);
  k.srow_bytes = static_cast<int32_t>(g.srow_bytes);
  if (g.mode != smallm::kScaleNone) {
    const int64_t pieces = g.srow_bytes / 16;  // 32 * warps rows x (1 or 2) bytes / 16
    if (pieces < 1 || (pieces & (pieces - 1)) != 0 || g.srow_bytes % 16 != 0)
      throw Error(ErrorCode::kNotSupported, "smallm: a staged scale row of " + std::to_string(g.srow_bytes) +
                                                " bytes is not a power-of-two number of 16-byte pieces");
    int lg = 0;
    while ((int64_t{1} << lg) < pieces) ++lg;
    k.srow_pieces_log2 = lg;
  }
  k.tile_bytes = static_cast<int32_t>(g.tile_bytes);
  k.mode = g.mode;
  k.l2_ahead = cfg.l2_ahead;
  k.ring_rows = static_cast<int32_t>(g.ring_rows);
  k.ring_off = static_cast<int32_t>(g.ring_off);
  k.bar_off = static_cast<int32_t>(g.bar_off);
  k.cluster = static_cast<int32_t>(g.cluster);
  k.parts_count = static_cast<int32_t>(g.parts);
  // Deferred reduction: only the workspace split with more than one CTA has partial tiles.
  smallm::SmallmKernelFn reduce_fn = nullptr;
  if (!parts && g.cluster < 2 && C >= 2 && g.stripes <= 65535 && defer_reduction(reduce)) {
    reduce_fn = pick_reduce_kernel(p.a_type, cfg.token_tile);
    if (!reduce_fn) throw Error(ErrorCode::kNotSupported, "smallm: no reduction instance for " + cfg.name());
  }
  k.deferred = reduce_fn ? 1 : 0;
  k.pdl_wait = p.pdl ? 1 : 0;
  k.has_scales = p.group_size > 0;
  k.has_zeros = p.has_zeros;
  k.b_unsigned = sh::is_unsigned(p.b_type);
  k.out_bf16 = p.out_type == OutType::kBF16;

  // MIXGEMM_PRINT_CONFIG=1 (gemm() prints the schedule): also how this launch splits K.
  if (core::print_config_enabled())
    std::fprintf(stderr, "[mixgemm]   %s: %lld CTAs x %lld token tiles, %s\n", cfg.name().c_str(),
                 static_cast<long long>(C), static_cast<long long>(g.MT),
                 parts          ? ("partial sums, " + std::to_string(g.parts) +
                                   (g.cluster >= 2 ? " parts (cluster geometry)" : " parts (stream-K)")).c_str()
                : g.cluster >= 2 ? ("cluster split-K, " + std::to_string(g.cluster) + " CTAs per stripe").c_str()
                : reduce_fn     ? "workspace split-K, deferred reduction"
                                : "workspace split-K");
  const dim3 grid(static_cast<unsigned>(C), static_cast<unsigned>(g.MT));
  const dim3 block(static_cast<unsigned>(threads));
  void* args[] = {&k};
  cudaError_t e;
  cudaLaunchAttribute pdl{};
  pdl.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  pdl.val.programmaticStreamSerializationAllowed = 1;
  // Cluster split-K: grid.x = stripes x cluster, one cluster per stripe and token tile. A
  // programmatic dependent launch (GemmParams::pdl) waits in the kernel (pdl_wait).
  const bool clustered = g.cluster >= 2 && !parts;
  if (clustered || p.pdl) {
    cudaLaunchAttribute attrs[2];
    unsigned n = 0;
    if (clustered) attrs[n++] = cluster_dim_attr(static_cast<int>(g.cluster));
    if (p.pdl) attrs[n++] = pdl;
    cudaLaunchConfig_t lc{};
    lc.gridDim = grid;
    lc.blockDim = block;
    lc.dynamicSmemBytes = static_cast<size_t>(g.smem_bytes);
    lc.stream = stream;
    lc.attrs = attrs;
    lc.numAttrs = n;
    e = cudaLaunchKernelExC(&lc, reinterpret_cast<const void*>(fn), args);
  } else {
    e = cudaLaunchKernel(reinterpret_cast<const void*>(fn), grid, block, args, static_cast<size_t>(g.smem_bytes),
                         stream);
  }
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) cuda_fail("kernel launch", e);
  if (!reduce_fn) return g.cluster;
  // The reduction grid: one thread per 16-byte piece of a stripe's partial tile, (pieces,
  // stripes, token tiles), launched as a programmatic dependent of the kernel (its CTAs may
  // take the SMs the kernel's CTAs leave; it waits for the kernel's completion before reading).
  const int64_t pieces = g.tile_bytes / 16;
  cudaLaunchConfig_t rc{};
  rc.gridDim = dim3(static_cast<unsigned>((pieces + smallm::kReduceThreads - 1) / smallm::kReduceThreads),
                    static_cast<unsigned>(g.stripes), static_cast<unsigned>(g.MT));
  rc.blockDim = dim3(smallm::kReduceThreads);
  rc.dynamicSmemBytes = 0;
  rc.stream = stream;
  rc.attrs = &pdl;
  rc.numAttrs = 1;
  e = cudaLaunchKernelExC(&rc, reinterpret_cast<const void*>(reduce_fn), args);
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) cuda_fail("reduction launch", e);
  return 0;
}

}  // namespace mixgemm::kernels
