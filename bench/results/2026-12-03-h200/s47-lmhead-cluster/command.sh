#!/usr/bin/env bash
# Session 47, call 2: (1) Llama-3-8B's lm_head (N = 128256, K = 4096) at M = 1 / 8, every schedule, beside the bench's
# pure read, CUDA graphs; (2) every schedule of the Llama-3-8B layers at M = 1 / 8 with the cluster split-K forced
# wherever its clusters are resident (.s47/clusterforce.patch: MIXGEMM_SMALLM_CLUSTER=force makes kAuto kForce),
# against the same build without the variable (the heuristic's rules), MIXGEMM_PRINT_CONFIG=1 showing which ran.
set -u
T0=$SECONDS
CF=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=256x64_1x1x1_coop_splitk
    -DMIXGEMM_BUILD_TESTS=OFF)
rm -rf /tmp/cf && mkdir -p /tmp/cf && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/cf
(cd /tmp/cf && patch -p1 --forward < .s47/clusterforce.patch) > $OUT/patch.log 2>&1 || { cat $OUT/patch.log; exit 3; }
( cmake -S . -B build "${CF[@]}" && cmake --build build -j 8 --target mixgemm-bench ) > $OUT/build.log 2>&1 &
( cmake -S /tmp/cf -B /tmp/cf/build "${CF[@]}" && cmake --build /tmp/cf/build -j 8 --target mixgemm-bench ) > $OUT/build-cf.log 2>&1 &
wait
echo "builds at $((SECONDS - T0)) s"
B=build/tools/mixgemm-bench
BC=/tmp/cf/build/tools/mixgemm-bench
[ -x $B ] && [ -x $BC ] || { tail -20 $OUT/build.log $OUT/build-cf.log; exit 1; }
COMMON=(--no-baselines --iters 40 --warmup 3 --settle-ms 0 --graph-batch 32 --summary-m none)
timeout 150 $B --shape 128256x4096 --m 1,8 --types f16.u4b8.g128 --all-schedules --stream-read "${COMMON[@]}" \
  --csv $OUT/lmhead-allsched.csv > $OUT/lmhead-allsched.txt 2>&1
echo "lmhead rc=$? at $((SECONDS - T0)) s"
for v in auto force; do
  E=(); [ $v = force ] && E=(env MIXGEMM_SMALLM_CLUSTER=force)
  MIXGEMM_PRINT_CONFIG=1 timeout 150 "${E[@]}" $BC --shapes llama3-8b --m 1,8 --types f16.u4b8.g128 --all-schedules \
    "${COMMON[@]}" --csv $OUT/l3-allsched-$v.csv > $OUT/l3-allsched-$v.txt 2> $OUT/l3-config-$v.txt
  echo "l3 $v rc=$? at $((SECONDS - T0)) s"
done
grep -E "custom" $OUT/lmhead-allsched.txt | head -30
python3 - <<'PY'
import csv, os
out = os.environ["OUT"]
def load(f):
    return {(r["shape"], r["M"], r["schedule"]): float(r["us_median"]) for r in csv.DictReader(open(f)) if r["kernel"] == "mixgemm"}
a, f = load(f"{out}/l3-allsched-auto.csv"), load(f"{out}/l3-allsched-force.csv")
for k in sorted(a):
    if k in f and abs(f[k] / a[k] - 1) > 0.005:
        print(f"{k[0]:20s} M={k[1]:2s} {k[2]:24s} auto {a[k]:7.2f} force {f[k]:7.2f} ({f[k]/a[k]:.3f})")
best = {}
for d, tag in ((a, "auto"), (f, "force")):
    for (s, m, n), t in d.items():
        if (s, m) not in best or t < best[(s, m)][0]: best[(s, m)] = (t, tag, n)
for k in sorted(best): print("best", k, best[k])
PY
grep -c "cluster split-K" $OUT/l3-config-force.txt $OUT/l3-config-auto.txt
