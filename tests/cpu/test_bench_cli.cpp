// test_bench_cli.cpp - the pure host logic of mixgemm-bench: type specs, shape sets and
// tensor-parallel splits, the command line, byte counts and floors, statistics, CSV/JSON.
// (The logic is header-only in tools/bench/ so this binary does not link the bench.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "../../tools/bench/metrics.h"
#include "../../tools/bench/options.h"
#include "../../tools/bench/plan.h"
#include "../../tools/bench/report.h"
#include "../../tools/bench/shapes.h"
#include "../../tools/bench/type_spec.h"
#include "../../tools/bench/verify_sample.h"
#include "../../tools/bench/inputs.h"
#include "core/float_bits.h"
#include "mixgemm/reference.h"
#include "mixgemm/prepack.h"

namespace mixgemm::bench {
namespace {

Options parse(std::vector<std::string> args) {
  args.insert(args.begin(), "mixgemm-bench");
  return parse_options(args);
}

// Splits one CSV line, honouring double quotes.
std::vector<std::string> csv_split(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else if (c != '\n') {
      out.back() += c;
    }
  }
  return out;
}

// ---- type specs ---------------------------------------------------------------------------
TEST(BenchTypeSpec, GroupedF16) {
  const TypeSpec t = parse_type_spec("f16.u4b8.g128");
  EXPECT_EQ(t.text, "f16.u4b8.g128");
  EXPECT_EQ(t.a, types::f16);
  EXPECT_EQ(t.b, types::u4b8);
  EXPECT_EQ(t.scale, types::f16);
  EXPECT_EQ(t.out, types::f16);
  EXPECT_FALSE(t.has_zeros);
  EXPECT_EQ(t.mode, GroupMode::kGroup);
  EXPECT_EQ(t.group_size(21760), 128);
  EXPECT_EQ(t.num_groups(21760), 170);
  EXPECT_FALSE(t.uses_channel_scales());
  EXPECT_FALSE(t.uses_token_scales());
}

TEST(BenchTypeSpec, ScaleAndOutputTypesFollowActivation) {
  EXPECT_EQ(parse_type_spec("bf16.u4b8.g128").scale, types::bf16);
  EXPECT_EQ(parse_type_spec("bf16.u4b8.g128").out, types::bf16);
  EXPECT_EQ(parse_type_spec("s8.u4b8.g128").scale, types::u8);
  EXPECT_EQ(parse_type_spec("s8.u4b8.g128").out, types::f16);
  EXPECT_EQ(parse_type_spec("e4m3.u4b8.g128").scale, types::f16);
  const TypeSpec o = parse_type_spec("e4m3.u4b8.g128.bf16");
  EXPECT_EQ(o.out, types::bf16);
  EXPECT_EQ(o.text, "e4m3.u4b8.g128.bf16");
  // Spelling out the default output keeps the canonical short name.
  EXPECT_EQ(parse_type_spec("bf16.u4b8.g128.bf16").text, "bf16.u4b8.g128");
}

TEST(BenchTypeSpec, PerChannelAndOneGroup) {
  const TypeSpec ch = parse_type_spec("f16.u4b8.gch");
  EXPECT_EQ(ch.mode, GroupMode::kPerChannel);
  EXPECT_EQ(ch.group_size(4096), 0);
  EXPECT_EQ(ch.num_groups(4096), 1);
  EXPECT_TRUE(ch.uses_channel_scales());
  EXPECT_FALSE(ch.uses_group_scales());
  const TypeSpec gk = parse_type_spec("f16.u4b8.gk");
  EXPECT_EQ(gk.mode, GroupMode::kOneGroup);
  EXPECT_EQ(gk.group_size(4096), 4096);
  EXPECT_EQ(gk.num_groups(4096), 1);
  EXPECT_TRUE(gk.uses_group_scales());
}

TEST(BenchTypeSpec, ZerosComeWithUnbiasedWeights) {
  EXPECT_TRUE(parse_type_spec("f16.u4.g128").has_zeros);
  EXPECT_TRUE(parse_type_spec("f16.u8.gch").has_zeros);
  EXPECT_FALSE(parse_type_spec("f16.u8b128.gch").has_zeros);
  EXPECT_EQ(parse_type_spec("s8.u4.g128").zero_bytes_per_element(), 1);
  EXPECT_EQ(parse_type_spec("f16.u4.g128").zero_bytes_per_element(), 2);
}

TEST(BenchTypeSpec, EightBitActivationsCarryTokenAndChannelScales) {
  for (const char* s : {"s8.u4b8.g128", "s8.u4b8.gch", "e4m3.u4b8.g128", "e4m3.u4b8.gch"}) {
    const TypeSpec t = parse_type_spec(s);
    EXPECT_TRUE(t.uses_token_scales()) << s;
    EXPECT_TRUE(t.uses_channel_scales()) << s;
  }
}

TEST(BenchTypeSpec, RejectsMalformedSpecs) {
  for (const char* s : {"f16.u4b8", "f32.u4b8.g128", "f16.u3.g128", "f16.u4b8.g0", "f16.u4b8.g-1", "f16.u4b8.128",
                        "f16.u4b8.gx", "f16.u4b8.g128.s8", "f16.u4b8.g128.f16.x", "", "..."}) {
    EXPECT_THROW(parse_type_spec(s), std::invalid_argument) << s;
  }
}

TEST(BenchTypeSpec, ListsExpandAndDeduplicate) {
  const auto d = parse_type_list("default");
  ASSERT_EQ(d.size(), default_type_specs().size());
  EXPECT_EQ(d[0].text, "f16.u4b8.g128");
  const auto a = parse_type_list("all,f16.u4b8.g128");
  EXPECT_EQ(a.size(), all_type_specs().size());
  const auto two = parse_type_list("f16.u4b8.g128,f16.u4b8.g128,bf16.u4b8.g64");
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[1].group, 64);
  EXPECT_THROW(parse_type_list(","), std::invalid_argument);
  for (const auto& s : all_type_specs()) EXPECT_NO_THROW(parse_type_spec(s)) << s;
}

// ---- shapes ----------------------------------------------------------------------------------
TEST(BenchShapes, Llama2_70bTp1) {
  const auto s = shape_set("llama2-70b", 1);
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].name, "llama2-70b/qkv");
  EXPECT_EQ(s[0].N, 10240);
  EXPECT_EQ(s[0].K, 8192);
  EXPECT_EQ(s[1].name, "llama2-70b/o");
  EXPECT_EQ(s[1].N, 8192);
  EXPECT_EQ(s[1].K, 8192);
  EXPECT_EQ(s[2].name, "llama2-70b/gate_up");
  EXPECT_EQ(s[2].N, 57344);
  EXPECT_EQ(s[2].K, 8192);
  EXPECT_EQ(s[3].name, "llama2-70b/down");
  EXPECT_EQ(s[3].N, 8192);
  EXPECT_EQ(s[3].K, 28672);
  for (const auto& x : s) EXPECT_EQ(x.tp, 1);
}

TEST(BenchShapes, TensorParallelSplitsColumnAndRowParallelLayers) {
  const auto s = shape_set("llama2-70b", 8);
  EXPECT_EQ(s[0].N, 1280);  // (64/8 + 2*8/8) * 128
  EXPECT_EQ(s[0].K, 8192);
  EXPECT_EQ(s[1].N, 8192);
  EXPECT_EQ(s[1].K, 1024);
  EXPECT_EQ(s[2].N, 7168);
  EXPECT_EQ(s[2].K, 8192);
  EXPECT_EQ(s[3].N, 8192);
  EXPECT_EQ(s[3].K, 3584);
  for (const auto& x : s) EXPECT_EQ(x.tp, 8);
  const auto t2 = shape_set("llama3-70b", 2);
  EXPECT_EQ(t2[0].N, 5120);
  EXPECT_EQ(t2[2].N, 28672);
  EXPECT_EQ(t2[3].K, 14336);
}

TEST(BenchShapes, OtherModels) {
  const auto l7 = shape_set("llama2-7b", 1);  // multi-head attention: 32 KV heads
  EXPECT_EQ(l7[0].N, 12288);
  EXPECT_EQ(l7[2].N, 22016);
  EXPECT_EQ(l7[3].K, 11008);
  const auto l8 = shape_set("llama3-8b", 1);
  EXPECT_EQ(l8[0].N, 6144);
  EXPECT_EQ(l8[0].K, 4096);
  EXPECT_EQ(l8[2].N, 28672);
  EXPECT_EQ(l8[3].K, 14336);
  const auto l405 = shape_set("llama3-405b", 1);
  EXPECT_EQ(l405[0].N, 18432);
  EXPECT_EQ(l405[0].K, 16384);
  EXPECT_EQ(l405[1].K, 16384);
  EXPECT_EQ(l405[2].N, 106496);
  EXPECT_EQ(l405[3].K, 53248);
  const auto l405t8 = shape_set("llama3-405b", 8);
  EXPECT_EQ(l405t8[0].N, 2304);  // (16 + 2) * 128
  EXPECT_EQ(l405t8[3].K, 6656);
}

TEST(BenchShapes, KvHeadsReplicateBeyondTheirCount) {
  const auto s = shape_set("llama3-8b", 16);  // 8 KV heads, tp 16: one KV head per rank
  EXPECT_EQ(s[0].N, (2 + 2) * 128);
}

TEST(BenchShapes, RejectsBadSplitsAndNames) {
  EXPECT_THROW(shape_set("llama2-70b", 3), std::invalid_argument);
  EXPECT_THROW(shape_set("llama9", 1), std::invalid_argument);
}

TEST(BenchShapes, OneLayerOfASet) {
  // "set/layer" keeps the set's shape name (what bar_status.py keys on) and the tp split.
  const auto down = shape_set("llama2-70b/down", 1);
  ASSERT_EQ(down.size(), 1u);
  EXPECT_EQ(down[0].name, "llama2-70b/down");
  EXPECT_EQ(down[0].N, 8192);
  EXPECT_EQ(down[0].K, 28672);
  const auto down8 = shape_set("llama2-70b/down", 8);
  ASSERT_EQ(down8.size(), 1u);
  EXPECT_EQ(down8[0].K, 28672 / 8);
  EXPECT_THROW(shape_set("llama2-70b/up", 1), std::invalid_argument);
  EXPECT_THROW(shape_set("llama9/down", 1), std::invalid_argument);
  const Options o = parse({"--shapes", "llama2-70b/down,seed"});
  const auto shapes = expand_shapes(o.sets, o.tps, o.custom_shapes);
  ASSERT_EQ(shapes.size(), 2u);
  EXPECT_EQ(shapes[0].name, "llama2-70b/down");
  EXPECT_EQ(shapes[1].name, "seed");
}

TEST(BenchShapes, SeedAndCustom) {
  const auto seed = shape_set("seed", 8);  // the seed shape never splits
  ASSERT_EQ(seed.size(), 1u);
  EXPECT_EQ(seed[0].N, 8192);
  EXPECT_EQ(seed[0].K, 21760);
  EXPECT_EQ(seed[0].tp, 1);
  const Shape c = parse_custom_shape("4096x14336");
  EXPECT_EQ(c.N, 4096);
  EXPECT_EQ(c.K, 14336);
  EXPECT_EQ(c.name, "custom/4096x14336");
  for (const char* bad : {"4096", "4096x", "x4096", "4096x0", "4096*4096", "a x b", "1x2x3"})
    EXPECT_THROW(parse_custom_shape(bad), std::invalid_argument) << bad;
}

TEST(BenchShapes, ExpandOrdersAndDeduplicates) {
  const auto s = expand_shapes({"seed", "llama2-70b", "seed"}, {1, 2}, {parse_custom_shape("16x64")});
  ASSERT_EQ(s.size(), 1u + 4 + 4 + 1);
  EXPECT_EQ(s[0].name, "seed");
  EXPECT_EQ(s[1].name, "llama2-70b/qkv");
  EXPECT_EQ(s[1].tp, 1);
  EXPECT_EQ(s[5].name, "llama2-70b/qkv");
  EXPECT_EQ(s[5].tp, 2);
  EXPECT_EQ(s.back().name, "custom/16x64");
  EXPECT_TRUE(expand_shapes({"none"}, {1}, {}).empty());
}

// ---- command line -----------------------------------------------------------------------------
TEST(BenchOptions, Defaults) {
  const Options o = parse({});
  EXPECT_EQ(o.m_list, default_m_list());
  EXPECT_EQ(o.m_list.front(), 1);
  EXPECT_EQ(o.m_list.back(), 8192);
  ASSERT_EQ(o.sets.size(), 1u);
  EXPECT_EQ(o.sets[0], "seed");
  EXPECT_EQ(o.tps, std::vector<int>{1});
  EXPECT_EQ(o.types.size(), default_type_specs().size());
  EXPECT_EQ(o.baselines.size(), 4u);
  EXPECT_TRUE(o.run_mixgemm);
  EXPECT_GE(o.iters, 50);
  EXPECT_EQ(o.cold_l2, ColdL2::kRotate);
  EXPECT_FALSE(o.verify);
  EXPECT_EQ(o.command_line, "mixgemm-bench");
}

TEST(BenchOptions, ParsesEveryFlag) {
  const Options o = parse({"--m", "1,16,256", "--shapes", "seed,llama2-70b", "--tp=1,2", "--types",
                           "f16.u4b8.g128,s8.u4b8.gch", "--iters", "60", "--warmup=3", "--settle-ms", "300", "--idle-ms=50", "--cold-l2", "flush",
                           "--lt-algos", "1", "--verify", "--verify-rows", "4", "--verify-cols", "128",
                           "--fp8-promotion-k", "128", "--prepack-bench", "--stream-read", "--unit-group-scales", "--csv", "out.csv", "--json", "out.json",
                           "--git-commit", "abc123", "--device", "1", "--seed", "7", "--quiet",
                           "--schedule", "smallm_k4", "--baselines", "fp16,cublaslt_fp8", "--time-limit", "400",
                           "--graph-batch", "32"});
  EXPECT_EQ(o.m_list, (std::vector<int64_t>{1, 16, 256}));
  EXPECT_EQ(o.sets, (std::vector<std::string>{"seed", "llama2-70b"}));
  EXPECT_EQ(o.tps, (std::vector<int>{1, 2}));
  ASSERT_EQ(o.types.size(), 2u);
  EXPECT_EQ(o.types[1].text, "s8.u4b8.gch");
  EXPECT_EQ(o.iters, 60);
  EXPECT_EQ(o.warmup, 3);
  EXPECT_EQ(o.settle_ms, 300);
  EXPECT_EQ(o.idle_ms, 50);
  EXPECT_EQ(parse({}).settle_ms, 300);  // every row timed in the sustained state by default
  EXPECT_EQ(parse({}).idle_ms, 0);
  EXPECT_EQ(o.cold_l2, ColdL2::kFlush);
  EXPECT_EQ(o.lt_algos, 1);
  EXPECT_TRUE(o.verify);
  EXPECT_EQ(o.verify_rows, 4);
  EXPECT_EQ(o.verify_cols, 128);
  EXPECT_EQ(o.fp8_promotion_k, 128);
  EXPECT_EQ(fp8_promotion_for(o.fp8_promotion_k, "smallm_k4"), 128);
  EXPECT_EQ(parse({}).fp8_promotion_k, -1);
  EXPECT_EQ(parse({"--fp8-promotion-k", "auto"}).fp8_promotion_k, -1);
  EXPECT_EQ(parse({"--fp8-promotion-k=0"}).fp8_promotion_k, 0);
  EXPECT_EQ(fp8_promotion_for(-1, "smallm_w4_k64_p2"), 1);
  EXPECT_EQ(fp8_promotion_for(-1, "sm90_ws_128x128"), 0);  // not a schedule name: the loosest model
  // sm90: the compiled interval (sm90_kernel_params.h): the block-issue tiles promote, 128 x 256 does not.
  EXPECT_EQ(fp8_promotion_for(-1, "sm90_128x256_1x1x1_coop_splitk"), 0);
  const int64_t narrow = fp8_promotion_for(-1, "sm90_256x16_1x1x1_coop_splitk");
  EXPECT_TRUE(narrow == 64 || narrow == 128 || narrow == 256) << narrow;  // 0 only in a build with MIXGEMM_SM90_E4M3_PROMOTE_BLOCKS=0
  EXPECT_EQ(fp8_promotion_for(-1, "sm90_128x128_1x1x1_coop_splitk"), narrow);
  EXPECT_EQ(fp8_promotion_for(0, "sm90_256x16_1x1x1_coop_splitk"), 0);  // the option wins
  EXPECT_THROW(parse({"--fp8-promotion-k", "x"}), std::invalid_argument);
  EXPECT_TRUE(o.prepack_bench);
  EXPECT_TRUE(o.stream_read);
  EXPECT_FALSE(parse({}).stream_read);
  EXPECT_TRUE(parse({"--marlin"}).marlin);
  EXPECT_FALSE(parse({}).marlin);
  EXPECT_THROW(parse({"--marlin=1"}), std::invalid_argument);  // a switch, no value
  EXPECT_TRUE(parse({"--qqq"}).qqq);
  EXPECT_FALSE(parse({}).qqq);
  EXPECT_TRUE(o.unit_group_scales);
  EXPECT_FALSE(parse({}).unit_group_scales);
  EXPECT_TRUE(parse({"--partial-sums"}).partial_sums);
  EXPECT_FALSE(parse({}).partial_sums);
  EXPECT_THROW(parse({"--partial-sums", "--verify"}), std::invalid_argument);  // no gemm output to verify
  EXPECT_THROW(parse({"--unit-group-scales=1"}), std::invalid_argument);  // a switch, no value
  {
    // --row-split-at times a split the rule may not take: the slices' picks must be one-launch
    // picks, so it insists on MIXGEMM_ROW_SPLIT=0 (read once by the library, here only by the parser).
    const char* prev = std::getenv("MIXGEMM_ROW_SPLIT");
    const std::string saved = prev ? prev : "";
    unsetenv("MIXGEMM_ROW_SPLIT");
    EXPECT_THROW(parse({"--row-split-at", "256"}), std::invalid_argument);
    setenv("MIXGEMM_ROW_SPLIT", "0", 1);
    EXPECT_EQ(parse({"--row-split-at", "256"}).row_split_at, 256);
    EXPECT_EQ(parse({"--row-split-at", "128"}).row_split_at, 128);
    EXPECT_EQ(parse({}).row_split_at, 0);
    EXPECT_THROW(parse({"--row-split-at", "64"}), std::invalid_argument);
    EXPECT_THROW(parse({"--row-split-at", "256", "--schedule", "sm90_128x256_1x1x1_coop_splitk"}), std::invalid_argument);
    EXPECT_THROW(parse({"--row-split-at", "256", "--partial-sums"}), std::invalid_argument);
    if (prev) setenv("MIXGEMM_ROW_SPLIT", saved.c_str(), 1);
    else unsetenv("MIXGEMM_ROW_SPLIT");
  }
  EXPECT_EQ(o.csv_path, "out.csv");
  EXPECT_EQ(o.json_path, "out.json");
  EXPECT_EQ(o.git_commit, "abc123");
  EXPECT_EQ(o.device, 1);
  EXPECT_EQ(o.seed, 7u);
  EXPECT_TRUE(o.quiet);
  EXPECT_EQ(o.schedule, "smallm_k4");
  EXPECT_EQ(o.baselines, (std::vector<Baseline>{Baseline::kFp16, Baseline::kFp8}));
  EXPECT_EQ(o.time_limit_s, 400);
  EXPECT_EQ(o.graph_batch, 32);
  EXPECT_EQ(parse({}).graph_batch, 0);  // one event pair per launch by default
  EXPECT_THROW(parse({"--graph-batch", "0"}), std::invalid_argument);
  EXPECT_THROW(parse({"--graph-batch", "2000"}), std::invalid_argument);
  // --gap-us / --l2-prefetch-mb (session 40's L2-prefetch experiment): graph rows only, prefetch only with a gap
  const Options g = parse({"--graph-batch", "32", "--gap-us", "10", "--l2-prefetch-mb", "64"});
  EXPECT_EQ(g.gap_us, 10);
  EXPECT_EQ(g.prefetch_mb, 64);
  EXPECT_LT(parse({}).gap_us, 0);  // off by default
  EXPECT_EQ(parse({"--graph-batch", "32", "--gap-us", "0"}).gap_us, 0);
  EXPECT_THROW(parse({"--gap-us", "10"}), std::invalid_argument);
  EXPECT_THROW(parse({"--graph-batch", "32", "--l2-prefetch-mb", "64"}), std::invalid_argument);
}

TEST(BenchOptions, CustomShapesReplaceTheDefaultSet) {
  const Options o = parse({"--shape", "4096x4096", "--shape", "8192x21760"});
  EXPECT_TRUE(o.sets.empty());
  ASSERT_EQ(o.custom_shapes.size(), 2u);
  EXPECT_EQ(o.custom_shapes[1].K, 21760);
  const Options both = parse({"--shapes", "seed", "--shape", "64x64"});
  EXPECT_EQ(expand_shapes(both.sets, both.tps, both.custom_shapes).size(), 2u);
}

TEST(BenchOptions, BaselineSelection) {
  EXPECT_TRUE(parse({"--no-baselines"}).baselines.empty());
  const Options only = parse({"--baselines-only"});
  EXPECT_FALSE(only.run_mixgemm);
  EXPECT_EQ(only.baselines.size(), 4u);
  EXPECT_THROW(parse({"--no-baselines", "--baselines-only"}), std::invalid_argument);
  EXPECT_THROW(parse({"--baselines-only", "--verify"}), std::invalid_argument);
  EXPECT_THROW(parse({"--baselines", "cublas_fp32"}), std::invalid_argument);
  EXPECT_TRUE(parse({"--baselines", "none"}).baselines.empty());
}

TEST(BenchOptions, RejectsBadInput) {
  const std::vector<std::vector<std::string>> bad = {
      {"--iters", "0"},   {"--iters"},          {"--m", "0"},          {"--m", "1,,2"},       {"--m", "-4"},
      {"--tp", "3", "--shapes", "llama2-70b"},  {"--shapes", "gpt5"},  {"--cold-l2", "warm"}, {"--bogus"},
      {"--verify=1"},     {"--copy-gib", "0"},  {"--copy-gib", "x"},   {"--types", "f16.u4b8"},
      {"--schedule", "a", "--all-schedules"},   {"--shape", "12"},     {"--lt-algos", "0"}};
  for (const auto& args : bad) {
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    EXPECT_THROW(parse(args), std::invalid_argument) << joined;
  }
}

TEST(BenchOptions, RecordsTheCommandLineQuoted) {
  const Options o = parse({"--csv", "my results.csv", "--m", "1,2"});
  EXPECT_EQ(o.command_line, "mixgemm-bench --csv 'my results.csv' --m 1,2");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote(""), "''");
  EXPECT_EQ(shell_quote("a/b-c.d=1"), "a/b-c.d=1");
}

TEST(BenchOptions, UsageAndListMentionEverything) {
  const std::string u = usage();
  for (const char* f : {"--types", "--shapes", "--shape", "--tp", "--m", "--iters", "--warmup", "--settle-ms", "--idle-ms", "--cold-l2", "--verify",
                        "--csv", "--json", "--git-commit", "--baselines-only", "--no-baselines", "--prepack-bench",
                        "--lt-algos", "--stream-read", "--marlin", "--qqq", "--unit-group-scales", "--graph-batch", "--gap-us", "--l2-prefetch-mb"})
    EXPECT_NE(u.find(f), std::string::npos) << f;
  const std::string l = list_text({1, 8});
  EXPECT_NE(l.find("llama2-70b/gate_up tp=8: N=7168 K=8192"), std::string::npos) << l;
  EXPECT_NE(l.find("seed: N=8192 K=21760"), std::string::npos) << l;
}

// ---- --plan: the dispatch table without a GPU -----------------------------------------------------
TEST(BenchPlan, ParsesItsFlags) {
  EXPECT_FALSE(parse({}).plan);
  EXPECT_EQ(parse({}).plan_sm_count, 132);
  const Options o = parse({"--plan", "--sm-count", "114"});
  EXPECT_TRUE(o.plan);
  EXPECT_EQ(o.plan_sm_count, 114);
  EXPECT_THROW(parse({"--plan=1"}), std::invalid_argument);
  EXPECT_THROW(parse({"--sm-count", "0"}), std::invalid_argument);
  EXPECT_THROW(parse({"--sm-count", "4096"}), std::invalid_argument);
  const std::string u = usage();
  EXPECT_NE(u.find("--plan"), std::string::npos);
  EXPECT_NE(u.find("--sm-count"), std::string::npos);
}

// --host-cost: one row per shape x type x M with gemm()'s host time per call before the launch
// (positive; a problem gemm() refuses gets "refused: ..."), and the flag parses like --plan.
TEST(BenchHostCost, OneRowPerPointWithAPositiveTime) {
  EXPECT_FALSE(parse({}).host_cost);
  EXPECT_THROW(parse({"--host-cost=1"}), std::invalid_argument);
  EXPECT_NE(usage().find("--host-cost"), std::string::npos);
  const Options o = parse({"--host-cost", "--shapes", "seed", "--shape", "4096x4000", "--m", "1,320",
                           "--types", "f16.u4b8.g128,s8.u4b8.gch"});
  EXPECT_TRUE(o.host_cost);
  std::istringstream in(host_cost_text(o));
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line.rfind("# mixgemm host cost", 0), 0u) << line;
  std::getline(in, line);
  EXPECT_EQ(line, "shape,tp,N,K,type,M,host_us");
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) rows.push_back(csv_split(line));
  ASSERT_EQ(rows.size(), 2u * 2u * 2u);
  int timed = 0;
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 7u);
    if (row[3] == "4000") {  // K = 4000 is no multiple of 64: refused, as gemm() would
      EXPECT_EQ(row[6].rfind("refused: ", 0), 0u) << row[6];
      continue;
    }
    EXPECT_GT(std::stod(row[6]), 0.0) << row[6];
    ++timed;
  }
  EXPECT_EQ(timed, 4);
}

// One row per shape x type x M, in the command line's order, each with the schedule
// choose_schedule gives that problem; a problem gemm() refuses still gets its row.
TEST(BenchPlan, OneRowPerPointWithTheHeuristicsChoice) {
  const Options o = parse({"--plan", "--shapes", "seed", "--shape", "4096x4000", "--m", "1,64,1024", "--types",
                           "f16.u4b8.g128,s8.u4b8.gch", "--sm-count", "114"});
  std::istringstream in(plan_text(o));
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line.rfind("# mixgemm dispatch plan", 0), 0u) << line;
  EXPECT_NE(line.find("114 SMs"), std::string::npos) << line;
  std::getline(in, line);
  EXPECT_EQ(line, "shape,tp,N,K,type,M,schedule");
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) rows.push_back(csv_split(line));
  const std::vector<Shape> shapes = expand_shapes(o.sets, o.tps, o.custom_shapes);
  ASSERT_EQ(shapes.size(), 2u);
  ASSERT_EQ(rows.size(), 2u * 2u * 3u);
  size_t r = 0, refused = 0;
  for (const Shape& s : shapes)
    for (const TypeSpec& t : o.types)
      for (int64_t M : o.m_list) {
        const std::vector<std::string>& row = rows[r++];
        ASSERT_EQ(row.size(), 7u) << line;
        EXPECT_EQ(row[0], s.name);
        EXPECT_EQ(row[2], std::to_string(s.N));
        EXPECT_EQ(row[3], std::to_string(s.K));
        EXPECT_EQ(row[4], t.text);
        EXPECT_EQ(row[5], std::to_string(M));
        std::string want;
        try {
          want = choose_schedule(plan_problem(s, t, M), 114);
        } catch (const std::exception&) {
          want = "";
        }
        if (want.empty()) {
          EXPECT_EQ(row[6].rfind("refused: ", 0), 0u) << row[6];
          ++refused;
        } else {
          EXPECT_EQ(row[6], want);
          EXPECT_TRUE(row[6].rfind("smallm_", 0) == 0 || row[6].rfind("sm90_", 0) == 0) << row[6];
        }
      }
  // K = 4000 is not a multiple of 128 (g128) nor of the 64-k block (per-channel): all six refused.
  EXPECT_EQ(refused, 6u);
  // The group size reaches the problem as the bench maps it: gch is per-channel (0), g128 is 128.
  EXPECT_EQ(plan_problem(shapes[0], o.types[0], 1).group_size, 128);
  EXPECT_EQ(plan_problem(shapes[0], o.types[1], 1).group_size, 0);
}

// ---- bytes, floors, throughput -------------------------------------------------------------------
TEST(BenchMetrics, Int4G128FloorMatchesTheBaselineNotes) {
  // docs: (N*K/2 + N*K/128*2 + activations + output) / copy bandwidth; the seed shape's int4
  // floor at M = 1 is 21.7 us at 4243 GB/s.
  const TypeSpec t = parse_type_spec("f16.u4b8.g128");
  const ByteCount b = mixgemm_bytes(t, 1, kSeedN, kSeedK);
  EXPECT_EQ(b.weights, kSeedN * kSeedK / 2);
  EXPECT_EQ(b.scales, kSeedN * kSeedK / 128 * 2);
  EXPECT_EQ(b.zeros, 0);
  EXPECT_EQ(b.activations, kSeedK * 2);
  EXPECT_EQ(b.output, kSeedN * 2);
  EXPECT_NEAR(floor_us(b, 4243.0), 21.7, 0.05);
  EXPECT_NEAR(floor_us(mixgemm_bytes(t, 8192, kSeedN, kSeedK), 4243.0), 137.3, 0.2);
}

TEST(BenchMetrics, ScaleAndZeroBytesPerConfig) {
  const int64_t M = 16, N = 4096, K = 4096;
  const ByteCount s8g = mixgemm_bytes(parse_type_spec("s8.u4b8.g128"), M, N, K);
  EXPECT_EQ(s8g.scales, K / 128 * N * 1 + N * 4 + M * 4);  // u8 group scales, f32 channel, f32 token
  EXPECT_EQ(s8g.activations, M * K);
  EXPECT_EQ(s8g.output, M * N * 2);
  const ByteCount s8z = mixgemm_bytes(parse_type_spec("s8.u4.g128"), M, N, K);
  EXPECT_EQ(s8z.zeros, K / 128 * N);
  const ByteCount f16z = mixgemm_bytes(parse_type_spec("f16.u4.g128"), M, N, K);
  EXPECT_EQ(f16z.zeros, K / 128 * N * 2);
  const ByteCount ch = mixgemm_bytes(parse_type_spec("f16.u4b8.gch"), M, N, K);
  EXPECT_EQ(ch.scales, N * 4);
  const ByteCount w8 = mixgemm_bytes(parse_type_spec("bf16.u8b128.gch"), M, N, K);
  EXPECT_EQ(w8.weights, N * K);
  const ByteCount gk = mixgemm_bytes(parse_type_spec("f16.u4.gk"), M, N, K);
  EXPECT_EQ(gk.scales, N * 2);
  EXPECT_EQ(gk.zeros, N * 2);
}

TEST(BenchMetrics, BaselineBytes) {
  const int64_t M = 8, N = 1024, K = 2048;
  EXPECT_EQ(baseline_bytes(Baseline::kFp16, M, N, K).total(), 2 * N * K + 2 * M * K + 2 * M * N);
  EXPECT_EQ(baseline_bytes(Baseline::kBf16, M, N, K).total(), 2 * N * K + 2 * M * K + 2 * M * N);
  EXPECT_EQ(baseline_bytes(Baseline::kFp8, M, N, K).total(), N * K + M * K + 2 * M * N + 4 * (N + M));
  EXPECT_EQ(baseline_bytes(Baseline::kFp8, M, N, K, false).total(), N * K + M * K + 2 * M * N + 8);
  EXPECT_EQ(baseline_bytes(Baseline::kInt8, M, N, K).total(), N * K + M * K + 4 * M * N);
  EXPECT_EQ(parse_baseline("int8"), Baseline::kInt8);
  EXPECT_STREQ(baseline_name(Baseline::kFp8), "cublaslt_fp8");
}

TEST(BenchMetrics, Throughput) {
  EXPECT_NEAR(tflops(1000, 1000, 1000, 2.0), 1000.0, 1e-9);
  EXPECT_NEAR(copy_gbps(int64_t{1} << 31, 1000.0), 4294.967296, 1e-6);
  ByteCount b;
  b.weights = 4'000'000;
  EXPECT_NEAR(achieved_gbps(b, 1.0), 4000.0, 1e-9);
  EXPECT_NEAR(floor_us(b, 4000.0), 1.0, 1e-12);
  EXPECT_NEAR(pct_of_floor(21.7, 43.4), 50.0, 1e-9);
}

TEST(BenchMetrics, Stats) {
  const Stats odd = compute_stats({5, 1, 3});
  EXPECT_EQ(odd.median, 3);
  EXPECT_EQ(odd.min, 1);
  EXPECT_EQ(odd.max, 5);
  EXPECT_EQ(odd.mean, 3);
  EXPECT_EQ(odd.count, 3);
  EXPECT_EQ(compute_stats({4, 1, 3, 2}).median, 2.5);
  EXPECT_THROW(compute_stats({}), std::invalid_argument);
  EXPECT_THROW(compute_stats({1.0, NAN}), std::runtime_error);
  EXPECT_THROW(compute_stats({1.0, -2.0}), std::runtime_error);
}

TEST(BenchMetrics, RotationCopiesCoverThreeL2) {
  const int64_t l2 = 60 << 20;
  EXPECT_EQ(rotation_copies(89'128'960, l2, 3.0, 2, 1000), 3);  // seed int4 weights
  EXPECT_EQ(rotation_copies(1 << 20, l2, 3.0, 2, 110), 110);    // capped by the run count
  EXPECT_EQ(rotation_copies(int64_t{4} << 30, l2, 3.0, 2, 110), 2);  // never fewer than 2
  EXPECT_EQ(rotation_copies(1 << 20, l2, 3.0, 2, 1000), 180);
}

// ---- reports -------------------------------------------------------------------------------------
ResultRow timed_row(const std::string& kernel, int64_t M, double us) {
  ResultRow r;
  r.gpu = "NVIDIA H200";
  r.shape = shape_set("seed", 1)[0];
  r.M = M;
  r.kernel = kernel;
  r.type_spec = kernel == "mixgemm" ? "f16.u4b8.g128" : kernel;
  r.timed = true;
  r.us = compute_stats({us, us * 0.9, us * 1.2});
  r.bytes = mixgemm_bytes(parse_type_spec("f16.u4b8.g128"), M, r.shape.N, r.shape.K);
  r.floor_us = floor_us(r.bytes, 4243.0);
  r.copy_gbps = 4243.0;
  return r;
}

TEST(BenchReport, RatiosUseTheSameShapeAndM) {
  std::vector<ResultRow> rows = {timed_row("cublas_fp16", 1, 100), timed_row("cublaslt_fp8", 1, 80),
                                 timed_row("mixgemm", 1, 50), timed_row("mixgemm", 2, 50)};
  ResultRow ns = timed_row("mixgemm", 1, 1);
  ns.timed = false;
  ns.status = kNotSupported;
  rows.push_back(ns);
  fill_ratios(rows);
  EXPECT_DOUBLE_EQ(rows[0].x_fp16, 1.0);
  EXPECT_DOUBLE_EQ(rows[0].x_fp8, 0.8);
  EXPECT_DOUBLE_EQ(rows[2].x_fp16, 2.0);
  EXPECT_DOUBLE_EQ(rows[2].x_fp8, 1.6);
  EXPECT_TRUE(std::isnan(rows[3].x_fp16));  // no baseline at M = 2
  EXPECT_TRUE(std::isnan(rows[4].x_fp16));  // not timed
}

TEST(BenchReport, CsvHasTheRequiredColumnsAndOneFieldEach) {
  const std::string header = csv_header();
  const auto cols = csv_split(header);
  for (const char* c : {"gpu", "shape", "N", "K", "M", "tp", "kernel", "a_type", "b_type", "group_size", "schedule",
                        "us_median", "us_min", "us_max", "tflops", "gbps", "pct_floor", "x_cublas_fp16", "x_cublas_fp8"})
    EXPECT_NE(std::find(cols.begin(), cols.end(), c), cols.end()) << c;

  std::vector<ResultRow> rows = {timed_row("cublas_fp16", 1, 95.6), timed_row("mixgemm", 1, 40.0)};
  rows[1].note = "rotating 3w/2a copies, \"quoted\"";
  rows[1].schedule = "smallm,k4";
  fill_ratios(rows);
  const auto f = csv_split(csv_row(rows[1]));
  ASSERT_EQ(f.size(), cols.size());
  const auto at = [&](const char* name) { return f[std::find(cols.begin(), cols.end(), name) - cols.begin()]; };
  EXPECT_EQ(at("gpu"), "NVIDIA H200");
  EXPECT_EQ(at("shape"), "seed");
  EXPECT_EQ(at("N"), "8192");
  EXPECT_EQ(at("K"), "21760");
  EXPECT_EQ(at("M"), "1");
  EXPECT_EQ(at("kernel"), "mixgemm");
  EXPECT_EQ(at("schedule"), "smallm,k4");
  EXPECT_EQ(at("us_median"), "40.000");
  EXPECT_EQ(at("us_min"), "36.000");
  EXPECT_EQ(at("us_max"), "48.000");
  EXPECT_EQ(at("x_cublas_fp16"), "2.390");
  EXPECT_EQ(at("x_cublas_fp8"), "");
  EXPECT_EQ(at("note"), "rotating 3w/2a copies, \"quoted\"");
  EXPECT_NEAR(std::stod(at("pct_floor")), 100.0 * 21.676 / 40.0, 0.05);
  EXPECT_NEAR(std::stod(at("gbps")), 91974144 / 40.0 / 1e3, 0.1);

  ResultRow ns = rows[1];
  ns.timed = false;
  ns.status = kNotSupported;
  const auto g = csv_split(csv_row(ns));
  ASSERT_EQ(g.size(), cols.size());
  EXPECT_EQ(g[std::find(cols.begin(), cols.end(), "us_median") - cols.begin()], "");
  EXPECT_EQ(g[std::find(cols.begin(), cols.end(), "status") - cols.begin()], "not_supported");
}

TEST(BenchReport, JsonEscapesAndNulls) {
  EXPECT_EQ(json_str("a\"b\\c\nd\x01"), "\"a\\\"b\\\\c\\nd\\u0001\"");
  EXPECT_EQ(json_num(NAN), "null");
  EXPECT_EQ(json_num(1.5, 2), "1.50");
  EXPECT_EQ(json_list(std::vector<int64_t>{1, 2}), "[1, 2]");
  EXPECT_EQ(json_list(std::vector<std::string>{"a"}), "[\"a\"]");
  JsonSection top;
  top.add_str("git_commit", "abc");
  JsonSection gpu{"gpu", {}};
  gpu.add_int("sm_count", 132);
  const std::string doc = json_document({top, gpu}, {timed_row("mixgemm", 1, 40.0)});
  EXPECT_EQ(doc.front(), '{');
  EXPECT_NE(doc.find("\"git_commit\": \"abc\","), std::string::npos);
  EXPECT_NE(doc.find("\"gpu\": {\"sm_count\": 132}"), std::string::npos);
  EXPECT_NE(doc.find("\"us_median\": 40.0000"), std::string::npos);
  EXPECT_NE(doc.find("\"x_cublas_fp16\": null"), std::string::npos);
  // Balanced braces and brackets (outside strings).
  int depth = 0;
  bool in_str = false;
  for (size_t i = 0; i < doc.size(); ++i) {
    const char c = doc[i];
    if (in_str) {
      if (c == '\\') ++i;
      else if (c == '"') in_str = false;
      continue;
    }
    if (c == '"') in_str = true;
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    EXPECT_GE(depth, 0);
  }
  EXPECT_EQ(depth, 0);
  EXPECT_EQ(json_document({}, {}), "{\n  \"rows\": []\n}\n");
}

TEST(BenchReport, TableRows) {
  ResultRow r = timed_row("mixgemm", 16, 40.0);
  r.schedule = "smallm_k4";
  const std::string line = table_row(r);
  EXPECT_NE(line.find("seed"), std::string::npos);
  EXPECT_NE(line.find("f16.u4b8.g128"), std::string::npos);
  EXPECT_NE(line.find("smallm_k4"), std::string::npos);
  EXPECT_NE(line.find("40.00"), std::string::npos);
  r.timed = false;
  r.status = kNotSupported;
  r.note = "no kernel";
  EXPECT_NE(table_row(r).find("not supported: no kernel"), std::string::npos);
  EXPECT_NE(table_header().find("x fp16"), std::string::npos);
}

TEST(BenchReport, SummaryTable) {
  std::vector<ResultRow> rows = {timed_row("cublas_fp16", 1, 95.6), timed_row("mixgemm", 1, 40.0),
                                 timed_row("cublas_fp16", 16, 97.9), timed_row("mixgemm", 2, 41.0)};
  ResultRow ns = timed_row("mixgemm", 16, 1);
  ns.timed = false;
  ns.status = kNotSupported;
  rows.push_back(ns);
  rows[1].verify = "fail";
  fill_ratios(rows);
  const std::string s = summary_table(rows, {1, 16, 8192});
  EXPECT_NE(s.find("M=1"), std::string::npos) << s;
  EXPECT_NE(s.find("M=16"), std::string::npos) << s;
  EXPECT_EQ(s.find("M=8192"), std::string::npos) << s;  // nothing measured there
  EXPECT_EQ(s.find("M=2 "), std::string::npos) << s;    // not asked for
  EXPECT_NE(s.find("95.6 1.00x"), std::string::npos) << s;
  EXPECT_NE(s.find("40.0 2.39x!"), std::string::npos) << s;
  EXPECT_NE(s.find("f16.u4b8.g128"), std::string::npos) << s;
  EXPECT_EQ(summary_table(rows, {4096}), "");
  EXPECT_TRUE(parse({"--summary-m", "none"}).summary_m.empty());
  EXPECT_EQ(parse({"--summary-m", "1,64"}).summary_m, (std::vector<int64_t>{1, 64}));
}

// ---- --verify sampling and the weight read-back ------------------------------------------------
TEST(BenchVerifySample, Rows) {
  HostRng rng(3);
  EXPECT_EQ(sample_rows(5, 8, rng), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  const auto r = sample_rows(8192, 8, rng);
  ASSERT_EQ(r.size(), 8u);
  EXPECT_EQ(r.front(), 0);
  EXPECT_EQ(r.back(), 8191);
  EXPECT_TRUE(std::is_sorted(r.begin(), r.end()));
}

TEST(BenchVerifySample, Columns) {
  HostRng rng(5);
  const ColumnSample small = sample_columns(96, 512, rng);
  EXPECT_EQ(small.window, 16);
  EXPECT_EQ(small.cols.size(), 96u);
  const ColumnSample big = sample_columns(57344, 512, rng);
  EXPECT_EQ(big.window, 64);
  EXPECT_EQ(big.starts.size(), 8u);
  EXPECT_EQ(big.cols.size(), 512u);
  EXPECT_EQ(big.starts.front(), 0);
  EXPECT_EQ(big.starts.back(), 57344 - 64);
  // N not a multiple of 64: the last window starts at a multiple of 16 and may overlap.
  const ColumnSample odd = sample_columns(1040, 256, rng);
  EXPECT_EQ(odd.starts.back(), 976);
  for (int64_t s : odd.starts) EXPECT_EQ(s % 16, 0);
  EXPECT_TRUE(std::is_sorted(odd.cols.begin(), odd.cols.end()));
  EXPECT_EQ(std::adjacent_find(odd.cols.begin(), odd.cols.end()), odd.cols.end());
  EXPECT_EQ(odd.cols.back(), 1039);
}

// The bench copies, for each window, K/KB runs of win/16 blocks out of the prepacked buffer
// (a cudaMemcpy2D); this does the same on the host with prepack_cpu's output and checks that
// every weight comes back.
TEST(BenchVerifySample, WindowReadBackMatchesPrepackCpu) {
  struct Case {
    ScalarType b, a;
    layout::Kind kind;
  };
  const Case cases[] = {{types::u4b8, types::f16, layout::kW4M16},
                        {types::u8b128, types::bf16, layout::kW8M16},
                        {types::u4, types::s8, layout::kW4M8}};
  for (const auto& c : cases) {
    const int64_t K = 256, N = 208;  // N % 64 != 0
    HostRng rng(11);
    std::vector<uint8_t> q(static_cast<size_t>(K * N));
    const int levels = c.b.size_bits() == 4 ? 16 : 256;
    for (auto& v : q) v = static_cast<uint8_t>(rng.integer(0, levels - 1));
    std::vector<uint8_t> packed(prepacked_size(K, N, c.b));
    prepack_cpu(q.data(), WeightFormat::kUnpacked, K, N, c.b, c.a, packed.data());
    for (int max_cols : {64, 512}) {
      const ColumnSample cs = sample_columns(N, max_cols, rng);
      const int64_t win = cs.window;
      const size_t row_pitch = static_cast<size_t>(N / 16) * 512, win_pitch = static_cast<size_t>(win / 16) * 512;
      const int64_t kb_count = K / c.kind.block_k();
      std::vector<uint8_t> wbuf(static_cast<size_t>(window_bytes(c.kind, K, win)));
      ASSERT_EQ(wbuf.size(), win_pitch * static_cast<size_t>(kb_count));
      for (int64_t s : cs.starts) {
        for (int64_t kb = 0; kb < kb_count; ++kb)
          std::memcpy(&wbuf[static_cast<size_t>(kb) * win_pitch], &packed[static_cast<size_t>(kb) * row_pitch + (s / 16) * 512],
                      win_pitch);
        for (int64_t k = 0; k < K; ++k)
          for (int64_t j = 0; j < win; ++j)
            ASSERT_EQ(window_q(c.kind, wbuf.data(), win, k, j), q[static_cast<size_t>(k * N + s + j)])
                << c.b.name() << " x " << c.a.name() << " k=" << k << " n=" << s + j;
      }
    }
  }
}

TEST(BenchVerifySample, Tally) {
  VerifyTally t;
  t.add(1.0, 1.0, 0.0, 0, 0);
  t.add(1.5, 1.0, 0.5, 0, 1);
  EXPECT_EQ(t.verdict(), "pass");
  t.add(2.0, 1.0, 0.5, 3, 7);
  EXPECT_EQ(t.verdict(), "fail");
  EXPECT_EQ(t.failures, 1);
  EXPECT_NE(t.summary().find("m=3 n=7"), std::string::npos) << t.summary();

  VerifyTally nan;
  nan.add(NAN, 1.0, 10.0, 0, 0);
  EXPECT_EQ(nan.verdict(), "fail");

  // Unbounded outputs: checked loosely by relative RMS error.
  VerifyTally loose;
  loose.add(1.0, 1.0, 0.0, 0, 0);
  for (int i = 0; i < 100; ++i) loose.add(1.01 * (i + 1), i + 1.0, INFINITY, 1, i);
  EXPECT_EQ(loose.unbounded, 100);
  EXPECT_EQ(loose.verdict(), "loose");
  EXPECT_NEAR(loose.loose_rel_rms(), 0.01, 1e-9);
  loose.add(1000.0, 1.0, INFINITY, 2, 0);  // gross error: rms check fails
  EXPECT_EQ(loose.verdict(), "fail");
  VerifyTally inf_out;
  inf_out.add(INFINITY, 1.0, INFINITY, 0, 0);  // non-finite where the reference is finite
  EXPECT_EQ(inf_out.verdict(), "fail");
}

// ---- the bench's inputs are valid for the reference and give O(1) outputs --------------------------
TEST(BenchInputs, EveryStandardConfigRunsThroughTheReference) {
  std::vector<std::string> specs = all_type_specs();
  for (const char* extra : {"s8.u4.g128", "s8.u4.gch", "e4m3.u4.g128", "e4m3.u4.gch", "f16.u8.gch", "bf16.u8.g128",
                            "f16.u4.gk", "bf16.u4b8.gk", "f16.u4b8.g64"})
    specs.emplace_back(extra);
  const int64_t M = 4, N = 64, K = 1024;
  for (const auto& text : specs) {
    SCOPED_TRACE(text);
    const TypeSpec spec = parse_type_spec(text);
    const HostInputs h = make_host_inputs(spec, N, K, 1);
    const std::vector<float> tok = make_token_scales(spec, M, 1);
    EXPECT_EQ(h.scales.empty(), !spec.uses_group_scales());
    EXPECT_EQ(h.ch.empty(), !spec.uses_channel_scales());
    EXPECT_EQ(h.z.empty(), !spec.has_zeros);
    EXPECT_EQ(tok.empty(), !spec.uses_token_scales());
    if (spec.has_zeros) EXPECT_EQ(h.z.size(), static_cast<size_t>(spec.num_groups(K) * N));

    // Weights and activations drawn like the device does.
    HostRng rng(99);
    std::vector<uint8_t> q(static_cast<size_t>(K * N));
    const int levels = spec.b.size_bits() == 4 ? 16 : 256;
    for (auto& v : q) v = static_cast<uint8_t>(rng.integer(0, levels - 1));
    const auto normal = [&]() {
      const double u1 = std::max(rng.uniform(), 1e-12), u2 = rng.uniform();
      return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    };
    const int abytes = spec.a.size_bits() / 8;
    std::vector<uint8_t> a(static_cast<size_t>(M * K * abytes));
    for (int64_t i = 0; i < M * K; ++i) {
      if (spec.a == types::f16 || spec.a == types::bf16) {
        const uint16_t b = spec.a == types::f16 ? numeric::to_f16(normal()) : numeric::to_bf16(normal());
        std::memcpy(&a[static_cast<size_t>(i) * 2], &b, 2);
      } else if (spec.a == types::s8) {
        a[static_cast<size_t>(i)] = static_cast<uint8_t>(static_cast<int8_t>(rng.integer(-127, 127)));
      } else {
        a[static_cast<size_t>(i)] = numeric::to_e4m3_sat(64.0 * normal());
      }
    }
    ReferenceArgs ra;
    ra.problem.M = M;
    ra.problem.N = N;
    ra.problem.K = K;
    ra.problem.types = TypeConfig{spec.a, spec.b, spec.scale, spec.has_zeros, spec.out};
    ra.problem.group_size = spec.group_size(K);
    ra.a = a.data();
    ra.lda = K;
    ra.q = q.data();
    ra.group_scales = h.scales.empty() ? nullptr : h.scales.data();
    ra.zeros = h.z.empty() ? nullptr : h.z.data();
    ra.channel_scales = h.ch.empty() ? nullptr : h.ch.data();
    ra.token_scales = tok.empty() ? nullptr : tok.data();
    std::vector<uint16_t> out(static_cast<size_t>(M * N));
    ra.out = out.data();
    ra.ldo = N;
    ASSERT_NO_THROW(reference_gemm(ra, 1));
    double sum2 = 0;
    for (uint16_t o : out) {
      const double v = spec.out == types::bf16 ? numeric::from_bf16(o) : numeric::from_f16(o);
      ASSERT_TRUE(std::isfinite(v));
      sum2 += v * v;
    }
    const double rms = std::sqrt(sum2 / static_cast<double>(out.size()));
    EXPECT_GT(rms, 0.1);
    EXPECT_LT(rms, 10.0);
    // The zero points the kernels consume can be made from these inputs.
    if (spec.has_zeros)
      EXPECT_NO_THROW(prepack_zeros_cpu(h.z.data(), h.scales.empty() ? nullptr : h.scales.data(), h.G, N, spec.a,
                                        spec.scale));
  }
}

// --unit-group-scales: every group scale is exactly 1 and nothing else changes (zero points,
// channel scales of the same seed; the channel scales of s8 follow mean(sg) = 1).
TEST(BenchInputs, UnitGroupScalesAreOneAndLeaveTheRestAlone) {
  for (const char* text : {"f16.u4b8.g128", "bf16.u4.g64", "s8.u4b8.g128", "s8.u4.g128", "e4m3.u4b8.g128",
                           "e4m3.u4.g128", "f16.u4b8.gch", "s8.u4b8.gch"}) {
    SCOPED_TRACE(text);
    const TypeSpec spec = parse_type_spec(text);
    const int64_t N = 64, K = 1024;
    const HostInputs r = make_host_inputs(spec, N, K, 3);
    const HostInputs u = make_host_inputs(spec, N, K, 3, true);
    ASSERT_EQ(u.scales.size(), r.scales.size());
    EXPECT_EQ(u.z, r.z);
    EXPECT_EQ(u.G, r.G);
    if (spec.uses_group_scales()) {
      const uint16_t one = spec.scale == types::bf16 ? numeric::to_bf16(1.0) : numeric::to_f16(1.0);
      for (size_t i = 0; i < u.scales.size(); i += static_cast<size_t>(u.scale_elem_bytes)) {
        if (u.scale_elem_bytes == 1) {
          ASSERT_EQ(u.scales[i], 1u);
        } else {
          uint16_t b;
          std::memcpy(&b, &u.scales[i], 2);
          ASSERT_EQ(b, one);
        }
      }
      EXPECT_NE(u.scales, r.scales);  // the standard inputs are not all ones
    }
    if (spec.a == types::s8 && spec.uses_group_scales()) {
      // channel scales were divided by mean(sg); with unit group scales by 1
      ASSERT_EQ(u.ch.size(), r.ch.size());
      const double smax = spec.has_zeros ? 8.0 : 16.0;
      for (size_t i = 0; i < u.ch.size(); ++i)
        EXPECT_NEAR(u.ch[i], r.ch[i] * (1.0 + smax) / 2.0, 1e-6 * std::fabs(u.ch[i]));
    } else {
      EXPECT_EQ(u.ch, r.ch);
    }
  }
}

}  // namespace
}  // namespace mixgemm::bench
