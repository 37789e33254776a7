#!/usr/bin/env bash
# One device call that times several sm90 variants against this tree ("base"), in one run:
# each variant is this tree with one patch applied. For diagnostics (a variant may compute
# wrong results on purpose, e.g. "what if the table warps did not build") and for choosing
# among candidates before a full A/B (scripts/device_sm90_ab.sh runs tests and sanitizers;
# this script does not).
#   usage (device): bash scripts/device_sm90_multi.sh .sN/v1.patch .sN/v2.patch ...  (carry .sN)
#   (.sN/commit.txt = the host's HEAD, the base; the tree must not contain the patches: a patch that
#   does not apply stops the run, exit 3.)
# Builds base and every variant in parallel (mixgemm-bench only; sm90 instances
# $AB_SM90_TYPES / $AB_SM90_SCHEDULES as in device_sm90_ab.sh), then benches
# base v1 .. vN vN .. v1 base (each variant twice, symmetric around the middle) on $AB_SHAPES,
# $AB_MS, $AB_TYPES, heuristic picks, settled $AB_SETTLE_MS (default 150) ms per row, no
# baselines unless $AB_BASELINES. Prints each variant's time / base per type and M (geomean over
# shapes) and per point; everything in $OUT/multi.tar.gz.
# AB_TEST_FILTER (optional): the variants also build mixgemm_gpu_tests and run that gtest filter,
# and with AB_SANITIZE=1 memcheck and racecheck of $AB_SANITIZE_FILTER (default '*Sanitize*'),
# each a line of the summary: enough to merge a candidate that this run finds faster.
# AB_BENCH_EXTRA (optional): more mixgemm-bench flags for every bench run, e.g.
# "--unit-group-scales" for a diagnostic variant that is only correct with unit group scales.
# AB_EVENT_TOO=1 (optional): after those runs (typically AB_BENCH_EXTRA="--graph-batch 32 --iters 40", CUDA
# graphs), the same ABBA sequence once more without AB_BENCH_EXTRA (event-timed, --iters 40), summary last
# ($OUT/event.tar.gz): a host-only change such as a heuristic's is timed both ways in one call.
# AB_PASSES (optional): more ABBA passes over the same builds, after those: ';'-separated NAME:FLAGS, where FLAGS
# may begin with VAR=VALUE words, the environment of that pass's bench runs, e.g.
#   AB_PASSES="one:--graph-batch 1 --iters 40;ev0:MIXGEMM_SMALLM_DEFER=0 --iters 40"
# (session 60's diagnostics: a one-node graph per sample; the split-K reduction in the kernel). Each pass's runs
# go to $OUT/NAME.tar.gz (folder multi-NAME) and its summary to $OUT/NAME-summary.txt, printed last; NAME is not
# "multi". AB_EVENT_TOO=1 is the pass "event:--iters 40" put first.
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: device_sm90_multi.sh PATCH..."; exit 2; }
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/multi; rm -rf "$R"; mkdir -p "$R"
cp "$(dirname "$1")/commit.txt" "$R/commit.txt" 2>/dev/null || git rev-parse HEAD > "$R/commit.txt"
T=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=${AB_SM90_TYPES:-e4m3.u4}
   -DMIXGEMM_SM90_SCHEDULES=${AB_SM90_SCHEDULES:-})
TARGETS=(mixgemm-bench)
if [ -n "${AB_TEST_FILTER:-}" ]; then TARGETS+=(mixgemm_gpu_tests); else T+=(-DMIXGEMM_BUILD_TESTS=OFF); fi
names=(base)
dirs=(/tmp/v0)
i=0
for pf in "$@"; do
  i=$((i + 1))
  names+=("$(basename "$pf" .patch)")
  dirs+=("/tmp/v$i")
  cp "$pf" "$R/"
done
for j in "${!dirs[@]}"; do
  d=${dirs[$j]}
  rm -rf "$d" && mkdir -p "$d" && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C "$d"
  if [ "$j" -gt 0 ]; then
    # A patch that does not apply makes the variant the base: stop rather than time base against base
    # (session 45's call 6: the device's tree already held the candidate, the patch was skipped as
    # "previously applied", and the run was an A/A). --forward: never the interactive reverse.
    if ! (cd "$d" && patch -p1 --forward < "$R/${names[$j]}.patch") > "$R/patch-${names[$j]}.log" 2>&1; then
      echo "PATCH ${names[$j]} FAILED (the base tree must not contain it):"; cat "$R/patch-${names[$j]}.log"
      tar czf "$OUT/multi.tar.gz" -C /tmp multi; exit 3
    fi
  fi
  ( cmake -S "$d" -B "$d/build" "${T[@]}" && cmake --build "$d/build" -j 16 --target "${TARGETS[@]}" ) \
    > "$R/build-${names[$j]}.log" 2>&1 || echo "BUILD ${names[$j]} FAILED" &
done
wait
echo "builds done at $((SECONDS - T0)) s"
# ptxas's wgmma serialization warnings (C7510..C7515): a kernel whose wgmmas are serialized runs its mainloop
# 5-15% longer with the same instructions (sessions 23 and 35 measured their cluster kernels so, unaware).
for j in "${!names[@]}"; do
  n=$(grep -c "C751[0-5]" "$R/build-${names[$j]}.log" 2>/dev/null)
  [ "${n:-0}" -gt 0 ] && echo "WGMMA SERIALIZED: ${names[$j]} has $n ptxas C7510..C7515 lines (build-${names[$j]}.log)"
done
if [ -n "${AB_TEST_FILTER:-}" ]; then
  for ((j = 1; j < ${#names[@]}; ++j)); do
    tb="${dirs[$j]}/build/tests/mixgemm_gpu_tests"
    timeout 200 "$tb" --gtest_filter="$AB_TEST_FILTER" > "$R/tests-${names[$j]}.log" 2>&1
    echo "tests ${names[$j]} rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-${names[$j]}.log" | tr '\n' ' ') at $((SECONDS - T0)) s"
    if [ "${AB_SANITIZE:-0}" = 1 ]; then
      for tool in memcheck racecheck; do
        timeout 100 compute-sanitizer --tool $tool "$tb" --gtest_filter="${AB_SANITIZE_FILTER:-*Sanitize*}" \
          > "$R/${names[$j]}-$tool.log" 2>&1
        echo "${names[$j]} $tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/${names[$j]}-$tool.log" | tail -1)"
      done
    fi
  done
fi
bench() {  # $1 index, $2 run label, $3 folder, rest: extra bench flags
  local j=$1 s="${names[$1]}-$2" d=$3
  shift 3
  env ${PASS_ENV[@]+"${PASS_ENV[@]}"} timeout 150 "${dirs[$j]}/build/tools/mixgemm-bench" --shapes ${AB_SHAPES:-seed,llama2-70b} --m ${AB_MS:-1024,8192} \
    --types ${AB_TYPES:-e4m3.u4b8.g128,e4m3.u4b8.gch} \
    $( [ -n "${AB_BASELINES:-}" ] && echo "--baselines $AB_BASELINES" || echo "--no-baselines" ) \
    --lt-algos 4 --iters 20 --warmup 3 --settle-ms ${AB_SETTLE_MS:-150} \
    --csv "$d/$s.csv" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet "$@" > "$d/$s.txt" 2>&1
  echo "bench $s rc=$? at $((SECONDS - T0)) s"
}
abba() {  # $1 folder, rest: extra bench flags
  local d=$1
  shift
  bench 0 1 "$d" "$@"
  for ((j = 1; j < n; ++j)); do bench "$j" 1 "$d" "$@"; done
  for ((j = n - 1; j >= 1; --j)); do bench "$j" 2 "$d" "$@"; done
  bench 0 2 "$d" "$@"
}
n=${#names[@]}
PASS_ENV=()  # VAR=VALUE words for the bench runs of an AB_PASSES pass
abba "$R" ${AB_BENCH_EXTRA:-}
tar czf "$OUT/multi.tar.gz" -C /tmp multi
python3 scripts/ab_multi_summary.py "$R" "${names[@]}"
PASSES=${AB_PASSES:-}
[ "${AB_EVENT_TOO:-0}" = 1 ] && PASSES="event:--iters 40${PASSES:+;$PASSES}"
if [ -n "$PASSES" ]; then
  IFS=';' read -ra passes <<< "$PASSES"
  for ps in "${passes[@]}"; do
    pname=${ps%%:*}
    read -ra words <<< "${ps#*:}"
    PASS_ENV=()
    while [ ${#words[@]} -gt 0 ] && [[ ${words[0]} =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do
      PASS_ENV+=("${words[0]}")
      words=("${words[@]:1}")
    done
    E=/tmp/multi-$pname; rm -rf "$E"; mkdir -p "$E"
    echo "=== pass $pname: env ${PASS_ENV[*]:-(none)}, flags ${words[*]:-(none)}" | tee "$E/pass.txt"
    abba "$E" ${words[@]+"${words[@]}"}
    tar czf "$OUT/$pname.tar.gz" -C /tmp "multi-$pname"
    python3 scripts/ab_multi_summary.py "$E" "${names[@]}" > "$OUT/$pname-summary.txt"
  done
  PASS_ENV=()
  for ps in "${passes[@]}"; do
    echo "=== pass ${ps%%:*} ($(head -1 "/tmp/multi-${ps%%:*}/pass.txt" | cut -d: -f2-))"
    grep " geomean .* M=" "$OUT/${ps%%:*}-summary.txt" | grep -v " smallm_\| sm90_"
  done
fi
echo "total $((SECONDS - T0)) s"
