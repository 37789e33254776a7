#!/usr/bin/env bash
# Session 4, fifth device call: the division-free stream-K partition of smallm
# (src/kernels/smallm/smallm_partition.h: no 64-bit division in the prologue or per split-K
# contributor) against the kernel before it, same run. The tree is the new code; the old one
# is rebuilt in /tmp by reversing .s4/partition.patch (git diff HEAD -- src, untracked).
# Both build sm90 for f16.u4 only (the bench rows here are M <= 16: smallm). Then the new
# build's Smallm*/Gemm* suites, memcheck + racecheck, and mixgemm-bench on both.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
FINAL=${OUT:-$PWD/device-out}; OUT=/tmp/s4r5; rm -rf "$OUT" /tmp/b-old; mkdir -p "$OUT" "$FINAL"
trap 'tar czf "$FINAL/round5.tar.gz" -C /tmp s4r5' EXIT
T0=$SECONDS
mkdir -p /tmp/b-old && tar cf - --exclude='./build*' --exclude='./.s4' . | tar xf - -C /tmp/b-old &&
  (cd /tmp/b-old && patch -R -p1 < "$OLDPWD/.s4/partition.patch") > "$OUT/patch.log" 2>&1 || { cat "$OUT/patch.log"; exit 1; }
build() {
  { cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 &&
    cmake --build "$2" -j 16 --target mixgemm_gpu_tests mixgemm-bench; } > "$3" 2>&1
  echo "build $2 rc=$? at $((SECONDS-T0)) s, spill lines: $(grep -c 'bytes spill' "$3")"
}
build . build-r5 "$OUT/build-new.log" & build /tmp/b-old /tmp/b-old/build "$OUT/build-old.log" & wait
NEW=./build-r5; OLD=/tmp/b-old/build
timeout 150 $NEW/tests/mixgemm_gpu_tests --gtest_filter='Smallm*:Gemm*' > "$OUT/tests.log" 2>&1
echo "tests rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/tests.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool $NEW/tests/mixgemm_gpu_tests --gtest_filter='*Sanitize*:Smallm.GraphReplay' > "$OUT/$tool.log" 2>&1
  echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$tool.log" | tail -1)"
done
bench() {
  timeout 100 "$1/tools/mixgemm-bench" --shapes llama3-8b,seed,llama2-70b --m 1,16 --types f16.u4b8.g128,s8.u4b8.g128 \
    --baselines cublas_fp16 --iters 30 --warmup 5 --verify --csv "$OUT/$2.csv" --json "$OUT/$2.json" \
    --summary-m none --quiet > "$OUT/$2.txt" 2>&1
  echo "bench $2 rc=$? at $((SECONDS-T0)) s"
}
bench $OLD old; bench $NEW new
python3 - "$OUT" <<'PY'
import csv, sys
R = sys.argv[1]
t = {}
for tag in ("old", "new"):
    for r in csv.DictReader(open(f"{R}/{tag}.csv")):
        if r["kernel"] == "mixgemm":
            t.setdefault((r["shape"], r["M"], r["type_spec"]), {})[tag] = (float(r["us_median"]), r["pct_floor"], r["verify"])
for k, v in t.items():
    if "old" in v and "new" in v:
        print(f"{k[0]:20s} {k[1]:>3s} {k[2]:16s} old {v['old'][0]:8.1f} new {v['new'][0]:8.1f} ({v['new'][0]/v['old'][0]:.3f}) {v['new'][1]}% {v['new'][2]}")
PY
