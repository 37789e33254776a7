// device.cpp - host side of the bench's CUDA plumbing (see device.h).
#include "device.h"

#include "devtools/green_context.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <thread>

namespace mixgemm::bench {

void throw_cuda_error(cudaError_t e, const char* what, const char* file, int line) {
  std::ostringstream os;
  os << "CUDA error " << static_cast<int>(e) << " (" << cudaGetErrorName(e) << ": " << cudaGetErrorString(e)
     << ") in " << what << " at " << file << ":" << line;
  if (e == cudaErrorMemoryAllocation) throw OutOfMemory(os.str());
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) throw NoDevice(os.str());
  throw BenchError(os.str());
}

DeviceBuffer::DeviceBuffer(size_t bytes, const char* what) {
  if (bytes == 0) return;
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, bytes);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // cudaMalloc failures are not sticky; clear the last-error slot
    std::ostringstream os;
    os << "cudaMalloc of " << bytes << " bytes for " << what << " failed: " << cudaGetErrorString(e);
    if (e == cudaErrorMemoryAllocation) throw OutOfMemory(os.str());
    throw BenchError(os.str());
  }
  p_ = p;
  n_ = bytes;
}

DeviceBuffer::~DeviceBuffer() { reset(); }

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    reset();
    p_ = o.p_;
    n_ = o.n_;
    o.p_ = nullptr;
    o.n_ = 0;
  }
  return *this;
}

void DeviceBuffer::reset() {
  if (p_) {
    const cudaError_t e = cudaFree(p_);
    if (e != cudaSuccess)
      std::fprintf(stderr, "mixgemm-bench: warning: cudaFree failed: %s\n", cudaGetErrorString(e));
  }
  p_ = nullptr;
  n_ = 0;
}

void device_memory(size_t& free_bytes, size_t& total_bytes) {
  BENCH_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
}

// ---- EventTimer ---------------------------------------------------------------------------
namespace {
constexpr int kBatch = 32;  // timed runs queued behind one spin kernel
}

EventTimer::EventTimer(cudaStream_t stream, int64_t l2_bytes, L2Policy policy) : stream_(stream), policy_(policy) {
  if (policy_ == L2Policy::kFlush) {
    const size_t bytes = static_cast<size_t>(std::max<int64_t>(l2_bytes, 1 << 20)) * 2;
    flush_ = DeviceBuffer(bytes, "L2 flush buffer");
  }
  ensure_events(kBatch);
}

EventTimer::~EventTimer() {
  for (auto e : start_) (void)cudaEventDestroy(e);
  for (auto e : stop_) (void)cudaEventDestroy(e);
}

void EventTimer::ensure_events(int n) {
  while (static_cast<int>(start_.size()) < n) {
    cudaEvent_t a = nullptr, b = nullptr;
    BENCH_CUDA(cudaEventCreate(&a));
    start_.push_back(a);
    BENCH_CUDA(cudaEventCreate(&b));
    stop_.push_back(b);
  }
}

std::vector<double> EventTimer::run(const std::function<void(int)>& launch, int warmup, int iters, bool condition) {
  int idx = 0;
  const auto flush = [&](int i) {
    if (policy_ == L2Policy::kFlush) BENCH_CUDA(cudaMemsetAsync(flush_.get(), i & 0xFF, flush_.bytes(), stream_));
  };
  if (condition && idle_ms_ > 0) {
    BENCH_CUDA(cudaStreamSynchronize(stream_));
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(idle_ms_));
  }
  for (int i = 0; i < warmup; ++i, ++idx) {
    flush(idx);
    launch(idx);
  }
  BENCH_CUDA(cudaGetLastError());
  BENCH_CUDA(cudaStreamSynchronize(stream_));
  if (condition && settle_ms_ > 0) {
    // Back to back in chunks (one host sync per chunk), until settle_ms of wall time passed.
    // The rotation index keeps counting, so the cold-L2 rotation goes on as in the timed runs.
    const auto t0 = std::chrono::steady_clock::now();
    int chunk = 4;
    while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() < settle_ms_) {
      for (int j = 0; j < chunk; ++j, ++idx) {
        flush(idx);
        launch(idx);
      }
      BENCH_CUDA(cudaGetLastError());
      BENCH_CUDA(cudaStreamSynchronize(stream_));
      chunk = std::min(chunk * 2, 256);
    }
  }

  std::vector<double> times;
  times.reserve(static_cast<size_t>(iters));
  for (int done = 0; done < iters;) {
    const int n = std::min(kBatch, iters - done);
    // Keep the GPU busy while the host queues the batch, so each run starts as soon as
    // the previous one ends (no launch latency inside an event pair).
    const double spin_us = std::min(50000.0, 1.5 * n * spin_per_run_us_ + 50.0);
    spin_stream(stream_, spin_us);
    const auto t0 = std::chrono::steady_clock::now();
    for (int j = 0; j < n; ++j, ++idx) {
      flush(idx);
      BENCH_CUDA(cudaEventRecord(start_[j], stream_));
      launch(idx);
      BENCH_CUDA(cudaEventRecord(stop_[j], stream_));
    }
    const double enqueue_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    spin_per_run_us_ = std::max(5.0, enqueue_us / n);
    BENCH_CUDA(cudaGetLastError());
    BENCH_CUDA(cudaStreamSynchronize(stream_));
    for (int j = 0; j < n; ++j) {
      float ms = 0.f;
      BENCH_CUDA(cudaEventElapsedTime(&ms, start_[j], stop_[j]));
      if (!(ms >= 0.f)) throw BenchError("event timer returned a negative or NaN time");
      times.push_back(static_cast<double>(ms) * 1000.0);
    }
    done += n;
  }
  return times;
}

std::vector<double> time_graph_batch(const std::function<void(int)>& launch, int n, int reps, cudaStream_t stream) {
  BENCH_CUDA(cudaStreamSynchronize(stream));
  cudaGraph_t graph = nullptr;
  BENCH_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < n; ++i) launch(i);
  BENCH_CUDA(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  const cudaError_t inst = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  BENCH_CUDA(inst);
  cudaEvent_t start = nullptr, stop = nullptr;
  BENCH_CUDA(cudaEventCreate(&start));
  BENCH_CUDA(cudaEventCreate(&stop));
  std::vector<double> times;
  for (int r = -2; r < reps; ++r) {
    BENCH_CUDA(cudaEventRecord(start, stream));
    BENCH_CUDA(cudaGraphLaunch(exec, stream));
    BENCH_CUDA(cudaEventRecord(stop, stream));
    BENCH_CUDA(cudaEventSynchronize(stop));
    float ms = 0.f;
    BENCH_CUDA(cudaEventElapsedTime(&ms, start, stop));
    if (r >= 0) times.push_back(static_cast<double>(ms) * 1000.0 / n);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaGraphExecDestroy(exec);
  return times;
}

std::vector<double> time_device_copy(size_t bytes, int warmup, int iters, cudaStream_t stream) {
  DeviceBuffer src(bytes, "copy-bandwidth source");
  DeviceBuffer dst(bytes, "copy-bandwidth destination");
  fill_random_bytes(src.get(), bytes, 0xC0FFEE, stream);
  EventTimer timer(stream, 0, L2Policy::kOff);  // 2 GiB per copy: L2 plays no role
  return timer.run(
      [&](int) { BENCH_CUDA(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, stream)); },
      warmup, iters);
}

// ---- device facts -------------------------------------------------------------------------
namespace {

// NVML, loaded at run time so the bench needs neither its header nor its import library.
struct Nvml {
  using Init = int (*)();
  using Shutdown = int (*)();
  using ByPci = int (*)(const char*, void**);
  using Clock = int (*)(void*, int, unsigned*);
  using DriverString = int (*)(char*, unsigned);
  void* lib = nullptr;
  Init init = nullptr;
  Shutdown shutdown = nullptr;
  ByPci by_pci = nullptr;
  Clock clock = nullptr, max_clock = nullptr;
  DriverString driver = nullptr;
  bool ok = false;

  Nvml() {
    lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    init = reinterpret_cast<Init>(dlsym(lib, "nvmlInit_v2"));
    shutdown = reinterpret_cast<Shutdown>(dlsym(lib, "nvmlShutdown"));
    by_pci = reinterpret_cast<ByPci>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    clock = reinterpret_cast<Clock>(dlsym(lib, "nvmlDeviceGetClockInfo"));
    max_clock = reinterpret_cast<Clock>(dlsym(lib, "nvmlDeviceGetMaxClockInfo"));
    driver = reinterpret_cast<DriverString>(dlsym(lib, "nvmlSystemGetDriverVersion"));
    ok = init && shutdown && by_pci && clock && max_clock && driver && init() == 0;
  }
  ~Nvml() {
    if (ok) shutdown();
    if (lib) dlclose(lib);
  }
  void* device(const std::string& pci) const {
    void* h = nullptr;
    if (!ok || by_pci(pci.c_str(), &h) != 0) return nullptr;
    return h;
  }
};
constexpr int kNvmlClockSm = 1;
constexpr int kNvmlClockMem = 2;

}  // namespace

DeviceFacts query_device(int index) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw NoDevice(std::string("no usable CUDA GPU: cudaGetDeviceCount failed: ") + cudaGetErrorName(e) + ": " +
                   cudaGetErrorString(e));
  }
  if (count == 0) throw NoDevice("no CUDA GPU found (cudaGetDeviceCount returned 0)");
  if (index >= count)
    throw NoDevice("--device " + std::to_string(index) + " does not exist; this machine has " +
                   std::to_string(count) + " CUDA device(s)");
  BENCH_CUDA(cudaSetDevice(index));
  DeviceFacts f;
  f.index = index;
  cudaDeviceProp prop{};
  BENCH_CUDA(cudaGetDeviceProperties(&prop, index));
  f.name = prop.name;
  f.cc_major = prop.major;
  f.cc_minor = prop.minor;
  f.sm_count = prop.multiProcessorCount;
  f.l2_bytes = prop.l2CacheSize;
  f.memory_bytes = static_cast<int64_t>(prop.totalGlobalMem);
  int khz = 0;
  BENCH_CUDA(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, index));
  f.sm_clock_peak_mhz = khz / 1000;
  BENCH_CUDA(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, index));
  f.mem_clock_peak_mhz = khz / 1000;
  BENCH_CUDA(cudaDeviceGetAttribute(&f.mem_bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, index));
  BENCH_CUDA(cudaDriverGetVersion(&f.driver_version));
  BENCH_CUDA(cudaRuntimeGetVersion(&f.runtime_version));
  char pci[32] = {0};
  BENCH_CUDA(cudaDeviceGetPCIBusId(pci, sizeof pci, index));
  f.pci_bus_id = pci;

  Nvml nvml;
  if (nvml.ok) {
    char buf[96] = {0};
    if (nvml.driver(buf, sizeof buf) == 0) f.driver_string = buf;
    if (void* h = nvml.device(f.pci_bus_id)) {
      unsigned mhz = 0;
      if (nvml.max_clock(h, kNvmlClockSm, &mhz) == 0) f.nvml_sm_clock_max_mhz = static_cast<int>(mhz);
      if (nvml.max_clock(h, kNvmlClockMem, &mhz) == 0) f.nvml_mem_clock_max_mhz = static_cast<int>(mhz);
    }
  }
  return f;
}

void nvml_current_clocks(const std::string& pci_bus_id, int& sm_mhz, int& mem_mhz) {
  sm_mhz = mem_mhz = -1;
  Nvml nvml;
  void* h = nvml.device(pci_bus_id);
  if (!h) return;
  unsigned mhz = 0;
  if (nvml.clock(h, kNvmlClockSm, &mhz) == 0) sm_mhz = static_cast<int>(mhz);
  if (nvml.clock(h, kNvmlClockMem, &mhz) == 0) mem_mhz = static_cast<int>(mhz);
}

cudaStream_t green_context_stream(int index, int sms, int* granted) {
  // The green context current on this thread, so that the runtime calls that follow (events,
  // launches, copies on the stream) belong to it; allocations stay shared with the primary context.
  // It lives until the process ends.
  try {
    const devtools::GreenStream g = devtools::make_green_stream(index, sms, /*make_current=*/true);
    *granted = g.sms;
    return g.stream;
  } catch (const std::runtime_error& e) {
    throw BenchError(std::string("--green-sms ") + std::to_string(sms) + ": " + e.what());
  }
}

}  // namespace mixgemm::bench
