#!/usr/bin/env bash
# Session 50, call 3: the harness's decode attention, expand (the KV heads repeated to the query heads,
# as before) against gqa (SDPA enable_gqa on the cache as stored), compiled Llama-3-8B at batch 1,
# fp16 and w4a16, in the order expand / gqa / expand, one process each; the gqa run with the profile.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
t0=$SECONDS; R=$PWD
if ! PYTHONPATH=$R/build-s50py python3 -c "import mixgemm.torch" 2>/dev/null; then
  CMAKE_BUILD_PARALLEL_LEVEL=16 python3 -m pip install --no-build-isolation --no-deps -v --target $R/build-s50py \
    --config-settings=build-dir=$R/build-s50pip --config-settings=cmake.define.MIXGEMM_SM90_TYPES=f16.u4 \
    --config-settings=cmake.define.MIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk . > $OUT/install.log 2>&1
  echo "install rc=$? at $((SECONDS - t0)) s"
fi
cd /tmp
run() {  # name attn [extra]
  PYTHONPATH=$R/build-s50py timeout $((585 - SECONDS + t0)) python3 $R/examples/llama_decode.py --models llama3-8b \
    --batches 1 --variants fp16,w4a16 --mode compile --new-tokens 32 --attn $2 --out $OUT/e2e-$1.csv ${3:-} \
    > $OUT/e2e-$1.log 2>&1
  echo "e2e $1 rc=$? at $((SECONDS - t0)) s"
}
run expand1 expand
run gqa gqa "--profile-out $OUT/profile-gqa.csv"
run expand2 expand
for f in expand1 gqa expand2; do grep -h "^\[e2e\].*batch" $OUT/e2e-$f.log | cut -c1-110 | sed "s/^/$f /"; done
grep -E "category" $OUT/profile-gqa.csv | cut -d, -f3-7
gzip -f $OUT/*.log
