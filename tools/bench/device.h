// device.h - CUDA plumbing of mixgemm-bench: checked calls, device buffers, random fills,
// the event timer with cold-L2 handling, copy bandwidth, device facts.
//
// Every CUDA / cuBLAS return code is checked; a failure throws BenchError naming the call,
// the file and line, and the CUDA message. The bench treats a CUDA error as fatal (a sticky
// error leaves the context unusable) and out-of-memory as a per-row skip.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mixgemm::bench {

class BenchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// cudaMalloc failed: the row is skipped, the run goes on.
class OutOfMemory : public BenchError {
 public:
  using BenchError::BenchError;
};
// No usable CUDA device: the bench says so and exits with status 3.
class NoDevice : public BenchError {
 public:
  using BenchError::BenchError;
};

[[noreturn]] void throw_cuda_error(cudaError_t e, const char* what, const char* file, int line);
inline void cuda_check(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess) throw_cuda_error(e, what, file, line);
}
#define BENCH_CUDA(call) ::mixgemm::bench::cuda_check((call), #call, __FILE__, __LINE__)

// Owning device allocation (move-only).
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes, const char* what = "buffer");
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr; o.n_ = 0; }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* get() const { return p_; }
  template <class T> T* as() const { return static_cast<T*>(p_); }
  size_t bytes() const { return n_; }
  void reset();

 private:
  void* p_ = nullptr;
  size_t n_ = 0;
};

// Free and total device memory in bytes.
void device_memory(size_t& free_bytes, size_t& total_bytes);

// ---- random fills (asynchronous on `stream`; deterministic in (seed, index)) ------------
// Never all zeros: quantized weights get uniformly random bytes, activations and
// scales normal-ish (Irwin-Hall of 4 uniforms) or uniform values in the given ranges.
void fill_random_bytes(void* dst, size_t bytes, uint64_t seed, cudaStream_t stream);
enum class Fill16 { kF16, kBF16 };
void fill_normal_16bit(void* dst, size_t elems, Fill16 kind, float std_dev, uint64_t seed, cudaStream_t stream);
void fill_normal_e4m3(void* dst, size_t elems, float std_dev, uint64_t seed, cudaStream_t stream);
void fill_uniform_s8(void* dst, size_t elems, int lo, int hi, uint64_t seed, cudaStream_t stream);
void fill_uniform_f32(float* dst, size_t elems, float lo, float hi, uint64_t seed, cudaStream_t stream);

// Reads `bytes` (a multiple of 16) once with `blocks` CTAs of 256 threads (the --stream-read
// baseline: what reading a layer's weight bytes costs, launch and ramp included).
void stream_read(const void* src, size_t bytes, unsigned* sink, int blocks, cudaStream_t stream);
// How many distinct SMs a grid of `blocks` short CTAs on `stream` ran on (the --green-sms check).
int count_sms_reached(int blocks, cudaStream_t stream);
// An empty kernel of `blocks` CTAs of 256 threads (the --stream-read launch_only rows).
void launch_empty(int blocks, cudaStream_t stream);

// A one-thread kernel that keeps the stream busy for `us` microseconds, so that the host
// can queue a batch of timed runs behind it and the runs start back to back.
void spin_stream(cudaStream_t stream, double us);
// Asks L2 to fetch up to budget_bytes of [p, p + bytes) (4 KB pieces spread evenly over the range;
// cp.async.bulk.prefetch.L2, sm_90), on `stream` (asynchronous to the host; on the stream the grid
// lasts about as long as a read of those bytes).
void prefetch_l2_stream(const void* p, size_t bytes, size_t budget_bytes, cudaStream_t stream);

// Counts elements of a device array of f16/bf16 bits (elems_16bit) that are NaN or inf;
// synchronous. Used to catch outputs that were never written (they are poisoned with 0xFF).
int64_t count_nonfinite_16bit(const void* dev, size_t elems, bool bf16, cudaStream_t stream);

// ---- timing -------------------------------------------------------------------------------
enum class L2Policy { kRotate, kFlush, kOff };

// Times `launch(i)` (i = rotation index, counting from 0 over warm-up and timed runs) with
// one CUDA event pair per run. kFlush writes a 2x-L2 buffer before every run, outside the
// event pair. Returns the per-run times in microseconds.
class EventTimer {
 public:
  EventTimer(cudaStream_t stream, int64_t l2_bytes, L2Policy policy);
  ~EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  // condition = false skips the idle / settle conditioning (cuBLASLt's quick candidate timing).
  std::vector<double> run(const std::function<void(int)>& launch, int warmup, int iters, bool condition = true);

  // Power-state conditioning of every run() (bench --idle-ms / --settle-ms): sleep idle_ms
  // with the GPU idle before the warm-up; after it, repeat the launch back to back for at
  // least settle_ms before the timed runs.
  void set_conditioning(double idle_ms, double settle_ms) {
    idle_ms_ = idle_ms;
    settle_ms_ = settle_ms;
  }

 private:
  void ensure_events(int n);
  cudaStream_t stream_;
  L2Policy policy_;
  DeviceBuffer flush_;
  std::vector<cudaEvent_t> start_, stop_;
  double spin_per_run_us_ = 30.0;  // adaptive estimate of the host's enqueue time per run
  double idle_ms_ = 0, settle_ms_ = 0;
};

// Per-launch times (us) of `n` launches of launch(0 .. n-1) captured in one CUDA graph: the graph
// is replayed `reps` times (after two untimed replays), each replay between one event pair, and
// each time divided by n. What a kernel costs back to back inside a graph, as a decode step's
// kernels run: the event pair and the launch boundaries of the stream are amortized over n.
std::vector<double> time_graph_batch(const std::function<void(int)>& launch, int n, int reps, cudaStream_t stream);

// Device-to-device cudaMemcpyAsync of `bytes`: per-run times (us) after warm-up.
std::vector<double> time_device_copy(size_t bytes, int warmup, int iters, cudaStream_t stream);

// ---- device facts -------------------------------------------------------------------------
struct DeviceFacts {
  int index = 0;
  std::string name;
  std::string pci_bus_id;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int64_t l2_bytes = 0;
  int64_t memory_bytes = 0;
  int sm_clock_peak_mhz = 0;   // cudaDevAttrClockRate
  int mem_clock_peak_mhz = 0;  // cudaDevAttrMemoryClockRate
  int mem_bus_width_bits = 0;
  int driver_version = 0;      // cudaDriverGetVersion (e.g. 13000)
  int runtime_version = 0;     // cudaRuntimeGetVersion
  std::string driver_string;   // NVML's driver version (e.g. "580.82.07"), empty without NVML
  int nvml_sm_clock_max_mhz = -1, nvml_mem_clock_max_mhz = -1;  // -1: NVML not available
};

// Throws NoDevice when no device is usable (the message says what CUDA said).
DeviceFacts query_device(int index);

// Current SM / memory clocks through NVML (loaded at run time; -1 when unavailable).
void nvml_current_clocks(const std::string& pci_bus_id, int& sm_mhz, int& mem_mhz);

// A stream of a CUDA green context that owns `sms` SMs of device `index` (--green-sms): the
// driver rounds the count up to its partition granularity (8 SMs on Hopper); *granted is what it
// gave. Kernels on the stream run on those SMs only; memory is the primary context's. The context
// lives until the process ends. Throws BenchError where the driver has no green contexts (< 12.4)
// or refuses the partition.
cudaStream_t green_context_stream(int index, int sms, int* granted);

}  // namespace mixgemm::bench
