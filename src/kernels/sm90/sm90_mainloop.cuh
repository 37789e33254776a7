// sm90_mainloop.cuh - a consumer warpgroup's collective mainloop over one work unit's k-range
// (sm90_gemm.cuh has the overview): its A fragments (the weights of a stage's 64-k block and their
// group scales / zero points read from shared memory and converted in registers, one k step at a
// time), the register-A wgmma that consume them while the next block is converted, the stage waits
// and releases, accumulator sets, e4m3 promotion and the unit form.
#pragma once

#include "kernels/convert/convert_16bit.cuh"
#include "kernels/convert/convert_8bit.cuh"
#include "kernels/convert/fragment_words.cuh"
#include "kernels/ptx/mma.cuh"
#include "kernels/ptx/sm90.cuh"
#include "kernels/ptx/wgmma_rs.cuh"
#include "kernels/sm90/sm90_common.cuh"

namespace mixgemm::kernels::sm90 {

template <AType A, int kWBits, int kTileN, int kTileT>
struct Sm90Mainloop : Sm90Common<A, kWBits, kTileN, kTileT> {
  using Base = Sm90Common<A, kWBits, kTileN, kTileT>;
  using typename Base::Tr;
  using typename Base::T16;
  using typename Base::Acc;
  using typename Base::Ctx;
  using Base::kMW;
  using Base::kAcc;
  using Base::kStages;
  using Base::kOne;

  // The register-A wgmma of a consumer variant. e4m3 activations with biased weights and no
  // group scales (QQQ's per-channel W4A8) give the weights to the wgmma as e5m2 (kind 4,
  // .e5m2.e4m3): q - 8 is exact in both formats, so the products are the same, and
  // cvt_u4x4_e5m2_b8 needs no lookup tables (the e4m3 tables' registers were rematerialized
  // by ptxas in every step of the wide tile's loop: 115 SASS instructions per block against
  // s8's 88).
  template <bool kUns, int kMode>
  static constexpr bool kE5m2Weights = A == AType::kE4M3 && !kUns && kMode == kSm90ScaleNone;
  template <bool kUns, int kMode>
  using Wgmma = ptx::WgmmaRS<kE5m2Weights<kUns, kMode> ? 4 : Tr::kWgmmaKind, kTileT>;

  // ---- e4m3 weight tables: which consumers convert by lookup ------------------------------------
  // (the table warps that build a stage's tables: Sm90Producer::build_tables)
  // The wide tile's GPTQ kernel (kSm90VariantGptq: kSm90ScaleBlock on the k-step mainloop, u4b8)
  // has no table warps: its consumers build the two tables they use (rows g, g+8 of each atom)
  // in registers, once per group, in the group's first block (or the unit's first), and keep
  // them for the group's other blocks (build_reg_tables: 2 scale loads and ~40 instructions per
  // group and thread, under the previous block's last wgmma). No table warps, no `tables`
  // barrier, no table stores or loads in shared memory: 0.97-0.99x the time of the table warps'
  // tables at M = 256..8192 (s20-regtables/). Building the next group's tables a step earlier,
  // from a scale row staged beside the group's last block, gained nothing more (s20-lookahead/).
  template <int kMode>
  static constexpr bool kTablesPerGroup = Tr::kTables && !Tr::kBlockIssue && kMode == kSm90ScaleBlock;
  // Blocks left in the current group, the block kb included (gkb = group size / 64).
  static __device__ __forceinline__ int group_blocks_left(int kb, int gkb) { return gkb - kb % gkb; }
  // Whether a consumer of variant kMode converts by the tables (kTablesPerGroup: its own; else it
  // waits for the table warps' ones: wait_stage).
  template <int kMode>
  static __device__ __forceinline__ bool use_tables(const Sm90KernelParams& p) {
    if constexpr (!Tr::kTables) return false;
    else if constexpr (kMode == kSm90ScaleBlock) return true;
    else if constexpr (kMode == kSm90ScaleAny) return p.mode == kSm90ScaleBlock;
    else return false;
  }

  // ---- stage ring ------------------------------------------------------------------------------
  // Wait until stage `stage` may be read: its loads have landed (`full`) and, where the
  // consumer converts by tables, its tables are built.
  template <int kMode>
  static __device__ __forceinline__ void wait_stage(const Ctx& c, const Sm90KernelParams& p, int stage,
                                                    uint32_t phase) {
    ptx::mbar_wait_parity(c.full0() + stage * 8, phase);
    if (!kTablesPerGroup<kMode> && use_tables<kMode>(p)) ptx::mbar_wait_parity(c.tab0() + stage * 8, phase);
  }

  // ---- A fragments ---------------------------------------------------------------------------
  // The weights of one stage for this thread (16 bytes per atom; 8-bit weights: the first
  // of two layout blocks) and the scale / zero of rows g and g+8 (load_sz) when one group row
  // serves the whole block.
  struct BlockRegs {
    uint4 v[kMW];
    uint32_t s0[kMW], s1[kMW], z0[kMW], z1[kMW];
    uint4 tg[kMW], tg8[kMW];  // e4m3 in kSm90ScaleBlock: the tables of rows g, g+8 (use_tables)
    // kUnitForm: the unit form's bases of rows g | g+8 (2^(u+9), kept through the work unit) and
    // the group's factors S2, C2 (set at the group's first block, kept for its others).
    uint32_t base2[kMW], S2[kMW], C2[kMW];
  };

  static __device__ __forceinline__ int block_of(const Ctx& c, int mw) {
    return (c.cwg() * kMW + mw) * 4 + c.warp();  // this warp's 16-row layout block in the tile
  }
  // The stage offsets of atom mw (Ctx::wofs, Ctx::sofs): atom mw is 4 layout blocks further.
  static __device__ __forceinline__ uint32_t w_of(const Ctx& c, int mw) { return c.wofs + mw * 4 * layout::kBlockBytes; }
  static __device__ __forceinline__ uint32_t s_of(const Ctx& c, int mw) { return c.sofs + mw * 64 * Tr::kSB; }
  // The stage offset of row g's table of atom mw (row g+8's is 128 bytes further): 16 bytes per
  // row where the scale has 2 (kSB = 2 for e4m3).
  static __device__ __forceinline__ uint32_t t_of(const Ctx& c, int mw) {
    return Tr::kOffT + c.sofs * 8 + mw * 64 * 16;
  }
  // The tables of rows g, g+8 of atom mw.
  static __device__ __forceinline__ void load_tables(const Ctx& c, uint32_t st, int mw, uint4& tg, uint4& tg8) {
    const uint32_t ta = st + t_of(c, mw);
    tg = ptx::lds128(ta);
    tg8 = ptx::lds128(ta + 128);
  }
  // kTablesPerGroup (u4b8 weights): the tables of rows g, g+8 (RN_e4m3sat(RN_f16((q - 8) s))),
  // built by the warp: its 16 rows' tables are 64 words, so lane L builds half L & 1 (words 2h,
  // 2h+1: convert::e4m3_gscale_table_half, 4 add + 4 mul.f16x2 + 4 cvt) of row L >> 1 of its layout block
  // from one scale load, stores them in the stage's table area (unused by this kernel otherwise:
  // only this warp writes and reads these 256 bytes), and every thread loads its two rows'
  // tables back (2 lds128). ~20 instructions per group and thread instead of ~44
  // (e4m3_gscale_table_v twice). Session 22 (s22-warptables/): with the early load below 0.96-0.98x
  // the time at M = 256..8192; without it 1.00-1.01x (the store / load round trip then sits in
  // front of the next block's first conversion). s21-quad/: the same split through shuffles was slower.
  static __device__ __forceinline__ void build_reg_tables(const Ctx& c, uint32_t st, int mw, uint4& tg, uint4& tg8) {
    const int lane = c.lane(), g = lane >> 2;
    // Row L >> 1 of the warp's block: its scale (kSB bytes per row) and its table (16 bytes per
    // row, half h at byte 8h: lane L at 8L from the block's first row).
    const uint32_t s = ptx::lds16(st + Tr::kOffS + s_of(c, mw) + ((lane >> 1) - g) * Tr::kSB);
    uint32_t w0, w1;
    convert::e4m3_gscale_table_half<8>(splat(s), lane & 1, w0, w1);
    const uint32_t tbase = st + t_of(c, mw) - g * 16;
    __syncwarp();  // the previous lookups of this area (an earlier group's) are done
    ptx::sts64(tbase + lane * 8, w0, w1);
    __syncwarp();
    load_tables(c, st, mw, tg, tg8);
  }
  // Four registers of k32 step s of atom mw by the tables (use_tables).
  static __device__ __forceinline__ void dequant_k32_tables(const BlockRegs& r, const uint4& tg, const uint4& tg8,
                                                            int mw, int s, uint32_t (&f)[4]) {
    convert::lut16x8(convert::word(r.v[mw], 2 * s), tg, tg8, f[0], f[1]);
    convert::lut16x8(convert::word(r.v[mw], 2 * s + 1), tg, tg8, f[2], f[3]);
  }
  static __device__ __forceinline__ uint32_t splat(uint32_t b16) { return ptx::prmt(b16, 0u, 0x1010u); }
  // 8-bit weights: k16 step s of the stage's 64-k block is layout k-block s/2 (32 k), words 2(s%2),
  // 2(s%2)+1; at step 2 the second layout block replaces the first in the same registers (saves 4 per
  // atom).
  static __device__ __forceinline__ uint2 u8_step_words(const Ctx& c, uint32_t st, BlockRegs& r, int mw, int s) {
    if (s == 2) r.v[mw] = ptx::lds128(st + w_of(c, mw) + Tr::kNBlk * layout::kBlockBytes);
    return convert::word_pair(r.v[mw], s & 1);
  }

  // Scale / zero of this thread's rows g, g+8 in staged group row `row` (1.0 / 0 when absent):
  //   f16/bf16 activations and e4m3: the raw 16-bit scale and prepacked zero in the low half
  //   (convert::scale_frag16_lo and the e4m3 converters splat them in their operands);
  //   s8: the u8 integer group scale sg in s, and in z the offset s8_gscale_offset(z * sg)
  //       (z * sg is prepacked; 8 * sg for u4b8, 0 for u4 without zero points).
  template <bool kUns>
  static __device__ __forceinline__ void load_sz(const Sm90KernelParams& p, uint32_t st, uint32_t sofs, int row,
                                                 uint32_t& s0, uint32_t& s1, uint32_t& z0, uint32_t& z1) {
    const uint32_t off = row * Tr::kSRowBytes + sofs;  // sofs = s_of(c, mw)
    constexpr uint32_t k8 = 8 * Tr::kSB;  // row g+8
    if constexpr (A == AType::kS8) {
      s0 = (!kUns || p.has_scales) ? ptx::lds8(st + Tr::kOffS + off) : 1u;
      s1 = (!kUns || p.has_scales) ? ptx::lds8(st + Tr::kOffS + off + k8) : 1u;
      const uint32_t zs0 = (kUns && p.has_zeros) ? ptx::lds8(st + Tr::kOffZ + off) : (kUns ? 0u : 8u * s0);
      const uint32_t zs1 = (kUns && p.has_zeros) ? ptx::lds8(st + Tr::kOffZ + off + k8) : (kUns ? 0u : 8u * s1);
      z0 = convert::s8_gscale_offset(zs0);
      z1 = convert::s8_gscale_offset(zs1);
      return;
    } else {
      // Biased weights (u4b8, u8b128) never carry zero points, so in a grouped mode they
      // always have scales. The raw 16 bits: the f16x2 / bf16x2 operations splat them in their
      // operand (convert::scale_frag16_lo), the e4m3 converters themselves.
      if (!kUns || p.has_scales) {
        s0 = ptx::lds16(st + Tr::kOffS + off);
        s1 = ptx::lds16(st + Tr::kOffS + off + k8);
      } else {
        s0 = s1 = kOne;
      }
      if (kUns) {
        if (p.has_zeros) {
          z0 = ptx::lds16(st + Tr::kOffZ + off);
          z1 = ptx::lds16(st + Tr::kOffZ + off + k8);
        } else {
          z0 = z1 = 0;
        }
      }
    }
  }

  // One k32 step of 4-bit weights for 8-bit activations (W4A8): words 2s (k 0..15 of the
  // step) and 2s+1 (k 16..31); nibbles 0..3 of a word are row g (k 4t..4t+3), 4..7 row g+8
  // (layout.h), i.e. registers 0/1 of the m16n8k32 A fragment from word 2s, 2/3 from 2s+1.
  template <bool kUns, int kMode>
  static __device__ __forceinline__ void dequant_k32(uint32_t x, uint32_t y, uint32_t s0, uint32_t s1, uint32_t z0,
                                                     uint32_t z1, const Sm90KernelParams& p, uint32_t (&f)[4]) {
    constexpr int32_t kBias = kUns ? 0 : 8;
    // Registers 1, 3 (row g+8) are nibbles 4..7 of their word: the converters' kHi selects
    // them without a shift; the per-channel e4m3 tables index with bits [0,16), so it shifts.
    auto one = [&](auto hi, uint32_t w) -> uint32_t {
      constexpr bool kHi = decltype(hi)::value;
      [[maybe_unused]] const uint32_t sg = kHi ? s1 : s0, zg = kHi ? z1 : z0;  // grouped modes only
      if constexpr (A == AType::kS8) {
        // w8 = (q - B) or, with group scales, (q - z) * sg: exact int8 (semantics.md, QQQ).
        if constexpr (kMode == kSm90ScaleNone) return convert::cvt_u4x4_s8<kHi>(w, kBias);
        else return convert::cvt_u4x4_s8_gscale_pre<kHi>(w, sg, zg);
      } else {
        // e4m3: exact e4m3(q - B); with group scales RN_e4m3sat(RN_f16((q-B)*s)) or
        // RN_e4m3sat(RN_f16(q*s + zs)) (zs = 0 without zeros, s = 1 without scales).
        if constexpr (kE5m2Weights<kUns, kMode>) {
          return convert::cvt_u4x4_e5m2_b8<kHi>(w);  // e5m2(q - 8): see Wgmma
        } else if constexpr (kMode == kSm90ScaleNone) {
          return convert::cvt_u4x4_e4m3(kHi ? w >> 16 : w, kBias);
        } else {
          const __half sh = __ushort_as_half(static_cast<unsigned short>(sg));
          const __half zh = __ushort_as_half(static_cast<unsigned short>(zg));
          return convert::cvt_u4x4_e4m3_gscale_bias<kHi>(w, sh, zh, kUns && p.has_zeros, kBias);
        }
      }
    };
    f[0] = one(std::false_type{}, x);
    f[1] = one(std::true_type{}, x);
    f[2] = one(std::false_type{}, y);
    f[3] = one(std::true_type{}, y);
  }

  template <bool kUns, int kMode>
  static __device__ __forceinline__ void load_block_v(const Sm90KernelParams& p, const Ctx& c, uint32_t st,
                                                      BlockRegs& r, bool tabs = true) {
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) {
      r.v[mw] = ptx::lds128(st + w_of(c, mw));
      if constexpr (kTablesPerGroup<kMode>) {  // e4m3, wide tile: the group's tables, built here
        static_assert(!kUns, "the wide tile's GPTQ kernel: u4b8 weights");
        if (tabs) build_reg_tables(c, st, mw, r.tg[mw], r.tg8[mw]);  // else: the group's, kept
      } else if constexpr (kMode == kSm90ScaleBlock && Tr::kTables) {  // e4m3: the tables replace them
        load_tables(c, st, mw, r.tg[mw], r.tg8[mw]);
      } else if constexpr (kMode == kSm90ScaleBlock && !kUnitForm<kUns, kMode>) {  // unit form: unit_group_start
        load_sz<kUns>(p, st, s_of(c, mw), 0, r.s0[mw], r.s1[mw], r.z0[mw], r.z1[mw]);
      }
    }
  }

  // Step s of the stage's block (k16 steps 0..3, or k32 steps 0..1 for 8-bit activations)
  // -> the A fragment of each of this thread's atoms.
  // The variant (kUns: u4/u8 vs u4b8/u8b128; kMode: Sm90ScaleMode) is a template parameter:
  // with no run-time branch inside, the compiler interleaves the conversions of all steps
  // (measured: run-time flags here cost ~2.5x the instructions of the conversion itself).
  template <bool kUns, int kMode>
  static __device__ __forceinline__ void dequant_step_v(const Sm90KernelParams& p, const Ctx& c, uint32_t st,
                                                        BlockRegs& r, int s, uint32_t (&F)[kMW][4]) {
    if constexpr (Tr::kA8) {
#pragma unroll
      for (int mw = 0; mw < kMW; ++mw) {
        if constexpr (Tr::kTables && kMode == kSm90ScaleBlock) {
          dequant_k32_tables(r, r.tg[mw], r.tg8[mw], mw, s, F[mw]);
          continue;
        }
        uint32_t s0 = r.s0[mw], s1 = r.s1[mw], z0 = r.z0[mw], z1 = r.z1[mw];
        if constexpr (kMode == kSm90ScaleStep)  // group size 32: staged row (32 s) / gs
          load_sz<kUns>(p, st, s_of(c, mw), s * 32 / p.gs, s0, s1, z0, z1);
        const uint2 xy = convert::word_pair(r.v[mw], s);  // k32 step s: words 2s, 2s+1
        dequant_k32<kUns, kMode>(xy.x, xy.y, s0, s1, z0, z1, p, F[mw]);
      }
    } else {
#pragma unroll
      for (int mw = 0; mw < kMW; ++mw) {
        uint32_t (&f)[4] = F[mw];
        // kUnitForm: w * 2^u, one fma per register with the group's S2, C2 (no scale step below).
        if constexpr (kWBits == 4) {
          // word s of the lane's 16 bytes is k16 step s (layout.h)
          if constexpr (kUnitForm<kUns, kMode>) {
            convert::cvt_u4_unit_frag16<T16>(convert::word(r.v[mw], s), r.S2[mw], r.C2[mw], f);
            continue;
          }
          if constexpr (kUns) convert::cvt_u4_frag16<T16>(convert::word(r.v[mw], s), f);
          else convert::cvt_u4b8_frag16<T16>(convert::word(r.v[mw], s), f);
        } else {
          const uint2 w2 = u8_step_words(c, st, r, mw, s);
          if constexpr (kUnitForm<kUns, kMode>) {
            convert::cvt_u8_unit_frag16<T16>(w2, r.S2[mw], r.C2[mw], f);
            continue;
          }
          if constexpr (kUns) convert::cvt_u8_frag16<T16>(w2, f);
          else convert::cvt_u8b128_frag16<T16>(w2, f);
        }
        if constexpr (kMode != kSm90ScaleNone) {
          uint32_t s0 = r.s0[mw], s1 = r.s1[mw], z0 = r.z0[mw], z1 = r.z1[mw];
          if constexpr (kMode == kSm90ScaleStep)  // group size 16 or 32: staged row (16 s) / gs
            load_sz<kUns>(p, st, s_of(c, mw), s * 16 / p.gs, s0, s1, z0, z1);

          // u4/u8: RN(q*s + zs) (zs = 0 without zeros, s = 1 without scales);
          // u4b8/u8b128: RN((q-B)*s) (biased weights never carry zeros).
          if constexpr (kUns) convert::scale_zero_frag16_lo<T16>(f, s0, s1, z0, z1);
          else convert::scale_frag16_lo<T16>(f, s0, s1);
        }
      }
    }
  }

  // kMode == kSm90ScaleAny: the variant is read from the parameters at every call (a
  // warp-uniform switch). The 128 x 256 tile uses it: one compiled copy of its mainloop
  // (six copies spill its 128 accumulators), and at that tile size the tensor cores, not
  // the conversion, set the pace.
  template <bool kUns, int kMode>
  static __device__ __forceinline__ void load_block(const Sm90KernelParams& p, const Ctx& c, uint32_t st,
                                                    BlockRegs& r, bool tabs = true) {
    if constexpr (kMode != kSm90ScaleAny) {
      load_block_v<kUns, kMode>(p, c, st, r, tabs);
    } else {
      // Run-time flags: the weights, and in kSm90ScaleBlock the raw 16-bit scale / zero of
      // rows g, g+8 (1.0 / 0 when absent), splatted per step by scale_frag16. 8-bit
      // activations: s8 loads the block's scale / zero (one group per 64-k block in
      // kSm90ScaleBlock) once here for both k32 steps; kSm90ScaleStep and e4m3 read them
      // per step (dequant_step_any_a8).
#pragma unroll
      for (int mw = 0; mw < kMW; ++mw) {
        r.v[mw] = ptx::lds128(st + w_of(c, mw));
        if constexpr (Tr::kA8) {
          // s8 only: e4m3 spills 80 bytes with the 4 extra live registers (ptxas, sm_90a).
          if (A == AType::kS8 && p.mode == kSm90ScaleBlock) {
            r.z0[mw] = r.z1[mw] = 0;  // e4m3 u4b8: load_sz leaves the (unused) zeros alone
            if (p.b_unsigned) load_sz<true>(p, st, s_of(c, mw), 0, r.s0[mw], r.s1[mw], r.z0[mw], r.z1[mw]);
            else load_sz<false>(p, st, s_of(c, mw), 0, r.s0[mw], r.s1[mw], r.z0[mw], r.z1[mw]);
          }
          continue;
        }
        r.s0[mw] = r.s1[mw] = kOne;
        r.z0[mw] = r.z1[mw] = 0;
        if (p.mode == kSm90ScaleBlock) {
          const uint32_t off = s_of(c, mw);  // 16-bit scales: kSB = 2
          if (p.has_scales) { r.s0[mw] = ptx::lds16(st + Tr::kOffS + off); r.s1[mw] = ptx::lds16(st + Tr::kOffS + off + 16); }
          if (p.has_zeros) { r.z0[mw] = ptx::lds16(st + Tr::kOffZ + off); r.z1[mw] = ptx::lds16(st + Tr::kOffZ + off + 16); }
        }
      }
    }
  }
  template <bool kUns, int kMode>
  static __device__ __forceinline__ void dequant_step(const Sm90KernelParams& p, const Ctx& c, uint32_t st,
                                                      BlockRegs& r, int s, uint32_t (&F)[kMW][4]) {
    if constexpr (kMode != kSm90ScaleAny) {
      dequant_step_v<kUns, kMode>(p, c, st, r, s, F);
    } else if constexpr (Tr::kA8) {
      dequant_step_any_a8(p, c, st, r, s, F);
    } else {
      dequant_step_any(p, c, st, r, s, F);
    }
  }

  // Run-time flags for 8-bit activations (the 128 x 256 tile: one compiled consumer, since
  // two copies of its mainloop spill): k32 step s of every atom, the weight bias and the
  // scale mode read from the parameters (warp-uniform branches), the group scale / zero of
  // rows g, g+8 from load_block (one group per block) or loaded for this step (group size
  // 32). The same operations as dequant_k32.
  static __device__ __forceinline__ void dequant_step_any_a8(const Sm90KernelParams& p, const Ctx& c, uint32_t st,
                                                             BlockRegs& r, int s, uint32_t (&F)[kMW][4]) {
    const bool uns = p.b_unsigned;
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) {
      const uint2 xy = convert::word_pair(r.v[mw], s);
      const uint32_t x = xy.x, y = xy.y;
      const uint32_t src[4] = {x, x >> 16, y, y >> 16};  // the e4m3 tables index with bits [0,16)
      const uint32_t wrd[4] = {x, x, y, y};              // the others select the half (kHi = i & 1)
      uint32_t (&f)[4] = F[mw];
      if (p.mode == kSm90ScaleNone) {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          if constexpr (A == AType::kS8) {
            // per byte q - B as int8: (q + 128 - B) ^ 0x80 (as cvt_u4x4_s8; no carries)
            const uint32_t u = i & 1 ? convert::spread_nibbles<true>(wrd[i]) : convert::spread_nibbles(wrd[i]);
            f[i] = (u + (uns ? 0x80808080u : 0x78787878u)) ^ 0x80808080u;
          } else {
            // e4m3(q - B) by table (cvt_u4x4_e4m3's two tables, chosen at run time)
            f[i] = convert::lut16x4(src[i], uns ? 0x44403800u : 0xCACCCED0u, uns ? 0x4E4C4A48u : 0xB8C0C4C8u,
                                    uns ? 0x53525150u : 0x44403800u, uns ? 0x57565554u : 0x4E4C4A48u);
          }
        }
      } else if (use_tables<kSm90ScaleAny>(p)) {
        uint4 tg, tg8;  // e4m3, one group row per block: the tables (loaded per step here)
        load_tables(c, st, mw, tg, tg8);
        dequant_k32_tables(r, tg, tg8, mw, s, f);
      } else {
        // kSm90ScaleBlock: the block's lookup from load_block; kSm90ScaleStep (group size
        // 32): staged row (32 s) / gs, this step's.
        uint32_t s0, s1, z0 = 0, z1 = 0;
        if (A != AType::kS8 || p.mode == kSm90ScaleStep) {
          // Only groups of 32 span two rows of a block; in kSm90ScaleBlock the block's group
          // is row 0 (a division here for every mode, as from session 5 to 9, is an integer
          // division per k32 step in e4m3's hot loop).
          const int row = p.mode == kSm90ScaleStep ? s * 32 / p.gs : 0;
          if (uns) load_sz<true>(p, st, s_of(c, mw), row, s0, s1, z0, z1);
          else load_sz<false>(p, st, s_of(c, mw), row, s0, s1, z0, z1);
        } else {
          s0 = r.s0[mw], s1 = r.s1[mw], z0 = r.z0[mw], z1 = r.z1[mw];
        }
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          const bool row8 = i & 1;  // registers 1, 3: row g+8
          if constexpr (A == AType::kS8) {
            f[i] = row8 ? convert::cvt_u4x4_s8_gscale_pre<true>(wrd[i], s1, z1)
                        : convert::cvt_u4x4_s8_gscale_pre(wrd[i], s0, z0);
          } else {
            const __half sc = __ushort_as_half(static_cast<unsigned short>(row8 ? s1 : s0));
            const __half zc = __ushort_as_half(static_cast<unsigned short>(row8 ? z1 : z0));
            const bool hz = uns && p.has_zeros;
            f[i] = row8 ? convert::cvt_u4x4_e4m3_gscale_bias<true>(wrd[i], sc, zc, hz, uns ? 0 : 8)
                        : convert::cvt_u4x4_e4m3_gscale_bias(wrd[i], sc, zc, hz, uns ? 0 : 8);
          }
        }
      }
    }
  }

  // Run-time flags, flat (the fewest live registers): the same operations as dequant_step_v
  // for 16-bit activations, each chosen by a warp-uniform branch.
  static __device__ __forceinline__ void dequant_step_any(const Sm90KernelParams& p, const Ctx& c, uint32_t st,
                                                          BlockRegs& r, int s, uint32_t (&F)[kMW][4]) {
    static_assert(!Tr::kA8, "8-bit activations take dequant_step_any_a8");
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) {
      uint32_t (&f)[4] = F[mw];
      if constexpr (kWBits == 4) {
        if (p.b_unsigned) convert::cvt_u4_frag16<T16>(convert::word(r.v[mw], s), f);
        else convert::cvt_u4b8_frag16<T16>(convert::word(r.v[mw], s), f);
      } else {
        const uint2 w2 = u8_step_words(c, st, r, mw, s);
        if (p.b_unsigned) convert::cvt_u8_frag16<T16>(w2, f);
        else convert::cvt_u8b128_frag16<T16>(w2, f);
      }
      if (p.mode != kSm90ScaleNone) {
        uint32_t s0 = r.s0[mw], s1 = r.s1[mw], z0 = r.z0[mw], z1 = r.z1[mw];
        if (p.mode == kSm90ScaleStep) {  // group size 16 or 32: staged row (16 s) / gs
          const uint32_t off = static_cast<uint32_t>(s * 16 / p.gs) * Tr::kSRowBytes + s_of(c, mw);
          if (p.has_scales) { s0 = ptx::lds16(st + Tr::kOffS + off); s1 = ptx::lds16(st + Tr::kOffS + off + 16); }
          if (p.has_zeros) { z0 = ptx::lds16(st + Tr::kOffZ + off); z1 = ptx::lds16(st + Tr::kOffZ + off + 16); }
        }
        if (p.b_unsigned)
          convert::scale_zero_frag16<T16>(f, convert::as16<T16>(s0), convert::as16<T16>(s1), convert::as16<T16>(z0),
                                          convert::as16<T16>(z1));
        else
          convert::scale_frag16<T16>(f, convert::as16<T16>(s0), convert::as16<T16>(s1));
      }
    }
  }

  // ---- wgmma -----------------------------------------------------------------------------------
  // One k16 step on every atom: m64 x kTileT x 16 per atom, A from registers.
  template <class W>
  static __device__ __forceinline__ void issue(Acc (&acc)[kMW][kAcc], const uint32_t (&F)[kMW][4],
                                               uint64_t desc, bool first) {
    ptx::wgmma_fence();  // the fragment registers were just written
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) W::run(acc[mw], F[mw], desc, first ? 0 : 1);
    ptx::wgmma_commit();
  }

  // k16 step S of a block (kBlockIssue): accumulator set S % kAccSets, chosen at compile time.
  template <class W, int S, int kSets, int kMore>
  static __device__ __forceinline__ void block_step(Acc (&acc)[kMW][kAcc], Acc (&more)[kMore][kMW][kAcc],
                                                    const uint32_t (&F)[kMW][4], uint64_t desc, bool first) {
    constexpr int kSet = S % kSets;
    const int scale_d = (first && S < kSets) ? 0 : 1;
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) {
      if constexpr (kSet == 0) W::run(acc[mw], F[mw], desc + 2 * S, scale_d);
      else W::run(more[kSet - 1][mw], F[mw], desc + 2 * S, scale_d);
    }
  }

  // Promotion (kPromoteBlocks > 0): the finished chain's sets added into tot, in fixed order
  // ((tot + set 0) + set 1) + ...: deterministic. f32 adds, round to nearest.
  template <int kSets, int kMore>
  static __device__ __forceinline__ void promote(Acc (&tot)[kMW][kAcc], const Acc (&acc)[kMW][kAcc],
                                                 const Acc (&more)[kMore][kMW][kAcc]) {
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw)
#pragma unroll
      for (int j = 0; j < kAcc; ++j) {
        Acc v = tot[mw][j] + acc[mw][j];
#pragma unroll
        for (int set = 1; set < kSets; ++set) v += more[set - 1][mw][j];
        tot[mw][j] = v;
      }
  }

  // This thread is done with the stage: every consumer thread arrives (the `empty` count is
  // 32 per consumer warp), each arrival a release of its own shared-memory reads of the stage,
  // so all of them happen before the producer's refill. With one arrival per warp (lane 0)
  // racecheck reported the refill of a wrapped ring against lanes 1..31's reads (s11; their
  // values had been consumed, no result changed); a __syncwarp before lane 0's arrival made
  // the wide tile spill.
  static __device__ __forceinline__ void release(const Ctx& c, int stage) {
    ptx::mbar_arrive(c.empty0() + stage * 8);
  }

  static __device__ __forceinline__ void advance(int& stage, uint32_t& phase) {
    if (++stage == kStages) {
      stage = 0;
      phase ^= 1u;
    }
  }

  // ---- the unit form ---------------------------------------------------------------------------
  // 4-bit weights with 16-bit group scales, one group row per 64-k block, on the block-issue
  // mainloop (u4b8: C = -8 s 2^u; u4 with or without zero points: C = zs 2^u, s = 1 without group
  // scales, the run-time flags p.has_scales / p.has_zeros read at group starts only): each
  // fragment register in one fma (convert::cvt_u4_unit_frag16: lop3 + fma) instead of an exact
  // sub and a mul (u4: a sub and an fma), computing w * 2^u bit for bit, where 2^u (the unit
  // form's unit, one per weight row, not a work unit) is carried by the row's f32 accumulators
  // (convert_16bit.cuh, "the unit form"). The block loop is paced by its instruction count
  // (docs/design-sm90.md, session 28), so the scales are also loaded and turned into the factors
  // S2, C2 once per group (unit_group_start) instead of every block. On the 128 x 256 tile only its
  // GPTQ kernel (u4b8) and, where built, its AWQ kernel (u4) have it, the tile's kMode ==
  // kSm90ScaleBlock consumers (its other kernel reads the variant at run time), in the k-step
  // mainloop: that tile is tensor-core bound, and what it can gain is the power of the ALU work it
  // no longer does. 8-bit weights (u8b128: C = -128 s 2^u; u8: C = zs 2^u) with f16 only
  // (convert::cvt_u8_unit_frag16, prmt + fma: a byte does not fit under bf16's mantissa).
  // The switch's policy (MIXGEMM_SM90_UNIT_FORM, sm90_common.cuh): 1 everywhere, 2 the 128 x 128 tile with f16 for
  // unsigned weights (u4 with zero points or scales only, u8) and 8-bit ones (u8b128). Not bf16: it
  // measured 0.997x there, and its domain has one more condition (docs/semantics.md 4.1).
  template <bool kUns>
  static constexpr bool kUnitFormHere =
      MIXGEMM_SM90_UNIT_FORM == 1 || (MIXGEMM_SM90_UNIT_FORM == 2 && kTileN == 128 && kTileT == 128 &&
                                      !Tr::kBF16 && (kUns || kWBits == 8));
  template <bool kUns, int kMode>
  static constexpr bool kUnitForm = kUnitFormHere<kUns> && !Tr::kA8 && convert::kUnitFormWeights<T16, kWBits> &&
                                    kMode == kSm90ScaleBlock;

  // Multiplies row half h (0: row g, 1: row g+8) of atom mw of one accumulator set by f: registers
  // 4j + 2h + e (Sm90Epilogue::epilogue's comment). Exact: f is a power of two.
  static __device__ __forceinline__ void scale_row_half(Acc (&set)[kMW][kAcc], int mw, int h, float f) {
#pragma unroll
    for (int j = 0; j < kAcc / 4; ++j) {
      set[mw][4 * j + 2 * h] *= f;
      set[mw][4 * j + 2 * h + 1] *= f;
    }
  }

  // The rare path of a group start: a scale of the warp is outside its row's window. Every row of
  // the warp moves to the unit of its scale (convert::unit_rebase_half), in window or not: the
  // path is warp-uniform and multiplies all of the thread's accumulator registers whatever their
  // factors, so keeping the in-window rows' units would add a select per row and save nothing;
  // the move is exact for them too (a power of two), to the unit a rebase picks for their scale
  // (unit::base_for_scale). Rare for typical scales: a work unit's first group where base0's window
  // misses a scale, zero or subnormal scales (each of their groups), a scale ~4x below or ~8x above
  // the one its row's unit was picked for (f16). kMoveAcc (every group start but the mainloop's first block's,
  // whose accumulators are not yet written: the first wgmma of each set overwrites them) moves the
  // accumulators, after wgmma_wait<0>: the previous block's wgmma, which write them, are still in
  // flight while the next block is converted.
  template <bool kMoveAcc, int kSets, int kMore>
  static __device__ __forceinline__ void unit_rebase(const uint32_t (&s2)[kMW], uint32_t (&t2)[kMW], BlockRegs& r,
                                                     Acc (&acc)[kMW][kAcc], Acc (&more)[kMore][kMW][kAcc]) {
    if constexpr (kMoveAcc) ptx::wgmma_wait<0>();
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const float f = convert::unit_rebase_half<T16>(s2[mw], r.base2[mw], h);
        if constexpr (kMoveAcc) {
          scale_row_half(acc, mw, h, f);
#pragma unroll
          for (int set = 1; set < kSets; ++set) scale_row_half(more[set - 1], mw, h, f);
        }
      }
      t2[mw] = convert::unit_t<T16>(s2[mw], r.base2[mw]);
    }
  }

  // A block that starts a group (or the work unit's first block, wherever it lies in its group):
  // the scales of rows g, g+8 of each atom, their t = s * base and window test, the rebase where
  // any lane of the warp has a scale out of window (a vote: the branch stays warp-uniform), and
  // the group's factors S2, C2. u4 (kUns): s = 1.0 without group scales, and C2 = zs 2^u from the
  // zero terms (0 without zero points) and the bases after any rebase; the zeros are loaded only
  // after the rebase decision, so that they are not held through the rare path.
  template <bool kUns, bool kMoveAcc, int kSets, int kMore>
  static __device__ __forceinline__ void unit_group_start(const Sm90KernelParams& p, const Ctx& c, uint32_t st,
                                                          BlockRegs& r, Acc (&acc)[kMW][kAcc],
                                                          Acc (&more)[kMore][kMW][kAcc]) {
    uint32_t s2[kMW], t2[kMW];
    uint32_t in_window = 1;
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) {
      const uint32_t sa = st + Tr::kOffS + s_of(c, mw);  // row g; row g+8 is 8 * 2 bytes further
      s2[mw] = (kUns && !p.has_scales) ? (kOne | (kOne << 16)) : ptx::lds16(sa) | (ptx::lds16(sa + 16) << 16);
      t2[mw] = convert::unit_t<T16>(s2[mw], r.base2[mw]);
      in_window &= convert::unit_in_window<T16>(t2[mw]);
    }
    if (!__all_sync(0xffffffffu, in_window)) unit_rebase<kMoveAcc, kSets>(s2, t2, r, acc, more);
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) {
      convert::unit_factors<T16, kWBits>(t2[mw], r.S2[mw], r.C2[mw]);
      if constexpr (kUns) {
        const uint32_t za = st + Tr::kOffZ + s_of(c, mw);  // as the scales
        const uint32_t zs2 = p.has_zeros ? ptx::lds16(za) | (ptx::lds16(za + 16) << 16) : 0u;
        r.C2[mw] = convert::unit_zero_term<T16>(zs2, r.base2[mw]);
      }
    }
  }

  // After the mainloop (the sets summed into acc): each row's accumulators x 2^-u, back to real
  // values for everything that reads them (split-K partials, epilogue). Exact: a power of two.
  static __device__ __forceinline__ void unit_leave(const BlockRegs& r, Acc (&acc)[kMW][kAcc]) {
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw)
#pragma unroll
      for (int h = 0; h < 2; ++h) scale_row_half(acc, mw, h, convert::unit_value_factor<T16>(r.base2[mw], h));
  }

  // One unit's k-range; returns with all wgmma complete and every stage released.
  //
  // kBlockIssue (token tiles <= 128): per 64-k block i, one fence and the block's 4 wgmma
  // (back to back on the same accumulators: the tensor cores chain them without a round
  // trip), one commit; then wait_group<1> (block i-1 done: its stage and fragment buffer are
  // free) and convert block i+1 into the other buffer while block i runs. A fence per k16
  // step instead measured ~225 cycles per step whatever the tile (each fence waits for the
  // previous wgmma to retire), i.e. latency-bound below 128 x 256.
  //
  // Otherwise (128 x 256: 128 accumulators leave no registers for two blocks of fragments; the
  // consumers' code is allocated up to setmaxnreg's 224 (ptxas reports the launch's 168; the SASS
  // uses R0..R221: bench/results/2026-12-05-cpu/s78-regs/)) per k16 step with two buffers:
  // issue step q, wait_group<1>, convert step q+1. At this tile size each step is long
  // (m64n256k16 per warpgroup) and the kernel is tensor-core bound.
  template <bool kUns, int kMode>
  static __device__ __forceinline__ void mainloop(const Ctx& c, const Sm90KernelParams& p, const int nk, const int kb0,
                                                  Acc (&acc)[kMW][kAcc], int& stage, uint32_t& phase) {
    using W = Wgmma<kUns, kMode>;
    BlockRegs r;
    wait_stage<kMode>(c, p, stage, phase);
    if (c.ctid == 0) sm90_mark(p, 3);  // first unit's first stage landed
    uint32_t st = c.base + stage * Tr::kStageBytes;
    load_block<kUns, kMode>(p, c, st, r);
    int prev = -1;  // stage of the previous block, until all its wgmma are known done
    if constexpr (Tr::kBlockIssue) {
      constexpr int kSets = Tr::kAccSets;
      Acc more[kSets > 1 ? kSets - 1 : 1][kMW][kAcc];  // sets 1.. (set 0 is acc)
      // Promotion (e4m3, kPromoteBlocks > 0): tot is the f32 sum of the finished chains. A block that
      // opens a chain (every kPromoteBlocks-th block of the work unit, counted from its first) waits for
      // the previous block's wgmma (wgmma_wait<0>: its conversion has run under them, so the wait is
      // short where the conversion paces the loop), adds every set into tot and overwrites the sets.
      constexpr int kPB = Tr::kPromoteBlocks;
      static_assert(kPB == 0 || !kUnitForm<kUns, kMode>, "the unit form is for 16-bit activations only");
      Acc tot[kPB > 0 ? kMW : 1][kPB > 0 ? kAcc : 1];
      if constexpr (kPB > 0) {
#pragma unroll
        for (int mw = 0; mw < kMW; ++mw)
#pragma unroll
          for (int j = 0; j < kAcc; ++j) tot[mw][j] = 0.0f;
      }
      uint32_t F[2][4][kMW][4];
      // kUnitForm: every work unit starts its rows at the unit form's first unit (base0), with a
      // group start at its first block wherever that lies in its group; uleft: blocks left in the
      // group of the block being converted, that block included (gkb = group size / 64).
      constexpr bool kUnitFormOn = kUnitForm<kUns, kMode>;
      [[maybe_unused]] const int gkb = kUnitFormOn ? p.gs / kKBlock : 1;
      [[maybe_unused]] int uleft = kUnitFormOn ? group_blocks_left(kb0, gkb) : 1;
      if constexpr (kUnitFormOn) {
#pragma unroll
        for (int mw = 0; mw < kMW; ++mw) r.base2[mw] = convert::kUnit<T16>.base0;
        unit_group_start<kUns, false, kSets>(p, c, st, r, acc, more);
      }
#pragma unroll
      for (int s = 0; s < Tr::kSteps; ++s) dequant_step<kUns, kMode>(p, c, st, r, s, F[0][s]);
      for (int i = 0; i < nk; i += 2) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {  // unrolled by two: the buffer index is static
          if (h == 1 && i + 1 >= nk) break;
          const uint64_t desc = ptx::smem_desc_swizzled<Tr::kRowBytes>(st);
          // Block i+h opens a promotion chain (i is even: for 4, every other pair's first block).
          const bool opens = kPB == 1 || (kPB == 2 && h == 0) || (kPB == 4 && h == 0 && (i & 2) == 0);
          if constexpr (kPB > 0) {
            if (opens && i + h > 0) {
              ptx::wgmma_wait<0>();  // block i+h-1 done: the chain is complete
              promote<kSets>(tot, acc, more);
            }
          }
          ptx::wgmma_fence();
          // The first use of every set overwrites it (with promotion: of every chain).
          const bool first = kPB > 0 ? opens : i + h == 0;
          block_step<W, 0, kSets>(acc, more, F[h][0], desc, first);
          block_step<W, 1, kSets>(acc, more, F[h][1], desc, first);
          if constexpr (Tr::kSteps == 4) {
            block_step<W, 2, kSets>(acc, more, F[h][2], desc, first);
            block_step<W, 3, kSets>(acc, more, F[h][3], desc, first);
          }
          ptx::wgmma_commit();
          // 128 tokens: the next block's weights and scales are loaded before waiting for block
          // i+h-1 (`r` is free once block i+h was converted), so the stage wait and the
          // shared-memory latency run under the wgmma wait instead of in front of the
          // conversion. Measured (s16-earlyload, one run): 128 x 128 0.97-1.00x the time at
          // M = 128 / 256 for f16 g128, per-channel and s8 g128; 256 x 64 at M = 32 / 64
          // 1.00-1.04x (s8 slower), so the 64-token tiles keep the load after the wait.
          constexpr bool kEarlyNext = kTileT == 128;
          const int cur = stage;
          const bool has_next = i + h + 1 < nk;
          auto next = [&] {
            if (Tr::kPair == 2 && h == 0) {
              st += Tr::kSubBytes;  // the stage's second block: landed with the first
            } else {
              advance(stage, phase);
              wait_stage<kMode>(c, p, stage, phase);
              st = c.base + stage * Tr::kStageBytes;
            }
            load_block<kUns, kMode>(p, c, st, r);
          };
          if (kEarlyNext && has_next) next();
          ptx::wgmma_wait<1>();  // block i+h-1 done
          // kPair: block i+h-1 is the previous stage's last block only when h == 0.
          if ((Tr::kPair == 1 || h == 0) && prev >= 0) release(c, prev);
          prev = cur;
          if (has_next) {
            if (!kEarlyNext) next();
            if constexpr (kUnitFormOn) {
              // A group start, tested by a vote: the branch is warp-uniform to ptxas whatever the
              // code around it. Session 69's code had its wgmma descriptors moved off the uniform
              // datapath by a plain branch on the counter (32 more R2UR per loop); this one compiles
              // without them either way (CUDA 13.0), the vote costing one instruction per block.
              --uleft;
              if (__any_sync(0xffffffffu, uleft == 0)) {  // block i+h+1 starts a group
                uleft = gkb;
                unit_group_start<kUns, true, kSets>(p, c, st, r, acc, more);
              }
            }
#pragma unroll
            for (int s = 0; s < Tr::kSteps; ++s) dequant_step<kUns, kMode>(p, c, st, r, s, F[h ^ 1][s]);
          }
        }
      }
      ptx::wgmma_wait<0>();
      release(c, prev);
      advance(stage, phase);
      if constexpr (kPB > 0) {
        promote<kSets>(tot, acc, more);  // the last chain
#pragma unroll
        for (int mw = 0; mw < kMW; ++mw)
#pragma unroll
          for (int j = 0; j < kAcc; ++j) acc[mw][j] = tot[mw][j];
      } else {
        // Fixed order (set 1, 2, 3 into set 0): deterministic.
#pragma unroll
        for (int set = 1; set < kSets; ++set)
#pragma unroll
          for (int mw = 0; mw < kMW; ++mw)
#pragma unroll
            for (int j = 0; j < kAcc; ++j) acc[mw][j] += more[set - 1][mw][j];
      }
      if constexpr (kUnitFormOn) unit_leave(r, acc);
    } else {
      uint32_t F[2][kMW][4];
      // The next block's weights are loaded right after the current block's last conversion
      // (below), except for grouped e4m3, whose per-step scale lookups made that conversion
      // long: there the early wait for the next stage delayed the last wgmma (measured in one
      // run, s9-e4m3ab: without it e4m3 g128 0.93-0.98x the time at M = 256..8192, s8
      // unchanged). With the consumers' register tables (kTablesPerGroup) loading early was
      // neutral (0.99 / 1.02 / 0.99x at M = 256 / 1024 / 8192, s21-early/), so it stays late.
      // The step after whose conversion the next block's weights and scales are loaded.
      // e4m3 per-channel (e5m2 weights, no scales) loads early since session 21: 0.97-0.98x
      // the time at M = 256..8192 (s21-early/; s10-e4m3ab, with the older e4m3 converter,
      // had measured ~1.02).
      // The GPTQ kernel's warp-built tables load early too (a whole k32 step of slack for their
      // store / load round trip; s22-warptables/: the early load is where their gain comes from).
      constexpr int kLoadStep = A != AType::kE4M3 || kMode == kSm90ScaleNone || kTablesPerGroup<kMode>
                                    ? Tr::kSteps - 2
                                    : Tr::kSteps - 1;
      // kTablesPerGroup: blocks left in the group of the block being converted (block 0 loaded
      // its tables above, whatever its place in its group).
      // (kUnitForm: gkb unsigned, one shift where ptxas recomputes it at a group start.)
      [[maybe_unused]] const int gkb = kUnitForm<kUns, kMode> ? static_cast<int>(static_cast<uint32_t>(p.gs) / kKBlock)
                                       : kTablesPerGroup<kMode> ? p.gs / kKBlock
                                                                : 1;
      [[maybe_unused]] int left = kTablesPerGroup<kMode> ? group_blocks_left(kb0, gkb) : 1;
      // kUnitForm (the GPTQ and AWQ kernels): as on the block-issue tiles, every work unit starts its rows at
      // base0 with a group start at its first block; uleft counts the blocks left in the group of
      // the block being converted. A later group start runs before the next block's first
      // conversion (step kSteps - 1, below), after this block's last wgmma was issued: a rebase
      // waits for it (wgmma_wait<0>), since every wgmma issued so far carries the old units.
      // One accumulator set: `none` stands for the block-issue tiles' further sets (never used).
      [[maybe_unused]] int uleft = kUnitForm<kUns, kMode> ? group_blocks_left(kb0, gkb) : 1;
      [[maybe_unused]] Acc none[1][kMW][kAcc];
      if constexpr (kUnitForm<kUns, kMode>) {
#pragma unroll
        for (int mw = 0; mw < kMW; ++mw) r.base2[mw] = convert::kUnit<T16>.base0;
        unit_group_start<kUns, false, 1>(p, c, st, r, acc, none);
      }
      dequant_step<kUns, kMode>(p, c, st, r, 0, F[0]);
      for (int i = 0; i < nk; ++i) {
        const uint64_t desc = ptx::smem_desc_swizzled<Tr::kRowBytes>(st);  // the stage's activation tile
#pragma unroll
        for (int s = 0; s < Tr::kSteps; ++s) {  // 4 k16 steps, or 2 k32 steps (8-bit)
          issue<W>(acc, F[s & 1], desc + 2 * s, i == 0 && s == 0);
          ptx::wgmma_wait<1>();  // step q-1 done: F[(s+1)&1] is free
          if (s == 0 && prev >= 0) {  // the previous block's last step done: its stage is free
            release(c, prev);
            prev = -1;
          }
          if (s < Tr::kSteps - 1) dequant_step<kUns, kMode>(p, c, st, r, s + 1, F[(s + 1) & 1]);
          if (s == kLoadStep && i + 1 < nk) {
            // The block's registers are dead once its last step is converted, so (kLoadStep =
            // kSteps - 2) the next block is loaded a step early and its shared-memory latency
            // runs under this block's last wgmma (ncu, M = 8192: the next block's first
            // conversion waited on this load, 5.5% of the stall samples). Not for e4m3
            // (kLoadStep = kSteps - 1): its per-step scale lookups make the conversion long,
            // and the early wait for the next stage delayed the last wgmma (s9-e4m3ab: 2-7%).
            // The stage stays held until this block's last wgmma is known done (prev).
            prev = stage;
            advance(stage, phase);
            wait_stage<kMode>(c, p, stage, phase);
            st = c.base + stage * Tr::kStageBytes;
            if constexpr (kTablesPerGroup<kMode>) {
              // block i + 1 starts a group: its tables (build_reg_tables)
              if (--left == 0) left = gkb;
              load_block<kUns, kMode>(p, c, st, r, left == gkb);
            } else {
              load_block<kUns, kMode>(p, c, st, r);
            }
          }
          if (s == Tr::kSteps - 1 && i + 1 < nk) {
            if constexpr (kUnitForm<kUns, kMode>) {
              --uleft;
              if (__any_sync(0xffffffffu, uleft == 0)) {  // block i + 1 starts a group (a vote, as above)
                uleft = gkb;
                unit_group_start<kUns, true, 1>(p, c, st, r, acc, none);
              }
            }
            dequant_step<kUns, kMode>(p, c, st, r, 0, F[0]);
          }
        }
      }
      ptx::wgmma_wait<0>();
      if (prev >= 0) release(c, prev);
      release(c, stage);
      advance(stage, phase);
      if constexpr (kUnitForm<kUns, kMode>) unit_leave(r, acc);
    }
  }
};

}  // namespace mixgemm::kernels::sm90
