#!/usr/bin/env bash
# Session 33 call 5: the row-split rule as committed (commit.txt: the 8-bit tail priced halfway to the 16-bit
# model) on shapes and M values none of the rule's constants came from: Llama-2-70B at tp 2 and the Llama-2-13B
# layers (15360x5120, 5120x5120, 27648x5120, 5120x13824), M = 280 .. 4130. A/B MIXGEMM_ROW_SPLIT=0 / 1 / 1 / 0
# in one build, f16 / bf16 / s8 / e4m3 x u4b8 g128.
S=.s33
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; R=/tmp/rsx; rm -rf $R; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
cmake -S . -B build-rs -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 -DMIXGEMM_BUILD_TESTS=OFF \
  > $R/build.log 2>&1 && cmake --build build-rs -j 16 --target mixgemm-bench >> $R/build.log 2>&1 || { tail -30 $R/build.log; exit 2; }
echo "build $((SECONDS - T0)) s"
i=0
for v in 0 1 1 0; do
  i=$((i + 1))
  MIXGEMM_ROW_SPLIT=$v timeout 200 build-rs/tools/mixgemm-bench --shapes llama2-70b --tp 2 --shape 15360x5120 \
    --shape 5120x5120 --shape 27648x5120 --shape 5120x13824 --m 280,300,560,600,1060,1100,1300,1560,2080,2600,3100,4130 \
    --types f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 \
    --no-baselines --iters 20 --warmup 3 --settle-ms 0 --csv "$R/fresh-rs$v-$i.csv" --git-commit "$(cat $S/commit.txt)" \
    --summary-m none --quiet > "$R/fresh-rs$v-$i.txt" 2>&1
  echo "bench MIXGEMM_ROW_SPLIT=$v run $i rc=$? at $((SECONDS - T0)) s"
done
cp $S/fresh.sh $R/command.sh; cp $S/commit.txt $R/
tar czf $OUT/rsx.tgz -C $R .
python3 - $R <<'PY'
import csv, math, sys, collections
d = collections.defaultdict(lambda: collections.defaultdict(list))
for v, runs in (("0", (1, 4)), ("1", (2, 3))):
    for i in runs:
        for r in csv.DictReader(open(f"{sys.argv[1]}/fresh-rs{v}-{i}.csv")):
            if r["kernel"] == "mixgemm" and r["us_median"]:
                d[(r["shape"], r["type_spec"], int(r["M"]))][v].append((float(r["us_median"]), r["schedule"]))
s = collections.defaultdict(list)
for k, v in sorted(d.items()):
    t0 = sum(x[0] for x in v["0"]) / 2; t1 = sum(x[0] for x in v["1"]) / 2
    split = "[" in v["1"][0][1]
    s[(k[1], split)].append(math.log(t1 / t0))
    if split and t1 / t0 > 1.0: print(f"slower: {k} {t0:.1f} -> {t1:.1f}")
for (t, split), L in sorted(s.items()):
    print(f"{t} {'split' if split else 'one'}: {len(L)} pts, geomean {math.exp(sum(L) / len(L)):.3f}, best {math.exp(min(L)):.3f}, worst {math.exp(max(L)):.3f}")
PY
