#!/usr/bin/env bash
# Session 91: mixgemm's picks against IST-DASLab's Marlin (W4A16) and HandH1998's QQQ (W4A8) on the card that comes,
# in one run with cuBLAS fp16: seed + Llama-2-70B + Llama-3-8B, M = 1..128, g128 and per-channel, event-timed and in
# CUDA graphs (32 launches per replay), cold L2. Session 51 did this on an H200 (../../2026-12-03-h200/s51-marlin/,
# s51-qqq/) with the kernels of then; no H100 comparison exists. Binary built on the dev machine by
# scripts/build_reference_kernels.sh (sm90: f16.u4, bf16.u4, s8.u4, e4m3.u4, every schedule; smallm: all) and carried
# in .s91/ (bench-ref, commit.txt). Marlin 2f6d7c1 and QQQ 54c5c99, changed only as that script says.
#   bash bench/results/2026-12-06-h200/s91-next/refs91.sh      (repo root, device; carry .s91; ~4-5 min)
# REFS_M / REFS_TYPES narrow the sweep; REFS_EVENT_S / REFS_TOTAL_S are the event pass's and the whole run's time limits.
source bench/results/2026-12-06-h200/s91-next/bench_ref_env.sh  # $OUT, t0, B (the bench), C (its commit)
nvidia-smi > "$OUT/raw/gpu.txt" 2>&1; head -12 "$OUT/raw/gpu.txt" | grep -m1 -o "NVIDIA H[0-9]*[^|]*" | tee "$OUT/gpu.txt"
$B --shape 8192x8192 --m 1,16,64 --types f16.u4b8.g128,s8.u4b8.g128 --no-baselines --marlin --qqq --iters 3 --warmup 1 \
  --settle-ms 0 > "$OUT/raw/smoke.txt" 2>&1
rc=$?; echo "smoke rc=$rc: $(grep -c marlin_w4a16 "$OUT/raw/smoke.txt") marlin, $(grep -c qqq_w4a8 "$OUT/raw/smoke.txt") qqq lines"
if [ $rc = 0 ]; then
  COMMON="--shapes seed,llama2-70b,llama3-8b --m ${REFS_M:-1,2,4,8,16,32,64,128} --types ${REFS_TYPES:-f16.u4b8.g128,f16.u4b8.gch,s8.u4b8.g128,s8.u4b8.gch} --baselines cublas_fp16 --marlin --qqq --iters 40 --warmup 5 --settle-ms 150 --git-commit $C"
  $B $COMMON --time-limit ${REFS_EVENT_S:-235} --csv "$OUT/event.csv" --json "$OUT/raw/event.json" > "$OUT/raw/event.txt" 2> "$OUT/raw/event.stderr.log"
  echo "event rc=$? at $((SECONDS - t0)) s"
  $B $COMMON --time-limit $(( ${REFS_TOTAL_S:-500} - (SECONDS - t0) )) --graph-batch 32 --csv "$OUT/graph.csv" --json "$OUT/raw/graph.json" \
    > "$OUT/raw/graph.txt" 2> "$OUT/raw/graph.stderr.log"
  echo "graph rc=$? at $((SECONDS - t0)) s"
  for m in event graph; do
    python3 scripts/reference_compare.py --reference marlin_w4a16 "$OUT/$m.csv" > "$OUT/$m-marlin.txt"
    python3 scripts/reference_compare.py --reference qqq_w4a8 "$OUT/$m.csv" > "$OUT/$m-qqq.txt"
  done
fi
cp "$0" "$OUT/raw/command.sh"
(cd "$OUT" && tar czf raw.tar.gz raw && rm -rf raw)
for m in event graph; do echo "== $m marlin"; tail -6 "$OUT/$m-marlin.txt"; echo "== $m qqq"; tail -6 "$OUT/$m-qqq.txt"; done
echo "total $((SECONDS - t0)) s"
