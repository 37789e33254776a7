#!/usr/bin/env bash
# Session 34 call 1 (main at .s34/commit.txt):
# (1) build the tests and the bench with the bar configs' sm90 instances; CPU Dispatch.*, GPU GemmApi.* (the row
#     split against the CPU reference), ActivationQuantGpu.*, Sm90.TwoPartExchange / StreamK / TailSplit;
# (2) the SM clock under every #4 / #5 bar row: mixgemm-bench (sustained state, --settle-ms 400) on seed + the
#     Llama-2-70B layers at M = 128 / 256 / 512 / 8192, f16 / bf16 / s8 / e4m3 u4b8 g128 and cuBLAS fp16 /
#     cuBLASLt fp8 / int8, one process per shape, every progress line timestamped, nvidia-smi sampling clock and
#     power every 20 ms meanwhile (scripts/clock_per_row.py joins them);
# (3) pip install . and the Python tests on the GPU.
S=.s34
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; L=/tmp/s34logs; rm -rf $L; mkdir -p $L
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
cmake -S . -B build-ck -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
  > $L/build.log 2>&1 && cmake --build build-ck -j 16 --target mixgemm_gpu_tests mixgemm_cpu_tests mixgemm-bench >> $L/build.log 2>&1 \
  || { tail -30 $L/build.log; exit 2; }
echo "build $((SECONDS - T0)) s"
build-ck/tests/mixgemm_cpu_tests --gtest_filter='Dispatch.*' > $L/cpu-dispatch.log 2>&1; echo "cpu Dispatch rc=$? $(tail -1 $L/cpu-dispatch.log)"
timeout 240 build-ck/tests/mixgemm_gpu_tests --gtest_filter='GemmApi.*:ActivationQuantGpu.*:Sm90.TwoPartExchange*:Sm90.StreamK*:Sm90.TailSplit*' > $L/gpu-tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/gpu-tests.log | tr '\n' ' ')"
echo "tests done at $((SECONDS - T0)) s"

# (2) clocks per row
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_throttle_reasons.active --format=csv,noheader -lms 20 > $L/smi.csv 2>&1 &
SMI=$!
sleep 1
for sh in seed llama2-70b; do
  timeout 200 build-ck/tools/mixgemm-bench --shapes $sh --tp 1 --m 128,256,512,8192 \
    --types f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --baselines cublas_fp16,cublaslt_fp8,cublaslt_int8 \
    --iters 100 --warmup 10 --settle-ms 400 --cold-l2 rotate --lt-algos 8 --summary-m none --copy-gib 1 \
    --csv $L/clk-bench-$sh.csv --git-commit "$(cat $S/commit.txt)" \
    2> >(while IFS= read -r line; do echo "$(date +%s.%N) $line"; done > $L/clk-progress-$sh.log) > $L/clk-bench-$sh.txt
  echo "bench $sh rc=$? at $((SECONDS - T0)) s"
  sleep 0.5
done
sleep 1; echo "$(date +%s.%N) end" >> $L/clk-progress-llama2-70b.log
kill $SMI
python3 scripts/clock_per_row.py --smi $L/smi.csv --progress $L/clk-progress-seed.log $L/clk-progress-llama2-70b.log \
  --bench $L/clk-bench-seed.csv $L/clk-bench-llama2-70b.csv --out $L/clock_per_row.csv > $L/clock_per_row.txt 2>&1
echo "clock_per_row rc=$?"; tail -60 $L/clock_per_row.txt

# (3) Python
export PYTHONUNBUFFERED=1 CMAKE_BUILD_PARALLEL_LEVEL=16
python3 -m pip install --no-build-isolation --no-deps --config-settings=build-dir=build-pip . > $L/install.log 2>&1; echo "pip install rc=$? at $((SECONDS - T0)) s"
timeout 240 python3 -m pytest -rs -p no:cacheprovider tests/python > $L/pytest.log 2>&1; echo "pytest rc=$? $(tail -1 $L/pytest.log)"
gzip $L/build.log $L/install.log $L/smi.csv
cp $S/call1.sh $L/command.sh; cp $S/commit.txt $L/
tar czf $OUT/s34-call1.tgz -C $L .
echo "total $((SECONDS - T0)) s"
