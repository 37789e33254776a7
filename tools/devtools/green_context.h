// green_context.h - a stream on a CUDA green context that owns part of a device's SMs, for the
// development tools and the GPU tests (mixgemm-bench --green-sms, GemmApi.GreenContextStreams): what
// an engine that gives a GEMM part of the GPU runs mixgemm on (docs/design.md, "Engine-facing
// guarantees"). Header-only; links the CUDA runtime only: the driver's green-context calls are
// looked up with cudaGetDriverEntryPointByVersion at the CUDA_VERSION this file is compiled with
// (green contexts came with 12.4, their streams with 12.5).
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace mixgemm::devtools {

struct GreenStream {
  cudaStream_t stream = nullptr;  // a non-blocking stream of the green context
  int sms = 0;                    // the SMs the driver granted (its partition granularity: 8 on Hopper)
  CUgreenCtx green = nullptr;
  CUcontext ctx = nullptr;        // the green context as a CUcontext (what is current when made current)
  CUcontext previous = nullptr;   // the context current before (restored by destroy), when made current
  bool made_current = false;
};

namespace green_detail {

// A driver entry point by name; throws where the driver has none (green contexts need 12.4+).
template <class Fn>
Fn driver_fn(const char* name) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult q{};
  if (cudaGetDriverEntryPointByVersion(name, &p, CUDA_VERSION, cudaEnableDefault, &q) != cudaSuccess ||
      q != cudaDriverEntryPointSuccess || p == nullptr) {
    (void)cudaGetLastError();
    throw std::runtime_error(std::string("green context: the driver has no ") + name +
                             " (green-context streams need a CUDA 12.5+ driver)");
  }
  return reinterpret_cast<Fn>(p);
}

inline void check(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS)
    throw std::runtime_error(std::string("green context: ") + what + " failed (CUresult " + std::to_string(r) + ")");
}

}  // namespace green_detail

// This host thread's current driver context (nullptr: none).
inline CUcontext current_context() {
  CUcontext c = nullptr;
  green_detail::check(green_detail::driver_fn<decltype(&cuCtxGetCurrent)>("cuCtxGetCurrent")(&c), "cuCtxGetCurrent");
  return c;
}

// A stream of a new green context owning `sms` SMs of device `device` (rounded up by the driver;
// GreenStream::sms says how many). Kernels launched on the stream run on those SMs only; memory is
// shared with the primary context. With make_current the green context also becomes this thread's
// current context (the runtime calls that follow belong to it, as in mixgemm-bench --green-sms);
// without it the primary context stays current and only the stream leads to the partition (the case of
// an engine that hands a library a green stream). Throws std::runtime_error naming the failing call.
inline GreenStream make_green_stream(int device, int sms, bool make_current) {
  using namespace green_detail;
  if (cudaSetDevice(device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess)  // the primary context first
    throw std::runtime_error("green context: device " + std::to_string(device) + " is not usable");
  const auto get_device = driver_fn<decltype(&cuDeviceGet)>("cuDeviceGet");
  const auto get_resource = driver_fn<decltype(&cuDeviceGetDevResource)>("cuDeviceGetDevResource");
  const auto split = driver_fn<decltype(&cuDevSmResourceSplitByCount)>("cuDevSmResourceSplitByCount");
  const auto gen_desc = driver_fn<decltype(&cuDevResourceGenerateDesc)>("cuDevResourceGenerateDesc");
  const auto create = driver_fn<decltype(&cuGreenCtxCreate)>("cuGreenCtxCreate");
  const auto stream_create = driver_fn<decltype(&cuGreenCtxStreamCreate)>("cuGreenCtxStreamCreate");
  CUdevice dev = 0;
  check(get_device(&dev, device), "cuDeviceGet");
  CUdevResource all{};
  check(get_resource(dev, &all, CU_DEV_RESOURCE_TYPE_SM), "cuDeviceGetDevResource");
  if (sms < 1 || static_cast<unsigned>(sms) > all.sm.smCount)
    throw std::runtime_error("green context: " + std::to_string(sms) + " SMs asked; the device has " +
                             std::to_string(all.sm.smCount) + " (accepted: 1.." + std::to_string(all.sm.smCount) + ")");
  CUdevResource part{}, rest{};
  unsigned groups = 1;
  check(split(&part, &groups, &all, &rest, 0, static_cast<unsigned>(sms)), "cuDevSmResourceSplitByCount");
  if (groups < 1) throw std::runtime_error("green context: the driver made no partition of " + std::to_string(sms) + " SMs");
  CUdevResourceDesc desc{};
  check(gen_desc(&desc, &part, 1), "cuDevResourceGenerateDesc");
  GreenStream g;
  check(create(&g.green, desc, dev, CU_GREEN_CTX_DEFAULT_STREAM), "cuGreenCtxCreate");
  CUstream s{};
  check(stream_create(&s, g.green, CU_STREAM_NON_BLOCKING, 0), "cuGreenCtxStreamCreate");
  g.stream = reinterpret_cast<cudaStream_t>(s);
  g.sms = static_cast<int>(part.sm.smCount);
  check(driver_fn<decltype(&cuCtxFromGreenCtx)>("cuCtxFromGreenCtx")(&g.ctx, g.green), "cuCtxFromGreenCtx");
  if (make_current) {
    g.previous = current_context();
    check(driver_fn<decltype(&cuCtxSetCurrent)>("cuCtxSetCurrent")(g.ctx), "cuCtxSetCurrent");
    g.made_current = true;
  }
  return g;
}

// Destroys the stream and the green context (after the stream's work is done) and, where
// make_green_stream made it current, makes the previous context current again.
inline void destroy_green_stream(GreenStream& g) {
  using namespace green_detail;
  if (!g.green) return;
  check(driver_fn<decltype(&cuStreamSynchronize)>("cuStreamSynchronize")(reinterpret_cast<CUstream>(g.stream)),
        "cuStreamSynchronize");
  if (g.made_current) check(driver_fn<decltype(&cuCtxSetCurrent)>("cuCtxSetCurrent")(g.previous), "cuCtxSetCurrent");
  check(driver_fn<decltype(&cuStreamDestroy)>("cuStreamDestroy")(reinterpret_cast<CUstream>(g.stream)),
        "cuStreamDestroy");
  check(driver_fn<decltype(&cuGreenCtxDestroy)>("cuGreenCtxDestroy")(g.green), "cuGreenCtxDestroy");
  g = GreenStream{};
}

}  // namespace mixgemm::devtools
