// type_spec.h - the benchmark's type-configuration strings (pure host logic, header-only,
// unit-tested in tests/cpu/test_bench_cli.cpp).
//
// A spec is   act.weight.group[.out]
//   act    : f16 | bf16 | s8 | e4m3                       (activation type)
//   weight : u4b8 | u4 | u8b128 | u8                      (u4/u8 come with zero points)
//   group  : g<size>  group scales every <size> k (g128, g64, ...)
//            gch      per-channel: no group scales, an f32 channel scale per n (epilogue)
//            gk       one group spanning K: [1, N] scales of the scale type
//   out    : f16 | bf16 (optional; default bf16 for bf16 activations, f16 otherwise)
//
// The scale type follows the activation type (docs/semantics.md): f16 for f16 and e4m3,
// bf16 for bf16, u8 integer scales for s8 (QQQ).
//
// Which extra epilogue operands the benchmark passes (and counts in the byte floor):
//   channel scales (f32 [N]) : gch, and every 8-bit-activation config (int x int / fp8
//                              products need a float rescale per channel)
//   token scales   (f32 [M]) : every 8-bit-activation config (dynamic per-token quantization)
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "mixgemm/gemm.h"
#include "mixgemm/scalar_type.h"

namespace mixgemm::bench {

enum class GroupMode {
  kGroup,       // g<size>
  kPerChannel,  // gch: group_size 0, f32 channel scales
  kOneGroup,    // gk:  group_size K
};

struct TypeSpec {
  std::string text;  // canonical spec string, e.g. "f16.u4b8.g128"
  ScalarType a{};
  ScalarType b{};
  ScalarType scale{};
  ScalarType out{};
  bool has_zeros = false;
  GroupMode mode = GroupMode::kGroup;
  int64_t group = 0;  // kGroup: the group size; otherwise 0

  // group_size of the GemmProblem for a given K.
  int64_t group_size(int64_t K) const {
    switch (mode) {
      case GroupMode::kGroup: return group;
      case GroupMode::kPerChannel: return 0;
      case GroupMode::kOneGroup: return K;
    }
    return 0;
  }
  TypeConfig types() const { return TypeConfig{a, b, scale, has_zeros, out}; }
  // The GemmProblem of this config on an N x K layer at M tokens.
  GemmProblem problem(int64_t M, int64_t N, int64_t K) const {
    GemmProblem p;
    p.M = M;
    p.N = N;
    p.K = K;
    p.types = types();
    p.group_size = group_size(K);
    return p;
  }
  bool eight_bit_act() const { return a.size_bits() == 8; }
  bool uses_channel_scales() const { return mode == GroupMode::kPerChannel || eight_bit_act(); }
  bool uses_token_scales() const { return eight_bit_act(); }
  bool uses_group_scales() const { return mode != GroupMode::kPerChannel; }
  // Number of rows of group scales / zero points (1 without group scales).
  int64_t num_groups(int64_t K) const {
    const int64_t g = group_size(K);
    return g > 0 ? K / g : 1;
  }
  // Bytes per stored zero point: u8 (z * sg) for s8 activations, the scale type otherwise.
  int zero_bytes_per_element() const { return a == types::s8 ? 1 : 2; }
};

inline std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t pos = s.find(sep, start);
    out.emplace_back(s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return out;
}

// Strict non-negative integer parse (no sign, no trailing junk, no overflow).
inline bool parse_int64(std::string_view s, int64_t& v) {
  if (s.empty() || s.size() > 18) return false;
  int64_t x = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    x = x * 10 + (c - '0');
  }
  v = x;
  return true;
}

inline TypeSpec parse_type_spec(std::string_view text) {
  const auto fail = [&](const std::string& why) -> TypeSpec {
    throw std::invalid_argument("bad type spec '" + std::string(text) + "': " + why +
                                " (format act.weight.group[.out], e.g. f16.u4b8.g128, s8.u4b8.gch, "
                                "bf16.u4.g128.bf16)");
  };
  const auto parts = split(text, '.');
  if (parts.size() != 3 && parts.size() != 4) return fail("expected 3 or 4 dot-separated fields");
  TypeSpec t;
  if (parts[0] == "f16") t.a = types::f16;
  else if (parts[0] == "bf16") t.a = types::bf16;
  else if (parts[0] == "s8") t.a = types::s8;
  else if (parts[0] == "e4m3") t.a = types::e4m3;
  else return fail("activation '" + parts[0] + "' is not one of f16, bf16, s8, e4m3");

  if (parts[1] == "u4b8") t.b = types::u4b8;
  else if (parts[1] == "u4") t.b = types::u4;
  else if (parts[1] == "u8b128") t.b = types::u8b128;
  else if (parts[1] == "u8") t.b = types::u8;
  else return fail("weight '" + parts[1] + "' is not one of u4b8, u4, u8b128, u8");
  t.has_zeros = !t.b.has_bias();

  const std::string& g = parts[2];
  if (g == "gch") {
    t.mode = GroupMode::kPerChannel;
  } else if (g == "gk") {
    t.mode = GroupMode::kOneGroup;
  } else if (g.size() >= 2 && g[0] == 'g') {
    int64_t v = 0;
    if (!parse_int64(std::string_view(g).substr(1), v) || v <= 0) return fail("group '" + g + "' is not g<positive integer>");
    t.mode = GroupMode::kGroup;
    t.group = v;
  } else {
    return fail("group '" + g + "' is not g<size>, gch or gk");
  }

  if (t.a == types::f16 || t.a == types::e4m3) t.scale = types::f16;
  else if (t.a == types::bf16) t.scale = types::bf16;
  else t.scale = types::u8;

  t.out = t.a == types::bf16 ? types::bf16 : types::f16;
  if (parts.size() == 4) {
    if (parts[3] == "f16") t.out = types::f16;
    else if (parts[3] == "bf16") t.out = types::bf16;
    else return fail("output '" + parts[3] + "' is not f16 or bf16");
  }
  t.text = parts[0] + "." + parts[1] + "." + parts[2];
  const bool default_out = t.out == (t.a == types::bf16 ? types::bf16 : types::f16);
  if (!default_out) t.text += "." + parts[3];
  return t;
}

// The configurations `--types all` stands for.
inline const std::vector<std::string>& all_type_specs() {
  static const std::vector<std::string> specs = {
      "f16.u4b8.g128", "bf16.u4b8.g128", "f16.u4.g128",   "bf16.u4.g128",  "f16.u4b8.gch",
      "bf16.u4b8.gch", "f16.u8b128.gch", "bf16.u8b128.gch", "s8.u4b8.gch",  "s8.u4b8.g128",
      "e4m3.u4b8.gch", "e4m3.u4b8.g128"};
  return specs;
}

// The configurations used when --types is not given.
inline const std::vector<std::string>& default_type_specs() {
  static const std::vector<std::string> specs = {"f16.u4b8.g128", "bf16.u4b8.g128", "s8.u4b8.g128",
                                                 "e4m3.u4b8.g128", "f16.u4b8.gch"};
  return specs;
}

// Parses a comma-separated list; "all" and "default" expand. Duplicates are dropped.
inline std::vector<TypeSpec> parse_type_list(std::string_view list) {
  std::vector<TypeSpec> out;
  const auto add = [&](const std::string& s) {
    TypeSpec t = parse_type_spec(s);
    for (const auto& o : out)
      if (o.text == t.text) return;
    out.push_back(t);
  };
  for (const auto& item : split(list, ',')) {
    if (item.empty()) continue;
    if (item == "all") {
      for (const auto& s : all_type_specs()) add(s);
    } else if (item == "default") {
      for (const auto& s : default_type_specs()) add(s);
    } else {
      add(item);
    }
  }
  if (out.empty()) throw std::invalid_argument("--types: empty list");
  return out;
}

}  // namespace mixgemm::bench
