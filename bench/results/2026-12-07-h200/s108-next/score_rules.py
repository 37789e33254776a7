#!/usr/bin/env python3
"""Scores candidate decode rules on all-schedule tables (session 108).

For every (layer, type, M) of the tables: the heuristic's pick (PLAN.csv from `mixgemm-bench --plan`), the schedule a
candidate rule would run instead, and their times in the same table (CUDA graphs). Prints each rule's moved points
and the geomean new / old time over them and over all points, per table set.
  python3 score_rules.py --plan PLAN.csv [--plan PLAN2.csv] --set NAME=CSV[,CSV...] [--set ...]
"""
import argparse, csv, math
from collections import defaultdict

T16 = "sm90_256x16_1x1x1_coop_splitk"
MI = 1 << 20


# Each rule: (N, K, type, M, pick) -> the schedule it would run, or None to leave the pick.
def r1_f16_gateup_256x16(N, K, t, M, pick):
    """f16 at M <= 8 on layers with K <= 5120 and >= 64 Mi weights: sm90 256 x 16 (s107: Llama-3-8B gate_up)."""
    return T16 if t.startswith("f16") and M <= 8 and K <= 5120 and N * K >= 64 * MI else None


def r1b_f16_any_256x16(N, K, t, M, pick):
    """f16 at M <= 8 on layers with >= 64 Mi weights, any K (the control: does K matter?)."""
    return T16 if t.startswith("f16") and M <= 8 and N * K >= 64 * MI else None


def r2_f16_t16_over_t8w8o1(N, K, t, M, pick):
    """f16 at M <= 8 where the pick is t8_w8_o1: t16_w8_o1 (s107: Llama-3-8B o)."""
    return "smallm_t16_w8_o1_p0" if t.startswith("f16") and M <= 8 and pick == "smallm_t8_w8_o1_p0" else None


def r3_s8_m16_256x16(N, K, t, M, pick):
    """s8 at M = 9..16 on layers with >= 64 Mi weights: sm90 256 x 16 (session 95's rule)."""
    return T16 if t.startswith("s8") and 8 < M <= 16 and N * K >= 64 * MI else None


def r3b_s8_m16_256x16_k8192(N, K, t, M, pick):
    """session 95's rule restricted to K <= 8192 (its two losers had K = 16384)."""
    return T16 if t.startswith("s8") and 8 < M <= 16 and N * K >= 64 * MI and K <= 8192 else None


RULES = [r1_f16_gateup_256x16, r1b_f16_any_256x16, r2_f16_t16_over_t8w8o1, r3_s8_m16_256x16, r3b_s8_m16_256x16_k8192]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plan", action="append", required=True)
    ap.add_argument("--set", action="append", required=True)
    a = ap.parse_args()
    plan = {}
    for p in a.plan:
        for r in csv.DictReader(l for l in open(p) if not l.startswith("#")):
            plan[(r["shape"], r["type"], int(r["M"]))] = r["schedule"]
    for spec in a.set:
        name, files = spec.split("=", 1)
        times = defaultdict(dict)  # (shape, N, K, type, M) -> schedule -> us
        for f in files.split(","):
            for r in csv.DictReader(open(f)):
                if r["status"] == "ok" and r["kernel"] == "mixgemm":
                    times[(r["shape"], int(r["N"]), int(r["K"]), r["type_spec"], int(r["M"]))][r["schedule"]] = float(r["us_median"])
        print(f"== {name}: {len(times)} points")
        for rule in RULES:
            moved, logs_all = [], []
            for (shape, N, K, t, M), sched in sorted(times.items()):
                pick = plan.get((shape, t, M))
                if pick is None or pick not in sched:
                    continue
                new = rule(N, K, t, M, pick)
                ratio = sched[new] / sched[pick] if new and new != pick and new in sched else 1.0
                logs_all.append(math.log(ratio))
                if ratio != 1.0:
                    moved.append((shape, t, M, pick, new, sched[pick], sched[new], ratio))
            gm = lambda xs: math.exp(sum(xs) / len(xs)) if xs else float("nan")
            print(f"-- {rule.__name__}: {rule.__doc__}")
            for m in moved:
                print(f"   {m[0]:22s} {m[1]:14s} M={m[2]:2d} {m[3]:30s} {m[5]:7.2f} -> {m[4]:30s} {m[6]:7.2f}  {m[7]:.3f}")
            print(f"   moved {len(moved)}: geomean new/old {gm([math.log(m[7]) for m in moved]):.4f}, "
                  f"max {max([m[7] for m in moved], default=float('nan')):.3f}; over all {len(logs_all)} points {gm(logs_all):.4f}")


if __name__ == "__main__":
    main()
