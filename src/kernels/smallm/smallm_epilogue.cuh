// smallm_epilogue.cuh - the end of a smallm CTA's stripe segment (smallm_gemm.cuh has the
// overview): the output directly, or the split-K reduction (through the workspace, a cluster's
// distributed shared memory, the caller's partial sums, or the deferred reduction grid, whose body
// is reduce_run), and the epilogue of one accumulator fragment.
#pragma once

#include "kernels/ptx/mma.cuh"
#include "kernels/ptx/sm90.cuh"
#include "kernels/smallm/smallm_common.cuh"
#include "kernels/smallm/smallm_trace.cuh"

namespace mixgemm::kernels::smallm {

template <AType A, int kWBits, int kTM>
struct SmallmEpilogue : SmallmCommon<A, kWBits, kTM> {
  using Base = SmallmCommon<A, kWBits, kTM>;
  using typename Base::Acc;
  using typename Base::Ctx;
  using Base::kNT;
  using Base::kCK;

  // ---- epilogue of one accumulator fragment (block b, n-tile nt) --------------------------
  // out[m, n] = RN_out(fma(acc, RN_f32(tok[m] * ch[n]), bias[n])); fragment registers
  // {0,1}: row n = g, tokens 2t, 2t+1; {2,3}: row g+8.
  static __device__ __forceinline__ void store_frag(const SmallmKernelParams& p, const Ctx& x,
                                                    int stripe, int b, int nt, const Acc (&v)[4]) {
    const int nb = stripe * (x.W * kNBW) + x.warp * kNBW + b;
    if (nb >= p.NB) return;  // warp-uniform: the last stripe's blocks past N
    const int g = x.lane >> 2, t = x.lane & 3;
    // Column factors once per row h, token factors and the output row once per token e:
    // the same operations per element as the formula above, less code (the epilogue is
    // inlined at every segment end).
    float chv[2], bv[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int n = nb * 16 + g + 8 * h;
      chv[h] = p.ch ? p.ch[n] : 1.0f;
      bv[h] = 0.0f;
      if (p.bias) {
        const unsigned short bb = reinterpret_cast<const unsigned short*>(p.bias)[n];
        bv[h] = p.out_bf16 ? __bfloat162float(__ushort_as_bfloat16(bb)) : __half2float(__ushort_as_half(bb));
      }
    }
#pragma unroll
    for (int e = 0; e < 2; ++e) {
      const int m = x.m_base + nt * 8 + 2 * t + e;
      if (m >= p.M) continue;
      const float tv = p.tok ? p.tok[m] : 1.0f;
      unsigned short* row = reinterpret_cast<unsigned short*>(p.out) + static_cast<int64_t>(m) * p.ldo + nb * 16 + g;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        float a;
        if constexpr (A == AType::kS8) a = __int2float_rn(v[2 * h + e]);
        else a = v[2 * h + e];
        const float r = __fmaf_rn(a, __fmul_rn(tv, chv[h]), bv[h]);
        row[8 * h] = p.out_bf16 ? __bfloat16_as_ushort(__float2bfloat16_rn(r)) : __half_as_ushort(__float2half_rn(r));
      }
    }
  }

  static __device__ __forceinline__ uint32_t acc_bits(Acc v) {
    if constexpr (A == AType::kS8) return static_cast<uint32_t>(v);
    else return __float_as_uint(v);
  }
  static __device__ __forceinline__ Acc acc_from_bits(uint32_t u) {
    if constexpr (A == AType::kS8) return static_cast<int32_t>(u);
    else return __uint_as_float(u);
  }

  // Partial tile layout: fragment order, one 16-byte vector per (block, n-tile, lane):
  // index ((warp*kNBW + b) * kNT + nt) * 32 + lane, so every lane stores / loads 16
  // contiguous bytes and a warp 512 (coalesced), and the reducing CTA (same shape)
  // finds each of its registers at the same place in every contributor's tile.
  static __device__ __forceinline__ int tile_index(const Ctx& x, int b, int nt) {
    return ((x.warp * kNBW + b) * kNT + nt) * 32 + x.lane;
  }
  // Whether this lane's fragment of n-tile nt holds a live token (tokens nt*8 + 2t, +1 of the
  // tile, t = lane % 4): partial tiles carry only those pieces (at M = 1, 8 lanes of 32), the
  // others are neither stored nor loaded (their sums are never stored: store_frag).
  static __device__ __forceinline__ bool lane_live(const Ctx& x, int nt) {
    return nt * 8 + 2 * (x.lane & 3) < x.m_rem;
  }

  // ---- cluster split-K: the reduction through distributed shared memory ----------------
  // With p.cluster = S >= 2 the launcher cut the grid into one cluster of S CTAs per stripe
  // (C = stripes x S, blockIdx.x = stripe * S + rank): rank r holds k-part r of the stripe,
  // a single segment, and arrives here with it. Instead of the workspace round trips
  // (partial store, fence, counter atomic, and one CTA loading all S partials), every CTA
  // writes its partial tile into its own dead weight ring, in the workspace's fragment
  // order (tile_index), and after one cluster barrier rank r reduces the 16-byte pieces
  // [r P / S, (r + 1) P / S) of the tile (P = W * kNBW * kNT * 32 pieces) by reading them
  // from ranks 0, 1, ..., S - 1 in that order: ascending k, as the workspace path sums
  // its contributors, so the result is deterministic and equals what the workspace path
  // gives for the same k-parts (the plain split cuts K elsewhere, so its bits can differ
  // within the rounding the tests allow). A second cluster barrier keeps each CTA's shared
  // memory alive until its peers have read it.
  static __device__ __forceinline__ void cluster_reduce(const SmallmKernelParams& p, const Ctx& x,
                                                        const Acc (&acc)[kNBW][kNT][4], int stripe) {
    const uint32_t tile = x.smem_u32 + p.ring_off;  // ring_rows >= kNT rows hold the tile
    __syncthreads();  // every warp is past its last ring read: the ring is dead
#pragma unroll
    for (int b = 0; b < kNBW; ++b)
#pragma unroll
      for (int nt = 0; nt < kNT; ++nt)
        ptx::sts128(tile + tile_index(x, b, nt) * 16,
                    make_uint4(acc_bits(acc[b][nt][0]), acc_bits(acc[b][nt][1]), acc_bits(acc[b][nt][2]),
                               acc_bits(acc[b][nt][3])));
    ptx::cluster_sync();
    smallm_trace(kTraceReduce);
    const int S = p.cluster;
    const int r = static_cast<int>(ptx::cluster_ctarank());
    const int P = x.W * kNBW * kNT * 32;
    const int i1 = (r + 1) * P / S;
    for (int i = r * P / S + threadIdx.x; i < i1; i += blockDim.x) {
      uint4 w[kMaxClusterCtas > 0 ? kMaxClusterCtas : 1];
#pragma unroll
      for (int q = 0; q < kMaxClusterCtas; ++q)
        if (q < S) w[q] = ptx::ld_shared_cluster128(ptx::mapa_shared(tile + i * 16, q));
      Acc sum[4];
#pragma unroll
      for (int q = 0; q < kMaxClusterCtas; ++q) {
        if (q >= S) break;
        const Acc v[4] = {acc_from_bits(w[q].x), acc_from_bits(w[q].y), acc_from_bits(w[q].z),
                          acc_from_bits(w[q].w)};
#pragma unroll
        for (int e = 0; e < 4; ++e) sum[e] = q == 0 ? v[e] : sum[e] + v[e];
      }
      // Piece i = ((warp * kNBW + b) * kNT + nt) * 32 + lane (tile_index): its owner's epilogue.
      Ctx y = x;
      y.lane = i & 31;
      const int f = i >> 5;
      y.warp = f / (kNBW * kNT);
      store_frag(p, y, stripe, (f / kNT) % kNBW, f % kNT, sum);
    }
    ptx::cluster_sync();
  }

  // ---- partial sums for the caller (gemm_partial_sums) -----------------------------------
  // p.parts set (smallm_geometry.h, make_partial_sums_geometry: the cluster geometry launched
  // without clusters, or the schedule's stream-K partition): every segment, whole stripe or not,
  // writes its raw accumulators (f32; s32 for s8), no epilogue, to parts[r][m][n] (row stride N,
  // part stride M * N), r = its CTA's place among the CTAs that meet the stripe, in ascending
  // order (in the cluster geometry CTA stripe * S + r). The stripe's last CTA also writes zeros to
  // parts n .. S - 1 when only n < S CTAs meet it. The caller sums r = 0, 1, ..., S - 1 in that
  // order, the order of the workspace split's reductions and of cluster_reduce, and applies the
  // epilogue. Only live tokens and columns below N are written: every element of [S, M, N]
  // exactly once.
  static __device__ __forceinline__ void store_partial_sum(const SmallmKernelParams& p, const Ctx& x,
                                                           const Acc (&acc)[kNBW][kNT][4], int stripe) {
    const int64_t su0 = static_cast<int64_t>(stripe) * p.KBn;  // stripe's rows [su0, su0 + KBn)
    const int c_first = cta_of_row(p.part, su0);
    const int r = x.c - c_first;
    // Parts [r, r_end): this CTA's own, then the zero parts if it is the stripe's last CTA.
    const int r_end = x.c == cta_of_row(p.part, su0 + p.KBn - 1) ? p.parts_count : r + 1;
    const int g = x.lane >> 2, t = x.lane & 3;
    for (int q = r; q < r_end; ++q) {
      uint32_t* part = reinterpret_cast<uint32_t*>(p.parts) + static_cast<int64_t>(q) * p.M * p.N;
#pragma unroll
      for (int b = 0; b < kNBW; ++b) {
        const int nb = stripe * (x.W * kNBW) + x.warp * kNBW + b;
        if (nb >= p.NB) continue;  // warp-uniform: the last stripe's blocks past N
#pragma unroll
        for (int nt = 0; nt < kNT; ++nt)
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            const int m = x.m_base + nt * 8 + 2 * t + e;
            if (m >= p.M) continue;
            uint32_t* row = part + static_cast<int64_t>(m) * p.N + nb * 16 + g;
            // Fragment element 2h + e: token m, column nb * 16 + g + 8h (store_frag's map).
            __stcg(row, q == r ? acc_bits(acc[b][nt][e]) : 0u);
            __stcg(row + 8, q == r ? acc_bits(acc[b][nt][2 + e]) : 0u);
          }
      }
    }
  }

  // Partial-tile slots (workspace, per token tile): 2c holds CTA c's first segment (it starts
  // at the CTA's first row), 2c + 1 its last one, when its range started in an earlier stripe.
  // Middle segments are whole stripes (no slot). CTA cc owns rows [cc U / C, (cc + 1) U / C);
  // su0 = the first row of the stripe.
  static __device__ __forceinline__ int slot_of(const RowPartition& part, int64_t su0, int cc) {
    return 2 * cc + (row_start(part, cc) < su0 ? 1 : 0);
  }
  // This thread's live pieces of a partial tile, in fragment order (tile_index).
  static __device__ __forceinline__ void store_partial(const Ctx& x, const uint8_t* tile,
                                                       const Acc (&acc)[kNBW][kNT][4]) {
    uint4* mine = reinterpret_cast<uint4*>(const_cast<uint8_t*>(tile));
#pragma unroll
    for (int b = 0; b < kNBW; ++b)
#pragma unroll
      for (int nt = 0; nt < kNT; ++nt)
        if (lane_live(x, nt))
          __stcg(mine + tile_index(x, b, nt), make_uint4(acc_bits(acc[b][nt][0]), acc_bits(acc[b][nt][1]),
                                                         acc_bits(acc[b][nt][2]), acc_bits(acc[b][nt][3])));
  }

  // ---- end of one stripe segment: output directly, or the split-K reduction -----------
  // kRedGroup fragments x kRedBatch contributors: partial loads in flight together.
  // kFinal: the CTA's last segment, at the kernel's end (where the counter peek may apply).
  template <int kRedGroup, int kRedBatch, bool kFinal>
  static __device__ __forceinline__ void finish_segment(const SmallmKernelParams& p, const Ctx& x,
                                                        const Acc (&acc)[kNBW][kNT][4], int stripe,
                                                        bool full, int* s_flag) {
    if constexpr (kTM <= 16) {  // TM 32 / 64 have no partial-sum form (smallm_geometry.h)
      if (p.parts) {  // kernel-uniform: the caller sums the parts
        store_partial_sum(p, x, acc, stripe);
        return;
      }
    }
    if (full) {  // this CTA holds the stripe's whole k-range
#pragma unroll
      for (int b = 0; b < kNBW; ++b)
#pragma unroll
        for (int nt = 0; nt < kNT; ++nt) store_frag(p, x, stripe, b, nt, acc[b][nt]);
      return;
    }
    if constexpr (kFinal && kTM <= 16) {  // TM 32/64 never cluster (smallm_geometry.h)
      if (p.cluster >= 2) {  // kernel-uniform: the CTA's only segment
        cluster_reduce(p, x, acc, stripe);
        return;
      }
    }
    const int64_t su0 = static_cast<int64_t>(stripe) * p.KBn;  // stripe's rows [su0, su0 + KBn)
    const uint8_t* tiles = p.partials + static_cast<int64_t>(x.mt) * 2 * x.C * p.tile_bytes;
    if (p.deferred) {  // kernel-uniform: smallm_reduce_kernel sums the partials after this grid
      store_partial(x, tiles + static_cast<int64_t>(slot_of(p.part, su0, x.c)) * p.tile_bytes, acc);
      return;
    }
    const int c_first = cta_of_row(p.part, su0);
    const int c_last = cta_of_row(p.part, su0 + p.KBn - 1);
    auto slot_of = [&](int cc) { return SmallmEpilogue::slot_of(p.part, su0, cc); };
    int* cnt = p.counters + static_cast<int64_t>(x.mt) * p.stripes + stripe;
    const int n = c_last - c_first + 1;
    // Peek first, where it is likely to pay: the kernel's final segment of a CTA that starts
    // a stripe shared with one other CTA, whose part of the stripe was the start of its
    // range and finished long ago. If that CTA has arrived, this one is the last: nobody
    // reads its partial, so it skips the store, the release fence and the atomic (two
    // dependent L2 round trips on the kernel's tail) and reduces at once. (With middle
    // contributors, CTAs that spend their whole range in the stripe and end with it, the
    // peek mostly fails and would only add a round trip.) Otherwise the release protocol
    // below decides, as before. Either way the sum is the same ascending-CTA-order sum:
    // bitwise identical results.
    bool last_by_peek = false;
    if (kFinal && n == 2 && x.c == c_first) {  // CTA-uniform
      if (threadIdx.x == 0) {
        const bool last = ptx::ld_acquire_gpu(cnt) == 1;
        if (last) *cnt = 0;  // nobody else touches it in this launch: zero for the next one
        *s_flag = last;
      }
      __syncthreads();
      last_by_peek = *s_flag;
    }
    if (!last_by_peek) {
      store_partial(x, tiles + static_cast<int64_t>(slot_of(x.c)) * p.tile_bytes, acc);
      // Release and acquire by thread 0 alone (the pattern of a grid barrier): the CTA
      // barrier orders every thread's partial store before thread 0's fence, which makes them
      // visible device-wide before the counter moves (cumulativity); if this CTA is the last,
      // thread 0's fence after the atomic orders the other contributors' partials before the
      // second barrier, and so before every thread's loads below.
      __syncthreads();
      if (threadIdx.x == 0) {
        __threadfence();
        if (kFinal) smallm_trace(kTraceFenced);
        const int old = atomicAdd(cnt, 1);
        if (kFinal) smallm_trace(kTraceTicket);
        const int last = old == n - 1;
        if (last) {
          atomicExch(cnt, 0);  // leave the workspace zeroed for the next call
          __threadfence();
        }
        *s_flag = last;
      }
      __syncthreads();
      smallm_trace(kTraceReleased);
      if (!*s_flag) return;
    }
    smallm_trace(kTraceReduce);
    // Both ways here acquired in thread 0 before a CTA barrier: the fence after the atomic
    // above, or the peek's ld.acquire.
    // Sum in fixed contributor order c_first..c_last (ascending k), own registers at
    // their place: the same additions in the same order whoever arrives last. The last
    // stripe of every CTA is reduced at the very end of the kernel (its CTA is typically
    // the last to arrive), so this latency is on the critical path: per contributor, the
    // loads of kRG fragments are in flight together, i.e. (fragments / kRG) x contributors
    // dependent L2 round trips. The kernel's final reduction runs after the weight ring
    // is dead and takes large groups; mid-kernel ones keep kRG small (the ring is live).
    constexpr int kFr = kNBW * kNT;
    if constexpr (kFinal && kTM <= 16) {
      // Final reduction staged through the weight ring, which is dead now (every warp has
      // passed a barrier after its last ring read): each lane cp.asyncs its 16-byte pieces of
      // up to `cap` contributors into its own shared slots, waits once, and sums them in the
      // same ascending order as below: one L2 round trip per `cap` contributors instead of
      // one per 8 (TM 8) or 2 (TM 16). cap >= 2: ring_rows >= kCK rows of W * kNBW blocks.
      constexpr int kWarpBytes = kFr * 512;  // one contributor's fragments, one warp
      const int cap = (p.ring_rows * x.row_bytes) / (x.W * kWarpBytes);
      const int off = p.ring_off + x.warp * cap * kWarpBytes + x.lane * 16;  // this lane's slots
      Acc sum[kFr][4];
      for (int cc0 = c_first; cc0 <= c_last; cc0 += cap) {
        const int nb = min(cap, c_last - cc0 + 1);
        for (int q = 0; q < nb; ++q) {
          const int cc = cc0 + q;
          if (cc == x.c) continue;
          const uint4* src = reinterpret_cast<const uint4*>(tiles + static_cast<int64_t>(slot_of(cc)) * p.tile_bytes);
#pragma unroll
          for (int f = 0; f < kFr; ++f)  // dead pieces: zero-filled, no global read
            ptx::cp_async16_zfill(x.smem_u32 + off + (q * kFr + f) * 512, src + tile_index(x, f / kNT, f % kNT),
                                  lane_live(x, f % kNT));
        }
        ptx::cp_async_commit();
        ptx::cp_async_wait<0>();  // this lane's own copies: visible to this lane
        if (cc0 == c_first) smallm_trace(kTraceRedLoaded);
        for (int q = 0; q < nb; ++q) {
          const int cc = cc0 + q;
#pragma unroll
          for (int f = 0; f < kFr; ++f) {
            Acc v[4];
            if (cc == x.c) {
#pragma unroll
              for (int i = 0; i < 4; ++i) v[i] = acc[f / kNT][f % kNT][i];
            } else {
              const uint4 w = *reinterpret_cast<const uint4*>(x.smem + off + (q * kFr + f) * 512);
              v[0] = acc_from_bits(w.x);
              v[1] = acc_from_bits(w.y);
              v[2] = acc_from_bits(w.z);
              v[3] = acc_from_bits(w.w);
            }
#pragma unroll
            for (int i = 0; i < 4; ++i) sum[f][i] = cc == c_first ? v[i] : sum[f][i] + v[i];
          }
        }
      }
      smallm_trace(kTraceRedSummed);
#pragma unroll
      for (int f = 0; f < kFr; ++f) store_frag(p, x, stripe, f / kNT, f % kNT, sum[f]);
      smallm_trace(kTraceRedStored);
      return;
    }
    constexpr int kRG = kFr < kRedGroup ? kFr : kRedGroup;
    constexpr int kCB = kRedBatch;
#pragma unroll
    for (int f0 = 0; f0 < kFr; f0 += kRG) {
      Acc sum[kRG][4];
      for (int cc0 = c_first; cc0 <= c_last; cc0 += kCB) {
        // Issue the loads of up to kCB contributors, then add them in order.
        uint4 w[kCB][kRG];
#pragma unroll
        for (int q = 0; q < kCB; ++q) {
          const int cc = cc0 + q;
          if (cc <= c_last && cc != x.c) {
            const uint4* src = reinterpret_cast<const uint4*>(
                tiles + static_cast<int64_t>(slot_of(cc)) * p.tile_bytes);
#pragma unroll
            for (int r = 0; r < kRG; ++r)
              w[q][r] = lane_live(x, (f0 + r) % kNT) ? __ldcg(src + tile_index(x, (f0 + r) / kNT, (f0 + r) % kNT))
                                                      : make_uint4(0, 0, 0, 0);
          }
        }
#pragma unroll
        for (int q = 0; q < kCB; ++q) {
          const int cc = cc0 + q;
          if (cc > c_last) break;
          Acc v[kRG][4];
#pragma unroll
          for (int r = 0; r < kRG; ++r) {
            if (cc == x.c) {
#pragma unroll
              for (int i = 0; i < 4; ++i) v[r][i] = acc[(f0 + r) / kNT][(f0 + r) % kNT][i];
            } else {
              v[r][0] = acc_from_bits(w[q][r].x);
              v[r][1] = acc_from_bits(w[q][r].y);
              v[r][2] = acc_from_bits(w[q][r].z);
              v[r][3] = acc_from_bits(w[q][r].w);
            }
          }
#pragma unroll
          for (int r = 0; r < kRG; ++r)
#pragma unroll
            for (int i = 0; i < 4; ++i) sum[r][i] = cc == c_first ? v[r][i] : sum[r][i] + v[r][i];
        }
      }
#pragma unroll
      for (int r = 0; r < kRG; ++r) store_frag(p, x, stripe, (f0 + r) / kNT, (f0 + r) % kNT, sum[r]);
    }
  }

  // ---- the deferred split-K reduction (smallm_reduce_kernel) ------------------------------
  // With p.deferred the GEMM kernel (smallm_kernel) stores every partial segment and leaves; this
  // grid, launched after it on the stream (programmatic dependent launch: it may become resident
  // while the GEMM grid drains, and waits for that grid's completion before reading), sums them. One thread per
  // 16-byte piece of a stripe's partial tile (piece i = ((warp * kNBW + b) * kNT + nt) * 32 + lane:
  // tile_index of the GEMM's thread (warp, lane)): grid (ceil(P / blockDim.x), stripes, MT). The
  // kernel boundary orders the partial stores before these loads, so the GEMM needs no counter,
  // fence or atomic; the sum runs over the stripe's contributors in ascending CTA order (= ascending
  // k), the order of the in-kernel reduction, so the bits are the same.
  static __device__ __forceinline__ void reduce_run(const SmallmKernelParams& p) {
    const int stripe = blockIdx.y;
    const int64_t su0 = static_cast<int64_t>(stripe) * p.KBn;
    const int c_first = cta_of_row(p.part, su0);
    const int c_last = cta_of_row(p.part, su0 + p.KBn - 1);
    if (c_first == c_last) return;  // one CTA held the whole stripe and wrote it
    const int W = p.tile_bytes / (64 * kNBW * kTM);  // tile = 16 kNBW W rows x kTM tokens x 4 B
    const int P = W * kNBW * kNT * 32;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= P) return;
    Ctx y{};
    y.lane = i & 31;
    const int f = i >> 5;
    y.warp = f / (kNBW * kNT);
    y.W = W;
    y.C = p.part.C;
    y.mt = blockIdx.z;
    y.m_base = y.mt * kTM;
    y.m_rem = min(kTM, p.M - y.m_base);
    const int b = (f / kNT) % kNBW, nt = f % kNT;
    if (!lane_live(y, nt)) return;  // never stored, and its sums are never output
    const uint4* tiles = reinterpret_cast<const uint4*>(p.partials + static_cast<int64_t>(y.mt) * 2 * y.C * p.tile_bytes);
    const int64_t tile_vecs = p.tile_bytes / 16;
    constexpr int kBatch = 8;  // contributors whose loads are in flight together
    // The first batch's partial offsets (16-byte units from `tiles`; < 2^31: 2 C tiles of at most
    // 64 KB) depend on the parameters only. They are computed here, while the GEMM grid still
    // runs (as its programmatic dependent, a CTA of this grid starts as soon as an SM has room:
    // where the GEMM's ring fills the shared memory, its 4.6 KB wait for a GEMM CTA to leave),
    // and parked in shared memory: ptxas schedules parameter reads and register arithmetic freely
    // across griddepcontrol.wait, but keeps shared stores before it. Also read here: the tok / ch pointers
    // (not their data), whose constant-bank line also holds the global memory descriptor of the
    // loads below and is the one line the code above does not touch (SASS: ULDC c[0x0][0x208] now
    // comes before ACQBULK). After the wait the chain is loads, sums and stores. Measured:
    // bench/results/2026-12-02-h200/s41-reduce-diag/ (the grid's work after the wait, not its
    // launch, is its cost in CUDA graphs) and s41-redpre/ (0.96-0.98x the launch time).
    __shared__ int32_t s_off[kBatch + 1][kReduceThreads];
#pragma unroll
    for (int q = 0; q < kBatch; ++q)
      s_off[q][threadIdx.x] =
          c_first + q <= c_last ? static_cast<int32_t>(slot_of(p.part, su0, c_first + q) * tile_vecs + i) : 0;
    s_off[kBatch][threadIdx.x] = static_cast<int32_t>(reinterpret_cast<uintptr_t>(p.tok) ^ reinterpret_cast<uintptr_t>(p.ch));
    ptx::griddep_wait();  // the GEMM grid has completed: its partials are visible
    Acc sum[4];
    auto add_batch = [&](int c0, const uint4 (&w)[kBatch]) {
#pragma unroll
      for (int q = 0; q < kBatch; ++q) {
        if (c0 + q > c_last) break;
        const Acc v[4] = {acc_from_bits(w[q].x), acc_from_bits(w[q].y), acc_from_bits(w[q].z),
                          acc_from_bits(w[q].w)};
#pragma unroll
        for (int e = 0; e < 4; ++e) sum[e] = c0 + q == c_first ? v[e] : sum[e] + v[e];
      }
    };
    {
      int32_t off[kBatch];
#pragma unroll
      for (int q = 0; q < kBatch; ++q) off[q] = s_off[q][threadIdx.x];
      uint4 w[kBatch];
#pragma unroll
      for (int q = 0; q < kBatch; ++q)
        if (c_first + q <= c_last) w[q] = __ldcg(tiles + off[q]);
      add_batch(c_first, w);
    }
    for (int c0 = c_first + kBatch; c0 <= c_last; c0 += kBatch) {
      uint4 w[kBatch];
#pragma unroll
      for (int q = 0; q < kBatch; ++q)
        if (c0 + q <= c_last) w[q] = __ldcg(tiles + slot_of(p.part, su0, c0 + q) * tile_vecs + i);
      add_batch(c0, w);
    }
    store_frag(p, y, stripe, b, nt, sum);
  }
};

}  // namespace mixgemm::kernels::smallm
