// smallm_trace.cuh - a per-CTA timeline of the smallm kernel, for kernel development.
//
// Compiled in only with -DMIXGEMM_SMALLM_TRACE (e.g. cmake -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_TRACE);
// without it smallm_trace() is empty and nothing here exists in the binary. With it, thread 0
// of every CTA of token tile 0 records %globaltimer (ns, one clock for all SMs) at the
// milestones below into its row of g_smallm_trace; the last launch's rows are read back by
// smallm_trace_dump() (host, smallm_inst_w4a16.cu, so only the f16/bf16 x 4-bit kernels are
// traced), which the GPU test's timing report calls per schedule when
// MIXGEMM_SMALLM_TRACE_FILE names an output file. scripts/smallm_trace_summary.py turns the
// file into medians per phase. Measured with it: docs/design-smallm.md, "Session 6".
#pragma once

namespace mixgemm::kernels::smallm {

// Slots of a CTA's trace row (16 per CTA; a slot not reached in a launch stays 0).
enum TraceMark : int {
  kTraceEntry = 0,          // kernel entry
  kTraceChunkLoop = 1,      // prologue done, chunk loop entered
  kTraceFirstStage = 2,     // first chunk barrier passed: the first activation/scale stage landed
  kTraceFinalSegment = 4,   // the CTA's last chunk computed, its final segment begins
  kTraceReleased = 5,       // a partial segment was stored and counted (last one wins)
  kTraceReduce = 6,         // this CTA reduces a stripe (the final one when it is set at exit)
  kTraceExit = 7,           // kernel exit
  kTraceRowRange = 8,       // the CTA's row range computed
  kTraceZeroFill = 9,       // token rows >= M zeroed in the stages
  kTraceStagesIssued = 10,  // the first two stages requested
  kTraceRingIssued = 11,    // warp 0 has requested the first ring_rows weight rows
  // The final segment's split-K protocol, thread 0 (session 13):
  kTraceFenced = 3,         // the release fence before the ticket returned (slot 3 was free)
  kTraceTicket = 12,        // the ticket atomic issued (its result is waited for after this)
  kTraceRedLoaded = 13,     // the final reduction's first round of partials landed
  kTraceRedSummed = 14,     // the final reduction's sums done, before the epilogue
  kTraceRedStored = 15,     // the final reduction's epilogue stores issued
};
inline constexpr int kTraceSlots = 16;
inline constexpr int kTraceMaxCtas = 8192;

#ifdef MIXGEMM_SMALLM_TRACE
static __device__ unsigned long long g_smallm_trace[kTraceMaxCtas][kTraceSlots];
static __device__ unsigned g_smallm_smid[kTraceMaxCtas];  // the SM each traced CTA ran on
__device__ __forceinline__ void smallm_trace(TraceMark m) {
  if (threadIdx.x == 0 && blockIdx.y == 0 && blockIdx.x < kTraceMaxCtas) {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (m == kTraceEntry) {  // a new launch: forget the previous launch's later milestones
      for (int k = 1; k < kTraceSlots; ++k) g_smallm_trace[blockIdx.x][k] = 0;
      unsigned sm;
      asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
      g_smallm_smid[blockIdx.x] = sm;
    }
    g_smallm_trace[blockIdx.x][m] = t;
  }
}
// Host: appends one line per traced CTA ("tag cta t0 .. t15 c0 .. c11 smid", c = the cycle
// accounts below, warp 0 then warp 1; smid: the SM the CTA ran on) to `path` and clears the trace.
void smallm_trace_dump(const char* path, const char* tag);
#else
__device__ __forceinline__ void smallm_trace(TraceMark) {}
#endif

// Where a warp's time goes in the chunk loop: lane 0 of warps 0 and 1 of every traced CTA sums
// the SM cycles (clock64) of each phase of every chunk, and writes the sums when its loop ends.
// Warp 0 is also the weight producer; warp 1 is a plain consumer.
enum CycleAccount : int {
  kCycBarrier = 0,  // cp.async wait + the chunk's __syncthreads (waiting for the slowest warp)
  kCycStage = 1,    // requesting the next activation/scale stage (and e4m3's conversion pass)
  kCycProduce = 2,  // warp 0: refilling the weight ring
  kCycRowWait = 3,  // waiting for weight rows to land (mbarrier)
  kCycRows = 4,     // the rows' own work: loads, dequantization, MMAs
  kCycSegment = 5,  // segment ends: partial store / split-K reduction / output
  kCycAccounts = 6,
};
inline constexpr int kCycWarps = 2;

#ifdef MIXGEMM_SMALLM_TRACE
static __device__ long long g_smallm_cycles[kTraceMaxCtas][kCycWarps][kCycAccounts];
struct CycleTrace {
  long long acc[kCycAccounts] = {};
  long long t = 0;
  __device__ __forceinline__ void start() { t = clock64(); }
  __device__ __forceinline__ void lap(CycleAccount a) {
    const long long n = clock64();
    acc[a] += n - t;
    t = n;
  }
  // Moves c cycles of the last lap from account `from` to account `to`.
  __device__ __forceinline__ void move(CycleAccount from, CycleAccount to, long long c) {
    acc[from] -= c;
    acc[to] += c;
  }
  __device__ __forceinline__ void dump() const {
    const int warp = threadIdx.x >> 5;
    if ((threadIdx.x & 31) == 0 && warp < kCycWarps && blockIdx.y == 0 && blockIdx.x < kTraceMaxCtas)
      for (int a = 0; a < kCycAccounts; ++a) g_smallm_cycles[blockIdx.x][warp][a] = acc[a];
  }
};
__device__ __forceinline__ long long trace_clock() { return clock64(); }
#else
struct CycleTrace {
  __device__ __forceinline__ void start() {}
  __device__ __forceinline__ void lap(CycleAccount) {}
  __device__ __forceinline__ void move(CycleAccount, CycleAccount, long long) {}
  __device__ __forceinline__ void dump() const {}
};
__device__ __forceinline__ long long trace_clock() { return 0; }
#endif

}  // namespace mixgemm::kernels::smallm
