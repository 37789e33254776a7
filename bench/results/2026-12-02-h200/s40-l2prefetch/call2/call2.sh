#!/usr/bin/env bash
# Session 40, call 2: (a) how much of a decode launch is the weight stream: every #6 shape and the
# Llama-3-8B layers at M = 1 / 16, f16 / s8 x u4b8 g128, in CUDA graphs (32 launches per replay),
# cold L2 (rotation) against warm L2 (the same buffers every launch: layers up to ~50 MB stay
# resident); (b) the smallm trace (per-CTA phases) of t8_w8_o1 at M = 1 on Llama-3-8B o / down
# and Llama-2-70B o (session 39's prepared call 7, narrowed).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p $OUT/r
t0=$SECONDS
( cmake -S . -B build-tr -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_PYTHON=OFF -DCMAKE_CUDA_FLAGS=-DMIXGEMM_SMALLM_TRACE && \
  cmake --build build-tr -j 8 --target mixgemm_gpu_tests ) > $OUT/r/build-tr.log 2>&1 &
TPID=$!
if [ ! -x build-s40/tools/mixgemm-bench ]; then
  cmake -S . -B build-s40 -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 \
    -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_PYTHON=OFF > $OUT/r/build.log 2>&1
  cmake --build build-s40 -j 8 --target mixgemm-bench >> $OUT/r/build.log 2>&1
fi
echo "bench ready at $((SECONDS - t0)) s"
B=build-s40/tools/mixgemm-bench
for set in "llama2-70b,seed" "llama3-8b"; do
  tag=${set%%,*}
  for l2 in rotate off; do
    extra=""; [ $l2 = rotate ] && extra="--stream-read"
    $B $extra --shapes $set --m 1,16 --types f16.u4b8.g128,s8.u4b8.g128 --no-baselines --graph-batch 32 --iters 30 \
      --settle-ms 0 --quiet --cold-l2 $l2 --csv $OUT/r/$tag-$l2.csv > $OUT/r/$tag-$l2.log 2>&1
    echo "$tag $l2 rc=$? at $((SECONDS - t0)) s"
  done
done
wait $TPID; echo "trace build rc=$? at $((SECONDS - t0)) s"
MIXGEMM_SMALLM_TRACE_FILE=$OUT/r/trace.txt MIXGEMM_SMALLM_TIMING=1 MIXGEMM_SMALLM_TIMING_SHAPES=5,8,2 MIXGEMM_SMALLM_TIMING_MS=1 \
  MIXGEMM_SMALLM_TIMING_GS=128 MIXGEMM_SMALLM_TIMING_CFG=t8_w8_o1 \
  timeout 200 build-tr/tests/mixgemm_gpu_tests --gtest_filter='SmallmTiming.Report' > $OUT/r/timing.log 2>&1
echo "trace rc=$? at $((SECONDS - t0)) s"
gzip -f $OUT/r/*.log $OUT/r/trace.txt
python3 scripts/smallm_trace_summary.py $OUT/r/trace.txt.gz > $OUT/r/trace-summary.txt 2>&1
(cd $OUT && tar czf results.tgz r && rm -rf r/*.csv r/*.log.gz r/trace.txt.gz)
cp $OUT/r/trace-summary.txt $OUT/ 2>/dev/null
python3 - <<'PY'
import csv, io, os, tarfile
out = os.environ.get("OUT", "device-out")
tf = tarfile.open(f"{out}/results.tgz")
def rows(name):
    try: return list(csv.DictReader(io.TextIOWrapper(tf.extractfile(f"r/{name}"))))
    except KeyError: return []
for tag in ("llama2-70b", "llama3-8b"):
    rr = rows(f"{tag}-rotate.csv")
    for r in rr:
        if r["kernel"] != "mixgemm": print(f"{r['shape']:20s} M={r['M']:>2s} {r['kernel']:18s} {r['us_median']:>7s} floor {r['floor_us']}")
    cold = {(r["shape"], r["M"], r["type_spec"]): r for r in rr if r["kernel"] == "mixgemm"}
    for r in rows(f"{tag}-off.csv"):
        k = (r["shape"], r["M"], r["type_spec"]); c = cold.get(k)
        if c: print(f"{k[0]:20s} M={k[1]:>2s} {k[2]:14s} cold {float(c['us_median']):7.2f} warm {float(r['us_median']):7.2f} warm/cold {float(r['us_median'])/float(c['us_median']):.3f} floor {float(c['floor_us']):6.2f} {c['schedule'][:24]}")
PY
head -60 $OUT/trace-summary.txt
