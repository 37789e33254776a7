// sm90_epilogue.cuh - a consumer warpgroup's epilogue for one work unit (sm90_gemm.cuh has the
// overview): split-K / stream-K partials through the workspace (the two-part exchange included),
// the scales and bias in f32, and the output tile staged by stmatrix and stored by TMA.
#pragma once

#include "kernels/ptx/mma.cuh"
#include "kernels/ptx/ptx.cuh"
#include "kernels/ptx/sm90.cuh"
#include "kernels/sm90/sm90_common.cuh"

namespace mixgemm::kernels::sm90 {

template <AType A, int kWBits, int kTileN, int kTileT>
struct Sm90Epilogue : Sm90Common<A, kWBits, kTileN, kTileT> {
  using Base = Sm90Common<A, kWBits, kTileN, kTileT>;
  using typename Base::Tr;
  using typename Base::Acc;
  using typename Base::Unit;
  using typename Base::Ctx;
  using Base::kMW;
  using Base::kAcc;
  using Base::kIntAcc;

  // The wide tile's split-K reduction issues this many float4 loads per part together
  // (epilogue). 2 and 4 compile to the same registers (ptxas: 0-8 bytes kept in local memory
  // across the reduction); 8 keeps 12-16 bytes.
  static constexpr int kWideReduceBatch = 4;

  // Partials travel as 32-bit patterns (f32, or s32 for int8: summed exactly as integers).
  static __device__ __forceinline__ float bits(Acc v) {
    if constexpr (std::is_same_v<Acc, int32_t>) return __int_as_float(v);
    else return v;
  }
  static __device__ __forceinline__ Acc unbits(float v) {
    if constexpr (std::is_same_v<Acc, int32_t>) return __float_as_int(v);
    else return v;
  }
  // The accumulator as the epilogue's f32 (docs/semantics.md: s32 -> f32 round to nearest).
  static __device__ __forceinline__ float to_f32(Acc v) {
    if constexpr (std::is_same_v<Acc, int32_t>) return __int2float_rn(v);
    else return v;
  }

  // Accumulator register (mw, 4j + 2h + e): weight row n = (cwg*kMW + mw)*64 + 16*warp + g + 8h,
  // token m = 8j + 2t + e of the tile.
  static __device__ __forceinline__ void epilogue(const Ctx& c, const Sm90KernelParams& p, const Unit& x,
                                                  Acc (&acc)[kMW][kAcc], int* s_flag) {
    const int g = c.lane() >> 2, t = c.lane() & 3;
    const int n0 = x.nt * kTileN, m0 = x.tt * kTileT;
    // The accumulator columns j (tokens 8j..8j+7) this CTA sums, scales and stores: all of them,
    // except in the two-part exchange (below), where each part takes one half.
    int jlo = 0, jhi = kTileT / 8;
    if (x.part >= 0) {
      // A split tile (sm90_partition.h).
      constexpr int kJ = kTileT / 8;
      constexpr int64_t kTileFloats = int64_t{kTileN} * kTileT;
      // This CTA's own partial is still in `acc`: the last arriver adds the other parts to it
      // instead of reloading it wherever that gives the same bits as the in-order sum
      // p0 + p1 + ...: when it is part 0 (the order is unchanged), when there are two parts
      // (p1 + p0 == p0 + p1: IEEE addition is commutative) and for s32 partials (exact
      // integers, any order). Otherwise (f32, three or more parts, not part 0) every part is
      // loaded as before.
      const bool keep = kIntAcc || x.nsplit == 2 || x.slot == x.s0;
      // Who takes the arrival ticket before storing its partial (below), so that the last arriver
      // stores nothing where it keeps its partial. The wide tile (128 x 256), split or streamed:
      // 0.94-0.95x the time on 70B qkv at M = 256 with 8-bit activations (stream-K), 0.98-0.99x
      // on 70B o (two parts), neutral elsewhere (s30-arrive/). Every streamed tile: its last
      // contributor is the CTA whose range begins in it, which reaches it at the very end, long
      // after the others published (0.95-0.97x where the narrow tiles stream, s31-stream/). Not
      // the narrow tiles' split-K tiles: their parts (up to 16) end together, and the last
      // arriver's wait for the slowest one's stores was 1.00-1.04x slower than storing first.
      constexpr bool kArriveFirst = !Tr::kBlockIssue;
      const bool arrive_first = kArriveFirst || p.part.stream > 0;
      // The exchange (below): tiles of one m64 atom per warpgroup whose token halves are output
      // store boxes (sm90_out_box_tokens): 128 x 256 and 128 x 128.
      constexpr bool kCanExchange = kMW == 1 && kTileT >= 128 && 2 * sm90_out_box_tokens(kTileT) == kTileT;
      // Partial tile in fragment order: float4 (mw, j) of consumer thread ctid at
      // ((mw * kTileT/8 + j) * 256 + ctid): every store and load is a coalesced 4 KB row.
      // The narrow tiles' partials hold only the tile's token columns below M (jv: the columns j with a token
      // 8j < M - m0): the columns past M are TMA's zero fill, and their output rows are clipped. At M = 32 on the
      // 64-token tiles that halves the partial bytes each part stores and the last arriver loads: 0.97-0.98x the
      // time at M = 24 / 32 (down to 0.93x; s56-partialcols/). The wide tile keeps its compile-time bounds (a
      // run-time test per batch kept its loads from issuing early, s31).
      const int jv = Tr::kBlockIssue ? min(kJ, (p.M - m0 + 7) >> 3) : kJ;
      // store_partial_cols(lo, hi): only the columns j in [lo, hi) (the exchange's halves) below jv.
      auto store_partial_cols = [&](int lo, int hi) {
        float4* mine = reinterpret_cast<float4*>(p.partials + static_cast<int64_t>(x.slot) * kTileFloats);
#pragma unroll
        for (int mw = 0; mw < kMW; ++mw)
#pragma unroll
          for (int j = 0; j < kJ; ++j)
            if (j >= lo && j < hi && j < jv)
              __stcg(mine + (mw * kJ + j) * 256 + c.ctid,
                     make_float4(bits(acc[mw][4 * j]), bits(acc[mw][4 * j + 1]), bits(acc[mw][4 * j + 2]),
                                 bits(acc[mw][4 * j + 3])));
      };
      auto store_partial = [&] { store_partial_cols(0, kJ); };
      // Release and acquire by consumer thread 0 alone (as smallm, s12-tailfence): a consumer
      // barrier orders every thread's partial stores before thread 0's fence, which makes them
      // visible device-wide before the counter moves; the last arriver's fence after it has
      // seen every other part's count orders their partials before the next barrier, and so
      // before every thread's loads. (A fence in each of the 256 threads, MEMBAR.SC.GPU, held
      // 5% of the 64-token tile's stall samples, s9-profile2.)
      constexpr int kPublished = 1 << 16;
      int* const ctr = p.counters + x.part;
      if (kCanExchange && p.split_exchange && x.nsplit == 2 && p.part.stream == 0) {
        // The two-part exchange (split-K tiles in two parts, which end at about the same
        // time). Where both parts have arrived, part pi (0: the tile's first k-half) sums,
        // scales and stores token half pi of the tile: it stores the other half of its
        // partial, loads the partner's half pi and keeps its own in registers. Each CTA
        // then moves half a partial tile (64 KB on 128 x 256) instead of the last arriver's
        // whole-tile load after the other's whole-tile store, and stages and copies out half
        // the tile: the steps after the mainloop, which at M = 256 and K = 8192 were ~8 us of
        // a ~35 us launch on 128 x 256, are halved and run on both CTAs at once. Same sums
        // (two parts: p0 + p1 == p1 + p0).
        // The counter: arrivals (+1, bits 0..15), publishes (+kPublished, bits 16..29) and
        // kLeft (bit 30). No part waits for one that has not arrived: the first arriver,
        // after storing the other half, claims "leave" (CAS 1 -> 1 | kLeft) if its partner
        // is still absent, then stores its own half too, publishes once and is done; the
        // partner, arriving to find kLeft, is the classic last arriver (it waits for that
        // publish, then reduces the whole tile). Otherwise both publish their halves; the
        // second to publish resets the counter (it saw the other's publish), the first polls
        // until both published or the counter is reset.
        constexpr int kLeft = 1 << 30, kPubMask = 0x3fff << 16;
        enum : int { kFirst = 0, kSecond = 1, kAfterLeaver = 2, kFirstLeft = 3 };  // kFirstLeft: tests (below)
        const int pi = x.slot != x.s0 ? 1 : 0;
        const int hlo = pi * (kJ / 2), hhi = hlo + kJ / 2;  // this part's half
        const int olo = (kJ / 2) - hlo, ohi = olo + kJ / 2;  // the partner's half
        if (c.ctid == 0) {
          const int old = atomicAdd(ctr, 1);
          int role = (old & 0xffff) == 0 ? kFirst : (old & kLeft) ? kAfterLeaver : kSecond;
          // Tests (split_exchange 2): the first arriver decides at once and almost always leaves.
          if (role == kFirst && p.split_exchange == 2 && atomicCAS(ctr, 1, 1 | kLeft) == 1) role = kFirstLeft;
          *s_flag = role;
        }
        ptx::named_barrier_sync(1, 256);
        const int role = *s_flag;
        if (role == kAfterLeaver) {
          // The partner left: wait for its whole partial, then reduce the whole tile below.
          if (c.ctid == 0) {
            while ((ptx::ld_acquire_gpu(ctr) & kPubMask) != kPublished) {
            }
            atomicExch(ctr, 0);  // leave the workspace zeroed
            __threadfence();
            sm90_mark(p, 5);
          }
          ptx::named_barrier_sync(1, 256);
        } else {
          store_partial_cols(olo, ohi);  // the half the partner finalizes
          ptx::named_barrier_sync(1, 256);
          if (c.ctid == 0) {
            __threadfence();
            bool leave = role == kFirstLeft;
            if (role == kFirst) leave = atomicCAS(ctr, 1, 1 | kLeft) == 1;
            if (!leave) {
              const int old = atomicAdd(ctr, kPublished);
              if ((old & kPubMask) != 0) {
                atomicExch(ctr, 0);  // the partner published first: both halves are out
              } else {
                for (;;) {
                  const int v = ptx::ld_acquire_gpu(ctr);
                  if ((v & kPubMask) == 2 * kPublished || v == 0) break;
                }
              }
              __threadfence();
              sm90_mark(p, 5);
            }
            *s_flag = leave;  // every thread read the role before the barrier above
          }
          ptx::named_barrier_sync(1, 256);
          if (*s_flag) {
            // Leaving: the own half too, then one publish of the whole partial.
            store_partial_cols(hlo, hhi);
            ptx::named_barrier_sync(1, 256);
            if (c.ctid == 0) {
              __threadfence();
              atomicAdd(ctr, kPublished);
              sm90_mark(p, 5);
            }
            return;
          }
          jlo = hlo;
          jhi = hhi;
        }
      } else if (arrive_first) {
        // Arrive first, store after (the counter has two fields, three with the exchange): thread 0
        // takes the arrival ticket (+1, low 16 bits) before any partial is stored, so the last
        // arriver knows it is last before it stores; a part that is not last stores its
        // partial, then publishes it (+kPublished). The last arriver skips its own store where
        // it keeps its partial in registers (`keep`; otherwise its threads read their own
        // stores back) and waits (ld.acquire) until every other part is published. It waits
        // only for parts that have already arrived, i.e. CTAs that are running and have
        // nothing but their stores before their publish: no dependence on CTAs that are not
        // resident (a grid larger than the GPU, a partitioned GPU). (Thread 0 may take the
        // ticket before the other consumer warps leave the mainloop: that only decides who
        // is last.)
        if (c.ctid == 0) *s_flag = (atomicAdd(ctr, 1) & (kPublished - 1)) == x.nsplit - 1;
        ptx::named_barrier_sync(1, 256);
        const bool last = *s_flag;
        if (!last || !keep) store_partial();
        if (!last) {
          ptx::named_barrier_sync(1, 256);
          if (c.ctid == 0) {
            __threadfence();
            atomicAdd(ctr, kPublished);
            sm90_mark(p, 5);  // partial stored and published
          }
          return;
        }
        if (c.ctid == 0) {
          const int done = (x.nsplit - 1) * kPublished + x.nsplit;
          while (ptx::ld_acquire_gpu(ctr) != done) {
          }
          atomicExch(ctr, 0);  // leave the workspace zeroed
          __threadfence();
          sm90_mark(p, 5);  // every other part published
        }
        ptx::named_barrier_sync(1, 256);
      } else {
        // Store, then arrive (the narrow tiles' split-K tiles): every part stores its partial; the last to
        // take the ticket finds all of them stored.
        store_partial();
        ptx::named_barrier_sync(1, 256);
        if (c.ctid == 0) {
          __threadfence();
          const int old = atomicAdd(ctr, 1);
          const int last = old == x.nsplit - 1;
          if (last) {
            atomicExch(ctr, 0);  // leave the workspace zeroed
            __threadfence();
          }
          *s_flag = last;
        }
        ptx::named_barrier_sync(1, 256);
        if (c.ctid == 0) sm90_mark(p, 5);  // partial stored, ticket taken
        if (!*s_flag) return;
      }
      // Sum in split order 0, 1, ... (ascending k), whoever arrives last: deterministic.
      // Part sp's partial is at slot s0 + sp * step, less `skip` for sp >= 1 (Unit): 32-bit
      // float4 offsets from part 0's (registers are scarce here).
      constexpr int kTile4 = static_cast<int>(kTileFloats / 4);
      const float4* tiles = reinterpret_cast<const float4*>(p.partials + static_cast<int64_t>(x.s0) * kTileFloats);
      // `own`: the float4 offset from part 0's of the part not to load (its slot less part 0's,
      // sm90_partial_slot), -1 for none.
      const int own = keep ? (x.slot - x.s0) * kTile4 : -1;
      // Calls f with the exchange's token half as a compile-time constant (0, 1), or -1 for the
      // whole tile: the reductions below skip the other half's batches at compile time.
      auto by_half = [&](auto&& f) {
        if (kCanExchange && jhi - jlo != kJ) {
          if (jlo == 0) f(std::integral_constant<int, 0>{});
          else f(std::integral_constant<int, 1>{});
        } else {
          f(std::integral_constant<int, -1>{});
        }
      };
      if constexpr (Tr::kBlockIssue) {
        // The narrow tiles: the thread's kQ float4s in batches of 8; per part, a batch's 8 loads
        // are issued together, then added: one L2 round trip per part and batch. (Summing each
        // float4 over all parts before the next, as the wide tile does below, put a float4's
        // 2-3 part loads in a runtime-count loop, one behind the other.)
        constexpr int kQ = kMW * kJ;
        constexpr int kB = kQ < 8 ? kQ : 8;
        static_assert(kQ % kB == 0 && (!kCanExchange || (kJ / 2) % kB == 0), "whole batches, in whole token halves");
        // H: the exchange's token half (compile-time, as for the wide tile below), -1 for all.
        // kClip (jv < kJ: a partial last token tile): the loads of the columns past M are skipped; a whole
        // tile's reduction has no such predicate (two copies, chosen once per tile).
        auto reduce = [&](auto half, auto clip) {
          constexpr int H = decltype(half)::value;
          constexpr bool kClip = decltype(clip)::value;
          const int lim = kClip ? jv : kJ;
#pragma unroll
          for (int q0 = 0; q0 < kQ; q0 += kB) {
            if (H >= 0 && (q0 % kJ < H * (kJ / 2) || q0 % kJ >= (H + 1) * (kJ / 2))) continue;
            Acc s4[kB][4];
#pragma unroll
            for (int b = 0; b < kB; ++b) {
              if (own >= 0) {
#pragma unroll
                for (int e = 0; e < 4; ++e) s4[b][e] = acc[(q0 + b) / kJ][4 * ((q0 + b) % kJ) + e];
              } else {
                float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
                if ((q0 + b) % kJ < lim) v = __ldcg(tiles + (q0 + b) * 256 + c.ctid);
                s4[b][0] = unbits(v.x); s4[b][1] = unbits(v.y); s4[b][2] = unbits(v.z); s4[b][3] = unbits(v.w);
              }
            }
#pragma unroll 1
            for (int sp = own >= 0 ? 0 : 1; sp < x.nsplit; ++sp) {
              const int off = sp == 0 ? 0 : (sp * x.step - x.skip) * kTile4;
              if (off == own) continue;
              const float4* part = tiles + off;
              float4 v[kB];
#pragma unroll
              for (int b = 0; b < kB; ++b)
                v[b] = (q0 + b) % kJ < lim ? __ldcg(part + (q0 + b) * 256 + c.ctid) : make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
              for (int b = 0; b < kB; ++b) {
                s4[b][0] += unbits(v[b].x); s4[b][1] += unbits(v[b].y);
                s4[b][2] += unbits(v[b].z); s4[b][3] += unbits(v[b].w);
              }
            }
#pragma unroll
            for (int b = 0; b < kB; ++b)
#pragma unroll
              for (int e = 0; e < 4; ++e) acc[(q0 + b) / kJ][4 * ((q0 + b) % kJ) + e] = s4[b][e];
          }
        };
        if (jv == kJ) by_half([&](auto half) { reduce(half, std::false_type{}); });
        else by_half([&](auto half) { reduce(half, std::true_type{}); });
      } else {
        // The wide tile (128 accumulators; a batch held beside them as above spilled 4-52
        // bytes): the accumulators keep this CTA's part (own >= 0), or part 0 loads straight
        // into them, all kQ float4s in flight (their values were stored above), then per part a
        // batch of kWideReduceBatch loads is issued together and added in place. Same bits as
        // part 0 + 1 + 2 + ... per element (the `keep` cases above).
        constexpr int kQ = kMW * kJ;
        constexpr int kB = kWideReduceBatch;
        static_assert(kQ % kB == 0 && (kJ / 2) % kB == 0, "whole batches, in whole token halves");
        if (own < 0) {
#pragma unroll
          for (int q = 0; q < kQ; ++q) {
            const float4 v = __ldcg(tiles + q * 256 + c.ctid);
            Acc* a = &acc[q / kJ][4 * (q % kJ)];
            a[0] = unbits(v.x); a[1] = unbits(v.y); a[2] = unbits(v.z); a[3] = unbits(v.w);
          }
        }
        // Adds one part's partial: its token half H (0, 1: the exchange loads the partner's half
        // of the tile only) or all of it (H = -1). H is a compile-time constant, so the skipped
        // batches vanish after unrolling; a run-time test per batch, branch or predicate, kept
        // the compiler from issuing the next batches' loads early (8-bit 1.02-1.15x the time at
        // M = 192..512, s31-exchange/).
        auto add_part = [&](const float4* part, auto half) {
          constexpr int H = decltype(half)::value;
#pragma unroll
          for (int q0 = 0; q0 < kQ; q0 += kB) {
            if (H >= 0 && (q0 % kJ < H * (kJ / 2) || q0 % kJ >= (H + 1) * (kJ / 2))) continue;
            float4 v[kB];
#pragma unroll
            for (int b = 0; b < kB; ++b) v[b] = __ldcg(part + (q0 + b) * 256 + c.ctid);
#pragma unroll
            for (int b = 0; b < kB; ++b) {
              Acc* a = &acc[(q0 + b) / kJ][4 * ((q0 + b) % kJ)];
              a[0] += unbits(v[b].x); a[1] += unbits(v[b].y); a[2] += unbits(v[b].z); a[3] += unbits(v[b].w);
            }
          }
        };
#pragma unroll 1
        for (int sp = own >= 0 ? 0 : 1; sp < x.nsplit; ++sp) {
          const int off = sp == 0 ? 0 : (sp * x.step - x.skip) * kTile4;
          if (off == own) continue;
          const float4* part = tiles + off;
          by_half([&](auto half) { add_part(part, half); });
        }
      }
    }

    if (c.ctid == 0 && x.part >= 0) sm90_mark(p, 6);  // split tile reduced (last arriver)
    const uint32_t epi = c.base + Tr::kOffEpi;
    if (c.ctid == 0) ptx::bulk_wait_group_read<0>();  // the previous unit's TMA stores have read the buffer
    ptx::named_barrier_sync(1, 256);  // ... before anyone writes it again
    // Staging by stmatrix (session 22): the 8 x 8 block (j, h) of accumulators (weight rows
    // 8h..8h+7 of the warp's 16, tokens 8j..8j+7) is the m8n8 fragment stmatrix takes (lane
    // (g, t): row g, tokens 2t, 2t+1 = registers 4j+2h, 4j+2h+1), packed in pairs by one cvt,
    // and .trans stores it as 8 token rows of 16 bytes ([token][weight row], as the copy-out
    // reads). One stmatrix.x4 per two j: 8 values of a thread per instruction instead of one
    // st.shared.u16 each, and the token scales loaded once per token instead of once per
    // (token, h). Lane L addresses row L & 7 of matrix L >> 3 = (j + (L >> 4), h = (L >> 3) & 1).
    // The values and roundings are the same: RN_out(fma(acc, RN(tok * ch), bias)) per element.
    // (The trace of s22-trace/: the u16-store staging took ~5 us per 128 x 256 tile.)
    const int lr = c.lane() & 7, li = c.lane() >> 3;
#pragma unroll
    for (int mw = 0; mw < kMW; ++mw) {
      const int nb = (c.cwg() * kMW + mw) * 64 + c.warp() * 16;  // the warp's 16 weight rows
      float chv[2], bv[2];
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int n = n0 + nb + g + 8 * h;
        const bool nv = n < p.N;
        chv[h] = (p.ch && nv) ? __ldg(p.ch + n) : 1.0f;
        bv[h] = 0.0f;
        if (p.bias && nv) {
          const unsigned short bb = __ldg(reinterpret_cast<const unsigned short*>(p.bias) + n);
          bv[h] = p.out_bf16 ? __bfloat162float(__ushort_as_bfloat16(bb)) : __half2float(__ushort_as_half(bb));
        }
      }
      // Chunk q = (nb + 8 h) / 8 of the tile: box q / 8, chunk q % 8 of its 128-byte row, swizzled
      // with the token row's low bits (8 (j + jj) + lr: lr).
      const int q = nb / 8 + (li & 1);
      const uint32_t lane_addr = epi + (q >> 3) * Tr::kEpiBoxBytes + (8 * (li >> 1) + lr) * 128 + (((q & 7) ^ lr) << 4);
#pragma unroll
      for (int j = 0; j < kTileT / 8; j += 2) {
        uint32_t r[2][2];  // [j - j0][h]
#pragma unroll
        for (int jj = 0; jj < 2; ++jj) {
          float tv[2];
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            const int m = m0 + 8 * (j + jj) + 2 * t + e;
            tv[e] = (p.tok && m < p.M) ? __ldg(p.tok + m) : 1.0f;
          }
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const int a = 4 * (j + jj) + 2 * h;
            const float r0 = __fmaf_rn(to_f32(acc[mw][a]), __fmul_rn(tv[0], chv[h]), bv[h]);
            const float r1 = __fmaf_rn(to_f32(acc[mw][a + 1]), __fmul_rn(tv[1], chv[h]), bv[h]);
            r[jj][h] = p.out_bf16 ? ptx::cvt_bf16x2_f32(r0, r1) : ptx::cvt_f16x2_f32(r0, r1);
          }
        }
        // The exchange stages its own token half only. Only the store is predicated: with the
        // whole iteration skipped, the token-scale loads were issued one pair of j at a time
        // (8-bit activations 1.04-1.15x the time at M = 192..512, s31-exchange/).
        if (j >= jlo && j < jhi) ptx::stmatrix_x4_trans(lane_addr + 8 * j * 128, r[0][0], r[0][1], r[1][0], r[1][1]);
      }
    }
    ptx::fence_proxy_async_shared();  // the staged tile, written through the generic proxy, for the TMA
    ptx::named_barrier_sync(1, 256);
    if (c.ctid == 0) {
      sm90_mark(p, 7);  // first unit's output staged in shared memory
      sm90_mark<false>(p, 15);  // last unit's output staged
      // Copy-out by TMA stores (session 23, replacing 16-byte stores by the 256 consumer threads):
      // the engine writes the boxes while the consumers go on to the next unit; rows past M and
      // columns past N are clipped. The staging buffer is reused only after
      // bulk_wait_group_read (the next unit's epilogue, above), the kernel ends after bulk_wait_group.
      // Box (b, h): 64 columns x kOutT tokens; the exchange stores its token half only.
      constexpr int kOutT = sm90_out_box_tokens(kTileT);
#pragma unroll
      for (int b = 0; b < kTileN / 64; ++b)
#pragma unroll
        for (int h = 0; h < kTileT / kOutT; ++h)
          if (n0 + 64 * b < p.N && m0 + h * kOutT < p.M && h * kOutT >= 8 * jlo && h * kOutT < 8 * jhi)
            ptx::tma_store_2d(&p.out_map, epi + b * Tr::kEpiBoxBytes + h * kOutT * 128, n0 + 64 * b, m0 + h * kOutT);
      ptx::bulk_commit_group();
    }
  }
};

}  // namespace mixgemm::kernels::sm90
