#!/usr/bin/env bash
# Prepared in session 32 (no device time was left): the next session's first call, on a tree with
# branch wip/row-split checked out (it carries main as of session 32's end plus the row split).
# Run from the repository root on the device; S = the session's scratch folder (carry it),
# $S/commit.txt = the tree's HEAD.
#   rowsplit: build every type config's sm90 instances the bars use + the tests (~2 min), CPU
#     Dispatch.* tests, GPU GemmApi.* / GemmGraph.* (GemmApi.RowSplitMatchesReference: M = 576 as
#     512 + 64, f16 and bf16, against the CPU reference, bitwise twice), memcheck of the row-split
#     test, then the A/B in one build: MIXGEMM_ROW_SPLIT=0 / 1 / 1 / 0 (env, read once per process),
#     heuristic picks, f16 / s8 / e4m3 x u4b8 g128 on Llama-2-7B / Llama-3-8B / Llama-2-70B / seed at
#     the M values where the model splits (288, 320, 384, 544, 576, 640, 800, 1088, 1312, 2112, 2624)
#     plus controls (256, 512, 1024). The bench's `schedule` column shows the plan
#     ("...[256]+..."). ~4-5 min.
S=${S:-.s33}
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
case "${1:?usage: next-calls.sh rowsplit}" in
  rowsplit)
    T0=$SECONDS
    cmake -S . -B build-rs -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
      > "$OUT/build.log" 2>&1 && cmake --build build-rs -j 16 --target mixgemm-bench mixgemm_gpu_tests mixgemm_cpu_tests \
      >> "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 2; }
    echo "build $((SECONDS - T0)) s"
    build-rs/tests/mixgemm_cpu_tests --gtest_filter='Dispatch.*' > "$OUT/cpu-dispatch.log" 2>&1; echo "cpu Dispatch rc=$? $(tail -1 $OUT/cpu-dispatch.log)"
    timeout 300 build-rs/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.*:GemmGraph.*' > "$OUT/gpu-gemm.log" 2>&1
    echo "gpu GemmApi/GemmGraph rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/gpu-gemm.log | tr '\n' ' ')"
    timeout 200 compute-sanitizer --tool memcheck build-rs/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.RowSplit*' \
      > "$OUT/memcheck.log" 2>&1; echo "memcheck rc=$? $(grep 'ERROR SUMMARY' $OUT/memcheck.log | tail -1)"
    MIXGEMM_PRINT_CONFIG=1 build-rs/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.RowSplit*' 2> "$OUT/print-config.txt" > /dev/null
    i=0
    for v in 0 1 1 0; do
      i=$((i + 1))
      MIXGEMM_ROW_SPLIT=$v timeout 150 build-rs/tools/mixgemm-bench --shapes llama2-7b,llama3-8b,llama2-70b,seed \
        --m 256,288,320,384,512,544,576,640,800,1024,1088,1312,2112,2624 --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 \
        --no-baselines --iters 20 --warmup 3 --settle-ms 0 --csv "$OUT/rs$v-$i.csv" --git-commit "$(cat $S/commit.txt)" \
        --summary-m none --quiet > "$OUT/rs$v-$i.txt" 2>&1
      echo "bench MIXGEMM_ROW_SPLIT=$v run $i rc=$? at $((SECONDS - T0)) s"
    done
    gzip "$OUT"/*.txt "$OUT/build.log"
    python3 - "$OUT" <<'PY'
import csv, math, sys, collections
d = collections.defaultdict(lambda: collections.defaultdict(list))
for v, runs in (("0", (1, 4)), ("1", (2, 3))):
    for i in runs:
        for r in csv.DictReader(open(f"{sys.argv[1]}/rs{v}-{i}.csv")):
            if r["kernel"] == "mixgemm" and r["us_median"]:
                d[(r["shape"], r["type_spec"], int(r["M"]))][v].append((float(r["us_median"]), r["schedule"]))
g = collections.defaultdict(list)
for k, v in sorted(d.items()):
    if len(v["0"]) < 2 or len(v["1"]) < 2: continue
    t0 = sum(x[0] for x in v["0"]) / 2; t1 = sum(x[0] for x in v["1"]) / 2
    split = "[" in v["1"][0][1]
    g[(k[1], split)].append(math.log(t1 / t0))
    if split: print(f"{k[0]:20s} {k[1]:16s} M={k[2]:5d} {t0:8.1f} -> {t1:8.1f} {t1 / t0:.3f}  {v['1'][0][1]}")
for (t, split), L in sorted(g.items()):
    print(f"{t} {'split' if split else 'one launch'}: {len(L)} points, time / one launch geomean {math.exp(sum(L) / len(L)):.3f}, worst {math.exp(max(L)):.3f}")
PY
    ;;
esac
