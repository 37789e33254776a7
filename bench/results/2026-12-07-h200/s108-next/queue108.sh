#!/usr/bin/env bash
# Session 108: the H200 queue's items 1 and 2 in one call, with no device build (session 108 got no machine; H200s
# come about once in fifteen asks, so both items should fit the first one that does). Carry `.s108`: gpu_tests.xz
# and bench.xz, mixgemm_gpu_tests and mixgemm-bench of one Release build of every instance on the CPU machine
# (commit in .s108/commit.txt; device code = today's default build's).
#  1. every GPU suite (Device, Convert, Prepack, Smallm, Sm90, Gemm, ActivationQuant), one process each, and
#     compute-sanitizer memcheck / racecheck of the *Sanitize* tests: the part of the full check that has not run on an
#     H200 since session 97 (../s107-check/ ran GemmApi / Smallm and pytest there);
#  2. heldout.sh with the time left (STOP_AT): the held-out all-schedule table for session 107's decode regrets.
# Only on an H200: on another card it stops at once (the H100's check is ../../2026-12-07-h100/s105-check/).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-07-h200/s108-next/queue108.sh   (repo root, device; ~9 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; L=/tmp/s108-queue/logs; rm -rf "$L"; mkdir -p "$L" "$OUT"; t0=$SECONDS
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "$gpu" | tee "$L/gpu.txt"
case "$gpu" in *H200*) ;; *) echo "not an H200: nothing run"; exit 0 ;; esac
echo "${MIXGEMM_GIT_COMMIT:-unknown} (binaries: $(cat .s108/commit.txt 2>/dev/null))" > "$L/commit.txt"; cp "$0" "$L/command.sh"
T=/tmp/s108-queue/mixgemm_gpu_tests
xz -dc .s108/gpu_tests.xz > $T && chmod +x $T || { echo "no .s108/gpu_tests.xz: carry .s108"; exit 1; }
# Item 2, ending before its next layer once it has run $1 seconds (a layer's two bench processes take
# ~10-15 s; all 14 ~170 s).
heldout() { STOP_AT=$1 BENCH_XZ=.s108/bench.xz bash bench/results/2026-12-07-h200/s108-next/heldout.sh 2>&1 | tail -18; }
# Item 1's logs so far, into check.tgz (after every step, so a call cut short returns what ran).
save_check() { printf '%s\n' "${summary[@]}" > "$L/summary.txt"; tar czf "$OUT/check.tgz" -C "$(dirname "$L")" logs; }
# HELDOUT_FIRST=1 (session 109: when the session's device time is short): item 2 first, for HELDOUT_S seconds (default
# 200), then item 1 in what is left.
[ "${HELDOUT_FIRST:-0}" = 1 ] && heldout "${HELDOUT_S:-200}"
summary=()
for filter in "Device.*" "Convert*" "Prepack*" "Smallm*" "Sm90*" "Gemm*" "ActivationQuant*"; do
  name=$(echo "$filter" | tr -cd 'A-Za-z0-9')
  timeout 200 $T --gtest_filter="$filter" > "$L/gpu_$name.log" 2>&1
  summary+=("gpu $filter rc=$? at $((SECONDS - t0)) s: $(grep -E '^\[  (PASSED|FAILED)' "$L/gpu_$name.log" | tr '\n' ' ')")
  save_check
done
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool $T --gtest_filter='*Sanitize*' > "$L/$tool.log" 2>&1
  summary+=("$tool rc=$? at $((SECONDS - t0)) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$L/$tool.log" | tail -1)")
done
save_check; cat "$L/summary.txt"
grep -h "^\[GemmFuzz\]" "$L"/gpu_Gemm.log 2>/dev/null | head -12
# Otherwise item 2 last, until QUEUE_S seconds of the call (default 560 of its 600; less where the session's device time
# is short; QUEUE_S does not bound item 1, whose steps have their own timeouts).
[ "${HELDOUT_FIRST:-0}" = 1 ] || heldout $((${QUEUE_S:-560} - (SECONDS - t0)))
echo "total $((SECONDS - t0)) s"
