#!/usr/bin/env bash
# Everything docs/performance.md quotes from one bars sweep (mixgemm-bench CSV), written next to it:
#   bars.md        scripts/bar_status.py (the bars point by point; the tables with --tables in tables.md)
#   compare.txt    scripts/compare_sweeps.py against an earlier sweep (default: the latest committed full H200 sweep,
#                  session 86's; session 86 compared its own against session 65's)
#   decode_fit.txt scripts/decode_fit.py (each decode config's time as fixed + slope x floor)
#   decode_table.md scripts/decode_table.py (#6's decode rows by shape, % of the floor at M = 1 / 8 / 16)
#   plots/         scripts/plot_bench.py (needs matplotlib; skipped with a note without it)
#   bash scripts/sweep_report.sh DIR [OLD_CSV] [NAMES]     (repo root; DIR holds bench.csv; NAMES e.g. s65,s86)
set -uo pipefail
D=${1:?usage: sweep_report.sh DIR [OLD_CSV] [NAMES]}
OLD=${2:-bench/results/2026-12-06-h200/s86-sweep-full/bench.csv}
NAMES=${3:-old,new}
[ -f "$D/bench.csv" ] || { echo "no $D/bench.csv"; exit 2; }
python3 scripts/bar_status.py "$D/bench.csv" > "$D/bars.md"
python3 scripts/bar_status.py --tables "$D/bench.csv" > "$D/tables.md"
python3 scripts/compare_sweeps.py "$OLD" "$D/bench.csv" --names "$NAMES" --baseline-ratio > "$D/compare.txt"
python3 scripts/decode_fit.py "$D/bench.csv" > "$D/decode_fit.txt"
python3 scripts/decode_table.py "$D/bench.csv" > "$D/decode_table.md"
if python3 -c "import matplotlib" 2>/dev/null; then
  python3 scripts/plot_bench.py "$D/bench.csv" --out "$D/plots" > /dev/null
else
  echo "sweep_report: matplotlib missing, no plots (pip install matplotlib)"
fi
awk '/^\|/ { t = 1 } t && NF == 0 { exit } { print }' "$D/bars.md"  # the card line and the summary table
