// plan.h - mixgemm-bench --plan: which schedule gemm() would run for every shape x type config
// x M of the command line, from the heuristic alone (mixgemm::describe_plan: pure host code,
// this build's instances, an assumed SM count), as CSV. Measures nothing and needs no GPU: an
// engine developer's dispatch table for a model's layers, and the check that a heuristic change
// moves only the points it means to. Header-only, unit-tested in tests/cpu/test_bench_cli.cpp.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "core/dispatch.h"
#include "mixgemm/gemm.h"
#include "options.h"
#include "shapes.h"
#include "type_spec.h"

namespace mixgemm::bench {

// The problem of one plan point: the bench's own mapping of a type spec (TypeSpec::problem).
inline GemmProblem plan_problem(const Shape& s, const TypeSpec& t, int64_t M) { return t.problem(M, s.N, s.K); }

// CSV over every shape x type x M of the command line: `comment`, then `shape,tp,N,K,type,M,<column>`
// rows whose last cell is cell(problem), or "refused: <reason>" (commas and newlines replaced) where
// it throws what gemm() would, so every point of the grid has a row.
template <class Cell>
std::string grid_csv(const Options& o, const std::string& comment, const char* column, Cell cell) {
  std::ostringstream os;
  os << comment << "\nshape,tp,N,K,type,M," << column << '\n';
  for (const Shape& s : expand_shapes(o.sets, o.tps, o.custom_shapes)) {
    for (const TypeSpec& t : o.types) {
      for (int64_t M : o.m_list) {
        std::string value;
        try {
          value = cell(plan_problem(s, t, M));
        } catch (const std::exception& e) {
          value = std::string("refused: ") + e.what();
          for (char& c : value)
            if (c == ',' || c == '\n') c = ';';
        }
        os << s.name << ',' << s.tp << ',' << s.N << ',' << s.K << ',' << t.text << ',' << M << ',' << value << '\n';
      }
    }
  }
  return os.str();
}

// CSV: shape,tp,N,K,type,M,schedule (describe_plan's answer).
inline std::string plan_text(const Options& o) {
  return grid_csv(o,
                  "# mixgemm dispatch plan: describe_plan with " + std::to_string(o.plan_sm_count) +
                      " SMs and this build's instances (no GPU used)",
                  "schedule", [&](const GemmProblem& p) { return describe_plan(p, o.plan_sm_count); });
}

// The arguments of a call of problem p with every pointer gemm() reads set to a distinct fake,
// 256-byte aligned address (never dereferenced) and the workspace workspace_size asks.
inline GemmArgs host_cost_args(const GemmProblem& p) {
  auto fake = [](uintptr_t i) { return reinterpret_cast<void*>((uintptr_t{1} << 40) * i); };
  GemmArgs a;
  a.problem = p;
  const bool a8 = p.types.a.size_bits() == 8;
  a.a = fake(1);
  a.lda = (p.K + 15) / 16 * 16;
  a.b = fake(2);
  a.group_scales = p.group_size > 0 ? fake(3) : nullptr;
  a.group_zeros = p.types.has_zeros ? fake(4) : nullptr;
  a.channel_scales = static_cast<const float*>(fake(5));
  a.token_scales = a8 ? static_cast<const float*>(fake(6)) : nullptr;
  a.out = fake(7);
  a.ldo = (p.N + 7) / 8 * 8;
  a.workspace = fake(8);
  a.workspace_bytes = workspace_size(p);
  return a;
}

// Microseconds of host work per call before gemm()'s launch for problem p (the median of
// `rounds` rounds of `reps` calls): check_gemm_args, which checks the arguments, plans the call
// (core::plan_call) and runs every planned launch's core::require_runnable, as gemm() does.
// Throws what gemm() would (a refused problem). It plans for the current device's SM count (132
// without a device), as gemm() does.
inline double host_cost_us(const GemmProblem& p, int reps = 200, int rounds = 5) {
  const GemmArgs a = host_cost_args(p);
  std::vector<double> us;
  for (int r = 0; r < rounds; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) check_gemm_args(a);
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / reps);
  }
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

// CSV: shape,tp,N,K,type,M,host_us (host_cost_us, two decimals).
inline std::string host_cost_text(const Options& o) {
  return grid_csv(o,
                  "# mixgemm host cost per gemm() call before the launch: check_gemm_args (checks, plan_call, "
                  "require_runnable) for the current device's SMs (132 without one), fake pointers "
                  "(no cudaPointerGetAttributes, no launch, no GPU needed)",
                  "host_us", [&](const GemmProblem& p) {
                    char buf[32];
                    std::snprintf(buf, sizeof buf, "%.2f", host_cost_us(p));
                    return std::string(buf);
                  });
}

}  // namespace mixgemm::bench
