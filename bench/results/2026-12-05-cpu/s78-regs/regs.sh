#!/usr/bin/env bash
# Session 78: the highest register each sm90 kernel's SASS uses, against what ptxas reports ("Used 168 registers"
# for every 384-thread instance). No GPU: cuobjdump / nvdisasm from PyPI (the development machine's toolkit has
# neither), run over the objects of a build tree.
#   bash bench/results/2026-12-05-cpu/s78-regs/regs.sh <build dir> [object name pattern]
set -euo pipefail
B=$1; PAT=${2:-sm90_inst_}
T=/tmp/s78-cutools
[ -x $T/nvdis/nvidia/cu13/bin/nvdisasm ] || pip install -q --target $T/nvdis nvidia-cuda-nvdisasm==13.2.* >/dev/null
[ -x $T/cuobj/nvidia/cu13/bin/cuobjdump ] || pip install -q --target $T/cuobj nvidia-cuda-cuobjdump==13.2.51 >/dev/null
export PATH=$T/nvdis/nvidia/cu13/bin:$PATH
for o in $(find "$B" -name "*${PAT}*.cu.o" | sort); do
  $T/cuobj/nvidia/cu13/bin/cuobjdump -sass "$o" | python3 -c '
import re, sys
name = sys.argv[1]; cur = None; mx = {}; local = {}
for line in sys.stdin:
    m = re.search(r"Function : (\S+)", line)
    if m:
        cur = re.sub(r"^.*ATypeE(\d)ELi(\d+)ELi(\d+)ELi(\d+)ELi(\d+)E.*$", r"a\1 w\2 \3x\4 variant \5", m.group(1))
        mx[cur] = 0; local[cur] = 0; continue
    if cur:
        for r in re.findall(r"\bR(\d+)\b", line): mx[cur] = max(mx[cur], int(r))
        if re.search(r"\b(LDL|STL)\b", line): local[cur] += 1
for k in mx: print(f"{name:34} {k:28} registers R0..R{mx[k]} ({mx[k] + 1}), local loads/stores {local[k]}")
' "$(basename "$o" .cu.o)"
done
