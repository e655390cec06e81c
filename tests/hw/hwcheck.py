#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make hwcheck: tdtrace against perf, on a machine with TopDown counters.

Two checks per workload (tests/hw/workload.c: alu, mem, branch, icache):

1. Formulas. perf stat -j -M <the model's level 1 and 2 groups> runs the
   workload; perf's own raw counts become a tdtrace JSON line, which
   `tdtrace report --json` decodes. Each metric must equal perf's value
   from the same counts (to 0.01 percentage points): this proves the
   model row's formulas are perf's, on this CPU.
2. Attribution. `tdtrace --json -- workload` runs it again; the
   workload's own summary line must be near perf's level 1 (within 5
   points: two runs, and per-task rather than whole-run counts).

A node tdtrace leaves null (formula or live) while perf has a value for
it fails: a null is never skipped.

Without a TopDown PMU (a VM, an unknown CPU) it says so and exits 0:
nothing could be checked. Exit 1 on any failure.
"""
import json
import os
import re
import subprocess
import sys

BUILD = os.environ.get("OUTPUT", "build")
TDTRACE = os.path.join(BUILD, "tdtrace")
WORKLOAD = os.path.join(BUILD, "hw-workload")
SECONDS = os.environ.get("HWCHECK_SECONDS", "2")
# For tests/hw/test_hwcheck.sh: a fake machine and a fake perf.
PROBE_ARGS = os.environ.get("HWCHECK_PROBE_ARGS", "").split()
PERF = os.environ.get("HWCHECK_PERF", "perf")
LIVE = os.environ.get("HWCHECK_LIVE", "1") != "0"
FORMULA_TOL = 0.01  # percentage points: perf prints 6 decimals of the same double
LIVE_TOL = 5.0  # percentage points between two runs


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def probe():
    p = run([TDTRACE, "--probe", "--json"] + PROBE_ARGS)
    if p.returncode != 0:
        sys.exit(f"hwcheck: tdtrace --probe --json failed ({p.returncode}): {p.stderr.strip()}")
    return json.loads(p.stdout)


def bare(event):
    """perf's spelling of an event in -j output, without PMU and modifiers."""
    m = re.match(r"^[a-z_]+/(.*)/[a-zA-Z]*$", event)
    if m:
        event = m.group(1)
    return event.split(":")[0]


def perf_stat(groups, kind):
    p = run([PERF, "stat", "-j", "-M", groups, "--", WORKLOAD, kind, SECONDS])
    if p.returncode != 0:
        raise RuntimeError(f"perf stat -M {groups} failed: {p.stderr.strip()[:300]}")
    counts, metrics = {}, {}
    for line in p.stderr.splitlines():
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if "event" in o and "counter-value" in o:
            try:
                counts[bare(o["event"])] = float(o["counter-value"])
            except ValueError:
                pass  # "<not counted>"
        unit = o.get("metric-unit", "")
        if "metric-value" in o and unit:
            name = unit.split()[-1]
            try:
                metrics[name] = float(o["metric-value"])
            except ValueError:
                pass
    return counts, metrics


def decode(pmu, smt_on, counts):
    names = {}
    for e in pmu["events"]:
        names[e["name"]] = e["name"]
        if e.get("alias"):
            names[e["alias"]] = e["name"]
    line = {
        "schema": 2, "type": "system", "phase": "summary", "interval": 1,
        "mode": "topdown", "model": pmu["model"], "pmu": pmu["pmu"], "smt_on": smt_on,
        "time_enabled_ns": 1, "time_running_ns": 1,
        "counts": {names[k]: int(round(v)) for k, v in counts.items() if k in names},
    }
    p = run([TDTRACE, "report", "--json"], input=json.dumps(line) + "\n")
    if p.returncode != 0:
        raise RuntimeError(f"tdtrace report failed: {p.stderr.strip()}")
    return json.loads(p.stdout.splitlines()[0])


def live(kind):
    p = run([TDTRACE, "--json", "-I", "100000", "--", WORKLOAD, kind, SECONDS])
    if p.returncode != 0:
        raise RuntimeError(f"tdtrace -- workload failed: {p.stderr.strip()}")
    for line in p.stdout.splitlines():
        o = json.loads(line)
        if o.get("phase") == "summary" and o.get("type") == "process" and \
                o.get("comm") == "hw-workload":
            return o
    raise RuntimeError("no summary line for the workload in tdtrace's output")


def main():
    pr = probe()
    pmus = [p for p in pr.get("pmus", []) if p.get("model")]
    if not pmus:
        print(f"hwcheck: SKIPPED, nothing checked: no TopDown here: {pr.get('why', '?')}")
        return 0
    if run([PERF, "--version"]).returncode != 0:
        print("hwcheck: SKIPPED: perf is not installed (Debian: linux-perf)")
        return 0
    failed = 0
    smt_on = pr.get("cpu", {}).get("smt_on", False)
    for pmu in pmus:
        print(f"hwcheck: {pmu['pmu']}: model {pmu['model']}, level {pmu['level']}, "
              f"perf groups {pmu['perf_groups']}")
        for kind in ("alu", "mem", "branch", "icache"):
            try:
                counts, perf_metrics = perf_stat(pmu["perf_groups"], kind)
                ours = decode(pmu, smt_on, counts)
                mine = live(kind) if LIVE else {}
            except RuntimeError as e:
                print(f"  {kind}: FAIL: {e}")
                failed += 1
                continue
            compared = 0
            for name, want in sorted(perf_metrics.items()):
                if name not in ours:
                    continue  # a node this row does not have
                got = ours[name]
                compared += 1
                if got is None:
                    # perf computed it from the same counts: a null hides a fault.
                    failed += 1
                    print(f"  {kind:6} formula {name:32} perf {want:8.3f}  tdtrace     null  FAIL")
                    continue
                ok = abs(got - want) <= FORMULA_TOL
                failed += not ok
                print(f"  {kind:6} formula {name:32} perf {want:8.3f}  tdtrace {got:8.3f}  "
                      f"{'ok' if ok else 'FAIL'}")
                if name in mine and mine[name] is None:
                    failed += 1
                    print(f"  {kind:6} live    {name:32} perf {want:8.3f}  tdtrace     null  FAIL")
                elif name in mine:
                    near = abs(mine[name] - want) <= LIVE_TOL
                    failed += not near
                    print(f"  {kind:6} live    {name:32} perf {want:8.3f}  tdtrace "
                          f"{mine[name]:8.3f}  {'ok' if near else 'FAIL'}")
            if not compared:
                print(f"  {kind}: FAIL: no metric of perf's matched one of tdtrace's")
                failed += 1
    print(f"hwcheck: {'FAILED' if failed else 'passed'}" +
          (f" ({failed} failures)" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
