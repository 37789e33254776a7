#!/usr/bin/env bash
# Session 28, device call 3: sm90 128 x 64 at two CTAs per SM (wip/sm90-2cta) against main's 128 x 64 and 256 x 64,
# forced schedules, M = 16 / 32 / 64, f16 and s8 x u4b8 g128, seed + Llama-2-70B + Llama-3-8B.
export AB_SM90_TYPES=f16.u4,s8.u4 AB_SM90_SCHEDULES=128x64_1x1x1_coop_splitk,256x64_1x1x1_coop_splitk \
  AB_SHAPES=seed,llama2-70b,llama3-8b AB_MS=16,32,64 AB_TYPES=f16.u4b8.g128,s8.u4b8.g128 AB_SETTLE_MS=100 \
  AB_TEST_FILTER='Sm90.W4W8A16_F16:Sm90.W4A8_S8:Sm90.StreamK:Sm90.TailSplit:Sm90Sanitize.*' \
  AB_BENCH_EXTRA="--schedule sm90_128x64_1x1x1_coop_splitk"
timeout 420 bash scripts/device_sm90_multi.sh .s28/twocta.patch 2>&1 | grep -v "^bench "
# main's 256 x 64 (the heuristic's pick at M = 17..64) on the same points, same settings
for i in 1 2; do
  timeout 60 /tmp/v0/build/tools/mixgemm-bench --shapes $AB_SHAPES --m $AB_MS --types $AB_TYPES --no-baselines \
    --iters 20 --warmup 3 --settle-ms 100 --schedule sm90_256x64_1x1x1_coop_splitk --csv /tmp/multi/base256-$i.csv \
    --summary-m none --quiet > /tmp/multi/base256-$i.txt 2>&1; echo "base256-$i rc=$?"
done
tar czf "$OUT/multi.tar.gz" -C /tmp multi
python3 - <<'PY'
import csv, math
def load(f):
    try: return {(r["shape"], r["type_spec"], int(r["M"])): float(r["us_median"]) for r in csv.DictReader(open(f)) if r["kernel"] == "mixgemm" and r["us_median"]}
    except Exception: return {}
R = "/tmp/multi/"
b = [load(R + f"base-{i}.csv") for i in (1, 2)]; c = [load(R + f"twocta-{i}.csv") for i in (1, 2)]; w = [load(R + f"base256-{i}.csv") for i in (1, 2)]
ks = sorted(k for k in b[0] if all(k in d for d in b + c + w))
print(f"{'shape':20s} {'type':16s} {'M':>3s} {'256x64':>8s} {'128x64':>8s} {'2cta':>8s} 2cta/256")
for t in sorted({k[1] for k in ks}):
    for m in sorted({k[2] for k in ks}):
        l = [math.log((c[0][k] + c[1][k]) / (w[0][k] + w[1][k])) for k in ks if k[1] == t and k[2] == m]
        if l: print(f"geomean 2cta/256x64 {t} M={m}: {math.exp(sum(l) / len(l)):.3f}")
for k in ks:
    f = lambda d: (d[0][k] + d[1][k]) / 2
    print(f"{k[0]:20s} {k[1]:16s} {k[2]:3d} {f(w):8.2f} {f(b):8.2f} {f(c):8.2f} {f(c) / f(w):.3f}")
PY
