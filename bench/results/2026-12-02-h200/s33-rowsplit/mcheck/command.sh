#!/usr/bin/env bash
# Session 33 call 4: the final row-split rule at M values not in the derivation grid (1600, 1856, 3136, 4160 split;
# 160, 416, 704, 1440 do not), on main after the merge; A/B MIXGEMM_ROW_SPLIT=0 / 1 / 1 / 0 in one build, the
# derivation shapes (train-*) and the held-out shapes (heldout-*) of call 3.
#
S=.s33
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; R=/tmp/rsm; rm -rf $R; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
cmake -S . -B build-rs -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 -DMIXGEMM_BUILD_TESTS=OFF \
  > $R/build.log 2>&1 && cmake --build build-rs -j 16 --target mixgemm-bench \
  >> $R/build.log 2>&1 || { tail -30 $R/build.log; exit 2; }
echo "build $((SECONDS - T0)) s"
i=0
for v in 0 1 1 0; do
  i=$((i + 1))
  for g in train heldout; do
    if [ $g = train ]; then SH="--shapes llama2-7b,llama3-8b,llama2-70b,seed"; else
      SH="--shapes llama3-405b --tp 8 --shape 59136x8192 --shape 8192x29568 --shape 37888x3584 --shape 3584x18944"; fi
    MIXGEMM_ROW_SPLIT=$v timeout 200 build-rs/tools/mixgemm-bench $SH \
      --m 160,416,704,1440,1600,1856,3136,4160 \
      --types f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 \
      --no-baselines --iters 20 --warmup 3 --settle-ms 0 --csv "$R/$g-rs$v-$i.csv" --git-commit "$(cat $S/commit.txt)" \
      --summary-m none --quiet > "$R/$g-rs$v-$i.txt" 2>&1
    echo "bench $g MIXGEMM_ROW_SPLIT=$v run $i rc=$? at $((SECONDS - T0)) s"
  done
done
cp $S/mcheck.sh $R/command.sh; cp $S/commit.txt $R/
tar czf $OUT/rsm.tgz -C $R .
python3 - $R <<'PY'
import csv, math, sys, collections
for g in ("train", "heldout"):
    d = collections.defaultdict(lambda: collections.defaultdict(list))
    for v, runs in (("0", (1, 4)), ("1", (2, 3))):
        for i in runs:
            for r in csv.DictReader(open(f"{sys.argv[1]}/{g}-rs{v}-{i}.csv")):
                if r["kernel"] == "mixgemm" and r["us_median"]:
                    d[(r["shape"], r["type_spec"], int(r["M"]))][v].append((float(r["us_median"]), r["schedule"]))
    s = collections.defaultdict(list)
    for k, v in sorted(d.items()):
        if len(v["0"]) < 2 or len(v["1"]) < 2: continue
        t0 = sum(x[0] for x in v["0"]) / 2; t1 = sum(x[0] for x in v["1"]) / 2
        split = "[" in v["1"][0][1]
        s[(k[1], split)].append(math.log(t1 / t0))
        if split and t1 / t0 > 1.0: print(f"{g} slower: {k} {t0:.1f} -> {t1:.1f}")
    for (t, split), L in sorted(s.items()):
        print(f"{g} {t} {'split' if split else 'one'}: {len(L)} pts, geomean {math.exp(sum(L) / len(L)):.3f}, best {math.exp(min(L)):.3f}, worst {math.exp(max(L)):.3f}")
PY
