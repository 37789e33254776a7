// sm90_producer.cuh - the sm90 CTA's producer warpgroup (WG0; sm90_gemm.cuh has the overview):
// thread 0 fills the stage ring by TMA, warps 1..3 build the e4m3 per-group weight tables.
#pragma once

#include "kernels/convert/convert_8bit.cuh"
#include "kernels/ptx/mma.cuh"
#include "kernels/ptx/sm90.cuh"
#include "kernels/sm90/sm90_common.cuh"

namespace mixgemm::kernels::sm90 {

template <AType A, int kWBits, int kTileN, int kTileT>
struct Sm90Producer : Sm90Common<A, kWBits, kTileN, kTileT> {
  using Base = Sm90Common<A, kWBits, kTileN, kTileT>;
  using typename Base::Tr;
  using typename Base::Unit;
  using Base::kStages;
  using Base::kOne;
  using Base::kTableThreads;
  using Base::part_of;
  using Base::unit_of;

  // ---- producer: one thread fills the stage ring --------------------------------------------
  // Per 64-k block: wait for the stage to be free, then the activation tile (TMA), the tile's
  // weight blocks (bulk) and its group-scale / zero-point rows (bulk), all completing on the
  // stage's `full` barrier. The narrow tiles consume a block in ~1000 cycles, and this single
  // thread is on their critical path: ncu (bench/results/2026-11-30-h200/s9-profile/) found
  // it never waiting for a free stage at M = 64..256 while the consumers waited for data, so
  // the loop carries its addresses forward instead of recomputing them (the group row was a
  // 32-bit division per block, ~25 dependent instructions with MUFU/I2F latency).
  //
  // The loop is compiled per staging variant (kRows: group rows per block, 0 without group
  // scales or zero points, 1 in kSm90ScaleBlock; -1 for groups of 16 / 32, rows and flags read
  // from the parameters; kScales, kZeros: which rows are copied when kRows >= 0). With the
  // variant read from the parameters inside the loop, the grouped path was ~100 SASS
  // instructions per block for this one thread, with constant-bank reloads of p.srows / p.gs on
  // its dependent chain, and s8 g128 on the 128 x 256 tile (a block every ~512 cycles at
  // M = 8192) took 1.25-1.3x the time of per-channel even with the consumer's group-scale work
  // removed (session 15, s15-producer/): the producer set the pace.
  template <int kRows, bool kScales, bool kZeros>
  static __device__ __forceinline__ void produce_v(const Sm90KernelParams& p, uint32_t base,
                                                   uint32_t full0, uint32_t empty0) {
    constexpr bool kGrouped = kRows != 0;
    const uint64_t policy = ptx::policy_evict_normal();
    const int64_t wstep = p.b_kstride * Tr::kLayoutKb;                // weight bytes per 64-k block
    const int64_t gstep = static_cast<int64_t>(p.N) * Tr::kSB;       // bytes per group row
    const int gs = p.gs;
    const int srows = kRows > 0 ? kRows : p.srows;
    // Which rows are copied: fixed for kRows >= 0, from the parameters otherwise.
    const bool cs = kRows >= 0 ? kScales : static_cast<bool>(p.has_scales);
    const bool cz = kRows >= 0 ? kZeros : static_cast<bool>(p.has_zeros);
    int stage = 0;
    uint32_t phase = 0;
    // The block slots of the stage ring (stage * kPair + sub) whose rows past M a full box of the
    // last token tile has zero-filled (kTailBox, below): bit s for slot s.
    [[maybe_unused]] uint32_t zeroed = 0;
    for (int u = blockIdx.x; u < p.units; u += gridDim.x) {
      const Unit x = unit_of(p, u);
      const int nb0 = x.nt * Tr::kNBlk;
      const int nbv = min(Tr::kNBlk, p.NB - nb0);  // valid 16-row blocks (last weight tile)
      const uint32_t wbytes = static_cast<uint32_t>(nbv) * layout::kBlockBytes;
      const uint32_t sbytes = static_cast<uint32_t>(nbv) * 16 * Tr::kSB;  // 16 rows per block
      const int n0 = nb0 * 16;
      uint32_t tx = Tr::kActBytes + wbytes * Tr::kLayoutKb;
      if (kGrouped && cs) tx += sbytes * srows;
      if (kGrouped && cz) tx += sbytes * srows;
      // Weights of block kb at b + kb * wstep + nb0 * 512 (+ l * b_kstride for the second
      // layout block of 8-bit weights).
      const uint8_t* wsrc = p.b + x.kb0 * wstep + static_cast<int64_t>(nb0) * layout::kBlockBytes;
      // Group rows: g = k / gs for the block's first k, gk = k % gs, carried from block to
      // block (one division per unit); soff = byte offset of row g, column n0.
      int gk = 0;
      int64_t soff = 0;
      if constexpr (kGrouped) {
        const int k0 = x.kb0 * kKBlock;
        const int g = static_cast<int>(sm90_div(static_cast<uint32_t>(k0), static_cast<uint32_t>(gs), p.gs_div));
        gk = k0 - g * gs;
        soff = g * gstep + static_cast<int64_t>(n0) * Tr::kSB;
      }
      // The last token tile of an M that is not a multiple of kTileT (kTailBox): its M % kTileT rows
      // only (act_tail_map) into a block slot whose rows past M a full box has zero-filled before.
      // TMA zero-fills a full box's rows past M at a cost that grows with those rows (with the exact
      // box the 256-token tile takes 0.68-0.97x the time at M = 320, s52-tail/; 128 x 128 0.58-0.87x
      // at M = 24 / 48, s64-tailbox/), and rows left as a stage held them (nonzero) made f16 up to 9%
      // slower than zeros do (s52-tail/call1: power, most likely). So a CTA's first tail block in
      // each slot loads the full box, and its later ones the exact box, which keeps those zeros: a
      // CTA's units run in tile order, the last token tile's last (sm90_partition.h), so no other
      // tile's rows come after them. Only the accumulator columns of tokens >= M see those rows, and
      // the epilogue never stores them: the box changes no output.
      // This single thread sets the narrow tiles' pace (above): with the slot test in every block's
      // path, 128 x 64 s8 took 1.05-1.12x the time even at M = 128 / 256, where no tile has a tail
      // (s64-tailbox/, as 128 x 128 in session 52). So the blocks run in segments of one map and
      // byte count: a unit without a tail is one segment, through the block loop a tile without
      // the tail box has (the same SASS: checked with scripts/local_sass.sh); a tail unit's blocks
      // are one-block segments until every slot is zeroed, then one segment through the exact box.
      // (The block's code as a lambda called from three loops changed the SASS of every producer,
      // tail box or not, by 5-15 instructions per loop.)
      for (int kb = x.kb0; kb < x.kb1;) {
        const CUtensorMap* amap = &p.act_map;
        uint32_t tx0 = tx;    // a block's bytes
        uint32_t tx1 = tx;    // the next block's, when it shares the stage (kPair 2)
        int kb_end = x.kb1;  // the segment's end
        if constexpr (Tr::kTailBox) {
          if (x.tt == p.tail_tt) {
            constexpr uint32_t kAllSlots =
                Tr::kStages * Tr::kPair == 32 ? ~0u : (1u << (Tr::kStages * Tr::kPair)) - 1u;
            const uint32_t exact_tx = tx - Tr::kActBytes + p.tail_act_bytes;
            if (zeroed == kAllSlots) {
              amap = &p.act_tail_map;
              tx0 = tx1 = exact_tx;
            } else {
              const int slot = stage * Tr::kPair + (Tr::kPair == 2 ? (kb - x.kb0) & 1 : 0);
              const bool exact = ((zeroed >> slot) & 1u) != 0;
              // The next block's slot, read only for the first block of a pair (& 31: the second
              // block's slot + 1 may be 32).
              const bool next_exact = Tr::kPair == 2 && ((zeroed >> ((slot + 1) & 31)) & 1u) != 0;
              if (exact) amap = &p.act_tail_map;
              tx0 = exact ? exact_tx : tx;
              tx1 = next_exact ? exact_tx : tx;
              kb_end = kb + 1;
              zeroed |= 1u << slot;  // a full box zero-fills it; an exact box keeps its zeros
            }
          }
        }
        for (; kb < kb_end; ++kb) {
          const int sub = Tr::kPair == 2 ? (kb - x.kb0) & 1 : 0;  // the block's place in its stage
          const uint32_t full = full0 + stage * 8;
          if (sub == 0) {
            ptx::mbar_wait_parity(empty0 + stage * 8, phase ^ 1u);
            ptx::mbar_arrive_expect_tx(full, Tr::kPair == 2 && kb + 1 < x.kb1 ? tx0 + tx1 : tx0);
          }
          const uint32_t st = base + stage * Tr::kStageBytes + sub * Tr::kSubBytes;
          ptx::tma_load_2d(st, amap, kb * kKBlock, x.tt * kTileT, full);
#pragma unroll
          for (int l = 0; l < Tr::kLayoutKb; ++l)
            ptx::bulk_g2s(st + Tr::kOffW + l * Tr::kNBlk * layout::kBlockBytes, wsrc + l * p.b_kstride, wbytes,
                          full, policy);
          if (kb == x.kb0) sm90_mark(p, 12);  // producer: first stage's loads issued (a unit's first block)
          wsrc += wstep;
          if constexpr (kGrouped) {
            for (int r = 0; r < srows; ++r) {
              const int64_t off = soff + r * gstep;
              if (cs) ptx::bulk_g2s(st + Tr::kOffS + r * Tr::kSRowBytes, p.scales + off, sbytes, full, policy);
              if (cz) ptx::bulk_g2s(st + Tr::kOffZ + r * Tr::kSRowBytes, p.zeros + off, sbytes, full, policy);
            }
            if constexpr (kRows == 1) {
              // One group row per block (gs a multiple of 64): the row moves on every gs / 64 blocks.
              gk += kKBlock;
              if (gk == gs) {
                gk = 0;
                soff += gstep;
              }
            } else {
              gk += kKBlock;
              while (gk >= gs) {  // 64 / gs times for groups of 16 / 32
                gk -= gs;
                soff += gstep;
              }
            }
          }
          if (sub == Tr::kPair - 1 || kb + 1 == x.kb1) {
            if (++stage == kStages) {
              stage = 0;
              phase ^= 1u;
            }
          }
        }
        if constexpr (!Tr::kTailBox) break;  // one segment: the compiler keeps the plain block loop
      }
    }
  }
  static __device__ __forceinline__ void produce(const Sm90KernelParams& p, uint32_t base,
                                                 uint32_t full0, uint32_t empty0) {
    if (p.mode == kSm90ScaleNone) {
      produce_v<0, false, false>(p, base, full0, empty0);
    } else if (p.mode == kSm90ScaleBlock) {
      if (p.has_scales && p.has_zeros) produce_v<1, true, true>(p, base, full0, empty0);
      else if (p.has_scales) produce_v<1, true, false>(p, base, full0, empty0);
      else if (p.has_zeros) produce_v<1, false, true>(p, base, full0, empty0);
      else produce_v<1, false, false>(p, base, full0, empty0);
    } else {
      produce_v<-1, false, false>(p, base, full0, empty0);  // groups of 16 / 32: rows and flags from p
    }
  }

  // ---- table warps: the per-group e4m3 weight tables ----------------------------------------
  // e4m3 activations with one group row per 64-k block: RN_e4m3sat(RN_f16((q - 8) s)) (or
  // RN_f16(q s + zs)) takes ~10 instructions per 4 weights in the consumer (prmt, 2 lop3,
  // 2 sub, 2 mul.f16x2, 2 cvt e4m3x2, prmt: 80 of the wide tile's 126 per block and thread).
  // A (row, group) has only 16 possible results, so warps 1..3 of the producer warpgroup (idle
  // otherwise) compute them once per stage and row, with the converter's two roundings
  // (convert::e4m3_gscale_table: bit-identical), into the stage's table area, and the consumers
  // convert by lookup (convert::lut16x8: 5.5 instructions per 4 weights, no f16 arithmetic).
  // Per stage: wait `full` (the scale / zero rows have landed), 128 or 256 rows over 96
  // threads, then every table thread arrives on the stage's `tables` barrier, which the
  // consumers wait for after `full`. The tables of a stage are rewritten only after its next
  // `full`, i.e. after the consumers released it (their lookups precede their release).
  // The tables of one stage: this table thread's rows tt, tt + 96, ... (2 or 3, unrolled so that
  // their loads and conversions overlap), from the stage's group-scale / zero row.
  static __device__ __forceinline__ void build_stage_tables(uint32_t st, int tt, bool hs, bool hz, int32_t bias) {
    constexpr int kRowsPer = (kTileN + kTableThreads - 1) / kTableThreads;
    uint32_t sb[kRowsPer], zb[kRowsPer];
#pragma unroll
    for (int j = 0; j < kRowsPer; ++j) {
      const int row = tt + j * kTableThreads;
      const bool ok = row < kTileN;
      sb[j] = hs && ok ? ptx::lds16(st + Tr::kOffS + row * 2) : kOne;
      zb[j] = hz && ok ? ptx::lds16(st + Tr::kOffZ + row * 2) : 0u;
    }
#pragma unroll
    for (int j = 0; j < kRowsPer; ++j) {
      const int row = tt + j * kTableThreads;
      if (row < kTileN)
        ptx::sts128(st + Tr::kOffT + row * 16,
                    convert::e4m3_gscale_table(__ushort_as_half(static_cast<unsigned short>(sb[j])),
                                               __ushort_as_half(static_cast<unsigned short>(zb[j])), hz, bias));
    }
  }
  // A table thread's loop over the CTA's units, stage by stage as the producer fills them.
  static __device__ __forceinline__ void build_tables(const Sm90KernelParams& p, uint32_t base, uint32_t full0,
                                                      uint32_t tab0, int tt) {
    const bool uns = p.b_unsigned;
    const bool hs = !uns || p.has_scales, hz = uns && p.has_zeros;
    const int32_t bias = uns ? 0 : 8;
    int stage = 0;
    uint32_t phase = 0;
    for (int u = blockIdx.x; u < p.units; u += gridDim.x) {
      const Sm90UnitPos q = sm90_unit_pos(u, part_of(p));
      const int nk = q.kb1 - q.kb0;
      for (int i = 0; i < nk; i += Tr::kPair) {  // a stage: kPair blocks (a unit's odd last: one)
        ptx::mbar_wait_parity(full0 + stage * 8, phase);
        const uint32_t st = base + stage * Tr::kStageBytes;
        build_stage_tables(st, tt, hs, hz, bias);
        if (Tr::kPair == 2 && i + 1 < nk) build_stage_tables(st + Tr::kSubBytes, tt, hs, hz, bias);
        ptx::mbar_arrive(tab0 + stage * 8);
        if (++stage == kStages) {
          stage = 0;
          phase ^= 1u;
        }
      }
    }
  }
};

}  // namespace mixgemm::kernels::sm90
