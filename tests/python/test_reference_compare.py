"""scripts/reference_compare.py: mixgemm against an external reference kernel from one bench CSV
(plain Python, no torch, no GPU)."""
import csv
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COLUMNS = ["gpu", "shape", "N", "K", "M", "tp", "kernel", "type_spec", "a_type", "b_type", "out_type", "group_size",
           "schedule", "status", "verify", "us_median", "pct_floor", "floor_us", "note"]


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({c: r.get(c, "") for c in COLUMNS})


def row(shape, m, kernel, spec, us, pct="", status="ok"):
    return {"shape": shape, "M": m, "kernel": kernel, "type_spec": spec, "us_median": us, "pct_floor": pct,
            "status": status, "schedule": "sched"}


def run(path, *args):
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "reference_compare.py"), str(path), *args],
                         check=True, capture_output=True, text=True)
    return out.stdout


def test_pairs_rows_of_the_same_point_and_reports_the_ratio(tmp_path):
    p = tmp_path / "bench.csv"
    write_csv(p, [
        row("seed", 1, "cublas_fp16", "cublas_fp16", 96.0),
        row("seed", 1, "mixgemm", "f16.u4b8.g128", 32.0, 67.0),
        row("seed", 1, "marlin_w4a16", "f16.u4b8.g128", 40.0, 53.6),
        row("seed", 16, "mixgemm", "f16.u4b8.g128", 40.0, 54.0),
        row("seed", 16, "marlin_w4a16", "f16.u4b8.g128", 36.0, 60.0),
        # A reference row without its mixgemm twin, and a failed one: neither is paired.
        row("o", 1, "marlin_w4a16", "f16.u4b8.g128", 16.0, 50.0),
        row("seed", 64, "mixgemm", "f16.u4b8.g128", 50.0, 40.0),
        row("seed", 64, "marlin_w4a16", "f16.u4b8.g128", 70.0, 30.0, status="not_supported"),
    ])
    out = run(p)
    lines = [l.split() for l in out.splitlines() if l.strip().startswith("seed")]
    assert len(lines) == 2
    m1 = next(l for l in lines if l[2] == "1")
    assert m1[-2] == "1.25"               # marlin 40 us / mixgemm 32 us
    assert m1[7] == "3.00" and m1[8] == "2.40"  # x cuBLAS fp16: 96 / 32, 96 / 40
    m16 = next(l for l in lines if l[2] == "16")
    assert m16[-2] == "0.90"              # marlin 36 / mixgemm 40; no cuBLAS row at M = 16: empty columns
    # Geomean over M <= 16: sqrt(1.25 * 0.9).
    assert "1.061  (2 points, 0.90 .. 1.25)" in out


def test_names_another_reference_and_writes_markdown(tmp_path):
    p = tmp_path / "bench.csv"
    write_csv(p, [
        row("seed", 4, "mixgemm", "s8.u4b8.gch", 30.0, 70.0),
        row("seed", 4, "qqq_w4a8", "s8.u4b8.gch", 33.0, 63.6),
        row("seed", 4, "marlin_w4a16", "s8.u4b8.gch", 99.0, 20.0),
    ])
    out = run(p, "--reference", "qqq_w4a8", "--markdown")
    assert out.splitlines()[0].startswith("| shape | type | M |")
    assert "| seed | s8.u4b8.gch | 4 | 30.00 | 70.0 | 33.00 | 63.6 |" in out
    assert "| 1.10 |" in out
