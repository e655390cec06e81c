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

Then, with HWCHECK_LIVE (the default), the counting path's own cases
(issue 23 part 5; not yet run on TopDown hardware):

3. The NMI watchdog on and off (as root, restored after): the workload's
   level 1 is counted (not null) either way. Then turned on during a run
   that started with it off: tdtrace says so once, the workload is still
   counted in its last interval and its summary; where tdtrace says it
   switched to level 1 (Haswell, Broadwell), every level-2 metric of the
   summary is null, and where it kept level 2 in more groups
   (Skylake-class), every one is a number.
4. Member reads: which read tdtrace chose (stderr), and the cost per
   switch of its reads (--self-stats), printed; perf's metrics per
   process within 1 point on the mem load.
5. A UOP_DROPPING-heavy load (workload.c's drop): perf's own count of
   INT_MISC.UOP_DROPPING is printed, and must be above 0 (else the load
   proved nothing); perf's metrics per process within 1 point.
6. Three copies of a load pinned to one CPU, tdtrace -t against perf on
   one copy, with the PMU's multiplexing interval at 1 and 16 ms.
7. libtdregion (issue 24 part 3): the alu and branch loops inside one
   region (tests/hw/region.c), under perf stat -M <level 1 group>: the
   region's level 1, read in the process, within 1 point of perf's.

Without a TopDown PMU (a VM, an unknown CPU) it says so and exits 0:
nothing could be checked. Exit 1 on any failure.

For tests/hw/test_hwcheck.sh: HWCHECK_TDTRACE runs the live cases with
another tdtrace (a fake), HWCHECK_PROC is /proc for the knobs they turn,
HWCHECK_CASES runs only the cases named (case_dropping,...), even with
HWCHECK_LIVE=0, and no formula check.
"""
import contextlib
import json
import os
import re
import subprocess
import sys
import time

BUILD = os.environ.get("OUTPUT", "build")
TDTRACE = os.path.join(BUILD, "tdtrace")
WORKLOAD = os.path.join(BUILD, "hw-workload")
REGION = os.path.join(BUILD, "hw-region")
SECONDS = os.environ.get("HWCHECK_SECONDS", "2")
# For tests/hw/test_hwcheck.sh: a fake machine and a fake perf.
PROBE_ARGS = os.environ.get("HWCHECK_PROBE_ARGS", "").split()
PERF = os.environ.get("HWCHECK_PERF", "perf")
LIVE = os.environ.get("HWCHECK_LIVE", "1") != "0"
LIVE_TDTRACE = os.environ.get("HWCHECK_TDTRACE", TDTRACE)
PROC = os.environ.get("HWCHECK_PROC", "/proc")
CASES = [c for c in os.environ.get("HWCHECK_CASES", "").split(",") if c]
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
    m = re.match(r"^[a-z][a-z0-9_]*/(.*)/[a-zA-Z]*$", event)  # cpu/x/, armv8_pmuv3_0/x/
    if m:
        event = m.group(1)
    return event.split(":")[0]


def perf_stat(groups, kind, prog=WORKLOAD, stdout=None):
    """perf's counts and metrics for @prog @kind; its own output appended to @stdout."""
    p = run([PERF, "stat", "-j", "-M", groups, "--", prog, kind, SECONDS])
    if p.returncode != 0:
        raise RuntimeError(f"perf stat -M {groups} failed: {p.stderr.strip()[:300]}")
    if stdout is not None:
        stdout.append(p.stdout)
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
    if pmu.get("cpuid"):  # arm64: perf's #slots and cpuid, as --probe found them
        line.update(slots_per_cycle=pmu["slots_per_cycle"], cpuid=pmu["cpuid"])
    p = run([TDTRACE, "report", "--json"], input=json.dumps(line) + "\n")
    if p.returncode != 0:
        raise RuntimeError(f"tdtrace report failed: {p.stderr.strip()}")
    return json.loads(p.stdout.splitlines()[0])


def live(kind):
    p = run([LIVE_TDTRACE, "--json", "-I", "100000", "--", WORKLOAD, kind, SECONDS])
    if p.returncode != 0:
        raise RuntimeError(f"tdtrace -- workload failed: {p.stderr.strip()}")
    for line in p.stdout.splitlines():
        o = json.loads(line)
        if o.get("phase") == "summary" and o.get("type") == "process" and \
                o.get("comm") == "hw-workload":
            return o
    raise RuntimeError("no summary line for the workload in tdtrace's output")


def summary_of(out, kind="process", comm="hw-workload"):
    """The summary lines of tdtrace --json output for @comm's tasks."""
    rows = []
    for line in out.splitlines():
        o = json.loads(line)
        if o.get("phase") == "summary" and o.get("type") == kind and o.get("comm") == comm:
            rows.append(o)
    return rows


@contextlib.contextmanager
def written(path, value):
    """@path (a sysctl or sysfs knob) holds @value inside the block, as before after."""
    with open(path) as f:
        was = f.read().strip()
    with open(path, "w") as f:
        f.write(str(value))
    try:
        yield
    finally:
        with open(path, "w") as f:
            f.write(was)


def knob(path):
    if not os.access(path, os.W_OK):
        print(f"  SKIPPED: needs {path}, writable (root)")
        return False
    return True


def near(kind, name, want, got, tol):
    ok = got is not None and abs(got - want) <= tol
    print(f"  {kind:22} {name:32} perf {want:8.3f}  tdtrace "
          f"{'    null' if got is None else format(got, '8.3f')}  {'ok' if ok else 'FAIL'}")
    return not ok


def case_watchdog(pmu):
    """3: with the NMI watchdog on and off, the workload is counted (valid, not null)."""
    path = os.path.join(PROC, "sys/kernel/nmi_watchdog")
    failed = 0
    if not knob(path):
        return 0
    for on in (1, 0):
        with written(path, on):
            p = run([LIVE_TDTRACE, "--json", "-I", "100000", "--", WORKLOAD, "alu", SECONDS])
        rows = summary_of(p.stdout) if p.returncode == 0 else []
        ok = rows and all(r.get("valid") for r in rows)
        failed += not ok
        said = [x for x in p.stderr.splitlines() if "watchdog" in x]
        print(f"  watchdog {'on ' if on else 'off'}: {'ok' if ok else 'FAIL'} "
              f"({len(rows)} rows, valid {[r.get('valid') for r in rows]}) {said}")
    return failed


def level2_metrics(pmu, row):
    """The level-2 metrics of @row: those of perf's TopdownL2 group, by tdtrace's names."""
    _, want = perf_stat("TopdownL2", "alu")
    return [name for name in want if name in row]


def case_watchdog_during(pmu):
    """3: the watchdog turned on during a run started with it off: said once, still counted."""
    path = os.path.join(PROC, "sys/kernel/nmi_watchdog")
    if not knob(path):
        return 0
    secs = float(SECONDS)
    with written(path, 0):
        p = subprocess.Popen([LIVE_TDTRACE, "--json", "-I", str(max(int(secs * 250), 100)),
                              "--", WORKLOAD, "alu", str(2 * secs)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        # Once it counts (it says so), with the watchdog off for a while: then on.
        early = b""
        while b"tdtrace: counting " not in early:
            byte = p.stderr.read(1)
            if not byte:
                break
            early += byte
        time.sleep(secs)
        with open(path, "w") as f:
            f.write("1")
        out, err = p.communicate(timeout=60 + 10 * secs)
    out, err = out.decode(), (early + err).decode()
    said = [x for x in err.splitlines() if "NMI watchdog was turned on" in x]
    rows = summary_of(out) if p.returncode == 0 else []
    lines = [json.loads(x) for x in out.splitlines()] if p.returncode == 0 else []
    last = [o for o in lines if o.get("phase") == "interval" and o.get("type") == "process"
            and o.get("comm") == "hw-workload"][-1:]
    failed = 0
    checks = [("said once", len(said) == 1),
              ("summary counted", bool(rows) and all(r.get("valid") for r in rows)),
              ("last interval counted", bool(last) and last[0].get("valid"))]
    switched_to = said[0].split(" instead of ")[0] if said else ""
    if " level 1 in " in switched_to and rows:
        # Switched to level 1 (Haswell, Broadwell): level 2's counts do not cover the run.
        l2 = level2_metrics(pmu, rows[0])
        checks.append((f"level 2 null ({len(l2)} metrics)",
                       all(rows[0][name] is None for name in l2)))
    elif " level 2 in " in switched_to and rows:
        # Level 2 regrouped (Skylake-class, a fifth group): still counted, the whole run.
        l2 = level2_metrics(pmu, rows[0])
        checks.append((f"level 2 counted ({len(l2)} metrics)",
                       bool(l2) and all(rows[0][name] is not None for name in l2)))
    for what, ok in checks:
        failed += not ok
        print(f"  watchdog on during the run: {what}: {'ok' if ok else 'FAIL'}")
    print(f"  said: {said}")
    return failed


def case_members(pmu):
    """4: the member read chosen, its cost per switch, and perf's level 1 within 1 point."""
    _, want = perf_stat(pmu["perf_groups"], "mem")
    p = run([LIVE_TDTRACE, "--json", "--self-stats", "-I", "100000", "--", WORKLOAD, "mem",
             SECONDS])
    if p.returncode != 0:
        raise RuntimeError(f"tdtrace failed: {p.stderr.strip()[:200]}")
    print("  " + "; ".join(x for x in p.stderr.splitlines() if "members read" in x))
    for o in (json.loads(x) for x in p.stdout.splitlines()):
        if o.get("phase") == "summary" and o.get("type") == "system" and \
                o.get("self_switch_runs"):
            print(f"  cost: {o['self_switch_ns'] / o['self_switch_runs']:.0f} ns per switch "
                  f"({o['self_switch_runs']} switches)")
    rows = summary_of(p.stdout)
    if not rows:
        raise RuntimeError("no summary line for the workload")
    return sum(near("members mem", name, want[name], rows[0].get(name), 1.0)
               for name in sorted(want) if name in rows[0])


def case_dropping(pmu):
    """5: a UOP_DROPPING-heavy load (workload drop), per process against perf within 1 point."""
    if not any(e["name"] == "INT_MISC.UOP_DROPPING" for e in pmu["events"]):
        print(f"  dropping: SKIPPED: model {pmu['model']} counts no INT_MISC.UOP_DROPPING")
        return 0
    counts, want = perf_stat(pmu["perf_groups"], "drop")
    dropped = counts.get("INT_MISC.UOP_DROPPING", 0)
    print(f"  dropping: perf counted INT_MISC.UOP_DROPPING {dropped:.0f}")
    if not dropped:
        print("  dropping: FAIL: the load dropped no uops: the comparison would prove nothing")
        return 1
    p = run([LIVE_TDTRACE, "--json", "-I", "100000", "--", WORKLOAD, "drop", SECONDS])
    if p.returncode != 0:
        raise RuntimeError(f"tdtrace failed: {p.stderr.strip()[:200]}")
    rows = summary_of(p.stdout)
    if not rows:
        raise RuntimeError("no summary line for the workload")
    compared = [name for name in sorted(want) if name in rows[0]]
    if not compared:
        raise RuntimeError("no metric of perf's matched one of tdtrace's")
    return sum(near("dropping", name, want[name], rows[0].get(name), 1.0) for name in compared)


def case_pinned(pmu):
    """6: three copies on one CPU under -t, against perf on one copy, mux 1 and 16 ms."""
    path = f"/sys/bus/event_source/devices/{pmu['pmu']}/perf_event_mux_interval_ms"
    failed = 0
    if not knob(path):
        return 0
    for ms in (1, 16):
        with written(path, ms):
            _, want = perf_stat(pmu["perf_groups"], "alu")
            script = f"for i in 1 2 3; do taskset -c 0 {WORKLOAD} alu {SECONDS} & done; wait"
            p = run([LIVE_TDTRACE, "--json", "-t", "-I", "100000", "--", "sh", "-c", script])
        rows = summary_of(p.stdout, kind="thread")
        if len(rows) != 3:
            print(f"  pinned mux {ms} ms: FAIL: {len(rows)} thread rows, not 3")
            failed += 1
            continue
        for r in rows:
            failed += sum(near(f"pinned mux {ms} ms", name, want[name], r.get(name), LIVE_TOL)
                          for name in sorted(want) if name in r)
    return failed


def case_region(pmu):
    """6: libtdregion's level 1 for a region against perf stat on the same run, 1 point."""
    failed = 0
    level1 = pmu["perf_groups"].split(",")[0]
    for kind in ("alu", "branch"):
        out = []
        _, want = perf_stat(level1, kind, prog=REGION, stdout=out)
        got = json.loads(out[0].strip().splitlines()[-1])
        print(f"  region {kind}: libtdregion {got['mode']} ({got['why']})")
        if got["level"] < 1:
            print(f"  region {kind}: FAIL: no TopDown from libtdregion on a TopDown PMU")
            failed += 1
            continue
        for name in sorted(want):
            node = name[4:] if name.startswith("tma_") else name
            if node in got:
                failed += near(f"region {kind}", name, want[name], got[node], 1.0)
    return failed


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
        for kind in () if CASES else ("alu", "mem", "branch", "icache"):
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
        for case in (case_watchdog, case_watchdog_during, case_members, case_dropping,
                     case_pinned, case_region):
            if (CASES and case.__name__ not in CASES) or not (LIVE or CASES):
                continue
            try:
                failed += case(pmu)
            except (RuntimeError, OSError, ValueError, subprocess.TimeoutExpired) as e:
                print(f"  {case.__name__}: FAIL: {e}")
                failed += 1
    print(f"hwcheck: {'FAILED' if failed else 'passed'}" +
          (f" ({failed} failures)" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
