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
};
inline constexpr int kTraceSlots = 16;
inline constexpr int kTraceMaxCtas = 8192;

#ifdef MIXGEMM_SMALLM_TRACE
static __device__ unsigned long long g_smallm_trace[kTraceMaxCtas][kTraceSlots];
__device__ __forceinline__ void smallm_trace(TraceMark m) {
  if (threadIdx.x == 0 && blockIdx.y == 0 && blockIdx.x < kTraceMaxCtas) {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (m == kTraceEntry)  // a new launch: forget the previous launch's later milestones
      for (int k = 1; k < kTraceSlots; ++k) g_smallm_trace[blockIdx.x][k] = 0;
    g_smallm_trace[blockIdx.x][m] = t;
  }
}
// Host: appends one line per traced CTA ("tag cta t0 .. t15") to `path` and clears the trace.
void smallm_trace_dump(const char* path, const char* tag);
#else
__device__ __forceinline__ void smallm_trace(TraceMark) {}
#endif

}  // namespace mixgemm::kernels::smallm
