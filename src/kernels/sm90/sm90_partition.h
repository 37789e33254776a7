// sm90_partition.h - which tile and which k-range one unit of the sm90 persistent grid
// covers (host and device; the host side is CPU-tested in tests/cpu/test_sm90_heuristic.cpp).
//
// A launch has `tiles` output tiles (weight-row tiles fastest) and a split from sm90_split
// (sm90.h): the first `whole` tiles run whole, the other tiles - whole run in `splits`
// k-parts each. Units are numbered
//
//   u in [0, whole)                    : tile u, all of K
//   u = whole + part * splits + split  : tile whole + part, k-part `split` of `splits`
//
// so the parts of one split tile are neighbouring units, which the persistent grid (CTA c
// runs units c, c + C, ...) starts at the same time on neighbouring CTAs. With no split
// (splits = 1) whole = tiles; when the tiles do not fill the SMs whole = 0.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define MIXGEMM_SM90_HD __host__ __device__ __forceinline__
#else
#define MIXGEMM_SM90_HD inline
#endif

namespace mixgemm::kernels::sm90 {

struct Sm90UnitPos {
  int tile;   // output tile (nt = tile % n_tiles, tt = tile / n_tiles)
  int split;  // k-part of the tile (0 for a whole tile)
  int part;   // index among the split tiles (tile - whole): its counter and partials; -1 when whole
  int kb0, kb1;  // 64-k blocks [kb0, kb1)
};

MIXGEMM_SM90_HD int64_t sm90_unit_count(int64_t tiles, int64_t whole, int splits) { return whole + (tiles - whole) * splits; }

// kb64 = K / 64.
MIXGEMM_SM90_HD Sm90UnitPos sm90_unit_pos(int u, int whole, int splits, int kb64) {
  // One path for both kinds (a whole tile is a tile in one part): the sm90 wide tile's
  // consumers have no register to spare, and two paths spilled there (ptxas, sm_90a).
  const bool w = u < whole;
  const int v = w ? u : u - whole;
  const int parts = w ? 1 : splits;
  Sm90UnitPos x;
  const int i = v / parts;
  x.split = v - i * parts;
  x.tile = w ? u : whole + i;
  x.part = w ? -1 : i;
  x.kb0 = static_cast<int>(static_cast<int64_t>(x.split) * kb64 / parts);
  x.kb1 = static_cast<int>(static_cast<int64_t>(x.split + 1) * kb64 / parts);
  return x;
}

// kb1 - kb0 of sm90_unit_pos (what a consumer keeps through its mainloop).
MIXGEMM_SM90_HD int sm90_unit_blocks(int u, int whole, int splits, int kb64) {
  const Sm90UnitPos x = sm90_unit_pos(u, whole, splits, kb64);
  return x.kb1 - x.kb0;
}

}  // namespace mixgemm::kernels::sm90

#undef MIXGEMM_SM90_HD
