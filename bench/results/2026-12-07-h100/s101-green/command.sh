#!/usr/bin/env bash
# Session 101: can an H100 stand in for the H200 in the decode loops? The H200 streams 4.27 TB/s over 132 SMs
# (32 GB/s per SM); an H100 3.0 TB/s, so on 96 of its SMs (a green context, mixgemm-bench --green-sms 96, mixgemm
# planning for them through GemmArgs::sm_count) each SM must take about the H200's bytes. If the H100's f16 / e4m3 decode
# rows then cost more per byte than s8's, as the H200's do (decode_fit slopes 1.23-1.42 against ~1.0-1.06,
# ../../2026-12-06-h200/s97-graph/decode_fit.txt), an H100 can time decode-loop changes for the H200.
# One bench run per SM count (the whole GPU, then 96 SMs): f16 / s8 / e4m3 x u4b8 g128, M = 1 / 8 / 16, the seed shape
# and Llama-2-70B, CUDA graphs of 32 launches (as s97-graph; EVENT=1: event-timed, as the sweeps), --stream-read rows,
# --verify; then decode_fit on each. SMS_LIST: the SM counts (0: the whole GPU, no green context).
#   BENCH=<mixgemm-bench> MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-07-h100/s101-green/command.sh   (repo root)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
R=/tmp/s101green; rm -rf "$R"; mkdir -p "$R"; T0=$SECONDS
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$R/gpu.txt"
cp "$0" "$R/command.sh"
BENCH=${BENCH:-build/tools/mixgemm-bench}
for sms in ${SMS_LIST:-0 96}; do
  d=$R/sms$sms; mkdir -p "$d"
  extra="--m 1,8,16 --no-baselines --stream-read --summary-m 1,8,16"
  [ "${EVENT:-0}" = 1 ] || extra="$extra --graph-batch 32"
  [ "$sms" != 0 ] && extra="$extra --green-sms $sms"
  BENCH=$BENCH MIXGEMM_GIT_COMMIT=${MIXGEMM_GIT_COMMIT:-unknown} ITERS=20 WARMUP=10 SETTLE_MS=300 TIME_LIMIT=${TIME_LIMIT:-150} \
    SHAPES=seed,llama2-70b TYPES=${TYPES_LIST:-f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128} EXTRA="$extra" \
    bash scripts/run_bench_h200.sh "$d" > "$d/run.log" 2>&1
  echo "sms=$sms rc=$? at $((SECONDS - T0)) s: $(grep -m1 'device-to-device copy' "$d/bench.txt" | cut -c1-60)"
  grep -m1 '^green context' "$d/bench.txt"
  python3 scripts/decode_fit.py "$d/bench.csv" 1,8,16 $([ "${EVENT:-0}" = 1 ] || echo --t0 0.87) > "$d/decode_fit.txt" 2>&1
  head -10 "$d/decode_fit.txt" | cut -c1-62
  grep -h 'VERIFY FAILED' "$d/bench.stderr.log" | head -3
  gzip -f "$d/bench.json" "$d/bench.stderr.log" 2>/dev/null
done
(cd "$R" && tar czf "$OUT/s101-green.tgz" .)
echo "total $((SECONDS - T0)) s"
