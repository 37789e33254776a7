#!/usr/bin/env bash
# Session 47, call 1: TM 8/16 smallm kernels compiled for one CTA per SM (ptxas may use 150 registers instead of 128)
# and the TM 8 row loop unrolled by two on top, against main, f16 x u4b8 g128 at the picks, M = 1 / 8, CUDA graphs;
# then every schedule of Llama-3-8B at M = 1 on main and on the 1-CTA build.
AB_SM90_TYPES=f16.u4 AB_SM90_SCHEDULES=256x64_1x1x1_coop_splitk AB_SHAPES=llama3-8b,llama2-70b,seed AB_MS=1,8 \
AB_TYPES=f16.u4b8.g128 AB_SETTLE_MS=0 AB_BENCH_EXTRA="--graph-batch 32 --iters 40" \
  timeout 400 bash scripts/device_sm90_multi.sh .s47/minb1.patch .s47/minb1-unroll2.patch
for j in 0 1; do
  timeout 90 /tmp/v$j/build/tools/mixgemm-bench --shapes llama3-8b --m 1 --types f16.u4b8.g128 --all-schedules \
    --no-baselines --iters 20 --warmup 3 --settle-ms 0 --graph-batch 32 --csv $OUT/allsched-v$j.csv --summary-m none \
    --quiet > $OUT/allsched-v$j.txt 2>&1
  echo "allsched v$j rc=$?"
done
python3 - <<'PY'
import csv, os
out = os.environ["OUT"]
for j in (0, 1):
    p = f"{out}/allsched-v{j}.csv"
    if not os.path.exists(p): continue
    rows = list(csv.DictReader(open(p)))
    keys = rows[0].keys() if rows else []
    tcol = "us_median"
    print(j, "cols:", list(keys)[:30]) if tcol is None else None
    best = {}
    for r in rows:
        if tcol is None: break
        if r.get("kernel") != "mixgemm": continue
        s = r.get("shape")
        best.setdefault(s, []).append((float(r[tcol]), r.get("schedule")))
    for s, v in best.items():
        v.sort(); print(f"v{j} {s}: " + ", ".join(f"{n} {t:.2f}" for t, n in v[:4]))
PY
