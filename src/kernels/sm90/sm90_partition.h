// sm90_partition.h - which tile and which k-range one unit of the sm90 persistent grid
// covers (host and device; the host side is CPU-tested in tests/cpu/test_sm90_heuristic.cpp).
//
// A launch has `tiles` output tiles (weight-row tiles fastest) and a split from sm90_split
// (sm90.h): the first `whole` tiles run whole; the other tiles - whole either run in `splits`
// k-parts each (split-K), or, with `stream` > 0, are streamed (stream-K). Units are numbered
//
//   u in [0, whole)                          : tile u, all of K
//   split-K:  u = whole + part * splits + s  : tile whole + part, k-part s of `splits`
//   stream-K: u = whole + j * stream + c     : segment j of CTA c (below)
//
// and CTA c of the persistent grid of C runs units c, c + C, ... Split-K: the parts of one
// split tile are neighbouring units, which start at the same time on neighbouring CTAs. With
// no split (splits = 1, stream = 0) whole = tiles; when the tiles do not fill the SMs whole = 0.
//
// Stream-K (grid C = stream, whole a multiple of C): the T = (tiles - whole) * kb64 k-blocks
// of the streamed tiles, tile-major, are cut into C contiguous ranges, CTA c's
// [c T / C, (c+1) T / C) (T >= C: none is empty). Segment j of CTA c is the part of its range
// in its (j+1)-th tile: every CTA gets the same number of k-blocks +-1, whatever the tile
// count. A tile touched by one CTA only is whole (part -1); otherwise its contributors are
// the consecutive CTAs first .. last that touch it, in ascending k (split = c - first,
// nsplit = last - first + 1), counter `part` = its index among the streamed tiles, and each
// contributor's partial tile goes to slot 2c (its first segment) or 2c + 1 (its last one;
// the segments between are whole tiles). Units past a CTA's range are empty (kb0 = kb1).
// 32-bit arithmetic: the host takes stream-K only where C * (T + 1) < 2^31.
//
// The divisions by the launch's constants (splits, K / 64, C, T) are multiply-highs with constants
// the host computes once per launch (kernels/fast_div.h, exact below 2^31; every dividend here is
// below C * (T + 1) or 16 * 2^25): the decode of a CTA's first unit runs on the producer's path to
// its first load and on the consumers' path to their first wait, one thread each, ~25 dependent
// instructions per division otherwise (s34-trace/: the producer issued its first loads ~1 us after
// it started). sm90_make_part fills them.
#pragma once

#include <cstdint>

#include "kernels/fast_div.h"

#if defined(__CUDACC__)
#define MIXGEMM_SM90_HD __host__ __device__ __forceinline__
#else
#define MIXGEMM_SM90_HD inline
#endif

namespace mixgemm::kernels::sm90 {

// The launch's split, as the kernel sees it.
struct Sm90Part {
  int whole;                // tiles run whole, units [0, whole)
  int splits;               // split-K: k-parts of each other tile (1: none); 1 with stream-K
  int kb64;                 // K / 64
  int stream;               // stream-K: CTAs sharing the streamed tiles (0: split-K)
  uint32_t stream_blocks;   // stream-K: T = (tiles - whole) * kb64
  FastDiv splits_div, kb64_div, stream_div, blocks_div;  // of splits, kb64, stream, stream_blocks (when >= 2)
};

// n / d for the divisor d of one of Sm90Part's FastDivs (d = 1: n).
MIXGEMM_SM90_HD uint32_t sm90_div(uint32_t n, uint32_t d, FastDiv f) { return d == 1 ? n : fast_div(n, f); }

// The host's Sm90Part, its divisors computed (a divisor of 0 or 1 keeps a zero FastDiv, never used).
inline Sm90Part sm90_make_part(int whole, int splits, int kb64, int stream, uint32_t stream_blocks) {
  Sm90Part q{whole, splits, kb64, stream, stream_blocks, {}, {}, {}, {}};
  if (splits >= 2) q.splits_div = make_fast_div(static_cast<uint32_t>(splits));
  if (kb64 >= 2) q.kb64_div = make_fast_div(static_cast<uint32_t>(kb64));
  if (stream >= 2) q.stream_div = make_fast_div(static_cast<uint32_t>(stream));
  if (stream_blocks >= 2) q.blocks_div = make_fast_div(stream_blocks);
  return q;
}

struct Sm90UnitPos {
  int tile;    // output tile (nt = tile % n_tiles, tt = tile / n_tiles)
  int split;   // index of this k-part among its tile's (0 for a whole tile)
  int nsplit;  // k-parts of the tile (1: whole)
  int part;    // index among the split / streamed tiles: the counter; -1 when whole
  int slot;    // this k-part's partial tile in the workspace
  // Where the tile's k-parts keep their partials (what the last to arrive reads): part s at
  // slot0 + s * slot_step, less slot_skip for s >= 1 (sm90_partial_slot).
  int slot0, slot_step, slot_skip;
  int kb0, kb1;  // 64-k blocks [kb0, kb1); kb0 == kb1: an empty unit (stream-K, nothing to do)
};

// Stream-K: the first k-block of CTA c's range, and the CTA whose range holds block b (the plain
// forms, and the part's, with its divisors).
MIXGEMM_SM90_HD uint32_t sm90_stream_begin(uint32_t c, uint32_t T, uint32_t C) { return c * T / C; }
MIXGEMM_SM90_HD uint32_t sm90_stream_owner(uint32_t b, uint32_t T, uint32_t C) { return ((b + 1) * C - 1) / T; }
MIXGEMM_SM90_HD uint32_t sm90_stream_begin(uint32_t c, const Sm90Part& q) {
  return sm90_div(c * q.stream_blocks, static_cast<uint32_t>(q.stream), q.stream_div);
}
MIXGEMM_SM90_HD uint32_t sm90_stream_owner(uint32_t b, const Sm90Part& q) {
  return sm90_div((b + 1) * static_cast<uint32_t>(q.stream) - 1, q.stream_blocks, q.blocks_div);
}

// Units of a launch (the grid runs min(units, SMs) CTAs; stream-K: exactly `stream`).
MIXGEMM_SM90_HD int64_t sm90_unit_count(int64_t tiles, const Sm90Part& q) {
  if (q.stream > 0) {
    const int64_t per = (static_cast<int64_t>(q.stream_blocks) + q.stream - 1) / q.stream;  // most blocks per CTA
    const int64_t segs = (per + q.kb64 - 1) / q.kb64 + 1;                                   // most tiles it touches
    return q.whole + segs * q.stream;
  }
  return q.whole + (tiles - q.whole) * q.splits;
}

MIXGEMM_SM90_HD Sm90UnitPos sm90_unit_pos(int u, const Sm90Part& q) {
  Sm90UnitPos x;
  if (q.stream > 0 && u >= q.whole) {
    const uint32_t C = static_cast<uint32_t>(q.stream), KB = static_cast<uint32_t>(q.kb64);
    const uint32_t v = static_cast<uint32_t>(u - q.whole), j = sm90_div(v, C, q.stream_div), c = v - j * C;
    const uint32_t b0 = sm90_stream_begin(c, q), b1 = sm90_stream_begin(c + 1, q);
    const uint32_t t = sm90_div(b0, KB, q.kb64_div) + j;  // streamed tile of segment j
    const uint32_t lo = j == 0 ? b0 : t * KB;
    const uint32_t hi = (t + 1) * KB < b1 ? (t + 1) * KB : b1;
    x.tile = q.whole + static_cast<int>(t);
    if (lo >= hi) {  // past the CTA's range
      x.tile = q.whole;
      x.split = 0, x.nsplit = 1, x.part = -1, x.slot = 0, x.slot0 = 0, x.slot_step = 0, x.slot_skip = 0;
      x.kb0 = 0, x.kb1 = 0;
      return x;
    }
    const uint32_t first = sm90_stream_owner(t * KB, q), last = sm90_stream_owner((t + 1) * KB - 1, q);
    x.kb0 = static_cast<int>(lo - t * KB);
    x.kb1 = static_cast<int>(hi - t * KB);
    x.nsplit = static_cast<int>(last - first + 1);
    x.split = static_cast<int>(c - first);
    x.part = x.nsplit > 1 ? static_cast<int>(t) : -1;
    x.slot = static_cast<int>(2 * c + (j == 0 ? 0u : 1u));
    // The tile is the first segment of every contributor but the first one, whose range
    // began in an earlier tile unless it begins exactly at the tile.
    x.slot_skip = sm90_stream_begin(first, q) < t * KB ? 1 : 0;
    x.slot0 = static_cast<int>(2 * first) + x.slot_skip;
    x.slot_step = 2;
    return x;
  }
  // Split-K: one path for whole and split tiles (a whole tile is a tile in one part): the
  // sm90 wide tile's consumers have no register to spare, and two paths spilled there.
  const bool w = u < q.whole;
  const int v = w ? u : u - q.whole;
  const int parts = w ? 1 : q.splits;
  const int i = static_cast<int>(sm90_div(static_cast<uint32_t>(v), static_cast<uint32_t>(parts), q.splits_div));
  x.split = v - i * parts;
  x.nsplit = parts;
  x.tile = w ? u : q.whole + i;
  x.part = w ? -1 : i;
  x.slot = i * parts + x.split;
  x.slot0 = i * parts;
  x.slot_step = 1;
  x.slot_skip = 0;
  // split * kb64 < 16 * 2^25: 32-bit, exact for fast_div.
  x.kb0 = static_cast<int>(sm90_div(static_cast<uint32_t>(x.split * q.kb64), static_cast<uint32_t>(parts), q.splits_div));
  x.kb1 = static_cast<int>(sm90_div(static_cast<uint32_t>((x.split + 1) * q.kb64), static_cast<uint32_t>(parts), q.splits_div));
  return x;
}

// The workspace slot of k-part s of x's tile (where the last to arrive reads it).
MIXGEMM_SM90_HD int sm90_partial_slot(const Sm90UnitPos& x, int s) {
  return x.slot0 + s * x.slot_step - (s > 0 ? x.slot_skip : 0);
}

// kb1 - kb0 of sm90_unit_pos (what a consumer keeps through its mainloop).
MIXGEMM_SM90_HD int sm90_unit_blocks(int u, const Sm90Part& q) {
  const Sm90UnitPos x = sm90_unit_pos(u, q);
  return x.kb1 - x.kb0;
}

}  // namespace mixgemm::kernels::sm90

#undef MIXGEMM_SM90_HD
