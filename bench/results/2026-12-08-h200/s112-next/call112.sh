#!/usr/bin/env bash
# Session 112: the next device call, whatever card comes (carry `.s108`, rebuilt from a3d94539: the GPU test binary
# with GemmFuzz.PartialSumsMatchReference's new bitwise assertion). First ~1 min of probes, then
# ../../2026-12-07-h200/s110-next/call110.sh (H200: every GPU suite + sanitizers + the held-out decode table; another
# card: GemmFuzz from SEED).
#  1. cluster_residency.cu: how many clusters of each size the device holds at one / two CTAs per SM
#     (cudaOccupancyMaxActiveClusters), the table the smallm launcher's fallback consults and the heuristic lacks.
#  2. Two layers whose decode picks plan clusters beyond the counts known resident at one CTA per SM
#     (fallback_shapes.txt): Qwen2-7B qkv (N = 4608, K = 3584; 7-CTA clusters over 18 stripes) and 4096 x 4096
#     (Llama-3-8B / Llama-2-7B o; 8 x 16, which fell back in session 8). MIXGEMM_PRINT_CONFIG=1 says whether each
#     launch ran cluster split-K or fell back; the times beside MIXGEMM_SMALLM_CLUSTER=0 (the workspace split
#     everywhere) say whether the geometry the heuristic priced was the one that ran.
#   MIXGEMM_GIT_COMMIT=<commit> [SEED=2619 ...call110.sh's knobs] bash bench/results/2026-12-08-h200/s112-next/call112.sh
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT/s112"
P=$OUT/s112; cp "$0" "$P/command.sh"; t0=$SECONDS
nvcc -std=c++17 -arch=sm_90a bench/results/2026-12-08-h200/s112-next/cluster_residency.cu -o /tmp/cr112 \
  && /tmp/cr112 > "$P/cluster_residency.csv" 2>&1
echo "residency probe rc=$? at $((SECONDS - t0)) s"; cat "$P/cluster_residency.csv"
B=/tmp/s112/mixgemm-bench; mkdir -p /tmp/s112
xz -dc .s108/bench.xz > $B && chmod +x $B || { echo "no .s108/bench.xz: carry .s108"; exit 1; }
args=(--shape 4608x3584 --shape 4096x4096 --m 1,8,16 --types f16.u4b8.g128,f16.u4b8.gch,s8.u4b8.g128,e4m3.u4b8.g128 --no-baselines
      --graph-batch 32 --iters 30 --quiet)
MIXGEMM_PRINT_CONFIG=1 timeout 90 $B "${args[@]}" --csv "$P/fallback-auto.csv" > "$P/fallback-auto.log" 2>&1
echo "fallback shapes, auto rc=$? at $((SECONDS - t0)) s"
MIXGEMM_SMALLM_CLUSTER=0 timeout 90 $B "${args[@]}" --csv "$P/fallback-nocluster.csv" > "$P/fallback-nocluster.log" 2>&1
echo "fallback shapes, cluster off rc=$? at $((SECONDS - t0)) s"
grep -h "split-K\|workspace" "$P/fallback-auto.log" | sort | uniq -c | head -8
exec bash bench/results/2026-12-07-h200/s110-next/call110.sh
