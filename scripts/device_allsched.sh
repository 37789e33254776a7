#!/usr/bin/env bash
# One device call that times every schedule the bench can force (`mixgemm-bench --all-schedules`) at the heuristic's
# shapes, for checking or refitting the heuristic's ranking (sessions 39 / 42: `kH200Graph` in
# tests/cpu/test_smallm_heuristic.cpp, bench/results/2026-12-02-h200/s42-allsched/analysis/).
#   usage (device): [ALLSCHED_SHAPES=...] [ALLSCHED_MS=...] [ALLSCHED_TYPES=...] bash scripts/device_allsched.sh [TAG]
#   defaults: llama3-8b,llama2-7b,llama2-70b,seed / 16 / f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128; TAG names the
#   outputs ($OUT/TAG.csv.gz, TAG.txt.gz; default allsched). CUDA graphs of 32 launches, 20 iterations, no settle, no
#   baselines. Builds mixgemm-bench with one sm90 instance (f16.u4 128 x 128: smallm rows only, as the heuristic's
#   smallm table needs), or ALLSCHED_SM90_TYPES / ALLSCHED_SM90_SCHEDULES (the CMake lists; "all": every schedule) for
#   the sm90 tiles' rows. ALLSCHED_EVENT=1 also times the same rows event-timed first ($OUT/TAG-event.csv.gz, its own
#   ALLSCHED_EVENT_MS, default the same M); the build's --plan of those shapes, types and M goes to $OUT/TAG-plan.csv.
#   ALLSCHED_TIMEOUT (default 400 s) bounds each bench run; the commit is .sN/commit.txt, else HEAD.
#   ALLSCHED_EXTRA (optional): more bench flags for every run and the plan, e.g. "--shape 768x4096 --tp 8".
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
TAG=${1:-allsched}
t0=$SECONDS
SCHED=${ALLSCHED_SM90_SCHEDULES:-128x128_1x1x1_coop_splitk}
[ "$SCHED" = all ] && SCHED=
( cmake -S . -B build-allsched -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=${ALLSCHED_SM90_TYPES:-f16.u4} \
    "-DMIXGEMM_SM90_SCHEDULES=$SCHED" -DMIXGEMM_BUILD_TESTS=OFF -DMIXGEMM_BUILD_PYTHON=OFF &&
  cmake --build build-allsched -j "$(nproc)" --target mixgemm-bench ) > "$OUT/$TAG-build.log" 2>&1 ||
  { tail -20 "$OUT/$TAG-build.log"; exit 1; }
echo "built at $((SECONDS - t0)) s"
C=$(cat "$(ls -d .s*/commit.txt 2>/dev/null | tail -1)" 2>/dev/null || git rev-parse HEAD)
SHAPES=${ALLSCHED_SHAPES:-llama3-8b,llama2-7b,llama2-70b,seed}
TYPES=${ALLSCHED_TYPES:-f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128}
MS=${ALLSCHED_MS:-16}
B=(build-allsched/tools/mixgemm-bench --all-schedules --no-baselines --iters 20 --warmup 2 --settle-ms 0
   --summary-m none --quiet --git-commit "$C" --shapes "$SHAPES" --types "$TYPES" ${ALLSCHED_EXTRA:-})
GZ=("$OUT/$TAG-build.log")
if [ "${ALLSCHED_EVENT:-0}" = 1 ]; then
  timeout "${ALLSCHED_TIMEOUT:-400}" "${B[@]}" --m "${ALLSCHED_EVENT_MS:-$MS}" --csv "$OUT/$TAG-event.csv" \
    > "$OUT/$TAG-event.txt" 2>&1
  echo "event bench rc=$? at $((SECONDS - t0)) s"
  GZ+=("$OUT/$TAG-event.txt" "$OUT/$TAG-event.csv")
fi
timeout "${ALLSCHED_TIMEOUT:-400}" "${B[@]}" --m "$MS" --graph-batch 32 --csv "$OUT/$TAG.csv" > "$OUT/$TAG.txt" 2>&1
rc=$?
echo "bench rc=$rc at $((SECONDS - t0)) s"
build-allsched/tools/mixgemm-bench --plan --shapes "$SHAPES" --types "$TYPES" --m "${ALLSCHED_EVENT_MS:-$MS}" ${ALLSCHED_EXTRA:-} \
  > "$OUT/$TAG-plan.csv" 2>&1
gzip -f "${GZ[@]}" "$OUT/$TAG.txt" "$OUT/$TAG.csv"
exit $rc
