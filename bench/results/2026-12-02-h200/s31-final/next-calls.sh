#!/usr/bin/env bash
# Prepared in session 31 (no device time was left): the next session's calls, one per device call, in this order
# (check first: it covers what the last merge of the session did not run).
# Run from the repository root on the device; S = the session's scratch folder (carry it), $S/commit.txt = HEAD.
S=${S:-.s32}
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
case "${1:?usage: next-calls.sh check|sweep|python|a8tiles}" in
  sweep)
    # The standard sweep of the bars' six configs on the merged tree (session 30's command, s30-sweep/command.sh):
    # the first sweep with session 31's exchange, streamed arrive-first and 16-bit pick. ~430 s.
    sed -e "s#\.s30#$S#g" -e "s#call4\.sh#sweep.sh#g" bench/results/2026-12-02-h200/s30-sweep/command.sh > "$S/sweep.sh" && bash "$S/sweep.sh" ;;
  python)
    # The Python package's GPU tests and the compiled Llama-3-8B-shaped decode at batch 1 (issue #8; last run in
    # session 24): pip install (the whole build), pytest tests/python, e2e fp16 / w4a16 / w4a8-s8. ~8 min.
    E2E_ARGS="--models llama3-8b --new-tokens 32 --batches 1 --mode compile --variants fp16,w4a16,w4a8-s8" \
      E2E_TIMEOUT=300 TEST_TIMEOUT=200 bash scripts/device_python.sh ;;
  check)
    # The full check of the merged tree (session 31 merged the 128 x 128 exchange after a trimmed call, s31-narrow/:
    # its full suites, e4m3 and the other sanitizer cases have not run): full build, SASS (no local memory), every
    # GPU suite, memcheck / racecheck. ~250 s.
    MIXGEMM_GIT_COMMIT=$(cat "$S/commit.txt") STAGES="build sass tests sanitize" bash scripts/device_check.sh ;;
  a8tiles)
    # Every sm90 tile for 8-bit activations at M = 160..768 on the merged kernels (s31-allsched/'s 8-bit rows ran with
    # the slow first exchange epilogue): the data for deciding whether 8-bit picks should rank tiles by their own
    # split too (sm90_pick). ~60 s after the build.
    cmake -S . -B build-a8 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=s8.u4,e4m3.u4 -DMIXGEMM_BUILD_TESTS=OFF \
      > "$OUT/build.log" 2>&1 && cmake --build build-a8 -j 16 --target mixgemm-bench >> "$OUT/build.log" 2>&1 || exit 2
    timeout 240 build-a8/tools/mixgemm-bench --shapes llama2-7b,llama3-8b,llama2-70b,seed --m 160,192,224,256,320,384,512,768 \
      --types s8.u4b8.g128,e4m3.u4b8.g128 --all-schedules --no-baselines --lt-algos 4 --iters 20 --warmup 3 --settle-ms 0 \
      --csv "$OUT/allsched-a8.csv" --git-commit "$(cat $S/commit.txt)" --summary-m none --quiet > "$OUT/allsched-a8.txt" 2>&1
    echo "a8 allsched rc=$?" ;;
esac
