#!/usr/bin/env bash
# Session 102: session 101's allsched_green.sh (../../2026-12-07-h200/s101-next/) with one bench process per layer.
# Its one-process run (all layers in turn) timed the 8-warps-per-SM schedules (t8_w8_o1, t8_w4_o2, t16_*_o1/o2 with 4
# warps) 1.2-2.1x slower on Llama-3-8B qkv and o, and not when a layer ran in a process of its own or first
# (README.md here). Every f16 / s8 x u4b8 g128 schedule, Llama-2-70B and Llama-3-8B, M = 1 / 8 / 16, CUDA graphs of 32
# launches, cold L2, on a green context of SMS (default 80) SMs; the H200's picks (plan132.csv) and the 80-SM picks
# (plan80.csv) scored against the fastest with ../../2026-12-06-h100/s91-allsched/regret.py.
# SMS=0 (session 103): no green context, the whole card (the H200's own table).
#   BENCH=<mixgemm-bench with --green-sms> bash bench/results/2026-12-07-h100/s102-allsched-green/command.sh  (repo root)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-$PWD/device-out}; R=/tmp/allsched-green; rm -rf "$R"; mkdir -p "$R" "$OUT"; t0=$SECONDS
H=bench/results/2026-12-07-h200/s101-next
green=(--green-sms ${SMS:-80}); [ "${SMS:-80}" = 0 ] && green=()
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$R/gpu.txt"; cp "$0" "$R/command.sh"
for t in f16.u4b8.g128 s8.u4b8.g128; do
  # ONE_PROCESS=1: all layers in one bench process, as session 101's allsched_green.sh ran them (README.md: unusable).
  layers="llama2-70b/qkv llama2-70b/o llama2-70b/gate_up llama2-70b/down llama3-8b/qkv llama3-8b/o llama3-8b/gate_up llama3-8b/down"
  [ "${ONE_PROCESS:-0}" = 1 ] && layers="llama2-70b,llama3-8b"
  for l in $layers; do
    f=$R/allsched-$t-${l//[\/,]/-}
    ${BENCH:?} --shapes $l --m 1,8,16 --types $t --all-schedules --no-baselines --graph-batch 32 \
      --iters 15 --warmup 3 --settle-ms 30 "${green[@]}" \
      --git-commit ${MIXGEMM_GIT_COMMIT:-unknown} --csv "$f.csv" > "$f.txt" 2> "$f.stderr.log"
  done
  echo "$t at $((SECONDS - t0)) s: $(cat "$R"/allsched-$t-*.csv | grep -c ',ok,') ok rows"
done
for p in plan132 plan80; do
  python3 bench/results/2026-12-06-h100/s91-allsched/regret.py $H/$p.csv "$R"/allsched-*.csv > "$R/regret-$p.txt" 2>&1
  echo "== $p"; tail -4 "$R/regret-$p.txt"
done
(cd "$R" && tar czf "$OUT/allsched-green.tgz" .)
echo "total $((SECONDS - t0)) s"
