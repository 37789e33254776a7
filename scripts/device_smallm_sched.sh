#!/usr/bin/env bash
# One device call that times forced smallm schedules across experiment builds of this tree.
#   usage (device): bash scripts/device_smallm_sched.sh "LABEL|BUILDFLAGS|SCHEDULE" ...   (carry .sN)
#   BUILDFLAGS: preprocessor flags for both the CUDA and the C++ compiles ("-" for none), e.g.
#   "-DMIXGEMM_SMALLM_TM8_MINBLOCKS=3" (branch wip/smallm-s27-switches); one build per distinct flag set, all in parallel
#   (mixgemm-bench and mixgemm_gpu_tests; sm90: f16.u4 128x128 only). The first spec is the
#   base. Benches spec 1..n then n..1 (each twice, symmetric), $SCHED_SHAPES / $SCHED_MS /
#   $SCHED_TYPES, no baselines, no verification; then runs $SCHED_TEST_FILTER (default
#   'Smallm.*:-SmallmTiming.*') on every build other than the first. Prints each spec's time / base
#   per type and M (geomean over shapes) and per point (scripts/ab_multi_summary.py); everything in $OUT/sched.tar.gz.
#   $SCHED_BENCH_EXTRA adds mixgemm-bench flags to every run (e.g. "--graph-batch 32": the launches in CUDA graphs).
#   .sN/commit.txt = the host's HEAD.
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: device_smallm_sched.sh SPEC SPEC..."; exit 2; }
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/sched; rm -rf "$R"; mkdir -p "$R"
cp "$(ls -d .s*/commit.txt 2>/dev/null | tail -1)" "$R/commit.txt" 2>/dev/null || git rev-parse HEAD > "$R/commit.txt"
labels=(); flags=(); scheds=()
for s in "$@"; do IFS='|' read -r l f c <<< "$s"; labels+=("$l"); flags+=("$f"); scheds+=("$c"); done
declare -A bdir
nb=0
for f in "${flags[@]}"; do
  [ -n "${bdir[$f]:-}" ] && continue
  d=/tmp/sb$nb; nb=$((nb + 1)); bdir[$f]=$d
  ff=$([ "$f" = "-" ] && echo "" || echo "$f")
  ( cmake -S . -B "$d" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
      -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk "-DCMAKE_CUDA_FLAGS=$ff" "-DCMAKE_CXX_FLAGS=$ff" &&
    cmake --build "$d" -j 16 --target mixgemm-bench mixgemm_gpu_tests ) > "$R/build-$nb.log" 2>&1 || echo "BUILD '$f' FAILED" &
done
wait
echo "builds done at $((SECONDS - T0)) s"
grep -h "spill" "$R"/build-*.log | grep -v " 0 bytes spill" | sort | uniq -c | head -5
bench() {  # $1 spec index, $2 run label
  local j=$1 s="${labels[$1]}-$2"
  timeout 120 "${bdir[${flags[$j]}]}/tools/mixgemm-bench" --shapes ${SCHED_SHAPES:-seed,llama2-70b,llama3-8b} \
    --m ${SCHED_MS:-1,8} --types ${SCHED_TYPES:-f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128} --schedule "${scheds[$j]}" \
    --no-baselines --iters 20 --warmup 3 --csv "$R/$s.csv" --git-commit "$(cat "$R/commit.txt")" --summary-m none \
    ${SCHED_BENCH_EXTRA:-} --quiet > "$R/$s.txt" 2>&1
  echo "bench $s rc=$? at $((SECONDS - T0)) s"
}
n=${#labels[@]}
for ((j = 0; j < n; ++j)); do bench "$j" 1; done
for ((j = n - 1; j >= 0; --j)); do bench "$j" 2; done
declare -A tested
for ((j = 1; j < n; ++j)); do
  d=${bdir[${flags[$j]}]}
  [ -n "${tested[$d]:-}" ] && continue; tested[$d]=1
  [ "$d" = "${bdir[${flags[0]}]}" ] && continue
  timeout 200 "$d/tests/mixgemm_gpu_tests" --gtest_filter="${SCHED_TEST_FILTER:-Smallm.*:-SmallmTiming.*}" > "$R/tests-$(basename "$d").log" 2>&1
  echo "tests '${flags[$j]}' rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-$(basename "$d").log" | tr '\n' ' ') at $((SECONDS - T0)) s"
done
tar czf "$OUT/sched.tar.gz" -C /tmp sched
python3 scripts/ab_multi_summary.py "$R" "${labels[@]}"
echo "total $((SECONDS - T0)) s"
