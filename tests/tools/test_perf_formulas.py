#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Model rows against perf v7.3's formulas, evaluated.

For every model row (build/mkdoc formulas), perf's own MetricExpr text
for the row's model and unit is read from the pinned pmu-events files
its .source cites (tests/fixtures/pmu-events-v7.3/), not from tdtrace's
code. Random counts (three draws, SMT on and off) go through `tdtrace
report --json` (the row's formulas) and through perf's expressions
(evaluated here; on arm64 with #slots and cpuids at several revisions,
as the line's slots_per_cycle and cpuid), and every level-1 and level-2 metric must agree to
0.01 percentage points; the decoded line must name the row's pmu-events
version. Prints a cmocka-style summary for tests/run.sh.
"""
import json
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_test_lib import report, skip_all  # noqa: E402

OUTPUT = os.environ.get("OUTPUT", "build")
TD = os.path.join(OUTPUT, "tdtrace")
MKDOC = os.path.join(OUTPUT, "mkdoc")
PINNED = "tests/fixtures/pmu-events-v7.3"


def perf_metrics(row):
    """perf's metrics by name for @row's unit, from the files it cites: on
    arm64, a metrics.json entry naming sbsa.json's metric by ArchStdEvent
    is that metric with the entry's fields over sbsa's (perf's jevents)."""
    by_unit, plain, std = {}, {}, []
    for rel in re.findall(r"((?:x86|arm64)/\S+\.json) @ [0-9a-f]+", row["source"] or ""):
        for e in json.load(open(os.path.join(PINNED, rel))):
            if "MetricName" not in e:
                std.append(e)
            elif e.get("Unit") == row["pmu"]:
                by_unit[e["MetricName"]] = e
            elif e.get("Unit") in (None, "cpu"):
                plain[e["MetricName"]] = e
    plain.update(by_unit)
    for e in std:
        name = e.get("ArchStdEvent")
        if name in plain:
            plain[name] = dict(plain[name], **{k: v for k, v in e.items() if k != "ArchStdEvent"})
    return plain


def arm64_cpuids(row, draw):
    """(#slots, cpuid) for an arm64 row: a MIDR mapfile.csv gives its model,
    at r0p0, r0p2, r0p3 and r1p0 in turn (N2's formulas test r0p3)."""
    midrs = [l.split(",")[0] for l in open(os.path.join(PINNED, "arm64/mapfile.csv"))
             if l.startswith("0x") and l.split(",")[2].endswith("/" + row["model"])]
    midr = int(midrs[draw % len(midrs)], 16) | [0, 0x2, 0x3, 0x100000][draw % 4]
    return [4, 5, 8, 10][draw % 4], "0x%016x" % midr


def cpuid_at_least(cpuid, test):
    """perf's strcmp_cpuid_str(test) on arm64: the same part, a revision at least test's."""
    cpu, want, rev = int(cpuid, 16), int(test, 16), 0xf0000f
    return int(cpu & ~rev == want & ~rev and cpu & rev >= want & rev)


class Perf:
    """perf's expressions, evaluated: names are events (counts) or metrics."""

    def __init__(self, metrics, counts, smt, slots=0, cpuid=None):
        self.metrics, self.counts, self.smt, self.cache = metrics, counts, smt, {}
        self.slots, self.cpuid = slots, cpuid

    def value(self, name):
        # perf's event names are not case sensitive (sbsa.json: "cpu_cycles")
        for n in (name, name.upper()):
            if n in self.counts:
                return self.counts[n]
        if name not in self.cache:
            self.cache[name] = self.eval(self.metrics[name]["MetricExpr"])
        return self.cache[name]

    def eval(self, expr):
        e = expr.replace("\\-", "-").replace("\\,", ",").replace("\\=", "=")
        e = re.sub(r"(cpu(_core|_atom)?|armv8_pmuv3_0)@([^@]*)@", lambda m: '"' + m.group(3) + '"',
                   e)
        e = e.replace("#SMT_on", "SMT_ON").replace("#core_wide", "CORE_WIDE")
        e = e.replace("#slots", "SLOTS")
        e = re.sub(r"strcmp_cpuid_str\((0x[0-9a-fA-F]+)\)",
                   lambda m: str(cpuid_at_least(self.cpuid, m.group(1))), e)
        names = {}

        def quoted(m):
            key = "V%d" % len(names)
            names[key] = m.group(0)[1:-1]
            return key

        def bare(m):
            t = m.group(0)
            if t in names or t in ("if", "else", "max", "min", "d_ratio", "SMT_ON", "CORE_WIDE",
                                   "SLOTS"):
                return t
            key = "V%d" % len(names)
            names[key] = t
            return key

        e = re.sub(r'"[^"]*"', quoted, e)
        e = re.sub(r"[A-Za-z_][A-Za-z0-9_.]*(?:-[a-z][A-Za-z0-9_.]*)*", bare, e)
        env = {k: self.value(v) for k, v in names.items()}
        env.update(max=max, min=min, d_ratio=lambda a, b: 0 if b == 0 else a / b,
                   SMT_ON=1 if self.smt else 0, CORE_WIDE=0, SLOTS=self.slots)
        try:
            return eval(e, {}, env)  # perf's arithmetic: numbers, names, max/min, if/else
        except ZeroDivisionError:
            return float("nan")


def check(row):
    perf = perf_metrics(row)
    if not perf:
        return "fail", "no metrics in the files %s cites" % row["model"]
    rng = random.Random(1)
    compared = 0
    arm64 = "arm64/" in (row["source"] or "")
    for draw in range(8 if arm64 else 6):
        smt = draw % 2 == 0
        slots, cpuid = arm64_cpuids(row, draw) if arm64 else (0, None)
        ours, counts = {}, {}
        for e in row["events"]:
            v = rng.randint(1000, 100000)
            ours[e["name"]] = counts[e["name"]] = v
            if e.get("alias"):
                counts[e["alias"]] = v
        line = {"schema": 2, "type": "system", "phase": "interval", "interval": 1,
                "mode": "topdown", "model": row["model"], "pmu": row["pmu"], "smt_on": smt,
                "time_enabled_ns": 1, "time_running_ns": 1, "counts": ours}
        if arm64:
            line.update(slots_per_cycle=slots, cpuid=cpuid)
        r = subprocess.run([TD, "report", "--json"], input=json.dumps(line) + "\n",
                           capture_output=True, text=True)
        if r.returncode:
            return "fail", "tdtrace report: " + r.stderr.strip()
        mine = json.loads(r.stdout)
        if mine.get("pmu_events") != row["pmu_events"]:
            return "fail", "pmu_events %r, the row's %r" % (mine.get("pmu_events"),
                                                            row["pmu_events"])
        ev = Perf(perf, counts, smt, slots, cpuid)
        for m in row["metrics"]:
            if m["level"] < 1:
                continue
            if m["name"] not in perf:
                return "fail", "perf v7.3 has no %s" % m["name"]
            # perf's ScaleUnit: "1percent" metrics are in percent already, others fractions
            scale = 1 if perf[m["name"]].get("ScaleUnit", "").startswith("1percent") else 100
            v, want = mine.get(m["name"]), scale * ev.value(m["name"])
            if v is None or abs(want - v) > 0.01:
                return "fail", "%s (SMT %s%s): perf %.4f, tdtrace %s" % (
                    m["name"], "on" if smt else "off",
                    ", #slots %d, cpuid %s" % (slots, cpuid) if arm64 else "", want, v)
            compared += 1
    return "ok", "%d metric values agree" % compared


def main():
    if not os.access(TD, os.X_OK) or not os.access(MKDOC, os.X_OK):
        return skip_all("test_perf_formulas", "needs %s and %s (make)" % (TD, MKDOC))
    rows = [json.loads(l) for l in subprocess.run([MKDOC, "formulas"], capture_output=True,
                                                  text=True, check=True).stdout.splitlines()]
    passed, failed = 0, []
    for row in rows:
        name = "%s_%s" % (row["model"], row["pmu"])
        what, why = check(row)
        if what == "ok":
            print("[       OK ] %s (%s, %s)" % (name, why, row["pmu_events"]))
            passed += 1
        else:
            print("[  FAILED  ] %s: %s" % (name, why))
            failed.append(name)
    return report(passed, failed)

if __name__ == "__main__":
    sys.exit(main())
