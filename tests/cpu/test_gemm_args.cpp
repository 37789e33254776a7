// Every refusal of gemm's argument checks, on the CPU: each bad argument is
// named in the message together with what would be accepted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include <string>

#include "core/dispatch.h"
#include "core/problem.h"
#include "core/regions.h"
#include "mixgemm/activation_quant.h"
#include "mixgemm/gemm.h"

namespace {

using namespace mixgemm;
using namespace mixgemm::types;

// Fake, 256-byte aligned addresses 4 GiB apart (no two arguments' bytes meet): check_gemm_args never
// dereferences them.
const void* fake(uintptr_t i) { return reinterpret_cast<const void*>((uintptr_t{1} << 32) * i); }

GemmArgs valid_w4a16() {
  GemmArgs a;
  a.problem.M = 16;
  a.problem.N = 256;
  a.problem.K = 512;
  a.problem.types = TypeConfig{f16, u4b8, f16, false, f16};
  a.problem.group_size = 128;
  a.a = fake(1);
  a.lda = 512;
  a.b = fake(2);
  a.group_scales = fake(3);
  a.out = const_cast<void*>(fake(4));
  a.ldo = 256;
  a.workspace = const_cast<void*>(fake(5));
  a.workspace_bytes = 1 << 30;
  return a;
}

// Runs check_gemm_args and returns the message ("" if accepted).
std::string refusal(const GemmArgs& a) {
  try {
    check_gemm_args(a);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument) << e.what();
    return e.what();
  }
  return "";
}

void expect_refused(const GemmArgs& a, const std::string& must_contain) {
  const std::string msg = refusal(a);
  ASSERT_FALSE(msg.empty()) << "accepted, but should refuse with '" << must_contain << "'";
  EXPECT_NE(msg.find(must_contain), std::string::npos) << msg;
}

TEST(GemmArgs, ValidW4A16IsAccepted) { EXPECT_EQ(refusal(valid_w4a16()), ""); }

TEST(GemmArgs, NullPointers) {
  auto a = valid_w4a16();
  a.a = nullptr;
  expect_refused(a, "a is null");
  a = valid_w4a16();
  a.b = nullptr;
  expect_refused(a, "b is null");
  a = valid_w4a16();
  a.out = nullptr;
  expect_refused(a, "out is null");
  a = valid_w4a16();
  a.group_scales = nullptr;
  expect_refused(a, "group_scales is null");
}

TEST(GemmArgs, Shapes) {
  auto a = valid_w4a16();
  a.problem.M = -1;
  expect_refused(a, "M=-1");
  a = valid_w4a16();
  a.problem.N = 250;
  a.ldo = 256;
  expect_refused(a, "N=250 is not a multiple of 16");
  a = valid_w4a16();
  a.problem.K = 544;  // multiple of 32, not of 64: 4-bit blocks are 64 deep
  a.lda = 544;
  a.problem.group_size = 0;
  a.group_scales = nullptr;
  expect_refused(a, "K=544 is not a multiple of 64");
  a = valid_w4a16();
  a.problem.types.b = u8b128;
  a.problem.K = 544;
  a.lda = 544;
  a.problem.group_size = 0;
  a.group_scales = nullptr;
  EXPECT_EQ(refusal(a), "");  // 8-bit weights: 32-deep blocks
}

TEST(GemmArgs, GroupSizes) {
  for (int64_t g : {0, 16, 32, 64, 128, 256, 512}) {
    auto a = valid_w4a16();
    a.problem.group_size = g;
    if (g == 0) a.group_scales = nullptr;
    EXPECT_EQ(refusal(a), "") << "group_size=" << g;
  }
  for (int64_t g : {-1, 8, 48, 96, 1024}) {
    auto a = valid_w4a16();
    a.problem.group_size = g;
    expect_refused(a, "group_size=" + std::to_string(g));
  }
  auto a = valid_w4a16();  // 8-bit activations need groups in multiples of 32
  a.problem.types = TypeConfig{s8, u4b8, u8, false, f16};
  a.problem.group_size = 16;
  expect_refused(a, "multiple of 32");
  a.group_scales = nullptr;
  a.problem.group_size = 0;
  EXPECT_EQ(refusal(a), "");
  a.group_scales = fake(3);
  expect_refused(a, "group_scales given with group_size=0");
}

TEST(GemmArgs, TypePairs) {
  auto a = valid_w4a16();
  a.problem.types.a = f32;
  expect_refused(a, "types.a=f32 is not an activation type");
  a = valid_w4a16();
  a.problem.types.b = s8;
  expect_refused(a, "types.b=s8 is not a weight type");
  a = valid_w4a16();
  a.problem.types = TypeConfig{s8, u8b128, u8, false, f16};
  expect_refused(a, "8-bit activations accept u4b8 and u4");
  a = valid_w4a16();
  a.problem.types.out = bf16;
  expect_refused(a, "out=f16");
  a = valid_w4a16();
  a.problem.types.scale = bf16;
  expect_refused(a, "types.scale=bf16");
  a = valid_w4a16();
  a.problem.types = TypeConfig{e4m3, u4b8, bf16, false, bf16};
  expect_refused(a, "accepted: f16");
  a = valid_w4a16();
  a.problem.types = TypeConfig{e4m3, u4b8, f16, false, bf16};
  EXPECT_EQ(refusal(a), "");
  a.problem.types.out = e4m3;
  expect_refused(a, "types.out=e4m3");
}

TEST(GemmArgs, ZeroPoints) {
  auto a = valid_w4a16();
  a.problem.types.has_zeros = true;  // with u4b8
  a.group_zeros = fake(6);
  expect_refused(a, "zero points go with unbiased weights");
  a.problem.types.b = u4;
  EXPECT_EQ(refusal(a), "");
  a.group_zeros = nullptr;
  expect_refused(a, "group_zeros is null");
  a = valid_w4a16();
  a.group_zeros = fake(6);
  expect_refused(a, "group_zeros given but types.has_zeros is false");
}

TEST(GemmArgs, StridesAndAlignment) {
  auto a = valid_w4a16();
  a.lda = 500;
  expect_refused(a, "lda=500 < K=512");
  a.lda = 516;
  expect_refused(a, "lda=516 is not a multiple of 8");
  a = valid_w4a16();
  a.ldo = 260;
  expect_refused(a, "ldo=260 is not a multiple of 8");
  a = valid_w4a16();
  a.a = reinterpret_cast<const void*>(0x100008);
  expect_refused(a, "a is not 16-byte aligned");
  a = valid_w4a16();
  a.out = reinterpret_cast<void*>(0x100002);
  expect_refused(a, "out is not 16-byte aligned");
}

TEST(GemmArgs, S8OverflowBound) {
  auto a = valid_w4a16();
  a.problem.types = TypeConfig{s8, u4b8, u8, false, f16};
  a.problem.group_size = 0;
  a.group_scales = nullptr;
  a.problem.K = 131072;
  a.lda = 131072;
  expect_refused(a, "could overflow the s32 accumulator");
  a.problem.K = 131008;  // largest multiple of 64 below the bound
  a.lda = 131008;
  EXPECT_EQ(refusal(a), "");
}

TEST(GemmArgs, UnknownSchedule) {
  auto a = valid_w4a16();
  a.schedule = "no_such_schedule";
  expect_refused(a, "schedule='no_such_schedule' is not a schedule of");
}

TEST(GemmArgs, Workspace) {
  auto a = valid_w4a16();
  const size_t need = workspace_size(a.problem);
  a.workspace_bytes = need;
  EXPECT_EQ(refusal(a), "");
  if (need > 0) {
    a.workspace_bytes = need - 1;
    expect_refused(a, "workspace_bytes=");
    a.workspace_bytes = need;
    a.workspace = nullptr;
    expect_refused(a, "workspace is null");
  }
}

// GemmArgs::sm_count (a green context's partition): 0 or 1..the device's SMs (132 on this machine,
// which has none); the workspace and the partial-sum count follow the SMs the call plans for.
TEST(GemmArgs, SmCount) {
  auto a = valid_w4a16();
  a.sm_count = -1;
  expect_refused(a, "sm_count=-1 is not a number of SMs of the current device (132 SMs)");
  a.sm_count = 133;
  expect_refused(a, "accepted: 0 (all of them) or 1..132");
  for (int sms : {1, 66, 96, 132}) {
    a.sm_count = sms;
    a.workspace_bytes = workspace_size(a.problem, sms);
    EXPECT_EQ(refusal(a), "") << sms;
    EXPECT_EQ(workspace_size(a.problem, sms), core::workspace_bytes_up_to(a.problem, sms)) << sms;
  }
  EXPECT_EQ(workspace_size(a.problem, 132), workspace_size(a.problem));
  for (int bad : {-5, 1000}) {
    try {
      (void)workspace_size(a.problem, bad);
      ADD_FAILURE() << "workspace_size accepted sm_count=" << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("workspace_size"), std::string::npos) << e.what();
    }
  }
  // The partial-sum count is the one of the plan for that many SMs (the seed shape at M = 1,
  // whose K is split among the CTAs the SMs hold).
  GemmProblem seed = a.problem;
  seed.M = 1;
  seed.N = 8192;
  seed.K = 21760;
  for (int sms : {33, 96})
    EXPECT_EQ(partial_sums_count(seed, "", sms), core::plan_partial_sums(seed, "", sms).parts) << sms;
  EXPECT_EQ(partial_sums_count(seed, "", 132), partial_sums_count(seed));
}

// gemm_partial_sums: gemm's operand checks, plus its own: no out and no epilogue operands,
// a parts pointer, and a problem whose schedule has a partial-sum form. Every refusal happens
// before any device query (this machine has none).
std::string partial_sums_refusal(const GemmArgs& a, const void* parts) {
  try {
    gemm_partial_sums(a, const_cast<void*>(parts));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(GemmArgs, PartialSums) {
  GemmArgs a = valid_w4a16();
  a.problem.M = 1;
  a.problem.N = 4096;
  a.problem.K = 4096;
  a.lda = 4096;
  a.out = nullptr;
  a.workspace = nullptr;
  a.workspace_bytes = 0;
  const void* parts = fake(6);
  auto expect = [&](const GemmArgs& x, const void* p, const std::string& must_contain) {
    const std::string msg = partial_sums_refusal(x, p);
    EXPECT_NE(msg.find("gemm_partial_sums"), std::string::npos) << msg;
    EXPECT_NE(msg.find(must_contain), std::string::npos) << msg;
  };
  GemmArgs x = a;
  x.out = const_cast<void*>(fake(4));
  expect(x, parts, "out is set");
  const float* f = static_cast<const float*>(fake(7));
  x = a;
  x.bias = fake(7);
  expect(x, parts, "must be null");
  x = a;
  x.channel_scales = f;
  expect(x, parts, "must be null");
  x = a;
  x.token_scales = f;
  expect(x, parts, "must be null");
  expect(a, nullptr, "parts is null");
  expect(a, reinterpret_cast<const void*>(0x100008), "parts is not 16-byte aligned");
  x = a;
  x.a = nullptr;
  expect(x, parts, "a is null");
  // A 128256-column lm_head at M = 1 has more stripes than CTA slots: the stream-K partition,
  // two CTAs on some stripes. With K = 64 (one k-block) no stripe is shared: no partial-sum
  // form; neither have the sm90 schedules (M = 64 here).
  x = a;
  x.problem.N = 128256;
  EXPECT_EQ(partial_sums_count(x.problem), 2);
  x.problem.K = 64;
  x.problem.group_size = 64;
  expect(x, parts, "no partial-sum form");
  EXPECT_EQ(partial_sums_count(x.problem), 0);
  x = a;
  x.problem.M = 64;
  expect(x, parts, "no partial-sum form");
  EXPECT_EQ(partial_sums_count(x.problem), 0);
  // A valid call gets as far as the device check.
  EXPECT_GE(partial_sums_count(a.problem), 2);
  const std::string msg = partial_sums_refusal(a, parts);
  EXPECT_EQ(msg.find("partial-sum form"), std::string::npos) << msg;
}

// M = 0 (an empty batch, an expert that drew no tokens): gemm checks everything else and launches
// nothing, so a and out may be null and no workspace is needed; the entries that describe a launch
// refuse it by name.
TEST(GemmArgs, NoTokensIsCheckedAndNeedsNothing) {
  GemmArgs a = valid_w4a16();
  a.problem.M = 0;
  a.a = nullptr;
  a.out = nullptr;
  a.workspace = nullptr;
  a.workspace_bytes = 0;
  EXPECT_EQ(refusal(a), "");
  EXPECT_EQ(workspace_size(a.problem), 0u);
  // The rest of the call is still checked.
  GemmArgs x = a;
  x.problem.group_size = 96;
  expect_refused(x, "group_size=96");
  x = a;
  x.b = nullptr;
  expect_refused(x, "b is null");
  x = a;
  x.lda = 100;
  expect_refused(x, "lda=100");
  x = a;
  x.ldo = 8;
  expect_refused(x, "ldo=8");
  x = a;
  x.schedule = "no_such_schedule";
  expect_refused(x, "schedule='no_such_schedule'");
  x = a;
  x.a = reinterpret_cast<const void*>(0x100008);
  expect_refused(x, "a is not 16-byte aligned");
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  for (const std::string& msg :
       {message([&] { (void)choose_schedule(a.problem, 132); }), message([&] { (void)describe_plan(a.problem, 132); }),
        message([&] { (void)partial_sums_count(a.problem); })}) {
    EXPECT_NE(msg.find("M=0; accepted: M >= 1"), std::string::npos) << msg;
    EXPECT_NE(msg.find("gemm() accepts it"), std::string::npos) << msg;
  }
  // quantize_activations: the same rule (it launches nothing, so no device is needed here).
  ActivationQuantArgs q;
  q.M = 0;
  q.K = 64;
  q.lda = 64;
  q.ldq = 64;
  EXPECT_EQ(message([&] { quantize_activations(q); }), "");
  q.ldq = 8;
  EXPECT_NE(message([&] { quantize_activations(q); }).find("ldq=8"), std::string::npos);
  q.ldq = 64;
  q.M = -1;
  EXPECT_NE(message([&] { quantize_activations(q); }).find("M=-1"), std::string::npos);
}

// Byte regions: hulls that meet are tested row by row, so interleaved matrices do not overlap.
TEST(Regions, OverlapIsExactForStridedRows) {
  using core::matrix;
  using core::regions_overlap;
  using core::span;
  auto p = [](uintptr_t x) { return reinterpret_cast<const void*>(x); };
  EXPECT_FALSE(regions_overlap(span(p(1000), 100), span(p(1100), 100)));  // touching
  EXPECT_TRUE(regions_overlap(span(p(1000), 101), span(p(1100), 100)));
  EXPECT_FALSE(regions_overlap(span(nullptr, 100), span(p(16), 100)));   // null: no region
  // [M = 4 rows of 64 B, stride 192] = columns [0, 64) of a [4, 192 B] buffer; columns [64, 192)
  // of the same rows (base + 64, 128 B) interleave without a shared byte.
  EXPECT_FALSE(regions_overlap(matrix(p(4096), 4, 192, 64), matrix(p(4096 + 64), 4, 192, 128)));
  EXPECT_TRUE(regions_overlap(matrix(p(4096), 4, 192, 65), matrix(p(4096 + 64), 4, 192, 128)));
  // A span inside a gap between rows, and one that reaches a row.
  EXPECT_FALSE(regions_overlap(matrix(p(4096), 4, 192, 64), span(p(4096 + 70), 100)));  // [4166, 4266): gap
  EXPECT_TRUE(regions_overlap(matrix(p(4096), 4, 192, 64), span(p(4096 + 70), 200)));   // reaches row 1
  // Against brute force over every pair of rows (both argument orders): equal strides (the O(1)
  // path; rows of 24 B and 40 B every 64 B) and different ones (16 B every 100 B, 8 B every 37 B).
  auto brute = [](const core::Region& x, const core::Region& y) {
    for (int64_t i = 0; i < x.rows; ++i)
      for (int64_t j = 0; j < y.rows; ++j) {
        const int64_t a0 = static_cast<int64_t>(x.base) + i * x.stride, b0 = static_cast<int64_t>(y.base) + j * y.stride;
        if (a0 < b0 + y.row_bytes && b0 < a0 + x.row_bytes) return true;
      }
    return false;
  };
  const std::pair<core::Region, core::Region> shapes[] = {{matrix(p(20000), 5, 64, 24), matrix(p(20000), 7, 64, 40)},
                                                          {matrix(p(20000), 6, 100, 16), matrix(p(20000), 9, 37, 8)}};
  for (const auto& [x, y0] : shapes)
    for (int off = -200; off < 300; off += 3) {
      core::Region y = y0;
      y.base += off;
      EXPECT_EQ(regions_overlap(x, y), brute(x, y)) << "off " << off << " strides " << x.stride << ", " << y.stride;
      EXPECT_EQ(regions_overlap(y, x), brute(x, y)) << "off " << off << " strides " << x.stride << ", " << y.stride;
    }
}

// out and the workspace must share no byte with an input (or each other); out in other columns of
// a's rows is fine.
TEST(GemmArgs, OutAndWorkspaceMustNotOverlapInputs) {
  auto a = valid_w4a16();  // M = 16, N = 256, K = 512, f16: a rows of 1024 B
  auto x = a;
  x.out = const_cast<void*>(x.a);
  expect_refused(x, "out overlaps a");
  x = a;
  x.bias = static_cast<const char*>(a.out) + 256;
  expect_refused(x, "out overlaps bias");
  x = a;
  x.group_scales = a.workspace;
  expect_refused(x, "workspace overlaps group_scales");
  x = a;
  x.workspace = static_cast<char*>(const_cast<void*>(a.out));
  expect_refused(x, "overlaps");
  // a = columns [0, 512) and out = columns [512, 768) of one [16, 768] f16 buffer: no shared byte.
  x = a;
  x.lda = 768;
  x.ldo = 768;
  x.out = static_cast<char*>(const_cast<void*>(a.a)) + 512 * 2;
  EXPECT_EQ(refusal(x), "");
}

// quantize_activations refuses q or token scales that alias its input or each other (before it
// asks CUDA about the pointers: this runs without a GPU).
TEST(ActivationQuantArgs, OutputsMustNotOverlapTheInput) {
  ActivationQuantArgs x;
  x.M = 4;
  x.K = 64;
  x.a = fake(1);
  x.lda = 64;
  x.q = const_cast<void*>(fake(2));
  x.ldq = 64;
  x.token_scales = static_cast<float*>(const_cast<void*>(fake(3)));
  auto message = [](const ActivationQuantArgs& y) {
    try {
      quantize_activations(y);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message(x).find("overlaps"), std::string::npos) << message(x);  // refused later: no device
  auto y = x;
  y.q = const_cast<void*>(fake(1));
  EXPECT_NE(message(y).find("q overlaps a"), std::string::npos) << message(y);
  y = x;
  y.token_scales = static_cast<float*>(const_cast<void*>(fake(1))) + 8;
  EXPECT_NE(message(y).find("token_scales overlaps a"), std::string::npos) << message(y);
  y = x;
  y.token_scales = static_cast<float*>(x.q) + 4;
  EXPECT_NE(message(y).find("q overlaps"), std::string::npos) << message(y);
}

// check_gemm_args is gemm()'s whole host-side verdict: a forced schedule its kernel family cannot
// run on this problem is refused there (kNotSupported, with the family's reason), not only at launch.
// Two refusals GemmFuzz met (s87-fuzz-wide): each says what would be accepted.
TEST(GemmArgs, ForcedScheduleRefusalsSayWhatIsAccepted) {
  auto at = [](uintptr_t i) { return reinterpret_cast<void*>((uintptr_t{1} << 40) * i); };  // far apart
  auto message = [](const GemmArgs& a) {
    try {
      check_gemm_args(a);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kNotSupported) << e.what();
      return std::string(e.what());
    }
    return std::string();
  };
  // A call on fake addresses with a dense a and out, and group scales when grouped.
  auto call_of = [&](const GemmProblem& p) {
    GemmArgs a;
    a.problem = p;
    a.a = at(1);
    a.lda = p.K;
    a.b = at(2);
    a.group_scales = p.group_size ? at(3) : nullptr;
    a.out = at(4);
    a.ldo = p.N;
    a.workspace = at(5);
    a.workspace_bytes = workspace_size(p);
    return a;
  };
  // 8-bit weights at a K that is a multiple of 32 but not 64: no sm90 tile (the heuristic takes smallm).
  GemmArgs w8 = call_of(GemmProblem{300, 256, 864, TypeConfig{f16, u8b128, f16, false, f16}, 0});
  EXPECT_EQ(message(w8), "") << "the heuristic's plan must run it";
  w8.schedule = "sm90_128x128_1x1x1_coop_splitk";
  const auto names = supported_schedules(w8.problem.types);
  if (std::find(names.begin(), names.end(), w8.schedule) != names.end()) {
    const std::string m1 = message(w8);
    EXPECT_NE(m1.find("K=864 must be a multiple of 64"), std::string::npos) << m1;
    EXPECT_NE(m1.find("smallm"), std::string::npos) << m1;
  } else {
    std::printf("[ skip ] the sm90 half: this build has no %s for f16.u8\n", w8.schedule.c_str());
  }
  // A smallm schedule of 4 CTAs per SM whose stages do not fit a quarter of the SM at this shape
  // (GemmFuzz seed 5015: bf16 x u8b128 g16, N = 528, K = 480, M = 120).
  GemmArgs sm = call_of(GemmProblem{120, 528, 480, TypeConfig{bf16, u8b128, bf16, false, bf16}, 16});
  EXPECT_EQ(message(sm), "");
  sm.schedule = "smallm_t16_w4_o4_p0";
  const std::string m2 = message(sm);
  EXPECT_NE(m2.find("bytes of shared memory per CTA"), std::string::npos) << m2;
  EXPECT_NE(m2.find("accepted: a schedule with fewer CTAs per SM"), std::string::npos) << m2;
  EXPECT_NE(m2.find("(its launch for rows [0, 64))"), std::string::npos) << m2;
}

TEST(GemmArgs, ForcedScheduleTheFamilyCannotRunIsRefused) {
  auto at = [](uintptr_t i) { return reinterpret_cast<void*>((uintptr_t{1} << 40) * i); };  // far apart
  GemmArgs a;
  a.problem = GemmProblem{1, 2147483632, 64, TypeConfig{f16, u4b8, f16, false, f16}, 0};
  a.a = at(1);
  a.lda = 64;
  a.b = at(2);
  a.out = at(3);
  a.ldo = a.problem.N;
  a.workspace = at(4);
  a.workspace_bytes = workspace_size(a.problem);
  a.schedule = "smallm_t8_w8_o1_p0";
  try {
    check_gemm_args(a);
    ADD_FAILURE() << "accepted a schedule that cannot run N=2^31-16";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotSupported) << e.what();
    EXPECT_NE(std::string(e.what()).find("split-K counters"), std::string::npos) << e.what();
  }
}

TEST(TypeConfig, NamesAreStable) {
  EXPECT_EQ((TypeConfig{f16, u4b8, f16, false, f16}.name()), "f16.u4b8.s=f16.out=f16");
  EXPECT_EQ((TypeConfig{s8, u4, u8, true, bf16}.name()), "s8.u4+z.s=u8.out=bf16");
}

}  // namespace
