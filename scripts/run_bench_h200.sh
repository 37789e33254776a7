#!/usr/bin/env bash
# The standard mixgemm-bench sweep on one H200, in one run of the bench:
#   shapes    seed (N=8192, K=21760) and the four Llama-2-70B layers at TP1
#   kernels   every standard mixgemm type config (--types all; configs without a kernel
#             print "not supported"), and cuBLAS fp16/bf16, cuBLASLt fp8 and int8
#   M         1, 2, 4, ..., 8192
#   checks    --verify (CPU reference on sampled outputs) and --prepack-bench
#   state     --settle-ms $SETTLE_MS (default 300): every row, mixgemm and baselines alike, is timed
#             after that long of its own kernel back to back, i.e. at the clock the board's power
#             limit allows under sustained load (bench/results/2026-12-01-h200/s18-powerstate/:
#             without it --verify's CPU pauses let each mixgemm row start from an idle GPU at
#             ~1965 MHz while the baselines ran back to back at ~1450)
# Results go to the folder given as $1, else $OUT, else bench/results/<yyyy-mm-dd>-h200/:
#   bench.csv, bench.json, bench.txt (the tables), bench.stderr.log (progress),
#   command.txt (the exact command), gpu.txt (nvidia-smi)
# The bench stops starting new sweeps after TIME_LIMIT seconds (default 360), so the run
# fits in 8 minutes on an H200 with a built binary; the summary table is printed last.
#
# The recorded git commit: $MIXGEMM_GIT_COMMIT, else `git rev-parse HEAD` (+ -dirty); set
# MIXGEMM_GIT_COMMIT where the tree was copied without its .git.
# Environment: BENCH (path of mixgemm-bench; default: build/ or build-bench/, built when
# missing), ITERS (default 100), WARMUP (10), TYPES (all), SHAPES (seed,llama2-70b),
# VERIFY (1), TIME_LIMIT (360), SETTLE_MS (300), EXTRA (more bench flags).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
export PATH=/usr/local/cuda/bin:$PATH

OUTDIR=${1:-${OUT:-bench/results/$(date -u +%Y-%m-%d)-h200}}
mkdir -p "$OUTDIR" || { echo "cannot create $OUTDIR"; exit 2; }
ITERS=${ITERS:-100}
WARMUP=${WARMUP:-10}
TYPES=${TYPES:-all}
SHAPES=${SHAPES:-seed,llama2-70b}
VERIFY=${VERIFY:-1}
TIME_LIMIT=${TIME_LIMIT:-360}
SETTLE_MS=${SETTLE_MS:-300}

if [ -z "${BENCH:-}" ]; then
  for b in build/tools/mixgemm-bench build-bench/tools/mixgemm-bench; do
    if [ -x "$b" ]; then BENCH=$b; break; fi
  done
fi
if [ -z "${BENCH:-}" ]; then
  BUILD_DIR=${BUILD_DIR:-build}
  echo "building mixgemm-bench in $BUILD_DIR ..."
  if ! { cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release &&
         cmake --build "$BUILD_DIR" --target mixgemm-bench -j "$(nproc)"; } > "$OUTDIR/build.log" 2>&1; then
    tail -30 "$OUTDIR/build.log"
    echo "build failed (log: $OUTDIR/build.log)"
    exit 2
  fi
  BENCH=$BUILD_DIR/tools/mixgemm-bench
fi

COMMIT=${MIXGEMM_GIT_COMMIT:-}
if [ -z "$COMMIT" ]; then
  COMMIT=$(git rev-parse HEAD 2>/dev/null || echo unknown)
  if [ "$COMMIT" != unknown ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    COMMIT=$COMMIT-dirty
  fi
fi

nvidia-smi > "$OUTDIR/gpu.txt" 2>&1 || true

CMD=("$BENCH" --shapes "$SHAPES" --tp 1 --types "$TYPES" --iters "$ITERS" --warmup "$WARMUP"
     --cold-l2 rotate --settle-ms "$SETTLE_MS" --lt-algos 8 --prepack-bench --time-limit "$TIME_LIMIT"
     --summary-m "1,16,128,1024,8192"
     --csv "$OUTDIR/bench.csv" --json "$OUTDIR/bench.json" --git-commit "$COMMIT")
if [ "$VERIFY" = 1 ]; then CMD+=(--verify); fi
# shellcheck disable=SC2206
if [ -n "${EXTRA:-}" ]; then CMD+=($EXTRA); fi
quote() {  # shell-quote only what needs it
  local a out=()
  for a in "$@"; do
    if [[ $a =~ ^[A-Za-z0-9_./:=,@%+-]+$ ]]; then out+=("$a"); else out+=("$(printf '%q' "$a")"); fi
  done
  echo "${out[*]}"
}
quote "${CMD[@]}" > "$OUTDIR/command.txt"

t0=$(date +%s)
"${CMD[@]}" > "$OUTDIR/bench.txt" 2> "$OUTDIR/bench.stderr.log"
rc=$?
t1=$(date +%s)

echo "mixgemm-bench rc=$rc in $((t1 - t0)) s; results in $OUTDIR"
echo "command: $(cat "$OUTDIR/command.txt")"
head -6 "$OUTDIR/bench.txt"
if [ $rc -ne 0 ]; then
  echo "--- stderr (last 20 lines)"
  tail -20 "$OUTDIR/bench.stderr.log"
  grep -h "VERIFY FAILED\|fatal" "$OUTDIR/bench.stderr.log" | head -20
fi
echo "---"
# The bench's own closing lines: the summary table, verify totals, warnings.
sed -n '/^summary: /,$p' "$OUTDIR/bench.txt"
exit $rc
