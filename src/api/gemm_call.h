// gemm_call.h - the checks and the launch of a gemm() call, for the other public entries that
// run one (gemm_with_activation_quant). Internal to the library.
#pragma once

#include <vector>

#include <cuda_runtime_api.h>

#include "core/dispatch.h"
#include "mixgemm/gemm.h"

namespace mixgemm::api {

// A call every check of gemm() has accepted: the current device's SM count and its launches.
struct CheckedCall {
  int sm_count = 0;
  std::vector<core::PlannedLaunch> plan;
};

// Everything gemm() checks before it launches (the arguments, an sm_90 device, every pointer
// device memory of the current device, every planned launch runnable); throws mixgemm::Error
// naming the argument. No launch, no allocation, no host sync.
CheckedCall check_call(const GemmArgs& args);

// Launches a checked call's plan on args.stream (MIXGEMM_PRINT_CONFIG=1 prints each launch).
void run_call(const GemmArgs& args, const CheckedCall& call);

// Throws (naming `name`, in entry `where`) unless p is null, device memory of the current device
// or managed memory.
void require_device_pointer(const void* p, const char* name, const char* where);

// Throws (in entry `where`) unless `stream` is a default stream or a live stream of the current
// device. A capturing stream is not asked its device (the query would invalidate the capture).
void require_stream_of_current_device(cudaStream_t stream, const char* where);

}  // namespace mixgemm::api
