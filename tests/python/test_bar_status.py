"""scripts/bar_status.py: the issues' bars point by point from bench CSVs (plain Python, no torch, no GPU)."""
import csv
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COLUMNS = ["gpu", "shape", "N", "K", "M", "tp", "kernel", "type_spec", "schedule", "status", "us_median", "pct_floor",
           "x_cublas_fp16", "x_cublas_fp8", "note"]


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        for r in rows:
            w.writerow({c: r.get(c, "") for c in COLUMNS})


def mix(shape, m, spec, us, gpu="NVIDIA H200", **cols):
    return {"gpu": gpu, "shape": shape, "M": m, "tp": 1, "kernel": "mixgemm", "type_spec": spec, "schedule": "s",
            "status": "ok", "us_median": us, **cols}


def run(*args, check=True):
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "bar_status.py"), *map(str, args)],
                          check=check, capture_output=True, text=True)


def summary(out):
    """{(issue, type, measure, M): 'met / points'} from the summary table."""
    rows = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 7 and cells[0].startswith("#"):
            rows[(cells[0], cells[1], cells[2], cells[3])] = cells[4]
    return rows


def test_counts_each_bar_and_names_the_card(tmp_path):
    p = tmp_path / "bench.csv"
    write_csv(p, [
        mix("seed", 1, "f16.u4b8.g128", 30.0, pct_floor=86.0),            # #6: 85% of the floor, met
        mix("llama2-70b/o", 1, "f16.u4b8.g128", 20.0, pct_floor=60.0),    # not met
        mix("seed", 1024, "s8.u4b8.g128", 500.0, x_cublas_fp8=0.95),      # #5: 0.9x cuBLASLt fp8, met
        mix("seed", 256, "f16.u4b8.g128", 90.0, x_cublas_fp16=1.19),      # #4: 1.2x at M = 256, not met
    ])
    out = run(p).stdout
    assert out.splitlines()[0] == "card: NVIDIA H200"
    s = summary(out)
    assert s[("#6", "f16.u4b8.g128", "pct_floor", "M=1")] == "1 / 2"
    assert s[("#5", "s8.u4b8.g128", "x_cublas_fp8", "M>=1024")] == "1 / 1"
    assert s[("#4", "f16.u4b8.g128", "x_cublas_fp16", "M=256")] == "0 / 1"


def test_another_card_is_information_and_graph_timing_is_named(tmp_path):
    p = tmp_path / "bench.csv"
    write_csv(p, [mix("seed", 1, "f16.u4b8.g128", 30.0, gpu="NVIDIA H100 80GB HBM3", pct_floor=86.0)])
    (tmp_path / "bench.txt").write_text("timing: 20 replays of a CUDA graph of 32 launches, per launch\n")
    lines = run(p).stdout.splitlines()
    assert lines[0].startswith("card: NVIDIA H100 80GB HBM3 (the issues set these bars on the H200")
    assert lines[1].startswith("timing: 20 replays of a CUDA graph") and "event-timed" in lines[1]


def test_several_csvs_read_as_one_sweep_and_a_point_in_two_is_refused(tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    write_csv(a, [mix("seed", 1, "s8.u4b8.g128", 30.0, pct_floor=86.0)])
    write_csv(b, [mix("llama2-70b/down", 1, "s8.u4b8.g128", 40.0, pct_floor=81.0)])
    s = summary(run(a, b).stdout)
    assert s[("#6", "s8.u4b8.g128", "pct_floor", "M=1")] == "1 / 2"
    r = run(a, a, check=False)
    assert r.returncode != 0 and "is in both" in r.stderr
