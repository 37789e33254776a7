// report.h - result rows and their CSV / JSON / table forms (pure host logic, header-only,
// unit-tested in tests/cpu/test_bench_cli.cpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "metrics.h"
#include "shapes.h"

namespace mixgemm::bench {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Row status values.
inline constexpr const char* kOk = "ok";
inline constexpr const char* kNotSupported = "not_supported";  // gemm threw kNotSupported / no cuBLASLt algo
inline constexpr const char* kInvalid = "invalid";              // gemm threw kInvalidArgument (shape/type rules)
inline constexpr const char* kOutOfMemory = "out_of_memory";
inline constexpr const char* kBadOutput = "bad_output";         // output not finite / never written
inline constexpr const char* kVerifyFailed = "verify_failed";
inline constexpr const char* kFailed = "error";

struct ResultRow {
  std::string gpu;
  Shape shape;
  int64_t M = 0;
  std::string kernel;     // "mixgemm" or a baseline name
  std::string type_spec;  // mixgemm: the spec (f16.u4b8.g128); baselines: their name
  std::string a_type, b_type, out_type;
  std::string group_size;  // GemmProblem::group_size for mixgemm rows, empty for baselines
  std::string schedule;    // mixgemm schedule; baselines: "heuristic i/n"
  std::string status = kOk;
  std::string verify;      // "pass", "fail" or empty (not checked)
  std::string note;
  bool timed = false;
  Stats us{};
  ByteCount bytes{};
  double floor_us = kNaN;
  double copy_gbps = kNaN;
  double x_fp16 = kNaN;
  double x_fp8 = kNaN;

  double tflops_value() const { return timed && M > 0 ? tflops(M, shape.N, shape.K, us.median) : kNaN; }
  double gbps_value() const { return timed ? achieved_gbps(bytes, us.median) : kNaN; }
  double pct_floor_value() const { return timed ? pct_of_floor(floor_us, us.median) : kNaN; }
};

// "a; b" (either may be empty): a row's note built from its parts.
inline std::string join_note(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + "; " + b;
}

// x_cublas_fp16 / x_cublas_fp8 of every timed row: baseline median / this row's median,
// baselines of the same shape, tp and M (same run).
inline void fill_ratios(std::vector<ResultRow>& rows) {
  std::map<std::tuple<std::string, int, int64_t>, double> fp16, fp8;
  for (const auto& r : rows) {
    if (!r.timed) continue;
    const auto key = std::make_tuple(r.shape.name, r.shape.tp, r.M);
    if (r.kernel == "cublas_fp16") fp16[key] = r.us.median;
    if (r.kernel == "cublaslt_fp8") fp8[key] = r.us.median;
  }
  for (auto& r : rows) {
    r.x_fp16 = r.x_fp8 = kNaN;
    if (!r.timed) continue;
    const auto key = std::make_tuple(r.shape.name, r.shape.tp, r.M);
    if (auto it = fp16.find(key); it != fp16.end()) r.x_fp16 = it->second / r.us.median;
    if (auto it = fp8.find(key); it != fp8.end()) r.x_fp8 = it->second / r.us.median;
  }
}

// "%.<prec>f", or empty for NaN.
inline std::string fmt_num(double v, int prec) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", prec, v);
  return buf;
}

inline std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += "\"\"";
    else out += c;
  }
  return out + "\"";
}

inline const std::vector<std::string>& csv_columns() {
  static const std::vector<std::string> cols = {
      "gpu",       "shape",  "N",         "K",       "M",       "tp",          "kernel",       "type_spec",
      "a_type",    "b_type", "out_type",  "group_size", "schedule", "status",  "verify",       "us_median",
      "us_min",    "us_max", "us_mean",   "runs",    "tflops",  "gbps",        "pct_floor",    "floor_us",
      "bytes",     "copy_gbps", "x_cublas_fp16", "x_cublas_fp8", "note"};
  return cols;
}

inline std::string csv_header() {
  std::string s;
  for (const auto& c : csv_columns()) s += (s.empty() ? "" : ",") + c;
  return s + "\n";
}

inline std::string csv_row(const ResultRow& r) {
  const bool t = r.timed;
  const std::vector<std::string> f = {
      r.gpu,
      r.shape.name,
      std::to_string(r.shape.N),
      std::to_string(r.shape.K),
      std::to_string(r.M),
      std::to_string(r.shape.tp),
      r.kernel,
      r.type_spec,
      r.a_type,
      r.b_type,
      r.out_type,
      r.group_size,
      r.schedule,
      r.status,
      r.verify,
      t ? fmt_num(r.us.median, 3) : "",
      t ? fmt_num(r.us.min, 3) : "",
      t ? fmt_num(r.us.max, 3) : "",
      t ? fmt_num(r.us.mean, 3) : "",
      t ? std::to_string(r.us.count) : "",
      fmt_num(r.tflops_value(), 3),
      fmt_num(r.gbps_value(), 1),
      fmt_num(r.pct_floor_value(), 2),
      fmt_num(r.floor_us, 3),
      r.bytes.total() > 0 ? std::to_string(r.bytes.total()) : "",
      fmt_num(r.copy_gbps, 1),
      fmt_num(r.x_fp16, 3),
      fmt_num(r.x_fp8, 3),
      r.note,
  };
  std::string s;
  for (size_t i = 0; i < f.size(); ++i) s += (i ? "," : "") + csv_field(f[i]);
  return s + "\n";
}

// ---- JSON -------------------------------------------------------------------------
inline std::string json_str(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}
inline std::string json_num(double v, int prec = 4) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", prec, v);
  return buf;
}

inline std::string json_row(const ResultRow& r) {
  std::ostringstream o;
  o << "{\"shape\": " << json_str(r.shape.name) << ", \"set\": " << json_str(r.shape.set)
    << ", \"layer\": " << json_str(r.shape.layer) << ", \"N\": " << r.shape.N << ", \"K\": " << r.shape.K
    << ", \"M\": " << r.M << ", \"tp\": " << r.shape.tp << ", \"kernel\": " << json_str(r.kernel)
    << ", \"type_spec\": " << json_str(r.type_spec) << ", \"a_type\": " << json_str(r.a_type)
    << ", \"b_type\": " << json_str(r.b_type) << ", \"out_type\": " << json_str(r.out_type)
    << ", \"group_size\": " << json_str(r.group_size) << ", \"schedule\": " << json_str(r.schedule)
    << ", \"status\": " << json_str(r.status) << ", \"verify\": " << json_str(r.verify);
  if (r.timed) {
    o << ", \"us_median\": " << json_num(r.us.median) << ", \"us_min\": " << json_num(r.us.min)
      << ", \"us_max\": " << json_num(r.us.max) << ", \"us_mean\": " << json_num(r.us.mean)
      << ", \"runs\": " << r.us.count;
  } else {
    o << ", \"us_median\": null, \"us_min\": null, \"us_max\": null, \"us_mean\": null, \"runs\": 0";
  }
  o << ", \"tflops\": " << json_num(r.tflops_value()) << ", \"gbps\": " << json_num(r.gbps_value(), 2)
    << ", \"pct_floor\": " << json_num(r.pct_floor_value(), 3) << ", \"floor_us\": " << json_num(r.floor_us)
    << ", \"bytes\": {\"weights\": " << r.bytes.weights << ", \"scales\": " << r.bytes.scales
    << ", \"zeros\": " << r.bytes.zeros << ", \"activations\": " << r.bytes.activations
    << ", \"output\": " << r.bytes.output << ", \"total\": " << r.bytes.total() << "}"
    << ", \"x_cublas_fp16\": " << json_num(r.x_fp16) << ", \"x_cublas_fp8\": " << json_num(r.x_fp8)
    << ", \"note\": " << json_str(r.note) << "}";
  return o.str();
}

// The whole JSON document: run facts (sections of key -> already-encoded JSON value) and rows.
struct JsonSection {
  std::string name;
  std::vector<std::pair<std::string, std::string>> fields;  // values are JSON text
  void add_str(const std::string& k, const std::string& v) { fields.emplace_back(k, json_str(v)); }
  void add_num(const std::string& k, double v, int prec = 4) { fields.emplace_back(k, json_num(v, prec)); }
  void add_int(const std::string& k, int64_t v) { fields.emplace_back(k, std::to_string(v)); }
  void add_raw(const std::string& k, const std::string& json) { fields.emplace_back(k, json); }
};

inline std::string json_document(const std::vector<JsonSection>& sections, const std::vector<ResultRow>& rows) {
  std::ostringstream o;
  o << "{\n";
  for (const auto& sec : sections) {
    if (sec.name.empty()) {  // top-level fields
      for (const auto& f : sec.fields) o << "  " << json_str(f.first) << ": " << f.second << ",\n";
      continue;
    }
    o << "  " << json_str(sec.name) << ": {";
    for (size_t i = 0; i < sec.fields.size(); ++i)
      o << (i ? ", " : "") << json_str(sec.fields[i].first) << ": " << sec.fields[i].second;
    o << "},\n";
  }
  o << "  \"rows\": [";
  for (size_t i = 0; i < rows.size(); ++i) o << (i ? ",\n    " : "\n    ") << json_row(rows[i]);
  o << (rows.empty() ? "]\n" : "\n  ]\n") << "}\n";
  return o.str();
}

template <class T>
std::string json_list(const std::vector<T>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    if constexpr (std::is_arithmetic_v<T>) s += std::to_string(v[i]);
    else s += json_str(v[i]);
  }
  return s + "]";
}

// ---- the human-readable table -------------------------------------------------------
inline std::string pad(const std::string& s, size_t w, bool right) {
  if (s.size() >= w) return s;
  return right ? std::string(w - s.size(), ' ') + s : s + std::string(w - s.size(), ' ');
}

inline std::string table_header() {
  std::string s = pad("shape", 22, false) + pad("tp", 3, true) + pad("M", 6, true) + "  " +
                  pad("kernel", 18, false) + pad("schedule", 24, false) + pad("us", 10, true) +
                  pad("%floor", 8, true) + pad("TFLOP/s", 9, true) + pad("x fp16", 8, true) +
                  pad("x fp8", 8, true) + "\n";
  return s + std::string(s.size() - 1, '-') + "\n";
}

inline std::string table_row(const ResultRow& r) {
  std::string label = r.kernel == "mixgemm" ? r.type_spec : r.kernel;
  std::string line = pad(r.shape.name, 22, false) + pad(std::to_string(r.shape.tp), 3, true) +
                     pad(std::to_string(r.M), 6, true) + "  " + pad(label, 18, false) + " " +
                     pad(r.schedule.empty() ? "-" : r.schedule, 23, false);
  if (r.timed) {
    const auto opt = [](double v, int prec) { return std::isfinite(v) ? fmt_num(v, prec) : std::string("-"); };
    line += pad(fmt_num(r.us.median, 2), 10, true) + pad(fmt_num(r.pct_floor_value(), 1) + "%", 8, true) +
            pad(fmt_num(r.tflops_value(), 1), 9, true) + pad(opt(r.x_fp16, 2), 8, true) +
            pad(opt(r.x_fp8, 2), 8, true);
    if (r.status != kOk) line += "  [" + r.status + "]";
    if (r.verify == "fail") line += "  [verify FAILED]";
  } else {
    std::string what = r.status == kNotSupported ? "not supported" : r.status;
    line += "  " + what;
    if (!r.note.empty()) line += ": " + r.note;
  }
  return line + "\n";
}

// The short summary printed at the end of a run: one line per (shape, tp, kernel) with the
// median time and the speedup over cuBLAS fp16 at each M of `ms` that was measured. Rows
// that were never timed are left out; an M without a timed row shows "-".
inline std::string summary_table(const std::vector<ResultRow>& rows, const std::vector<int64_t>& ms) {
  std::vector<int64_t> cols;
  for (int64_t m : ms)
    for (const auto& r : rows)
      if (r.timed && r.M == m) {
        cols.push_back(m);
        break;
      }
  if (cols.empty()) return "";
  struct Line {
    std::string shape, kernel;
    int tp;
    std::map<int64_t, const ResultRow*> at;
  };
  std::vector<Line> lines;
  for (const auto& r : rows) {
    if (!r.timed || r.M <= 0) continue;
    const std::string label = r.kernel == "mixgemm" ? r.type_spec : r.kernel;
    Line* line = nullptr;
    for (auto& l : lines)
      if (l.shape == r.shape.name && l.tp == r.shape.tp && l.kernel == label) line = &l;
    if (!line) {
      lines.push_back({r.shape.name, label, r.shape.tp, {}});
      line = &lines.back();
    }
    line->at.emplace(r.M, &r);  // first row wins (e.g. the first of several schedules)
  }
  std::string out = "summary: median us and speedup over cuBLAS fp16 (x), same run\n";
  out += pad("shape", 22, false) + pad("tp", 3, true) + "  " + pad("kernel", 18, false);
  for (int64_t m : cols) out += pad("M=" + std::to_string(m), 16, true);
  out += "\n";
  for (const auto& l : lines) {
    std::string s = pad(l.shape, 22, false) + pad(std::to_string(l.tp), 3, true) + "  " + pad(l.kernel, 18, false);
    for (int64_t m : cols) {
      auto it = l.at.find(m);
      std::string cell = "-";
      if (it != l.at.end()) {
        const ResultRow& r = *it->second;
        cell = fmt_num(r.us.median, 1);
        cell += std::isfinite(r.x_fp16) ? " " + fmt_num(r.x_fp16, 2) + "x" : std::string(" -");
        if (r.verify == "fail" || r.status != kOk) cell += "!";
      }
      s += pad(cell, 16, true);
    }
    out += s + "\n";
  }
  out += "(! = status not ok: verify failed or bad output; see the CSV)\n";
  return out;
}

}  // namespace mixgemm::bench
