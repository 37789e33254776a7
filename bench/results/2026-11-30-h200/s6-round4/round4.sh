#!/usr/bin/env bash
# s6 round 4: the tail/prologue change (wip/smallm-tail) tested, traced and timed against main.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/s6r4; rm -rf "$R"; mkdir -p "$R"
git rev-parse HEAD > "$R/commit.txt"
for t in trace tail; do
  rm -rf /tmp/$t && mkdir -p /tmp/$t && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C /tmp/$t &&
    (cd /tmp/$t && patch -p1 < .s6/$t.patch) > "$R/patch-$t.log" 2>&1 || echo "PATCH $t FAILED"
done
T=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk)
b() { local s=$1 d=$2 l=$3; shift 3; ( cmake -S "$s" -B "$d" "${T[@]}" "$@" && cmake --build "$d" -j 16 --target mixgemm_gpu_tests mixgemm-bench ) > "$l" 2>&1 || echo "BUILD $l FAILED"; }
b . build-s6 "$R/build-main.log" &
b /tmp/tail /tmp/tail/build "$R/build-tail.log" &
b /tmp/trace /tmp/trace/build "$R/build-trace.log" -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_TRACE &
b /tmp/tail /tmp/tail/build-tr "$R/build-tail-tr.log" -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_TRACE &
wait
echo "builds done at $((SECONDS-T0)) s"
F='Smallm.W4A16_F16:Smallm.W4A16_BF16:Smallm.W8A16_F16:Smallm.W4A8_S8:Smallm.W4A8_E4M3:Smallm.StreamShapes:Smallm.RealShape:Smallm.GraphReplay:GemmApi.*'
timeout 200 /tmp/tail/build/tests/mixgemm_gpu_tests --gtest_filter="$F" > "$R/tests-tail.log" 2>&1
echo "tests tail rc=$?: $(grep -E '^\[  (PASSED|FAILED)' "$R/tests-tail.log" | tr '\n' ' ') at $((SECONDS-T0)) s"
timeout 120 compute-sanitizer --tool memcheck /tmp/tail/build/tests/mixgemm_gpu_tests --gtest_filter='*Sanitize*' > "$R/tail-memcheck.log" 2>&1
echo "tail memcheck rc=$?: $(grep -E 'ERROR SUMMARY' "$R/tail-memcheck.log" | tail -1) at $((SECONDS-T0)) s"
for t in trace tail; do
  d=/tmp/$t/build; [ $t = tail ] && d=/tmp/tail/build-tr
  MIXGEMM_SMALLM_TRACE_FILE=$R/trace-$t.txt MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=0,3,5,6 MIXGEMM_SMALLM_TIMING_MS=1 \
    MIXGEMM_SMALLM_TIMING_GS=128 MIXGEMM_SMALLM_TIMING_CFG=_p0 timeout 200 $d/tests/mixgemm_gpu_tests \
    --gtest_filter='SmallmTiming.Report' > "$R/timing-$t.log" 2>&1
  echo "timing $t rc=$? at $((SECONDS-T0)) s"; gzip -f "$R/trace-$t.txt"
done
bench() { timeout 90 "$1/tools/mixgemm-bench" --shapes llama3-8b,seed,llama2-70b --m 1,8,16 --types f16.u4b8.g128 \
    --baselines cublas_fp16 --iters 30 --warmup 5 --verify --csv "$R/$2.csv" --summary-m none --quiet > "$R/$2.txt" 2>&1
  echo "bench $2 rc=$? at $((SECONDS-T0)) s"; }
bench build-s6 main; bench /tmp/tail/build tail; bench build-s6 main2; bench /tmp/tail/build tail2
tar czf "$OUT/s6r4.tar.gz" -C /tmp s6r4
python3 .s6/summarize_r4.py "$R"
echo "total $((SECONDS-T0)) s"
