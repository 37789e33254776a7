#!/usr/bin/env bash
# Where the decode kernels' row loops land, for this tree and for this tree with each PATCH applied, on this
# machine (no GPU): compiles the smallm instance files with scripts/local_sass.sh (~1 min per file and tree on two
# cores) and prints, per kernel and loop (as scripts/sass_loops.py finds them), the loop's length and its start as
# bytes past a 128-byte line, one column per tree.
#   usage: scripts/smallm_loop_offsets.sh [PATCH...]      FILES="w4a16 w4a8" (default) picks the instance files
# Why: session 59 measured the same TM 8 row-loop SASS up to 15% slower at M = 4 / 8 at another address (dead code
# elsewhere in the kernel had moved it; docs/design-smallm.md, "Session 59"). A decode A/B whose variant moves a row
# loop that the base's does not (or the reverse) measures placement as well as the change: run this first, and
# read the A/B's f16 / e4m3 M = 4 / 8 points against the table.
set -euo pipefail
cd "$(dirname "$0")/.."
FILES=${FILES:-"w4a16 w4a8"}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
mkdir -p .deps  # local_sass.sh fetches its SASS tools there; the patched trees link to it
names=(base)
trees=("$PWD")
for pf in "$@"; do
  n=$(basename "$pf" .patch)
  mkdir -p "$W/$n"
  git archive HEAD | tar x -C "$W/$n"
  (cd "$W/$n" && patch -p1 -s --forward) < "$pf"
  ln -s "$PWD/.deps" "$W/$n/.deps" 2>/dev/null || true
  names+=("$n")
  trees+=("$W/$n")
done
for i in "${!names[@]}"; do
  for f in $FILES; do
    (cd "${trees[$i]}" && bash scripts/local_sass.sh "src/kernels/smallm/smallm_inst_$f.cu" 2> /dev/null) |
      python3 scripts/sass_loops.py - > "$W/${names[$i]}.$f.loops"
  done
  cat "$W/${names[$i]}".*.loops > "$W/${names[$i]}.loops"
done
python3 - "$W" "${names[@]}" <<'PY'
import re
import sys

w, names = sys.argv[1], sys.argv[2:]
TYPES = {"0": "f16", "1": "bf16", "2": "s8", "3": "e4m3"}


def parse(path):
    """{(kernel, loop rank by length): (length, offset in its 128-byte line)} of a sass_loops.py listing."""
    out, rank = {}, {}
    for line in open(path):
        m = re.search(r"_kernelILNS0_5ATypeE(\d)ELi(\d)ELi(\d+)E.* (0x[0-9a-f]+)-0x[0-9a-f]+ len (\d+)", line)
        if not m:
            continue
        k = f"{TYPES.get(m.group(1), m.group(1))} w{m.group(2)} TM{m.group(3)}"
        r = rank.get(k, 0)
        rank[k] = r + 1
        out[(k, r)] = (int(m.group(5)), int(m.group(4), 16) % 128)
    return out


tables = [parse(f"{w}/{n}.loops") for n in names]
keys = sorted(set().union(*tables))
print(f"{'kernel':16s} {'loop':>4s} " + " ".join(f"{n[:16]:>16s}" for n in names))
for k in keys:
    cells = [f"{t[k][0]:>5d} +{t[k][1]:<3d}" if k in t else "-" for t in tables]
    moved = len({t[k][1] for t in tables if k in t}) > 1
    print(f"{k[0]:16s} {k[1]:>4d} " + " ".join(f"{c:>16s}" for c in cells) + ("   moved" if moved else ""))
PY
