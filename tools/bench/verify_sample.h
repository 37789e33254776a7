// verify_sample.h - which outputs --verify checks, and how it reads the weights of a few
// columns back out of the prepacked buffer (pure host logic, header-only, unit-tested in
// tests/cpu/test_bench_cli.cpp against prepack_cpu).
//
// Sampling: all rows when M <= max_rows, else rows 0 and M-1 plus random distinct rows up to
// max_rows; all columns when N <= max_cols (as 16-column windows), else 64-column windows
// (first, last, random 64-aligned ones) covering about max_cols columns. The reference then
// runs on the sub-problem (sampled rows x sampled columns x full K), which is exact per
// element: every output depends only on its own row of A and column of W.
//
// Window read-back: a window of `win` columns starting at a multiple of 16 is, for every
// k-block kb, win/16 consecutive 512-byte blocks at block index kb * (N/16) + start/16
// (include/mixgemm/layout.h). Copying those runs for all kb into one buffer yields exactly
// the prepacked layout of a K x win matrix, so layout::position(kind, win, k, j) finds the
// weight of column start + j in it.
#pragma once

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <cstdint>
#include <set>
#include <vector>

#include "mixgemm/layout.h"
#include "mixgemm/reference.h"

namespace mixgemm::bench {

struct HostRng {
  uint64_t s;
  explicit HostRng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 0x1234567ull) {}
  uint64_t next() {
    uint64_t x = (s += 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  int64_t integer(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
};

inline std::vector<int64_t> sample_rows(int64_t M, int max_rows, HostRng& rng) {
  std::set<int64_t> s;
  if (M <= max_rows) {
    for (int64_t m = 0; m < M; ++m) s.insert(m);
  } else {
    s.insert(0);
    s.insert(M - 1);
    while (static_cast<int>(s.size()) < max_rows) s.insert(rng.integer(0, M - 1));
  }
  return {s.begin(), s.end()};
}

struct ColumnSample {
  int64_t window = 16;          // columns per window (16 or 64)
  std::vector<int64_t> starts;  // window starts, multiples of 16, ascending
  std::vector<int64_t> cols;    // every sampled column, ascending, unique
};

// N must be a multiple of 16 (the layout's rule).
inline ColumnSample sample_columns(int64_t N, int max_cols, HostRng& rng) {
  ColumnSample c;
  std::set<int64_t> starts;
  if (N <= max_cols || N < 64) {
    c.window = 16;
    for (int64_t s = 0; s + 16 <= N; s += 16) starts.insert(s);
  } else {
    c.window = 64;
    const int want = std::max(2, max_cols / 64);
    starts.insert(0);
    starts.insert(N - 64);
    const int64_t slots = N / 64;
    for (int guard = 0; static_cast<int>(starts.size()) < want && guard < 100000; ++guard)
      starts.insert(64 * rng.integer(0, slots - 1));
  }
  c.starts.assign(starts.begin(), starts.end());
  std::set<int64_t> cols;
  for (int64_t s : c.starts)
    for (int64_t j = 0; j < c.window; ++j) cols.insert(s + j);
  c.cols.assign(cols.begin(), cols.end());
  return c;
}

// Bytes of one window's copy: K/KB rows of win/16 blocks.
inline int64_t window_bytes(layout::Kind kind, int64_t K, int64_t win) {
  return (K / kind.block_k()) * (win / layout::kBlockRows) * layout::kBlockBytes;
}

// Stored integer q(k, start + j) from a window's copy.
inline uint8_t window_q(layout::Kind kind, const uint8_t* window, int64_t win, int64_t k, int64_t j) {
  const layout::Position p = layout::position(kind, win, k, j);
  const uint8_t byte = window[p.byte];
  return kind.weight_bits == 4 ? static_cast<uint8_t>((byte >> p.shift) & 0xF) : byte;
}

// Tally of one verification. An output with a finite tolerance must pass
// mixgemm::within_tolerance (|got - ref| <= tol; tol = 0: bit-exact; NaN matches only NaN). Outputs for which the
// reference gives no finite bound (+inf tolerance: e4m3 accumulation without promotion at
// large K, or an output that may overflow) cannot be checked that way; they are checked
// loosely instead: finite where the reference is finite, and their RMS error at most
// kLooseRelRms of the reference's RMS. The verdict is "pass" (all bounded), "loose" (some
// unbounded, all checks passed) or "fail".
inline constexpr double kLooseRelRms = 0.05;

struct VerifyTally {
  int64_t checked = 0, failures = 0, unbounded = 0;
  double max_abs_err = 0;
  double loose_err2 = 0, loose_ref2 = 0;
  int64_t loose_nonfinite = 0;
  std::string first_failure;

  // m, n: the output's coordinates, for the message.
  void add(double got, double ref, double tol, int64_t m, int64_t n) {
    ++checked;
    if (std::isfinite(got) && std::isfinite(ref)) max_abs_err = std::max(max_abs_err, std::fabs(got - ref));
    if (std::isinf(tol) && tol > 0) {
      ++unbounded;
      if (std::isfinite(ref)) {
        if (!std::isfinite(got)) {
          ++loose_nonfinite;
          note_failure(got, ref, tol, m, n);
        } else {
          loose_err2 += (got - ref) * (got - ref);
          loose_ref2 += ref * ref;
        }
      }
      return;
    }
    if (!within_tolerance(got, ref, tol)) note_failure(got, ref, tol, m, n);
  }
  double loose_rel_rms() const { return loose_ref2 > 0 ? std::sqrt(loose_err2 / loose_ref2) : 0.0; }
  bool loose_ok() const { return loose_nonfinite == 0 && loose_rel_rms() <= kLooseRelRms; }
  bool pass() const { return failures == 0 && loose_ok(); }
  std::string verdict() const { return !pass() ? "fail" : (unbounded ? "loose" : "pass"); }
  std::string summary() const {
    std::ostringstream os;
    os << "verify " << verdict() << ": " << checked << " outputs, " << failures << " outside tolerance, max |err| "
       << max_abs_err;
    if (unbounded)
      os << "; " << unbounded << " without a finite bound checked loosely (rms error " << loose_rel_rms()
         << " of the reference rms, limit " << kLooseRelRms << ")";
    if (!first_failure.empty()) os << "; " << first_failure;
    return os.str();
  }

 private:
  void note_failure(double got, double ref, double tol, int64_t m, int64_t n) {
    if (failures++ == 0) {
      std::ostringstream os;
      os << "first mismatch at m=" << m << " n=" << n << ": got " << got << ", reference " << ref << ", tolerance " << tol;
      first_failure = os.str();
    }
  }
};

}  // namespace mixgemm::bench
