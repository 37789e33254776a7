#!/usr/bin/env bash
# Usage (device tool, on branch wip/smallm-ablate-ladder): bash scripts/device_smallm_ladder.sh   (carry [".s26"] optional)
# Session 26 (prepared; run in a later session): where the decode launch's time goes. The smallm kernel built eight times with
# -DMIXGEMM_SMALLM_ABLATE=L (branch wip/smallm-ablate-ladder; cumulative levels, results wrong by
# construction for L >= 1, so no --verify): L0 = main's kernel, 1 = no weight traffic, 2 = + no
# activation/scale staging, 3 = + no chunk barrier, 4 = + no row compute, 5 = + no segment end
# (no output, no split-K); D = 1 + raw words as A fragments (no dequantization, no scale loads),
# M = 1 + no MMA (the fragments kept live by an XOR chain). f16 x u4b8 g128, M = 1, seed + Llama-2-70B + Llama-3-8B, event-timed and
# in CUDA graphs of 32 launches; --stream-read rows (launch only, pure read) beside L0. Then ncu
# (stall reasons, pipe utilization, per-instruction samples split between the row loop and the rest) of L0
# and L1 on the seed shape; and tools/ubench mixgemm-mma-rate (MMA rates, the row in isolation).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; T0=$SECONDS; R=/tmp/s26lad; rm -rf "$R"; mkdir -p "$R"
mkdir -p .s26; h=$(git rev-parse HEAD 2>/dev/null) && echo "$h" > .s26/commit.txt; touch .s26/commit.txt; cp .s26/commit.txt scripts/device_smallm_ladder.sh "$R/"
T=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF)
declare -A FL=([0]="" [1]="-DMIXGEMM_SMALLM_ABLATE=1" [2]="-DMIXGEMM_SMALLM_ABLATE=2" [3]="-DMIXGEMM_SMALLM_ABLATE=3"
  [4]="-DMIXGEMM_SMALLM_ABLATE=4" [5]="-DMIXGEMM_SMALLM_ABLATE=5"
  [D]="-DMIXGEMM_SMALLM_ABLATE=1 -DMIXGEMM_SMALLM_ABLATE_ROW=1" [M]="-DMIXGEMM_SMALLM_ABLATE=1 -DMIXGEMM_SMALLM_ABLATE_ROW=2")
for L in 0 1 2 3 4 5 D M; do
  ( cmake -S . -B build-L$L "${T[@]}" "-DCMAKE_CUDA_FLAGS=${FL[$L]}" && cmake --build build-L$L -j 2 --target mixgemm-bench ) > "$R/build-L$L.log" 2>&1 || echo "BUILD L$L FAILED" &
done
wait
echo "builds done at $((SECONDS-T0)) s"
# The tensor-core rate of the decode MMA shapes, no memory traffic (tools/ubench/mma_rate.cu).
( cmake --build build-L0 -j 8 --target mixgemm-mma-rate && timeout 60 build-L0/tools/mixgemm-mma-rate ) > "$R/mma_rate.txt" 2>&1
echo "mma-rate rc=$? at $((SECONDS-T0)) s"
C=$(cat "$R/commit.txt")
bench() {  # $1 level, $2 mode, $3 stem, extra args...
  local L=$1 mode=$2 stem=$3; shift 3
  local g=""; [ "$mode" = graph ] && g="--graph-batch 32"
  timeout 60 build-L$L/tools/mixgemm-bench --shapes seed,llama2-70b,llama3-8b --m 1 --types f16.u4b8.g128 \
    --no-baselines --iters 20 --warmup 3 $g "$@" --csv "$R/$stem.csv" --json "$R/$stem.json" --git-commit "$C" \
    --summary-m none --quiet > "$R/$stem.txt" 2>&1
  echo "bench $stem rc=$? at $((SECONDS-T0)) s"
}
# The call has 600 s: every level event-timed; in CUDA graphs only main, the first and last levels
# and the row variants; a step is skipped when the budget is nearly spent (left() prints why).
left() { [ $((SECONDS - T0)) -lt "$1" ] || { echo "skipped ($2): $((SECONDS - T0)) s spent"; return 1; }; }
bench 0 event L0_event
for L in 1 2 3 4 5 D M; do left 380 "event L$L" && bench $L event L${L}_event; done
left 400 "event stream-read" && bench 0 event L0b_event --stream-read
for L in 0 1 5 D; do left 430 "graph L$L" && bench $L graph L${L}_graph; done
left 450 "graph stream-read" && bench 0 graph L0b_graph --stream-read
# ncu: L0 (and L1 if there is time), seed M = 1, real clocks, code left in L2.
for L in 0 1; do
  left $([ $L = 0 ] && echo 500 || echo 440) "ncu L$L" || continue
  timeout 90 ncu --kernel-name regex:smallm --launch-skip 4 --launch-count 1 --clock-control none --cache-control none \
    --section SpeedOfLight --section SchedulerStats --section WarpStateStats --section SourceCounters --section Occupancy --section ComputeWorkloadAnalysis --section InstructionStats \
    -o "$R/prof_L$L" build-L$L/tools/mixgemm-bench --shapes seed --m 1 --types f16.u4b8.g128 --no-baselines --iters 3 --warmup 2 --quiet > "$R/ncu_L$L.log" 2>&1
  ncu -i "$R/prof_L$L.ncu-rep" --page details > "$R/details_L$L.txt" 2>&1
  ncu -i "$R/prof_L$L.ncu-rep" --page raw --csv > "$R/raw_L$L.csv" 2>&1
  ncu -i "$R/prof_L$L.ncu-rep" --page source --csv --print-source sass > "$R/source_L$L.csv" 2>&1
  rm -f "$R/prof_L$L.ncu-rep"
  echo "ncu L$L at $((SECONDS-T0)) s"
done
python3 scripts/ncu_summary.py --reasons --by-op --regions "$R"/source_L*.csv > "$R/ncu_summary.txt" 2>&1
python3 - "$R" > "$R/stalls.txt" 2>&1 <<'PY'
import csv, sys, os
R = sys.argv[1]
for L in (0, 1):
    p = os.path.join(R, f"raw_L{L}.csv")
    if not os.path.exists(p): continue
    rows = list(csv.reader(open(p)))
    if len(rows) < 3: continue
    hdr, units, vals = rows[0], rows[1], rows[2]
    pick = [(h, v) for h, v in zip(hdr, vals) if "issue_stalled" in h and "per_warp_active" in h]
    pick = sorted(pick, key=lambda t: -float(t[1].replace(",", "") or 0))
    print(f"== L{L}: stall reasons (warps per active cycle ratio)")
    for h, v in pick[:16]: print(f"   {h:90s} {v}")
    pipes = [(h, v) for h, v in zip(hdr, vals) if "pipe_" in h and ("pct_of_peak" in h or h.endswith(".pct"))]
    pipes = sorted(pipes, key=lambda t: -float(t[1].replace(",", "") or 0))
    print(f"== L{L}: pipe utilization (% of peak)")
    for h, v in pipes[:16]: print(f"   {h:90s} {v}")
    for key in ("smsp__issue_active.avg.per_cycle_active", "smsp__warps_active.avg.per_cycle_active", "gpu__time_duration.sum"):
        for h, v in zip(hdr, vals):
            if h == key: print("  ", h, v)
PY
gzip -f "$R"/*.json "$R"/build-*.log "$R"/source_*.csv "$R"/raw_*.csv 2>/dev/null
tar czf "$OUT/s26lad.tar.gz" -C /tmp s26lad
python3 - "$R" <<'PY'
import csv, sys, os
R = sys.argv[1]
def load(s):
    p = os.path.join(R, s + ".csv")
    if not os.path.exists(p): return {}
    return {(r["shape"], r["kernel"]): r for r in csv.DictReader(open(p)) if r["us_median"]}
for mode in ("event", "graph"):
    t = {s: load(f"{s}_{mode}") for s in ("L0", "L1", "L2", "L3", "L4", "L5", "LD", "LM", "L0b")}
    print(f"== {mode}: us (floor, L0 L1 L2 L3 L4 L5 | L1+no-dequant L1+no-MMA | L0 again | stream-read rows)")
    for (shape, k), r in sorted(t["L0"].items()):
        if k != "mixgemm": continue
        vals = [t[s].get((shape, "mixgemm"), {}).get("us_median", "-") for s in ("L0", "L1", "L2", "L3", "L4", "L5", "LD", "LM", "L0b")]
        extra = " ".join(f"{k}={v['us_median']}" for (sh, k), v in sorted(t["L0b"].items())
                         if sh == shape and k.startswith(("launch_only", "stream_read")))
        print(f"{shape:20s} {float(r['floor_us']):6.2f} " + " ".join(f"{float(v):7.2f}" if v != "-" else "      -" for v in vals) + f" | {extra}")
PY
cat "$R/mma_rate.txt"; cat "$R/stalls.txt"; grep -E "top opcodes|stall reasons|by opcode|region|MMA loop" "$R/ncu_summary.txt" | cut -c1-220
echo "total $((SECONDS-T0)) s"
