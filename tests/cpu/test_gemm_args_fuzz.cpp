// gemm()'s argument checks on random problems, on the CPU (CI): check_gemm_args runs everything
// gemm() checks before a launch except the device and pointer queries (the arguments, the
// workspace, the regions, the heuristic's plan and every planned launch's can_implement).
//   - every problem drawn from the accepted domain (common/problem_draw.h: every type
//     configuration, group size, epilogue, M = 1..4096, any accepted N and K) is accepted, with
//     the workspace workspace_size() asks for: the heuristic's plan never leaves a valid call
//     without a runnable launch, in whichever instance set this build has;
//   - the heuristic's pick (choose_schedule) is listed by supported_schedules and, forced, is
//     accepted too; partial_sums_count is 0 or 2..16;
//   - the same call with one argument made invalid (a random one of the mutations below) is
//     refused with mixgemm::Error, and the message names that argument.
// Fake device addresses 1 TiB apart (never dereferenced) keep the regions disjoint at every size drawn.
// Repro: MIXGEMM_TEST_SEED=<seed> MIXGEMM_FUZZ_CASES=1 ./mixgemm_cpu_tests --gtest_filter='GemmArgsFuzz.*'
#include <gtest/gtest.h>

#include <cstdio>
#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/problem_draw.h"
#include "core/dispatch.h"
#include "mixgemm/error.h"
#include "mixgemm/gemm.h"
#include "test_util.h"

namespace {

using namespace mixgemm;
using namespace mixgemm::test;

void* fake(uintptr_t i) { return reinterpret_cast<void*>((uintptr_t{1} << 40) * i); }

GemmArgs args_of(const ProblemDraw& d) {
  GemmArgs g;
  g.problem = d.problem();
  const int eb = a16(d.a) ? 2 : 1;
  g.a = fake(1);
  g.lda = d.K + (eb == 2 ? 8 : 16);  // a stride that is not K
  g.b = fake(2);
  g.group_scales = d.group_size ? fake(3) : nullptr;
  g.group_zeros = d.zeros ? fake(4) : nullptr;
  g.channel_scales = d.ch ? static_cast<const float*>(fake(5)) : nullptr;
  g.token_scales = d.tok ? static_cast<const float*>(fake(6)) : nullptr;
  g.bias = d.bias ? fake(7) : nullptr;
  g.out = fake(8);
  g.ldo = d.N + 8;
  g.workspace_bytes = workspace_size(g.problem);
  g.workspace = g.workspace_bytes ? fake(9) : nullptr;
  return g;
}

struct Mutation {
  const char* name;
  const char* names_argument;  // the message must contain this
  std::function<bool(GemmArgs&, const ProblemDraw&)> apply;  // false: not applicable to this draw
};

std::vector<Mutation> mutations() {
  auto bytes = [](void* p, int64_t off) { return static_cast<void*>(static_cast<char*>(p) + off); };
  return {
      {"N not a multiple of 16", "N=", [](GemmArgs& g, const ProblemDraw&) { g.problem.N += 8; return true; }},
      {"K not a multiple of the k-block", "K=",
       [](GemmArgs& g, const ProblemDraw& d) { g.problem.K += wbits(d.b) == 4 ? 32 : 16; g.lda += 64; return true; }},
      {"group size not a multiple of 16 / 32", "group_size=",
       [](GemmArgs& g, const ProblemDraw& d) {
         if (d.K % 8 != 0 || d.K == 8) return false;
         g.problem.group_size = 8;  // divides K (a multiple of 32), not a multiple of 16
         if (!g.group_scales) g.group_scales = fake(3);
         return true;
       }},
      {"group size not dividing K", "group_size=",
       [](GemmArgs& g, const ProblemDraw& d) {
         const int64_t gs = a16(d.a) ? 48 : 96;
         if (d.K % gs == 0 || d.K < gs) return false;
         g.problem.group_size = gs;
         if (!g.group_scales) g.group_scales = fake(3);
         return true;
       }},
      {"lda < K", "lda=", [](GemmArgs& g, const ProblemDraw& d) { g.lda = d.K - 16; return d.K > 16; }},
      {"lda not 16-byte rows", "lda=", [](GemmArgs& g, const ProblemDraw&) { g.lda += 1; return true; }},
      {"ldo < N", "ldo=", [](GemmArgs& g, const ProblemDraw& d) { g.ldo = d.N - 8; return true; }},
      {"ldo not 16-byte rows", "ldo=", [](GemmArgs& g, const ProblemDraw&) { g.ldo += 1; return true; }},
      {"a misaligned", "a is not 16-byte aligned",
       [bytes](GemmArgs& g, const ProblemDraw&) { g.a = bytes(fake(1), 8); return true; }},
      {"b misaligned", "b is not 16-byte aligned",
       [bytes](GemmArgs& g, const ProblemDraw&) { g.b = bytes(fake(2), 4); return true; }},
      {"out misaligned", "out is not 16-byte aligned",
       [bytes](GemmArgs& g, const ProblemDraw&) { g.out = bytes(fake(8), 2); return true; }},
      {"group scales missing", "group_scales is null",
       [](GemmArgs& g, const ProblemDraw& d) { g.group_scales = nullptr; return d.group_size != 0; }},
      {"group scales without a group size", "group_scales given",
       [](GemmArgs& g, const ProblemDraw& d) { g.group_scales = fake(3); return d.group_size == 0; }},
      {"zero points missing", "group_zeros is null",
       [](GemmArgs& g, const ProblemDraw& d) { g.group_zeros = nullptr; return d.zeros; }},
      {"out type of a 16-bit activation", "types.out=",
       [](GemmArgs& g, const ProblemDraw& d) {
         g.problem.types.out = d.a == AType::kF16 ? types::bf16 : types::f16;
         return a16(d.a);
       }},
      {"8-bit weights with 8-bit activations", "types.b=",
       [](GemmArgs& g, const ProblemDraw& d) {
         g.problem.types.b = types::u8b128;
         g.problem.types.has_zeros = false;
         g.group_zeros = nullptr;
         return !a16(d.a);
       }},
      {"unknown schedule", "schedule=",
       [](GemmArgs& g, const ProblemDraw&) { g.schedule = "sm90_1x1_1x1x1_none"; return true; }},
      {"workspace one byte short of the call's need", "workspace_bytes=",
       [](GemmArgs& g, const ProblemDraw&) {
         // The call's own need (workspace_size is the bound over schedules and smaller M); 132 SMs, as
         // check_gemm_args assumes without a device.
         const size_t need = core::workspace_bytes(g.problem, 132);
         if (need == 0) return false;
         g.workspace_bytes = need - 1;
         return true;
       }},
      {"out overlapping a", "out overlaps a", [](GemmArgs& g, const ProblemDraw&) { g.out = fake(1); return true; }},
  };
}

TEST(GemmArgsFuzz, AcceptedDomainAndNamedRefusals) {
  const uint64_t first = fuzz_first_seed();
  const int cases = fuzz_cases(20000);
  const std::vector<Mutation> muts = mutations();
  std::map<std::string, int> applied;
  int accepted = 0;
  for (int c = 0; c < cases; ++c) {
    const uint64_t seed = first + static_cast<uint64_t>(c);
    const ProblemDraw d = draw_problem(seed);
    const GemmArgs g = args_of(d);
    const std::string what = g.problem.types.name() + " M=" + std::to_string(d.M) + " N=" + std::to_string(d.N) +
                             " K=" + std::to_string(d.K) + " g=" + std::to_string(d.group_size) +
                             " (MIXGEMM_TEST_SEED=" + std::to_string(seed) + " MIXGEMM_FUZZ_CASES=1)";
    const std::string refusal = error_of([&] { check_gemm_args(g); });
    EXPECT_EQ(refusal, "") << what << ": a call of the accepted domain was refused";
    if (!refusal.empty()) continue;
    ++accepted;
    // The heuristic's own pick is one of the listed schedules, and forcing it is accepted too.
    const std::string pick = choose_schedule(g.problem, 132);
    const std::vector<std::string> names = supported_schedules(g.problem.types);
    EXPECT_NE(std::find(names.begin(), names.end(), pick), names.end()) << what << ": pick " << pick << " not listed";
    GemmArgs forced = g;
    forced.schedule = pick;
    EXPECT_EQ(error_of([&] { check_gemm_args(forced); }), "") << what << ": forcing the heuristic's pick " << pick;
    // The partial-sum form's S is 0 (none) or 2..16 (gemm.h).
    const int64_t S = partial_sums_count(g.problem);
    EXPECT_TRUE(S == 0 || (S >= 2 && S <= 16)) << what << ": partial_sums_count " << S;
    // One mutation that applies to this draw (a few tries; every draw has several).
    Rng mix{~seed};
    Rng r{mix.next()};
    for (int t = 0; t < 8; ++t) {
      const Mutation& m = muts[static_cast<size_t>(r.uniform(0, static_cast<int>(muts.size()) - 1))];
      GemmArgs bad = g;
      if (!m.apply(bad, d)) continue;
      const std::string msg = error_of([&] { check_gemm_args(bad); });
      EXPECT_NE(msg, "") << what << ": " << m.name << " was accepted";
      EXPECT_NE(msg.find(m.names_argument), std::string::npos)
          << what << ": " << m.name << ": the message does not name '" << m.names_argument << "': " << msg;
      ++applied[m.name];
      break;
    }
  }
  std::printf("[GemmArgsFuzz] seeds %llu..%llu: %d of %d drawn calls accepted\n", static_cast<unsigned long long>(first),
              static_cast<unsigned long long>(first + cases - 1), accepted, cases);
  for (const auto& [name, n] : applied) std::printf("[GemmArgsFuzz]   refused as expected: %-40s %d\n", name.c_str(), n);
  if (cases >= 1000) {
    for (const Mutation& m : muts) EXPECT_GT(applied[m.name], 0) << m.name << " never drawn";
  }
}

// The same acceptance on shapes beyond the GPU fuzz's reference budget: N up to 262144 (an lm_head
// of a 128k vocabulary is 128256), K up to 65536 (s8: up to its accumulator bound), M up to 16384.
TEST(GemmArgsFuzz, WideShapesAreAccepted) {
  const uint64_t first = fuzz_first_seed() + 1000000;
  const int cases = fuzz_cases(5000);
  std::map<std::string, int> picks;
  for (int c = 0; c < cases; ++c) {
    const uint64_t seed = first + static_cast<uint64_t>(c);
    ProblemDraw d = draw_problem(seed);
    Rng mix{seed * 3 + 1};
    Rng r{mix.next()};
    const int kb = wbits(d.b) == 4 ? 64 : 32;
    d.M = r.uniform(0, 3) == 0 ? r.uniform(1, 64) : r.uniform(1, 16384);
    d.N = 16 * static_cast<int64_t>(r.uniform(1, 16384));
    d.K = kb * static_cast<int64_t>(r.uniform(1, 65536 / kb));
    if (d.a == AType::kS8) d.K = std::min<int64_t>(d.K, 131071 / kb * kb);
    std::vector<int64_t> groups = {0, d.K};
    for (int64_t g : {16, 32, 64, 128, 256})
      if (g % (a16(d.a) ? 16 : 32) == 0 && d.K % g == 0) groups.push_back(g);
    d.group_size = groups[static_cast<size_t>(r.uniform(0, static_cast<int>(groups.size()) - 1))];
    const GemmArgs g = args_of(d);
    const std::string refusal = error_of([&] { check_gemm_args(g); });
    EXPECT_EQ(refusal, "") << g.problem.types.name() << " M=" << d.M << " N=" << d.N << " K=" << d.K
                           << " g=" << d.group_size << " (MIXGEMM_TEST_SEED=" << seed - 1000000
                           << " MIXGEMM_FUZZ_CASES=1): a call of the accepted domain was refused";
    if (refusal.empty()) {
      const std::string plan = describe_plan(g.problem, 132);
      ++picks[plan.substr(0, plan.find_first_of("_[", plan.find('_') + 1))];
      GemmArgs forced = g;
      forced.schedule = choose_schedule(g.problem, 132);
      EXPECT_EQ(error_of([&] { check_gemm_args(forced); }), "")
          << "forcing the heuristic's pick " << forced.schedule << " (MIXGEMM_TEST_SEED=" << seed - 1000000 << ")";
    }
  }
  for (const auto& [family, n] : picks) std::printf("[GemmArgsFuzz] wide: %-12s %d\n", family.c_str(), n);
}

}  // namespace
