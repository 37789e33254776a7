// reference_detail.h - helpers shared by the reference, the quantizers and the formats
// (private to src/reference; not installed).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "mixgemm/gemm.h"
#include "mixgemm/scalar_type.h"

namespace mixgemm::reference_detail {

// The largest K whose s8 x s8 sum cannot overflow s32: K * 2^14 <= 2^31 - 1.
inline constexpr int64_t kMaxKS8 = 131071;

enum class ActKind { kF16, kBF16, kS8, kE4M3 };

// Throws mixgemm::Error(kInvalidArgument, "mixgemm::<where>: <what>").
[[noreturn]] void fail(const char* where, const std::string& what);

ActKind act_kind(ScalarType a);
void check_problem(const GemmProblem& p, const char* where);
int64_t group_count(const GemmProblem& p);
uint32_t max_stored(ScalarType b);

// RN_T(x) for T = f16 / bf16 (one round-to-nearest-even from the exact double), as double.
double round_to(ActKind t, double x);

// True when (q, sg, z) is a valid weight input of p (stored range, zero range, s8 range).
bool weight_inputs_ok(const GemmProblem& p, uint32_t q, bool has_scale, uint32_t sg, uint32_t z,
                      bool has_zero);
// Throws the detailed message for an input weight_inputs_ok refuses; `at` names the element.
void check_weight_inputs(const GemmProblem& p, uint32_t q, bool has_scale, uint32_t sg, uint32_t z,
                         bool has_zero, const char* where, const std::string& at);

// The weight of docs/semantics.md as a double (exact value of the MMA operand type).
// scale_bits: the raw group-scale element (f16/bf16 bits, or the u8 integer for s8).
double weight_value(const GemmProblem& p, uint32_t q, bool has_scale, uint32_t scale_bits,
                    uint32_t z, bool has_zero);

uint32_t load_bits(ScalarType t, const void* base, int64_t index);

// Runs body(i) for i in [0, count) on up to `threads` std::threads (dynamic scheduling).
void parallel_for(int64_t count, int threads, const std::function<void(int64_t)>& body);
// threads <= 0: hardware_concurrency (at least 1).
int resolve_threads(int threads);

}  // namespace mixgemm::reference_detail
