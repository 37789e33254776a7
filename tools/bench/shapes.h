// shapes.h - the benchmark's named shape sets and tensor-parallel splitting (pure host
// logic, header-only, unit-tested in tests/cpu/test_bench_cli.cpp).
//
// Every shape is one linear layer, out[M, N] = A[M, K] @ W[K, N].
// Model sets list the four linear layers of one transformer block:
//   qkv     : N = (heads + 2 * kv_heads) * head_dim, K = hidden        (column-parallel)
//   o       : N = hidden, K = heads * head_dim                          (row-parallel)
//   gate_up : N = 2 * intermediate, K = hidden                          (column-parallel)
//   down    : N = hidden, K = intermediate                              (row-parallel)
// With tensor parallelism tp, column-parallel layers split N by tp and row-parallel
// layers split K by tp. For qkv the query heads split by tp and the KV heads split by tp
// as long as tp <= kv_heads; beyond that each rank keeps one (replicated) KV head, as
// vLLM does.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "type_spec.h"

namespace mixgemm::bench {

struct Shape {
  std::string name;   // row name: "llama2-70b/qkv", "seed", "custom/4096x4096"
  std::string set;    // "llama2-70b", "seed", "custom"
  std::string layer;  // "qkv", "o", "gate_up", "down", "seed", "NxK"
  int64_t N = 0;
  int64_t K = 0;
  int tp = 1;
};

struct ModelDims {
  const char* name;
  int64_t hidden;
  int64_t heads;
  int64_t kv_heads;
  int64_t head_dim;
  int64_t intermediate;
};

inline const std::vector<ModelDims>& model_sets() {
  static const std::vector<ModelDims> models = {
      {"llama2-7b", 4096, 32, 32, 128, 11008},
      {"llama3-8b", 4096, 32, 8, 128, 14336},
      {"llama2-70b", 8192, 64, 8, 128, 28672},
      {"llama3-70b", 8192, 64, 8, 128, 28672},
      {"llama3-405b", 16384, 128, 8, 128, 53248},
  };
  return models;
}

// The seed shape of the project (N=8192, K=21760).
inline constexpr int64_t kSeedN = 8192;
inline constexpr int64_t kSeedK = 21760;

inline std::vector<std::string> known_set_names() {
  std::vector<std::string> names = {"seed"};
  for (const auto& m : model_sets()) names.emplace_back(m.name);
  return names;
}

inline int64_t divide_exact(int64_t value, int tp, const std::string& what) {
  if (tp <= 0) throw std::invalid_argument("tp must be positive");
  if (value % tp != 0)
    throw std::invalid_argument(what + "=" + std::to_string(value) + " is not divisible by tp=" +
                                std::to_string(tp));
  return value / tp;
}

// The four layers of `m` at tensor parallelism `tp`.
inline std::vector<Shape> model_layers(const ModelDims& m, int tp) {
  const std::string set = m.name;
  const int64_t q_heads = divide_exact(m.heads, tp, set + " heads");
  const int64_t kv_heads = tp <= m.kv_heads ? divide_exact(m.kv_heads, tp, set + " kv_heads") : 1;
  const int64_t qkv_n = (q_heads + 2 * kv_heads) * m.head_dim;
  const int64_t o_k = q_heads * m.head_dim;
  const int64_t gate_up_n = 2 * divide_exact(m.intermediate, tp, set + " intermediate");
  const int64_t down_k = divide_exact(m.intermediate, tp, set + " intermediate");
  return {
      {set + "/qkv", set, "qkv", qkv_n, m.hidden, tp},
      {set + "/o", set, "o", m.hidden, o_k, tp},
      {set + "/gate_up", set, "gate_up", gate_up_n, m.hidden, tp},
      {set + "/down", set, "down", m.hidden, down_k, tp},
  };
}

// Shapes of one named set; tp applies to model sets only (seed is one fixed shape).
// "set/layer" (e.g. "llama2-70b/down") names one layer of a model set: a rerun of the points a capped sweep left
// out keeps the set's shape names, which scripts/bar_status.py and the reports key on.
inline std::vector<Shape> shape_set(std::string_view name, int tp) {
  if (const size_t slash = name.find('/'); slash != std::string_view::npos) {
    const std::string_view layer = name.substr(slash + 1);
    std::string known;
    for (const auto& s : shape_set(name.substr(0, slash), tp)) {
      if (s.layer == layer) return {s};
      known += (known.empty() ? "" : ", ") + s.layer;
    }
    throw std::invalid_argument("unknown layer '" + std::string(layer) + "' in shape '" + std::string(name) +
                                "'; the set's layers: " + known);
  }
  if (name == "seed") return {{"seed", "seed", "seed", kSeedN, kSeedK, 1}};
  for (const auto& m : model_sets())
    if (name == m.name) return model_layers(m, tp);
  std::string known;
  for (const auto& n : known_set_names()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown shape set '" + std::string(name) + "'; known: " + known);
}

// "NxK" -> custom shape.
inline Shape parse_custom_shape(std::string_view text) {
  const auto parts = split(text, 'x');
  int64_t n = 0, k = 0;
  if (parts.size() != 2 || !parse_int64(parts[0], n) || !parse_int64(parts[1], k) || n <= 0 || k <= 0)
    throw std::invalid_argument("bad --shape '" + std::string(text) + "': expected NxK, e.g. 8192x21760");
  const std::string nk = std::to_string(n) + "x" + std::to_string(k);
  return {"custom/" + nk, "custom", nk, n, k, 1};
}

// All shapes to measure: every set at every tp (the seed once), then the custom shapes.
// Duplicates (same name and tp) are dropped; order is sets in the given order, tp ascending.
inline std::vector<Shape> expand_shapes(const std::vector<std::string>& sets, const std::vector<int>& tps,
                                        const std::vector<Shape>& custom) {
  std::vector<Shape> out;
  const auto add = [&](const Shape& s) {
    for (const auto& o : out)
      if (o.name == s.name && o.tp == s.tp) return;
    out.push_back(s);
  };
  for (const auto& set : sets) {
    if (set == "none") continue;
    if (set == "seed") {
      for (const auto& s : shape_set(set, 1)) add(s);
      continue;
    }
    for (int tp : tps)
      for (const auto& s : shape_set(set, tp)) add(s);
  }
  for (const auto& s : custom) add(s);
  return out;
}

}  // namespace mixgemm::bench
