#!/usr/bin/env bash
# Session 106: the group-sum experiment (-DMIXGEMM_SMALLM_GROUP_SUMS, smallm_mainloop.cuh) against main's build, without
# a device build. The builds (main's default, and the experiment's, each with mixgemm-bench, the first experiment build
# also with mixgemm_gpu_tests; sm90 restricted to f16.u4 128x128 as scripts/device_smallm_sched.sh does) come prebuilt
# in .s106/ (carry `.s106`: sb{0,1,2}-bench.xz, sb1-tests.xz, built on the CPU machine, nvcc 13.0). Times the
# forced decode schedules on both builds in the order o1 w4o4 gs_o1 gs_w4o4, then back (CUDA graphs of 32 launches; on
# a card that is not an H200 on a green context of 80 SMs), runs the Smallm 16-bit suites on the experiment build,
# and prints gs / main per schedule, type and M (scripts/ab_multi_summary.py).
#   [SPECS="o1=smallm_t8_w8_o1_p0 ..." BUILDS="0 1 2" SHAPES=... MS=... TYPES=... TEST_S=90] \
#   bash bench/results/2026-12-07-h200/s106-next/groupsums_pre.sh   (repo root, device; ~1-3 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; T0=$SECONDS
R=/tmp/sched; rm -rf "$R"; mkdir -p "$R"; cp "$0" "$R/command.sh"; cp .s106/commit.txt "$R/commit.txt"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "$gpu" | tee "$R/gpu.txt"
EXTRA="--graph-batch 32"
case "$gpu" in *H200*) ;; *) EXTRA="$EXTRA --green-sms 80" ;; esac
echo "bench extra: $EXTRA" | tee -a "$R/gpu.txt"
# BUILDS: which builds to time: 0 main's (label), 1 -DMIXGEMM_SMALLM_GROUP_SUMS=1 (gs_label), 2 =2 (gs2_label).
BUILDS=${BUILDS:-"0 1"}
need="$(for b in $BUILDS; do echo sb$b-bench; done) $([ "${TEST_S:-90}" -gt 0 ] && echo sb1-tests)"
for f in $need; do xz -dc .s106/$f.xz > /tmp/$f && chmod +x /tmp/$f || { echo "no .s106/$f.xz: carry .s106"; exit 1; }; done
# SPECS: label=schedule pairs, each timed on main's build (label) and the experiment's (gs_label).
SPECS=${SPECS:-"o1=smallm_t8_w8_o1_p0 w4o4=smallm_t8_w4_o4_p0"}
labels=(); bins=(); scheds=(); pairs=()
pre=("" gs_ gs2_)
for b in $BUILDS; do for sp in $SPECS; do
  l=${pre[$b]}${sp%%=*}; labels+=("$l"); bins+=("$b"); scheds+=("${sp#*=}")
done; done
for sp in $SPECS; do pairs+=("${sp%%=*}"); done
bench() {  # $1 spec index, $2 run label
  local j=$1 s="${labels[$1]}-$2"
  timeout 100 /tmp/sb${bins[$j]}-bench --shapes ${SHAPES:-seed,llama2-70b} --m ${MS:-1,8} --types ${TYPES:-f16.u4b8.g128} \
    --schedule "${scheds[$j]}" --no-baselines --iters 20 --warmup 3 --csv "$R/$s.csv" --git-commit "$(cat "$R/commit.txt")" \
    --summary-m none $EXTRA --quiet > "$R/$s.txt" 2>&1
  echo "bench $s rc=$? at $((SECONDS - T0)) s"
}
n=${#labels[@]}
for ((j = 0; j < n; ++j)); do bench "$j" 1; done
for ((j = n - 1; j >= 0; --j)); do bench "$j" 2; done
[ "${TEST_S:-90}" -gt 0 ] && timeout ${TEST_S:-90} /tmp/sb1-tests --gtest_filter="${FILTER:-Smallm.W4A16_*:Smallm.W8A16_*:Smallm.ScalesAcrossBinades:Smallm.RealShape}" \
  > "$R/tests-gs.log" 2>&1
echo "tests gs rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-gs.log" | tr '\n' ' ') at $((SECONDS - T0)) s"
grep -E '^\[  FAILED  \]' "$R/tests-gs.log" | head -8
tar czf "$OUT/sched.tar.gz" -C /tmp sched
for l in "${pairs[@]}"; do
  vs=(); for b in $BUILDS; do [ $b != 0 ] && vs+=("${pre[$b]}$l"); done
  python3 scripts/ab_multi_summary.py "$R" "$l" "${vs[@]}" 2>&1 | grep -E "geomean|^shape" | head -${SUMMARY_LINES:-12}
done
echo "total $((SECONDS - T0)) s"
