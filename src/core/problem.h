// problem.h - pure checks and facts about a GEMM problem (no CUDA).
#pragma once

#include <cstdint>

#include "kernels/gemm_params.h"
#include "mixgemm/gemm.h"
#include "mixgemm/layout.h"

namespace mixgemm::core {

// Largest K for s8 x s8: |a*w| <= 128*128 = 2^14, so K * 2^14 <= 2^31 - 1.
inline constexpr int64_t kMaxKS8 = 131071;

// The accepted type pairs (docs/semantics.md), refused otherwise with the list.
void check_type_config(const TypeConfig& t, const char* where);

// Shapes, group size, type config; everything that does not need a pointer. M = 0 (no tokens:
// an engine's empty batch or an expert that drew none) passes only with `allow_empty`, for the
// entries that run nothing for it (gemm, check_gemm_args, workspace_size); the ones that describe
// a launch (choose_schedule, describe_plan, the partial sums) refuse it.
void check_problem(const GemmProblem& p, const char* where, bool allow_empty = false);

// Number of rows of group scales / zeros: K / group_size, or 1 without group scales.
int64_t num_groups(const GemmProblem& p);

bool is_16bit_activation(ScalarType a);
layout::Kind layout_kind(const TypeConfig& t);

kernels::AType to_kernel(ScalarType a);
kernels::BType to_kernel_b(ScalarType b);
kernels::OutType to_kernel_out(ScalarType o);

}  // namespace mixgemm::core
