#!/usr/bin/env bash
# Session 101, for the next session with an H100: every decode schedule in the H200's regime. The heuristic's decode
# constants were fitted on the H200 (sessions 39-42 on older kernels); on a whole H100 its picks are 1.0145x the fastest
# schedule (../../2026-12-06-h100/s91-allsched/), but that card's loops are not the H200's. On a green context of
# SMS (default 80) SMs they are (../../2026-12-07-h100/s101-green/): this times every schedule of f16 / s8 x u4b8 g128
# (--all-schedules, forced schedules planned for SMS SMs), Llama-2-70B and Llama-3-8B, M = 1 / 8 / 16, CUDA graphs of 32
# launches, cold L2, and scores the H200's picks (plan132.csv, `mixgemm-bench --plan --sm-count 132`, this folder) and
# the picks for SMS SMs (plan80.csv) with ../../2026-12-06-h100/s91-allsched/regret.py. ~8 min; $OUT/allsched-green.tgz.
#   BENCH=<mixgemm-bench with --green-sms> bash bench/results/2026-12-07-h200/s101-next/allsched_green.sh   (repo root)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-$PWD/device-out}; R=/tmp/allsched-green; rm -rf "$R"; mkdir -p "$R" "$OUT"; t0=$SECONDS
H=bench/results/2026-12-07-h200/s101-next
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$R/gpu.txt"; cp "$0" "$R/command.sh"
for t in f16.u4b8.g128 s8.u4b8.g128; do
  ${BENCH:?} --shapes llama2-70b,llama3-8b --m 1,8,16 --types $t --all-schedules --no-baselines --graph-batch 32 \
    --iters 15 --warmup 3 --settle-ms 30 --time-limit ${TLIMIT:-220} --green-sms ${SMS:-80} \
    --git-commit ${MIXGEMM_GIT_COMMIT:-unknown} --csv "$R/allsched-$t.csv" > "$R/allsched-$t.txt" 2> "$R/allsched-$t.stderr.log"
  echo "$t rc=$? at $((SECONDS - t0)) s: $(grep -c ',ok,' "$R/allsched-$t.csv") ok rows; $(grep -m1 '^green' "$R/allsched-$t.txt")"
done
for p in plan132 plan80; do
  python3 bench/results/2026-12-06-h100/s91-allsched/regret.py $H/$p.csv "$R"/allsched-*.csv > "$R/regret-$p.txt" 2>&1
  echo "== $p"; tail -3 "$R/regret-$p.txt"
done
(cd "$R" && tar czf "$OUT/allsched-green.tgz" .)
echo "total $((SECONDS - t0)) s"
