#!/usr/bin/env bash
# Session 33 call 3: the row split's final rule (commit in commit.txt): CPU Dispatch tests, GPU GemmApi.*
# (RowSplit* at 288 x 28672 x 2048, every type), memcheck of RowSplit*, then the A/B in one build,
# MIXGEMM_ROW_SPLIT=0 / 1 / 1 / 0: the grid the rule was derived from (call 2: llama2-7b, llama3-8b,
# llama2-70b, seed) and held-out shapes (llama3-405b at tp 8, Qwen2-72B and Qwen2-7B MLP layers).
S=.s33
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; R=/tmp/rsf; rm -rf $R; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
cmake -S . -B build-rs -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
  > $R/build.log 2>&1 && cmake --build build-rs -j 16 --target mixgemm-bench mixgemm_gpu_tests mixgemm_cpu_tests \
  >> $R/build.log 2>&1 || { tail -30 $R/build.log; exit 2; }
echo "build $((SECONDS - T0)) s"
build-rs/tests/mixgemm_cpu_tests --gtest_filter='Dispatch.*' > $R/cpu-dispatch.log 2>&1; echo "cpu Dispatch rc=$? $(tail -1 $R/cpu-dispatch.log)"
timeout 300 build-rs/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.*' > $R/gpu-gemm.log 2>&1
echo "gpu GemmApi rc=$? $(grep -E '^\[  (PASSED|FAILED)' $R/gpu-gemm.log | tr '\n' ' ')"; grep -E '^\[       OK|FAILED  \]' $R/gpu-gemm.log
MIXGEMM_PRINT_CONFIG=1 build-rs/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.RowSplit*' 2> $R/print-config.txt > /dev/null
timeout 200 compute-sanitizer --tool memcheck build-rs/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.RowSplit*' \
  > $R/memcheck.log 2>&1; echo "memcheck rc=$? $(grep 'ERROR SUMMARY' $R/memcheck.log | tail -1)"
i=0
for v in 0 1 1 0; do
  i=$((i + 1))
  for g in train heldout; do
    if [ $g = train ]; then SH="--shapes llama2-7b,llama3-8b,llama2-70b,seed"; else
      SH="--shapes llama3-405b --tp 8 --shape 59136x8192 --shape 8192x29568 --shape 37888x3584 --shape 3584x18944"; fi
    MIXGEMM_ROW_SPLIT=$v timeout 200 build-rs/tools/mixgemm-bench $SH \
      --m 256,288,320,384,512,544,576,640,768,800,1024,1088,1280,1312,2048,2112,2560,2624 \
      --types f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 \
      --no-baselines --iters 20 --warmup 3 --settle-ms 0 --csv "$R/$g-rs$v-$i.csv" --git-commit "$(cat $S/commit.txt)" \
      --summary-m none --quiet > "$R/$g-rs$v-$i.txt" 2>&1
    echo "bench $g MIXGEMM_ROW_SPLIT=$v run $i rc=$? at $((SECONDS - T0)) s"
  done
done
cp $S/final.sh $R/command.sh; cp $S/commit.txt $R/
tar czf $OUT/rsf.tgz -C $R .
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
