#!/usr/bin/env bash
# Session 98: session 97's two-level timing of s8 on Llama-2-70B gate_up (../../2026-12-06-h200/s97-psums/README.md:
# gemm() 79 us at M = 1 in one process where ../s97-graph/ had 64) repeated: ROUNDS rounds of two processes each, the
# gemm() form (with the pure read) and the gemm_partial_sums() form, alternating; f16 and s8 g128, M = 1 / 8, CUDA
# graphs of 32 launches, cold L2 (3 rotating copies), 20 replays; nvidia-smi dmon (power, clocks) logged alongside;
# $OUT/gateup.tar.gz.
# Uses the bench of the tree's own build (build/tools/mixgemm-bench; run check91b.sh or a build first).
#   MIXGEMM_GIT_COMMIT=<commit> bash bench/results/2026-12-07-h200/s98-next/gateup_repeat.sh     (repo root; ~2-3 min)
set -uo pipefail
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-$PWD/device-out}; R=$OUT/gateup; mkdir -p "$R"
t0=$SECONDS
B=./build/tools/mixgemm-bench
[ -x $B ] || { echo "no $B: build first"; exit 1; }
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 > "$R/gpu.txt"
(nvidia-smi dmon -s pc -d 1 > "$R/dmon.txt" 2>&1 &) ; sleep 1
COMMON="--shape 57344x8192 --m 1,8 --types f16.u4b8.g128,s8.u4b8.g128 --iters 20 --warmup 5 --settle-ms 150 --graph-batch 32 --no-baselines --git-commit ${MIXGEMM_GIT_COMMIT:-unknown}"
for r in $(seq 1 ${ROUNDS:-6}); do
  $B $COMMON --stream-read --csv "$R/gemm_$r.csv" > "$R/gemm_$r.txt" 2>&1; echo "round $r gemm rc=$? at $((SECONDS - t0)) s"
  $B $COMMON --partial-sums --csv "$R/psums_$r.csv" > "$R/psums_$r.txt" 2>&1; echo "round $r psums rc=$? at $((SECONDS - t0)) s"
done
pkill -f "nvidia-smi dmon" 2>/dev/null
cp "$0" "$R/command.sh"
python3 - "$R" <<'PY' | tee "$R/table.txt"
import csv, glob, os, sys, re
R = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(R, "*.csv"))):
    form, rnd = re.match(r"(gemm|psums)_(\d+)\.csv", os.path.basename(f)).groups()
    for r in csv.DictReader(open(f)):
        if r.get("status") != "ok": continue
        key = (form if r["kernel"] == "mixgemm" else r["kernel"], r["type_spec"], r["M"])
        rows.setdefault(key, []).append((int(rnd), float(r["us_median"]), float(r["us_min"]), float(r["us_max"])))
print("form / type / M : median us per round (min..max of its replays)")
for k in sorted(rows):
    v = sorted(rows[k])
    print(f"{k[0]:12s} {k[1]:14s} M={k[2]:>2s}: " + "  ".join(f"{m:6.2f}({lo:.1f}..{hi:.1f})" for _, m, lo, hi in v))
PY
# The device returns only a few files from $OUT: everything goes back as one tarball.
(cd "$OUT" && tar czf gateup.tar.gz gateup && rm -rf gateup)
echo "gateup total $((SECONDS - t0)) s"
