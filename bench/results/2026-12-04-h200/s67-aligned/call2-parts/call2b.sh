#!/usr/bin/env bash
# Session 67 call 2b (call 2 again on its warm build-x: call 2 returned only 8 of its files): smallm with its CTAs capped at R per stripe (MIXGEMM_X_PARTS, experiment patch .s67/xparts.patch),
# with and without the cluster split-K (MIXGEMM_SMALLM_CLUSTER=0), every smallm schedule, f16 / s8 x u4b8 g128,
# M = 1 / 4 / 8 / 16, on the narrow-N layers of call 1 and Llama-3-8B's layers; event-timed and in CUDA graphs.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
t0=$SECONDS
[ -x build-x/tools/mixgemm-bench ] || { echo "no build-x"; exit 1; }
C=$(cat .s67/commit.txt)
B=(build-x/tools/mixgemm-bench --all-schedules --no-baselines --iters 20 --warmup 2 --settle-ms 0 --summary-m none --quiet
   --git-commit "$C" --shapes llama3-8b --types f16.u4b8.g128,s8.u4b8.g128 --m 1,4,8,16
   --shape 768x4096 --shape 1536x4096 --shape 1280x8192 --shape 1920x5120 --shape 1152x3584 --shape 2304x16384
   --shape 3072x4096 --shape 2304x3584 --shape 896x5120)
for cfg in base r4 r6 r8 r12 r16 c0 c0r4 c0r8 c0r16; do
  R=${cfg##*r}; [ "$R" = "$cfg" ] && R=0; [ "$cfg" = base ] && R=0; [ "$cfg" = c0 ] && R=0
  CL=1; case $cfg in c0*) CL=0;; esac
  for mode in event graph; do
    extra=(); [ $mode = graph ] && extra=(--graph-batch 32)
    MIXGEMM_X_PARTS=$R MIXGEMM_SMALLM_CLUSTER=$CL timeout 100 "${B[@]}" "${extra[@]}" --csv "$OUT/$cfg-$mode.csv" > "$OUT/$cfg-$mode.txt" 2>&1
    echo "$cfg $mode rc=$? at $((SECONDS - t0)) s"
  done
  MIXGEMM_X_PARTS=$R build-x/tools/mixgemm-bench --plan --shapes llama3-8b --types f16.u4b8.g128,s8.u4b8.g128 --m 1,4,8,16 \
    --shape 768x4096 --shape 1536x4096 --shape 1280x8192 --shape 1920x5120 --shape 1152x3584 --shape 2304x16384 \
    --shape 3072x4096 --shape 2304x3584 --shape 896x5120 > "$OUT/$cfg-plan.csv" 2>&1
done
cd "$OUT" && tar czf runs.tar.gz *.csv *.txt && rm -f *.csv *.txt && ls
