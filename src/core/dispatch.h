// dispatch.h - from a validated problem to a kernel family and one of its
// schedules. The heuristic is a pure function of (problem, SM count): it lists
// the candidates every family offers, drops the ones that cannot run, and
// keeps the best-scored (see docs/design.md).
#pragma once

#include <string>
#include <vector>

#include "mixgemm/gemm.h"

namespace mixgemm::core {

// Every schedule name that can run `types`, over all kernel families, stable order.
std::vector<std::string> schedule_names(const TypeConfig& types);

// The heuristic's pick.
std::string choose(const GemmProblem& problem, int sm_count);

// Workspace bytes: the maximum over every schedule the caller may force.
size_t workspace_bytes(const GemmProblem& problem);

// Launches `schedule` (already checked to be a name of schedule_names) on args.stream.
void launch(const GemmArgs& args, const std::string& schedule, int sm_count);

// Largest M one launch of the small-M family serves; gemm splits larger M into row slabs.
inline constexpr int64_t kSmallmMaxTokens = 64;

}  // namespace mixgemm::core
