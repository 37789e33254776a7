#include "core/dispatch.h"

#include "core/check.h"
#include "core/problem.h"

namespace mixgemm::core {

std::vector<std::string> schedule_names(const TypeConfig&) { return {}; }

std::string choose(const GemmProblem& problem, int) {
  MIXGEMM_NOT_SUPPORTED("gemm", "no kernel implements " << problem.types.name() << " yet");
}

size_t workspace_bytes(const GemmProblem&) { return 0; }

void launch(const GemmArgs& args, const std::string&, int) {
  MIXGEMM_NOT_SUPPORTED("gemm", "no kernel implements " << args.problem.types.name() << " yet");
}

}  // namespace mixgemm::core
