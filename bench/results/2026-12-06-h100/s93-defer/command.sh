#!/usr/bin/env bash
# Session 93: the deferred reduction grid against the in-kernel reduction on today's decode kernels (session 38 last
# compared them, on the H200, with the kernels of then), beside the partial-sum form: the picks through gemm() with
# MIXGEMM_SMALLM_DEFER unset (deferred grid) and =0 (the last-arriving CTA reduces), in the order deferred, inkernel,
# inkernel, deferred, one process each, CUDA graphs of 32 launches, cold L2; seed + Llama-2-70B + Llama-3-8B, M = 1 / 8,
# f16 / s8 x u4b8 g128. Carry .s91 (session 91's bench; decode kernels = today's).
#   bash bench/results/2026-12-06-h200/s93-next/defer93.sh      (repo root, device; ~3 min)
source bench/results/2026-12-06-h200/s91-next/bench_ref_env.sh  # $OUT, t0, B (the bench), C (its commit)
nvidia-smi > "$OUT/raw/gpu.txt" 2>&1; grep -m1 -o "NVIDIA H[0-9]*[^|]*" "$OUT/raw/gpu.txt" | tee "$OUT/gpu.txt"
COMMON="--shapes ${DF_SHAPES:-seed,llama2-70b,llama3-8b} --m ${DF_M:-1,8} --types f16.u4b8.g128,s8.u4b8.g128 --iters 20 --warmup 5 --settle-ms 150 --graph-batch 32 --no-baselines --git-commit $C"
i=0
for arm in deferred inkernel inkernel deferred; do
  i=$((i + 1))
  if [ $arm = inkernel ]; then export MIXGEMM_SMALLM_DEFER=0; else unset MIXGEMM_SMALLM_DEFER; fi
  $B $COMMON --time-limit ${DF_PASS_S:-60} --csv "$OUT/$i-$arm.csv" > "$OUT/raw/$i-$arm.txt" 2> "$OUT/raw/$i-$arm.stderr.log"
  echo "pass $i $arm rc=$? at $((SECONDS - t0)) s"
done
unset MIXGEMM_SMALLM_DEFER
cp "$0" "$OUT/raw/command.sh"
python3 - "$OUT" > "$OUT/table.txt" <<'PY'
import csv, glob, math, os, sys
from collections import defaultdict
t = defaultdict(lambda: defaultdict(list))
for f in sorted(glob.glob(os.path.join(sys.argv[1], "[0-9]-*.csv"))):
    arm = os.path.basename(f)[2:-4]
    for r in csv.DictReader(open(f)):
        if r["kernel"] == "mixgemm" and r["status"] == "ok":
            t[(r["a_type"], r["shape"], int(r["M"]), r["schedule"])][arm].append(float(r["us_median"]))
print(f"{'act':<4} {'shape':<20} {'M':>2} {'deferred':>9} {'inkernel':>9} {'ink/def':>8}  schedule")
rat = defaultdict(list)
for k in sorted(t):
    d = {a: sum(v) / len(v) for a, v in t[k].items()}
    if "deferred" in d and "inkernel" in d:
        q = d["inkernel"] / d["deferred"]; rat[k[0]].append(q)
        print(f"{k[0]:<4} {k[1]:<20} {k[2]:>2} {d['deferred']:9.2f} {d['inkernel']:9.2f} {q:8.3f}  {k[3]}")
for a, v in rat.items():
    print(f"{a}: inkernel / deferred geomean {math.exp(sum(map(math.log, v)) / len(v)):.3f} ({min(v):.3f} .. {max(v):.3f}, {len(v)} points)")
PY
(cd "$OUT" && tar czf raw.tar.gz raw && rm -rf raw)
cat "$OUT/table.txt"; echo "total $((SECONDS - t0)) s"
