// Session 112: the CPU side of GemmFuzz.PartialSumsMatchReference's new assertion (session 112: where
// kernels::smallm_launch_split says gemm()'s smallm launch and gemm_partial_sums' split K alike, same C CTAs
// and same cluster, the summed parts must give gemm()'s bits). For the partial-sum seeds the devices ran in
// sessions 106-110 (301..2618, H100 and H200 runs of 132 SMs), which cases would the test have asserted? This
// program answers from the library's geometry functions at 132 SMs, without the cluster-residency fallback
// (which only the device can answer; the test asks it there through the same planner launch_smallm uses).
// Every case the device logs list as "other bits than gemm()" must be explained: another split here, or a
// cluster geometry the fallback can take away on the device.
// a / b: kernels::AType (0 f16, 1 bf16, 2 s8, 3 e4m3) / BType (0 u4b8, 1 u4, 2 u8b128, 3 u8); int: integer data.
// Build and run from the repository root, after a build of the library in $B (scripts/build_carry.sh's
// /tmp/mixgemm-carry-build):
//   g++ -std=c++17 -Isrc -Iinclude -Itests bench/results/2026-12-08-h200/s112-next/split_predict.cpp \
//     $B/libmixgemm.a -L/usr/local/cuda/lib64 -lcudart -lcuda -o /tmp/split_predict && /tmp/split_predict
#include <cstdio>
#include <set>
#include <string>

#include "common/problem_draw.h"
#include "kernels/smallm/smallm.h"
#include "kernels/smallm/smallm_geometry.h"
#include "mixgemm/gemm.h"

using namespace mixgemm;
using namespace mixgemm::test;
namespace sh = mixgemm::kernels::smallm_host;

int main() {
  // The "other bits than gemm()" seeds of the device logs (s106-fuzz, s107-fuzz, s109-fuzz, s110-fuzz;
  // each run's list is complete, under its limit of 8 lines).
  const std::set<uint64_t> logged = {369, 760, 842, 993, 1225, 1262, 1370, 1410, 1490, 1563,
                                     2092, 2244, 2359, 2375, 2432};
  const int sm = 132;
  int with_parts = 0, same = 0, other = 0, logged_same = 0, logged_other = 0;
  for (uint64_t s = 301; s <= 2618; ++s) {
    ProblemDraw pd = draw_problem(s + 500000);
    pd.M = 1 + (pd.M - 1) % 16;  // the test's decode sizes
    const GemmProblem p = pd.problem();
    if (supported_schedules(p.types).empty() || partial_sums_count(p, "", sm) == 0) continue;
    ++with_parts;
    const std::string plan = describe_plan(p, sm);
    kernels::SmallmConfig cfg;
    bool eq = false;
    sh::Geometry g, q;
    if (kernels::smallm_parse_name(plan, &cfg)) {
      g = sh::make_geometry(pd.M, pd.N, pd.K, pd.a, pd.b, pd.group_size, pd.zeros, cfg, sm);
      q = sh::make_partial_sums_geometry(pd.M, pd.N, pd.K, pd.a, pd.b, pd.group_size, pd.zeros, cfg, sm);
      // launch_smallm's C: g.C for a cluster geometry or partial sums, else min(g.C, min(O, fit) x SMs), which is
      // g.C wherever the schedule's O CTAs fit an SM (Smallm.SchedulesFitTheirCtasPerSm).
      eq = g.C == q.C && (g.cluster >= 2 ? g.cluster : 0) == (q.cluster >= 2 ? q.cluster : 0);
    }
    const bool is_logged = logged.count(s) != 0;
    eq ? ++same : ++other;
    if (is_logged) eq ? ++logged_same : ++logged_other;
    // Printed: the logged cases, every other split, and the same-split cluster launches of >= 120 CTAs whose sums
    // show the order (random data, not s8: integer data and s32 sums are exact in any order), where the fallback
    // could act on the device.
    const bool border = eq && g.cluster >= 2 && g.C >= 120 && !pd.integer && pd.a != kernels::AType::kS8;
    if (is_logged || !eq || border)
      std::printf("seed %4llu %-20s a=%d b=%d int=%d M=%2d N=%5lld K=%5lld smem=%6lld: gemm C=%3lld cluster=%lld | parts "
                  "C=%3lld cluster=%lld -> %s%s\n",
                  (unsigned long long)s, plan.c_str(), (int)pd.a, (int)pd.b, (int)pd.integer, pd.M, (long long)pd.N, (long long)pd.K,
                  (long long)g.smem_bytes, (long long)g.C, (long long)(g.cluster >= 2 ? g.cluster : 0),
                  (long long)q.C, (long long)(q.cluster >= 2 ? q.cluster : 0), eq ? "same split" : "other split",
                  is_logged ? "  [logged: other bits]" : "");
  }
  std::printf("seeds 301..2618 (M = 1..16): %d with a partial-sum form; same split %d, other split %d; of the %zu "
              "logged other-bits cases %d are another split here, %d the same split before the residency fallback\n",
              with_parts, same, other, logged.size(), logged_other, logged_same);
  return 0;
}
