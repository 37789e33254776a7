// regions.h - byte regions of the arguments (rows of a strided matrix, or one contiguous span) and
// whether two of them share a byte: gemm refuses an out or workspace that overlaps another
// argument, which would otherwise be read while it is written (pure host arithmetic).
#pragma once

#include <algorithm>
#include <cstdint>

namespace mixgemm::core {

// `rows` runs of `row_bytes` bytes, the first at `base`, each `stride` bytes after the previous
// (stride >= row_bytes); a contiguous span is one row. Empty when rows or row_bytes is 0.
struct Region {
  uintptr_t base = 0;
  int64_t rows = 0;
  int64_t stride = 0;
  int64_t row_bytes = 0;

  bool empty() const { return base == 0 || rows <= 0 || row_bytes <= 0; }
  uintptr_t end() const { return base + static_cast<uintptr_t>((rows - 1) * stride + row_bytes); }
};

inline Region span(const void* p, int64_t bytes) { return {reinterpret_cast<uintptr_t>(p), 1, bytes, bytes}; }
inline Region matrix(const void* p, int64_t rows, int64_t stride_bytes, int64_t row_bytes) {
  return {reinterpret_cast<uintptr_t>(p), rows, stride_bytes, row_bytes};
}

// Whether some byte lies in both regions. Disjoint hulls answer at once; otherwise each row of the
// region with fewer rows is tested against the rows of the other that could meet it (O(rows)),
// so a matrix interleaved with another in one buffer (columns [0, N) and [N, N + K) of the same
// rows) is not an overlap.
inline bool regions_overlap(Region x, Region y) {
  if (x.empty() || y.empty()) return false;
  if (x.end() <= y.base || y.end() <= x.base) return false;
  if (x.rows > 1 && y.rows > 1 && x.stride == y.stride && x.stride > 0) {
    // Rows of one stride s (two matrices in one buffer): row i of x meets row i + k of y iff
    // d + k s < wx and d + k s + wy > 0 (d = y.base - x.base), for some k with both rows in range
    // (-x.rows < k < y.rows): O(1), not a walk over the rows.
    const int64_t d = static_cast<int64_t>(y.base) - static_cast<int64_t>(x.base), s = x.stride;
    auto floor_div = [](int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); };
    const int64_t k_lo = std::max<int64_t>(floor_div(-y.row_bytes - d, s) + 1, 1 - x.rows);  // d + k s + wy > 0
    const int64_t k_hi = std::min<int64_t>(floor_div(x.row_bytes - d - 1, s), y.rows - 1);   // d + k s < wx
    return k_lo <= k_hi;
  }
  if (x.rows > y.rows) std::swap(x, y);
  const int64_t yb = static_cast<int64_t>(y.base);
  for (int64_t i = 0; i < x.rows; ++i) {
    const int64_t lo = static_cast<int64_t>(x.base) + i * x.stride;  // row i of x: [lo, lo + x.row_bytes)
    const int64_t hi = lo + x.row_bytes;
    // rows j of y with [yb + j s, yb + j s + w) meeting [lo, hi): yb + j s < hi and yb + j s + w > lo
    if (y.rows == 1 || y.stride <= 0) {
      if (yb < hi && yb + y.row_bytes > lo) return true;
      continue;
    }
    const int64_t j_max = hi - 1 - yb < 0 ? -1 : (hi - 1 - yb) / y.stride;  // last j with yb + j s < hi
    const int64_t j = std::min<int64_t>(j_max, y.rows - 1);
    if (j >= 0 && yb + j * y.stride + y.row_bytes > lo) return true;
  }
  return false;
}

}  // namespace mixgemm::core
