#!/usr/bin/env bash
# Session 7, device call 5: (1) the SM / memory clocks and power while the seed-shape decode
# GEMM (smallm, M = 1) and cuBLAS fp16 run back to back (nvidia-smi, 50 ms samples), to turn
# the kernel's per-row times into cycles; (2) the compiled e2e decode at batch 8 (fp16 / w4a16 /
# w4a8-s8) with the session's final kernels. $OUT/s7e2e8.tar.gz; a summary is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/s7e2e8; rm -rf "$R"; mkdir -p "$R"
cp .s7/commit.txt "$R/commit.txt"
( cmake -S . -B build-s7 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_BUILD_PYTHON=ON \
    -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4 && cmake --build build-s7 -j 16 ) > "$R/build.log" 2>&1
echo "build rc=$? at $((SECONDS-T0)) s"
probe() {  # $1 stem, rest: bench flags
  local s=$1; shift
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader -lms 50 > "$R/clocks-$s.csv" &
  local P=$!
  sleep 0.3
  timeout 60 ./build-s7/tools/mixgemm-bench --shapes seed --m 1 --iters 30000 --warmup 50 --summary-m none --quiet \
    --csv "$R/probe-$s.csv" "$@" > "$R/probe-$s.txt" 2>&1
  kill $P; wait $P 2>/dev/null
  python3 - "$R/clocks-$s.csv" "$s" <<'PY'
import sys, statistics
rows = [l.split(", ") for l in open(sys.argv[1]) if l.count(",") >= 4]
sm = [float(r[1].split()[0]) for r in rows if "MHz" in r[1]]
pw = [float(r[3].split()[0]) for r in rows if "W" in r[3]]
busy = [(s, p) for s, p in zip(sm, pw) if p > 200]
if busy:
    print(f"{sys.argv[2]}: {len(busy)} busy samples, SM clock median {statistics.median(s for s, _ in busy):.0f} MHz "
          f"(min {min(s for s, _ in busy):.0f}), power median {statistics.median(p for _, p in busy):.0f} W")
else:
    print(sys.argv[2], "no busy samples", len(rows))
PY
}
probe smallm --types f16.u4b8.g128 --no-baselines
probe cublas --baselines-only --baselines cublas_fp16
LEFT=$((520 - (SECONDS - T0))); [ $LEFT -gt 330 ] && LEFT=330
PYTHONPATH=$PWD/build-s7/python PYTHONUNBUFFERED=1 timeout $LEFT python3 examples/llama_decode.py --models llama3-8b \
  --new-tokens 32 --batches 8 --mode compile --variants fp16,w4a16,w4a8-s8 --out "$R/e2e-compile-b8.csv" \
  --profile-out "$R/e2e-compile-b8-profile.csv" > "$R/e2e-compile-b8.log" 2>&1
echo "e2e rc=$? at $((SECONDS-T0)) s"
grep -E "^\[e2e\].*batch" "$R/e2e-compile-b8.log" | tr -s ' '
tar czf "$OUT/s7e2e8.tar.gz" -C /tmp s7e2e8
echo "total $((SECONDS-T0)) s"
