// plan.h - mixgemm-bench --plan: which schedule gemm() would run for every shape x type config
// x M of the command line, from the heuristic alone (mixgemm::describe_plan: pure host code,
// this build's instances, an assumed SM count), as CSV. Measures nothing and needs no GPU: an
// engine developer's dispatch table for a model's layers, and the check that a heuristic change
// moves only the points it means to. Header-only, unit-tested in tests/cpu/test_bench_cli.cpp.
#pragma once

#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "mixgemm/gemm.h"
#include "options.h"
#include "shapes.h"
#include "type_spec.h"

namespace mixgemm::bench {

// The problem of one plan point: the bench's own mapping of a type spec (TypeSpec::problem).
inline GemmProblem plan_problem(const Shape& s, const TypeSpec& t, int64_t M) { return t.problem(M, s.N, s.K); }

// CSV: shape,tp,N,K,type,M,schedule. A problem gemm() would refuse gets "refused: <reason>"
// in the schedule column (commas replaced), so every point of the grid has a row.
inline std::string plan_text(const Options& o) {
  std::ostringstream os;
  os << "# mixgemm dispatch plan: describe_plan with " << o.plan_sm_count
     << " SMs and this build's instances (no GPU used)\n";
  os << "shape,tp,N,K,type,M,schedule\n";
  for (const Shape& s : expand_shapes(o.sets, o.tps, o.custom_shapes)) {
    for (const TypeSpec& t : o.types) {
      for (int64_t M : o.m_list) {
        std::string choice;
        try {
          choice = describe_plan(plan_problem(s, t, M), o.plan_sm_count);
        } catch (const std::exception& e) {
          choice = std::string("refused: ") + e.what();
          for (char& c : choice)
            if (c == ',' || c == '\n') c = ';';
        }
        os << s.name << ',' << s.tp << ',' << s.N << ',' << s.K << ',' << t.text << ',' << M << ',' << choice << '\n';
      }
    }
  }
  return os.str();
}

}  // namespace mixgemm::bench
