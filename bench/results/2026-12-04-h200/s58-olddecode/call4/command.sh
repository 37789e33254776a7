#!/usr/bin/env bash
# Session 58 call 4: is the s8 decode's 1.02-1.08x (s58-sweep against s42-sweep, different machines) in the code?
# main (base) against session 42's sweep commit 04a37f8 (old: .s58/old.tar.gz = git archive of it), both built
# here, ABBA in one run: seed + Llama-2-70B, M = 1..16, s8 g128 / s8 per-channel / f16 g128, heuristic picks.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
T0=$SECONDS
R=/tmp/multi; rm -rf "$R" /tmp/v0 /tmp/v1; mkdir -p "$R" /tmp/v0 /tmp/v1
cp .s58/commit.txt "$R/commit.txt"; echo 04a37f80f0e23f8382b147d9bcaff3f7572e8629 > "$R/commit-old.txt"
tar cf - --exclude='./build*' --exclude='./.git' --exclude='./.s58' . | tar xf - -C /tmp/v0
tar xzf .s58/old.tar.gz -C /tmp/v1
for d in /tmp/v0 /tmp/v1; do
  ( cmake -S $d -B $d/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,s8.u4 -DMIXGEMM_BUILD_TESTS=OFF \
    && cmake --build $d/build -j 8 --target mixgemm-bench ) > "$R/build-$(basename $d).log" 2>&1 || echo "BUILD $d FAILED" &
done
wait
echo "builds done at $((SECONDS - T0)) s"
names=(base old); dirs=(/tmp/v0 /tmp/v1)
bench() {
  local j=$1 s="${names[$1]}-$2"
  timeout 150 "${dirs[$j]}/build/tools/mixgemm-bench" --shapes seed,llama2-70b --m 1,2,4,8,16 \
    --types s8.u4b8.g128,s8.u4b8.gch,f16.u4b8.g128 --no-baselines --lt-algos 4 --iters 40 --warmup 3 --settle-ms 150 \
    --csv "$R/$s.csv" --git-commit "$(cat "$R/commit.txt")" --summary-m none --quiet > "$R/$s.txt" 2>&1
  echo "bench $s rc=$? at $((SECONDS - T0)) s"
}
bench 0 1; bench 1 1; bench 1 2; bench 0 2
tar czf "$OUT/multi.tar.gz" -C /tmp multi
python3 scripts/ab_multi_summary.py "$R" base old | head -40
