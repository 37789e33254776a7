#!/usr/bin/env python3
"""decode_fit slopes and fixed parts of the H200 against an H100 on n SMs (a green context), per type config and M.
   python3 compare.py > compare.txt      (in this folder)"""
import re

MODES = {
    "CUDA graphs (32 launches per replay)": [
        ("H200 132", "../../2026-12-06-h200/s97-graph/decode_fit.txt"),
        ("H100 132", "call2/sms0/decode_fit.txt"), ("H100 96", "call2/sms96/decode_fit.txt"),
        ("H100 88", "call3/sms88/decode_fit.txt"), ("H100 80", "call3/sms80/decode_fit.txt"),
        ("H100 72", "call3/sms72/decode_fit.txt")],
    "event-timed (as the sweeps)": [
        ("H200 132", "../../2026-12-06-h200/s86-sweep-full/decode_fit.txt"),
        ("H100 132", "call4/sms0/decode_fit.txt"), ("H100 88", "call4/sms88/decode_fit.txt"),
        ("H100 80", "call4/sms80/decode_fit.txt")],
    "event-timed, the other bar configs (call5)": [
        ("H200 132", "../../2026-12-06-h200/s86-sweep-full/decode_fit.txt"),
        ("H100 88", "call5/sms88/decode_fit.txt"), ("H100 80", "call5/sms80/decode_fit.txt")],
}
TYPES = {"event-timed, the other bar configs (call5)": ("bf16.u4b8.g128", "s8.u4b8.gch", "e4m3.u4b8.gch")}
print("decode_fit (scripts/decode_fit.py): time = fixed + slope x floor over the seed shape and the four Llama-2-70B layers,")
print("u4b8, cold L2; each cell 'slope (fixed us)'. H200: sessions 97 (graphs) / 86 (event-timed); H100: session 101.")
for mode, runs in MODES.items():
    data = {}
    for name, path in runs:
        for line in open(path):
            m = re.match(r"(\S+\.g(?:128|ch))\s+(\d+)\s+(\S+)\s+\d+\s+([\d.]+)\s+([\d.]+)", line)
            if m:
                data[(name, m.group(1), int(m.group(2)))] = (float(m.group(4)), float(m.group(5)), m.group(3))
    print(f"\n{mode}")
    print(f"{'type':16}{'M':>3}  {'family (H200)':14}" + "".join(f"{n:>15}" for n, _ in runs))
    for t in TYPES.get(mode, ("f16.u4b8.g128", "s8.u4b8.g128", "e4m3.u4b8.g128")):
        for M in (1, 8, 16):
            row = f"{t:16}{M:>3}  {data[(runs[0][0], t, M)][2]:14}"
            for n, _ in runs:
                v = data.get((n, t, M))
                row += f"{'%.3f (%.1f)' % (v[1], v[0]) if v else '-':>15}"
            print(row)
