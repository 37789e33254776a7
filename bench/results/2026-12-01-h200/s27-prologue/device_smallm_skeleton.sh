#!/usr/bin/env bash
# Session 27 (branch wip/smallm-ablate-ladder): where the ladder's L5 "skeleton" (~2.5 us beyond an empty
# launch) goes. Builds L5 (-DMIXGEMM_SMALLM_ABLATE=5), L5 + return at entry (E1), L5 + return after the
# prologue (E2); times each at M = 1, f16 x u4b8 g128, 9 layers, event-timed and in CUDA graphs of 32,
# beside --stream-read's empty kernel. Everything in $OUT/skel.tar.gz.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"; T0=$SECONDS; R=/tmp/skel; rm -rf "$R"; mkdir -p "$R"
cp .s27/commit.txt "$R/" 2>/dev/null; cp scripts/device_smallm_skeleton.sh "$R/"
T=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMIXGEMM_SM90_TYPES=f16.u4 -DMIXGEMM_SM90_SCHEDULES=128x128_1x1x1_coop_splitk -DMIXGEMM_BUILD_TESTS=OFF)
declare -A FL=([L5]="-DMIXGEMM_SMALLM_ABLATE=5" [E1]="-DMIXGEMM_SMALLM_ABLATE=5 -DMIXGEMM_SMALLM_ABLATE_EXIT=1"
  [E2]="-DMIXGEMM_SMALLM_ABLATE=5 -DMIXGEMM_SMALLM_ABLATE_EXIT=2" [E3]="-DMIXGEMM_SMALLM_ABLATE=5 -DMIXGEMM_SMALLM_ABLATE_EXIT=3"
  [E4]="-DMIXGEMM_SMALLM_ABLATE=5 -DMIXGEMM_SMALLM_ABLATE_EXIT=4" [E5]="-DMIXGEMM_SMALLM_ABLATE=5 -DMIXGEMM_SMALLM_ABLATE_EXIT=5")
BUILDS=${SKEL_BUILDS:-L5 E1 E2}
MODES=${SKEL_MODES:-event graph}
for L in $BUILDS; do
  ( cmake -S . -B build-$L "${T[@]}" "-DCMAKE_CUDA_FLAGS=${FL[$L]}" && cmake --build build-$L -j 5 --target mixgemm-bench ) > "$R/build-$L.log" 2>&1 || echo "BUILD $L FAILED" &
done
wait
echo "builds done at $((SECONDS-T0)) s"
C=$(cat "$R/commit.txt" 2>/dev/null || echo unknown)
for mode in $MODES; do
  for L in $BUILDS $(echo " $BUILDS " | grep -q " L5 " && echo L5b); do
    b=${L%b}; extra=""; [ "$L" = L5b ] && extra="--stream-read"
    g=""; [ "$mode" = graph ] && g="--graph-batch 32"
    timeout 80 build-$b/tools/mixgemm-bench --shapes seed,llama2-70b,llama3-8b --m 1 --types f16.u4b8.g128 --no-baselines \
      --iters 30 --warmup 3 $g $extra --csv "$R/${L}_$mode.csv" --git-commit "$C" --summary-m none --quiet > "$R/${L}_$mode.txt" 2>&1
    echo "bench ${L}_$mode rc=$? at $((SECONDS-T0)) s"
  done
done
gzip -f "$R"/*.log
tar czf "$OUT/skel.tar.gz" -C /tmp skel
python3 - "$R" <<'PY'
import csv, sys, os
R = sys.argv[1]
for mode in ("event", "graph"):
    rows = {}
    for L in ("L5", "E1", "E2", "E3", "E4", "E5"):
        p = os.path.join(R, f"{L}_{mode}.csv")
        if os.path.exists(p):
            rows[L] = {r["shape"]: float(r["us_median"]) for r in csv.DictReader(open(p)) if r["kernel"] == "mixgemm"}
    p = os.path.join(R, f"L5b_{mode}.csv")
    if os.path.exists(p):
        k = "launch_only" if mode == "event" else "launch_only_graph"
        rows["empty"] = {r["shape"]: float(r["us_median"]) for r in csv.DictReader(open(p)) if r["kernel"] == k}
    cols = [n for n in ("empty", "E1", "E3", "E4", "E5", "E2", "L5") if n in rows]
    shapes = list(rows[cols[-1]]) if cols else []
    print(f"{mode:6s} {'shape':20s} " + " ".join(f"{n:>8s}" for n in cols))
    for s in shapes:
        print(f"{mode:6s} {s:20s} " + " ".join(f"{rows[n].get(s, float('nan')):8.2f}" for n in cols))
PY
echo "total $((SECONDS-T0)) s"
