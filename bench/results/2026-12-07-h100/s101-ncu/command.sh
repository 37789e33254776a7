#!/usr/bin/env bash
# Session 101: Nsight Compute on the decode row loop in the H200's regime without an H200: the heuristic's f16 and s8
# g128 launch at M = 1 on Llama-2-70B gate_up (57344 x 8192), on the whole H100 and on a green context of 80 SMs
# (../../2026-12-07-h100/s101-green/), one profiled launch each (SpeedOfLight, SchedulerStats, WarpStateStats,
# SourceCounters; clocks not locked), then scripts/ncu_summary.py --reasons --regions. $OUT/ncu-green.tgz.
#   BENCH=<mixgemm-bench with --green-sms> bash bench/results/2026-12-07-h200/s101-next/ncu_green.sh   (repo root)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; R=/tmp/ncu-green; rm -rf "$R"; mkdir -p "$R" "$OUT"; t0=$SECONDS
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$R/gpu.txt"; cp "$0" "$R/command.sh"
for t in f16 s8; do for sms in 0 80; do
  g=""; [ $sms != 0 ] && g="--green-sms $sms"
  n=${t}_sms$sms
  timeout 150 ncu --clock-control none --kernel-name regex:smallm --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section SchedulerStats --section WarpStateStats --section SourceCounters -o "$R/$n" \
    ${BENCH:?} --shape 57344x8192 --m 1 --types $t.u4b8.g128 --iters 3 --warmup 2 --settle-ms 0 --copy-gib 0.25 \
    --no-baselines $g > "$R/$n.log" 2>&1
  echo "$n rc=$? at $((SECONDS - t0)) s: $(grep -m1 -o 'smallm_t[0-9a-z_]*' "$R/$n.log")"
  ncu -i "$R/$n.ncu-rep" --page details > "$R/details_$n.txt" 2>&1
  ncu -i "$R/$n.ncu-rep" --page source --csv --print-source sass 2>/dev/null | gzip > "$R/source_$n.csv.gz"
  grep -h -E "^ +(Duration|Issued Warp Per Scheduler|No Eligible|Warp Cycles Per Issued|DRAM Throughput|SM Frequency)" \
    "$R/details_$n.txt" | sed 's/  */ /g' | tr '\n' ';'; echo
done; done
for f in "$R"/source_*.csv.gz; do echo "== $f"; python3 scripts/ncu_summary.py --reasons "$f" 2>&1 | head -20; done > "$R/summary.txt"
head -60 "$R/summary.txt"
(cd "$R" && tar czf "$OUT/ncu-green.tgz" --exclude="*.ncu-rep" .)
echo "total $((SECONDS - t0)) s"
