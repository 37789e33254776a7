#!/usr/bin/env bash
# Session 33 call 2: the row split's A/B again with every output kept (call 1's split-side CSVs did not come
# back: 8-file limit), more M (heads and tails alone: 32..128, 768, 1280, 2048, 2560) and bf16.
# MIXGEMM_ROW_SPLIT=0 / 1 / 1 / 0 in one build (branch wip/row-split).
S=.s33
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; R=/tmp/rs; rm -rf $R; mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS
cmake -S . -B build-rs -G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4,bf16.u4,s8.u4,e4m3.u4 \
  -DMIXGEMM_BUILD_TESTS=OFF > $R/build.log 2>&1 && cmake --build build-rs -j 16 --target mixgemm-bench >> $R/build.log 2>&1 \
  || { tail -30 $R/build.log; exit 2; }
echo "build $((SECONDS - T0)) s"
i=0
for v in 0 1 1 0; do
  i=$((i + 1))
  MIXGEMM_ROW_SPLIT=$v timeout 200 build-rs/tools/mixgemm-bench --shapes llama2-7b,llama3-8b,llama2-70b,seed \
    --m 32,64,128,256,288,320,384,512,544,576,640,768,800,1024,1088,1280,1312,2048,2112,2560,2624 \
    --types f16.u4b8.g128,bf16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 \
    --no-baselines --iters 20 --warmup 3 --settle-ms 0 --csv "$R/rs$v-$i.csv" --git-commit "$(cat $S/commit.txt)" \
    --summary-m none --quiet > "$R/rs$v-$i.txt" 2>&1
  echo "bench MIXGEMM_ROW_SPLIT=$v run $i rc=$? at $((SECONDS - T0)) s"
done
cp $S/ab2.sh $R/command.sh; cp $S/commit.txt $R/
tar czf $OUT/rs.tgz -C $R .
