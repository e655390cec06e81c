#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Model rows against the formulas Debian's own perf prints.

perf embeds its pmu-events metrics; with PERF_CPUID set it prints any
CPU's (`perf list --details metric`), MetricExpr included. For each model
row that this perf knows, random counts (three draws) go through
`tdtrace report --json` (the row's formulas) and through perf's own
expressions (evaluated here), and every TopDown metric both have must
agree to 0.01 percentage points. Rows perf does not know, and E-core rows
whose perf is older than the row (documented below), are skipped and
said. Prints a cmocka-style summary for tests/run.sh.
"""
import json
import os
import random
import re
import subprocess
import sys

OUTPUT = os.environ.get("OUTPUT", "build")
TD = os.path.join(OUTPUT, "tdtrace")
FIXTURES = "tests/fixtures/sysfs"

# (fixture whose PMU gives the row's events, PERF_CPUID, PMU, model)
ROWS = [
    ("icelake", "GenuineIntel-6-7E-5", "cpu", "icelake"),
    ("icelake", "GenuineIntel-6-8C-1", "cpu", "tigerlake"),
    ("icelake", "GenuineIntel-6-A7-1", "cpu", "rocketlake"),
    ("icelakex", "GenuineIntel-6-6A-6", "cpu", "icelakex"),
    ("sapphirerapids", "GenuineIntel-6-8F-8", "cpu", "sapphirerapids"),
    ("alderlake", "GenuineIntel-6-97-2", "cpu_core", "alderlake"),
    ("skylake", "GenuineIntel-6-5E-3", "cpu", "skylake"),
    ("skylakex-nowatchdog", "GenuineIntel-6-55-4", "cpu", "skylakex"),  # level 2
    ("cascadelakex", "GenuineIntel-6-55-7", "cpu", "cascadelakex"),
    ("haswell", "GenuineIntel-6-3C-3", "cpu", "haswell"),
    ("haswellx", "GenuineIntel-6-3F-2", "cpu", "haswellx"),
    ("broadwell", "GenuineIntel-6-3D-4", "cpu", "broadwell"),
    ("broadwellx", "GenuineIntel-6-4F-1", "cpu", "broadwellx"),
    ("broadwellde", "GenuineIntel-6-56-3", "cpu", "broadwellde"),
]
# Debian 12's perf 6.1 predates the E-core TMA update (2024) that the
# alderlake cpu_atom row follows (ifetch_* nodes, X / (5 * core clocks)).
SKIP = {("alderlake", "cpu_atom"): "perf 6.1's E-core metrics predate the row's (2024) form"}


def perf_metrics(cpuid, unit):
    out = subprocess.run(["perf", "list", "--details", "metric"], capture_output=True,
                         text=True, env=dict(os.environ, PERF_CPUID=cpuid)).stdout
    entries, name, lines = [], None, []
    for raw in out.split("\n"):
        s = raw.strip()
        if not s:
            continue
        if not s.startswith("["):
            if name and lines:
                entries.append((name, lines))
            name, lines = s.split()[0], []
        else:
            lines.append(s[1:-1] if s.endswith("]") else s[1:])
    if name and lines:
        entries.append((name, lines))
    metrics = {}
    for name, lines in entries:
        owner = ("cpu_atom" if any("Unit: cpu_atom" in x for x in lines) else
                 "cpu_core" if any("Unit: cpu_core" in x for x in lines) else None)
        if owner and unit != "cpu" and owner != unit:
            continue
        metrics[name] = lines[-1]  # the MetricExpr is the last bracket
    return metrics


class Perf:
    """perf's expressions, evaluated: names are events (counts) or metrics."""

    def __init__(self, metrics, counts, smt):
        self.metrics, self.counts, self.smt, self.cache = metrics, counts, smt, {}

    def value(self, name):
        if name in self.counts:
            return self.counts[name]
        if name not in self.cache:
            self.cache[name] = self.eval(self.metrics[name])
        return self.cache[name]

    def eval(self, expr):
        e = expr.replace("\\-", "-").replace("\\,", ",").replace("\\=", "=")
        e = re.sub(r"cpu(_core|_atom)?@([^@]*)@", lambda m: '"' + m.group(2) + '"', e)
        e = e.replace("#SMT_on", "SMT_ON").replace("#core_wide", "CORE_WIDE")
        names = {}

        def quoted(m):
            key = "V%d" % len(names)
            names[key] = m.group(0)[1:-1]
            return key

        def bare(m):
            t = m.group(0)
            if t in names or t in ("if", "else", "max", "min", "d_ratio", "SMT_ON", "CORE_WIDE"):
                return t
            key = "V%d" % len(names)
            names[key] = t
            return key

        e = re.sub(r'"[^"]*"', quoted, e)
        e = re.sub(r"[A-Za-z_][A-Za-z0-9_.]*(?:-[a-z][A-Za-z0-9_.]*)*", bare, e)
        env = {k: self.value(v) for k, v in names.items()}
        env.update(max=max, min=min, d_ratio=lambda a, b: 0 if b == 0 else a / b,
                   SMT_ON=1 if self.smt else 0, CORE_WIDE=0)
        try:
            return eval(e, {}, env)  # perf's arithmetic: numbers, names, max/min, if/else
        except ZeroDivisionError:
            return float("nan")


def check(fixture, cpuid, pmu, model):
    perf = perf_metrics(cpuid, pmu)
    if not any(k.startswith("tma_") for k in perf):
        return "skip", "perf does not know %s" % cpuid
    probe = json.loads(subprocess.run([TD, "--probe", "--json", "--sysfs-root",
                                       os.path.join(FIXTURES, fixture)],
                                      capture_output=True, text=True).stdout)
    events = [p for p in probe["pmus"] if p["pmu"] == pmu][0]["events"]
    rng = random.Random(1)
    compared = 0
    for _ in range(3):
        ours, counts = {}, {}
        for e in events:
            v = rng.randint(1000, 100000)
            ours[e["name"]] = counts[e["name"]] = v
            if e.get("alias"):
                counts[e["alias"]] = v
        if "slots" in counts:
            counts["TOPDOWN.SLOTS"] = counts["slots"]
        line = {"schema": 2, "type": "system", "phase": "interval", "interval": 1,
                "mode": "topdown", "model": model, "pmu": pmu, "smt_on": True,
                "time_enabled_ns": 1, "time_running_ns": 1, "counts": ours}
        r = subprocess.run([TD, "report", "--json"], input=json.dumps(line) + "\n",
                           capture_output=True, text=True)
        if r.returncode:
            return "fail", "tdtrace report: " + r.stderr.strip()
        mine = json.loads(r.stdout)
        ev = Perf(perf, counts, True)
        for name, v in mine.items():
            if not name.startswith("tma_") or v is None or name not in perf:
                continue
            want = 100 * ev.value(name)
            compared += 1
            if abs(want - v) > 0.01:
                return "fail", "%s: perf %.4f, tdtrace %.4f" % (name, want, v)
    return "ok", "%d metric values agree" % compared


def main():
    if subprocess.run(["sh", "-c", "command -v perf"], capture_output=True).returncode or \
            not os.access(TD, os.X_OK):
        print("test_perf_formulas: needs perf (Debian: linux-perf) and %s" % TD)
        print("[  PASSED  ] 0 test(s).\n[  SKIPPED ] 1 test(s), listed below:\n"
              "[  SKIPPED ] test_perf_formulas")
        return 0
    passed, failed, skipped = 0, [], 0
    for fixture, cpuid, pmu, model in ROWS:
        name = "%s_%s" % (model, pmu)
        what, why = check(fixture, cpuid, pmu, model)
        if what == "ok":
            print("[       OK ] %s (%s, perf's PERF_CPUID %s)" % (name, why, cpuid))
            passed += 1
        elif what == "skip":
            print("[ SKIP     ] %s: %s" % (name, why))
            skipped += 1
        else:
            print("[  FAILED  ] %s: %s" % (name, why))
            failed.append(name)
    for (model, pmu), why in SKIP.items():
        print("[ SKIP     ] %s_%s: %s" % (model, pmu, why))
        skipped += 1
    print("[  PASSED  ] %d test(s)." % passed)
    if skipped:
        print("[  SKIPPED ] %d test(s), listed below:" % skipped)
    if failed:
        print("[  FAILED  ] %d test(s), listed below:" % len(failed))
        for f in failed:
            print("[  FAILED  ] %s" % f)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
