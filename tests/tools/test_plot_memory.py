#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tdtrace-plot reads a large recording in bounded memory.

Made-up TopDown process lines (the synthetic fixture's, renumbered) are
written to tdtrace-plot's standard input as they are generated, so nothing
goes to disk: a small run and one five times larger, each well past the
1000 points and the 64 entities tdtrace-plot keeps. Four steady processes
do most of the work; six new ones a second come and go. Checks, for both:
the picture is written; its top 4 are the four steady processes; and the
peak RSS of the larger run (wait4's ru_maxrss) is under a fixed bound and
no more than a few MB above the smaller one's, where holding the lines
would take about 8 times their size.

Prints a cmocka-style summary for tests/run.sh; skips, saying why, without
python3-matplotlib.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_test_lib import FIXTURES, PLOT, report, skip_all  # noqa: E402

FIXTURE = os.path.join(FIXTURES, "synthetic-topdown.jsonl")

SMALL_MB, LARGE_MB = 30, 150
# The bounds: any peak, and how much more the larger run may take.
PEAK_LIMIT_MB = 200
GROWTH_LIMIT_MB = 24
TIMEOUT_S = 180
STEADY, CHURN = 4, 6  # processes an interval


def templates():
    """%-templates of a system line and a process line, from the fixture."""
    system = process = None
    with open(FIXTURE, encoding="utf-8") as f:
        for text in f:
            d = json.loads(text)
            if d.get("phase") != "interval":
                continue
            if d["type"] == "system" and system is None:
                system = d
            if d["type"] == "process" and d.get("slots") and process is None:
                process = d
    marks = {"interval": "@iv@", "elapsed_s": "@t@", "timestamp": "@t@"}
    out = []
    for d, extra in ((system, {}), (process, {"pid": "@pid@", "comm": "@comm@",
                                              "start_ns": "@pid@", "slots": "@slots@",
                                              "slots_pct": "@pct@"})):
        d = dict(d, **{k: v for k, v in marks.items() if k in d}, **extra)
        s = json.dumps(d, separators=(",", ":")).replace("%", "%%")
        for k, fmt in (("iv", "%(iv)d"), ("t", "%(t).1f"), ("pid", "%(pid)d"),
                       ("slots", "%(slots).1f"), ("pct", "%(pct).3f")):
            s = s.replace(f'"@{k}@"', fmt)
        out.append(s.replace('"@comm@"', '"%(comm)s"') + "\n")
    return out


def generate(size, sink):
    """Write about size bytes of lines to sink; return the number of intervals."""
    system, process = templates()
    written, iv, churn = 0, 0, 0
    while written < size:
        iv += 1
        chunk = [system % {"iv": iv, "t": float(iv)}]
        for k in range(STEADY):
            chunk.append(process % {"iv": iv, "t": float(iv), "pid": 100 + k,
                                    "comm": f"steady{k}", "slots": 9.0e9 - k * 1e9,
                                    "pct": 18.0 - 2 * k})
        for _ in range(CHURN):
            churn += 1
            chunk.append(process % {"iv": iv, "t": float(iv), "pid": 10000 + churn,
                                    "comm": "churn", "slots": 1.0e8, "pct": 0.2})
        data = "".join(chunk).encode()
        sink.write(data)
        written += len(data)
    return iv


def run(size, out):
    """(exit status, stderr, peak RSS in kB, seconds, intervals) of one run."""
    start = time.monotonic()
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen([PLOT, "-o", out, "--by", "process", "--top", "4"],
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err)
        try:
            intervals = generate(size, p.stdin)
            p.stdin.close()
        except BrokenPipeError:
            intervals = -1
        # Waited for here, not by subprocess, to get this child's own rusage.
        deadline = start + TIMEOUT_S
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                p.kill()
                pid, status, usage = os.wait4(p.pid, 0)
                break
            time.sleep(0.1)
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode(errors="replace")
    return p.returncode, text, usage.ru_maxrss, time.monotonic() - start, intervals


def level_titles(svg):
    root = ET.parse(svg).getroot()
    return [el.text.strip() for el in root.iter()
            if el.text and el.text.strip().endswith(": Level 1")]


def main():
    interp = open(PLOT, encoding="utf-8").readline()[2:].strip()
    if subprocess.run([interp, "-c", "import matplotlib"], capture_output=True).returncode:
        return skip_all("test_plot_memory",
                        f"{interp} cannot import matplotlib: install python3-matplotlib")
    passed, failed = 0, []
    peaks = {}
    with tempfile.TemporaryDirectory() as tmp:
        for mb in (SMALL_MB, LARGE_MB):
            name = f"plot_{mb}mb"
            out = os.path.join(tmp, f"{mb}.svg")
            rc, err, peak, secs, intervals = run(mb << 20, out)
            peaks[mb] = peak
            print(f"test_plot_memory: {mb} MB, {intervals} intervals: exit {rc}, "
                  f"peak RSS {peak // 1024} MB, {secs:.1f} s; {err.strip()}")
            titles = level_titles(out) if rc == 0 and os.path.exists(out) else []
            want = [f"steady{k} [{100 + k}]: Level 1" for k in range(STEADY)]
            if rc != 0:
                failed.append(name)
                print(f"[  FAILED  ] {name}: exit status {rc}")
            elif titles != want:
                failed.append(name)
                print(f"[  FAILED  ] {name}: panels {titles}, want {want}")
            else:
                passed += 1
                print(f"[       OK ] {name}")
    small, large = peaks[SMALL_MB] // 1024, peaks[LARGE_MB] // 1024
    if large > PEAK_LIMIT_MB:
        failed.append("peak_bound")
        print(f"[  FAILED  ] peak_bound: {large} MB for {LARGE_MB} MB of lines, "
              f"limit {PEAK_LIMIT_MB} MB")
    elif large > small + GROWTH_LIMIT_MB:
        failed.append("peak_bound")
        print(f"[  FAILED  ] peak_bound: {large} MB for {LARGE_MB} MB of lines, "
              f"{small} MB for {SMALL_MB} MB: grows with the input")
    else:
        passed += 1
        print(f"[       OK ] peak_bound ({small} MB for {SMALL_MB} MB of lines, "
              f"{large} MB for {LARGE_MB} MB)")
    return report(passed, failed)


if __name__ == "__main__":
    sys.exit(main())
