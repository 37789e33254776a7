#!/usr/bin/env bash
# Session 72, prepared and not run (the session's device time ran out): the GPU check of 7e85705's smallm geometry fix
# (the ring sized with the kernels' 128 static shared bytes and the 128-byte allocation unit) and of the new defaults
# (sm90 AWQ kernel on, the unit form on the 128 x 128 tile for f16 x u4 + zeros / u8 / u8b128).
#   1. build everything (scripts/device_check.sh's build, ~100 s on 16 cores);
#   2. Smallm.SchedulesFitTheirCtasPerSm (every accepted schedule x type pair x group size against the occupancy API)
#      and Smallm.ScalesAcrossBinades (failed at fa5a3d0 at one point: f16 u4b8 per-channel, t8_w4_o2, M = 1, 5 pretend
#      SMs: the partial sums summed 0x21b3, the workspace split 0x21b2, because t8_w4_o2's 115648 dynamic + 128 static
#      bytes left one CTA per SM and the launcher ran 5 CTAs where the partial sums' partition had 10);
#      and GemmApi.MatchesReferenceThroughDispatch (now with g32 at M = 1 / 7 / 16: gemm refused it before 16c7fa1);
#   3. every GPU suite, memcheck / racecheck (device_check.sh's tests + sanitize stages).
# ~5 min from a fresh machine:  MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-05-h200/s72-next/check.sh
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
STAGES="build" timeout 300 bash scripts/device_check.sh > "$OUT/build.txt" 2>&1; tail -3 "$OUT/build.txt"
timeout 60 ./build/tests/mixgemm_gpu_tests --gtest_filter='Smallm.SchedulesFitTheirCtasPerSm:Smallm.ScalesAcrossBinades:GemmApi.MatchesReferenceThroughDispatch' \
  > "$OUT/fit.log" 2>&1; echo "fit + binades rc=$?"; grep -E "^\[  (PASSED|FAILED)|note \] [0-9]+ accepted|Failure" -A2 "$OUT/fit.log" | head -20
LOGS=/tmp/s72-check-logs/logs STAGES="tests sanitize" timeout 400 bash scripts/device_check.sh 2>&1 | tail -12
