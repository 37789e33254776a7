#!/usr/bin/env bash
# Session 108: the H200 queue's item 2, the held-out half of session 107's decode regrets
# (../s107-allsched/README.md). Every f16 / s8 x u4b8 g128 schedule at M = 1 / 8 / 16 on layers that session 107's
# table did not contain, one bench process per layer, CUDA graphs of 32 launches, cold L2, the whole card: the
# table on which a rule drawn from session 107's three regrets (f16 M = 1 / 8 on a K <= 4096 gate_up to sm90 256 x 16,
# t16_w8_o1 over t8_w8_o1 on 4096 x 4096-sized layers, grouped s8 M = 16 on large layers to sm90) is scored before
# it can change the heuristic. Only on an H200 (the decode picks are the H200's; an H100 stand-in overstated the
# regret by half in session 107). Bench: .s103/bench.xz (carry .s103; c5284e5c's device code = today's default).
# BENCH_XZ picks another prebuilt bench (e.g. .s108/bench.xz), LAYERS another list, STOP_AT (seconds) ends the loop early.
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-07-h200/s108-next/heldout.sh   (repo root, device; ~3 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-$PWD/device-out}; R=/tmp/s108-heldout; rm -rf "$R"; mkdir -p "$R" "$OUT"; t0=$SECONDS
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "$gpu" | tee "$R/gpu.txt"
case "$gpu" in *H200*) ;; *) echo "not an H200: nothing run"; exit 0 ;; esac
cp "$0" "$R/command.sh"
B=./build/tools/mixgemm-bench
X=${BENCH_XZ:-.s103/bench.xz}
mkdir -p build/tools && xz -dc $X > $B && chmod +x $B || { echo "no $X: carry its folder"; exit 1; }
# Held-out layers (N x K; none is in session 107's table):
#  gate_up-like, K <= 5120: Llama-2-7B gate_up, Qwen2.5-7B gate_up, Llama-2-13B gate_up, Gemma-7B gate_up,
#    Llama-3.2-3B gate_up, Llama-3 lm_head;
#  small square-ish: Llama-2-13B o, Qwen2.5-7B o / qkv, Llama-3.2-3B o, Llama-2-7B qkv;
#  large, K = 16384 / 8192 (session 95's two losers, and a 70B gate_up at TP 2).
layers=${LAYERS:-"22016x4096 37888x3584 27648x5120 49152x3072 16384x3072 128256x4096 5120x5120 3584x3584 4608x3584 3072x3072 12288x4096 13312x16384 9216x16384 28672x8192"}
for l in $layers; do
  if [ -n "${STOP_AT:-}" ] && [ $((SECONDS - t0)) -ge $STOP_AT ]; then echo "stopped before $l (STOP_AT=$STOP_AT s)"; break; fi
  for t in f16.u4b8.g128 s8.u4b8.g128; do
    f=$R/allsched-$t-$l
    $B --shape $l --m 1,8,16 --types $t --all-schedules --no-baselines --graph-batch 32 \
      --iters 15 --warmup 3 --settle-ms 30 --git-commit ${MIXGEMM_GIT_COMMIT:-unknown} --csv "$f.csv" > "$f.txt" 2> "$f.stderr.log"
  done
  echo "$l at $((SECONDS - t0)) s: $(cat "$R"/allsched-*-$l.csv | grep -c ',ok,') ok rows"
  (cd "$R" && tar czf "$OUT/heldout.tgz" .)  # what is done so far comes back if the call is cut short
done
shape_args=(); for l in $layers; do shape_args+=(--shape $l); done
$B --plan "${shape_args[@]}" --types f16.u4b8.g128,s8.u4b8.g128 --m 1,8,16 2>/dev/null | grep -v "^#" > "$R/plan132.csv"
(cd "$R" && tar czf "$OUT/heldout.tgz" .)
echo "total $((SECONDS - t0)) s"
