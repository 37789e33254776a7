#!/usr/bin/env bash
# Session 91: can an H100 stand in for the H200's instruction-bound decode loops? On the H100 the decode rows keep pace
# with its 3.0 TB/s memory (session 88), on the H200 (4.3 TB/s) f16 and e4m3 rows do not (decode_fit slope 1.2-1.4
# against s8's ~1.0). With the weights resident in the L2 (--cold-l2 off: the same buffers every launch) the H100's rows
# see far more bandwidth than either card's DRAM; if their per-byte cost then splits by type as on the H200, an H100
# can time decode-loop changes for the H200. N = 8192, K = 2048..8192 (8-32 MB of int4), f16 / s8 / e4m3 x u4b8 g128,
# M = 1 / 8, one schedule throughout (smallm_t8_w4_o4_p0, forced, so the size is the only variable), CUDA graphs
# (32 launches per replay), warm L2 then cold L2 in the same run.
#   bash bench/results/2026-12-06-h200/s91-next/hotl2.sh      (repo root, device; carry .s91; ~3 min)
source bench/results/2026-12-06-h200/s91-next/bench_ref_env.sh  # $OUT, t0, B (the bench), C (its commit)
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tee "$OUT/gpu.txt"
S="--shape 8192x2048 --shape 8192x4096 --shape 8192x6144 --shape 8192x8192"
for l2 in off rotate; do
  $B $S --m 1,8 --types f16.u4b8.g128,s8.u4b8.g128,e4m3.u4b8.g128 --schedule smallm_t8_w4_o4_p0 --no-baselines \
    --cold-l2 $l2 --graph-batch 32 --iters 20 --warmup 3 --settle-ms 100 --git-commit $C --csv "$OUT/l2-$l2.csv" \
    > "$OUT/raw/l2-$l2.txt" 2> "$OUT/raw/l2-$l2.stderr.log"
  echo "cold-l2 $l2 rc=$? at $((SECONDS - t0)) s"
done
cp "$0" "$OUT/raw/command.sh"
(cd "$OUT" && tar czf raw.tar.gz raw && rm -rf raw)
python3 - "$OUT" <<'PY'
import csv, sys
o = sys.argv[1]
for l2 in ("off", "rotate"):
    rows = [r for r in csv.DictReader(open(f"{o}/l2-{l2}.csv")) if r["status"] == "ok" and r["kernel"] == "mixgemm"]
    print(f"cold-l2 {l2}: us per launch (graphs)")
    for M in (1, 8):
        for t in ("f16.u4b8.g128", "s8.u4b8.g128", "e4m3.u4b8.g128"):
            v = [(int(r["K"]), float(r["us_median"])) for r in rows if int(r["M"]) == M and r["type_spec"] == t]
            print(f"  M={M} {t:16s} " + "  ".join(f"K={k}: {u:6.2f}" for k, u in sorted(v)))
PY
echo "total $((SECONDS - t0)) s"
