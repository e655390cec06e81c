#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""scripts/check-formulas against the pinned pmu-events files.

Every model row's formula text must be perf v7.3-rc7's, as pinned in
tests/fixtures/pmu-events-v7.3/ (the files the rows cite, each with the
blob hash its row names; the fixture's README lists them all). A scratch
copy of the rows with one formula changed, and a scratch copy of the tree
with one MetricExpr changed, must each be found and named. Prints a
cmocka-style summary for tests/run.sh.
"""
import hashlib
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_test_lib import (MKDOC, edited_copy, mkdoc_rows, run_each,  # noqa: E402
                           script_runner, script_usage)

SCRIPT = "scripts/check-formulas"
PINNED = "tests/fixtures/pmu-events-v7.3"
OLD_MICROCODE = ("tma_retiring * tma_info_thread_slots / UOPS_ISSUED.ANY * IDQ.MS_UOPS / "
                 "tma_info_thread_slots")
run = script_runner(SCRIPT)
rows = mkdoc_rows


def test_pinned(tmp):
    r = run("--strict", PINNED)
    if r.returncode != 0:
        return "exit %d:\n%s%s" % (r.returncode, r.stdout, r.stderr)
    m = re.search(r"(\d+) rows, (\d+) metrics compared", r.stdout)
    if not m or int(m.group(1)) != len(rows()) or int(m.group(2)) < 200:
        return "too little compared: %s" % r.stdout.strip().splitlines()[-1]
    return None


def test_every_row_cites_a_pinned_file(tmp):
    table = subprocess.run([MKDOC, "models"], capture_output=True, text=True).stdout
    listed = [l.split("`")[1] for l in table.splitlines() if l.startswith("| `")]
    if listed != [r["model"] for r in rows()]:
        return "mkdoc formulas has rows %s, mkdoc models %s" % ([r["model"] for r in rows()],
                                                                 listed)
    for row in rows():
        if row.get("pmu_events") != "perf v7.3-rc7":
            return "%s/%s: pmu_events %r" % (row["model"], row["pmu"], row.get("pmu_events"))
        cited = re.findall(r"((?:x86|arm64)/\S+) @ ([0-9a-f]+)", row["source"] or "")
        if not any(c[0].endswith(".json") for c in cited):
            return "%s/%s cites no JSON file: %s" % (row["model"], row["pmu"], row["source"])
        for rel, _ in cited:
            if not os.path.isfile(os.path.join(PINNED, rel)):
                return "%s/%s cites %s, not pinned" % (row["model"], row["pmu"], rel)
    return None


def test_readme_hashes(tmp):
    """The fixture's README names every file here with its git blob hash."""
    listed = dict(re.findall(r"^\| `([^`]+)` \| `([0-9a-f]{40})` \|$",
                             open(os.path.join(PINNED, "README.md")).read(), re.M))
    files = [os.path.relpath(os.path.join(d, f), PINNED) for d, _, fs in os.walk(PINNED)
             for f in fs if f != "README.md"]
    if sorted(files) != sorted(listed):
        return "README lists %s, the directory has %s" % (sorted(listed), sorted(files))
    for rel in files:
        data = open(os.path.join(PINNED, rel), "rb").read()
        have = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
        if have != listed[rel]:
            return "%s: blob %s, README says %s" % (rel, have, listed[rel])
    return None


def test_no_x86_level2_left_out(tmp):
    """Every x86 row has each of perf's TopdownL2 metrics its file defines: no note says one is
    not in the row (Skylake-class's tma_heavy_operations, tma_light_operations)."""
    r = run(PINNED)
    missing = [l for l in r.stdout.splitlines()
               if l.startswith("note: ") and "is not in the row" in l and "x86/" in l]
    if r.returncode != 0 or missing:
        return "exit %d:\n%s" % (r.returncode, "\n".join(missing) or r.stderr)
    return None


def test_row_differs(tmp):
    """One row's text broken in a scratch copy of the rows: found, named, exit 1."""
    path = os.path.join(tmp, "rows.jsonl")
    with open(path, "w") as f:
        for row in rows():
            if row["model"] == "icelake":
                for m in row["metrics"]:
                    if m["name"] == "tma_microcode_sequencer":
                        m["expr"] = OLD_MICROCODE
            f.write(json.dumps(row) + "\n")
    r = run("--strict", "--rows", path, PINNED)
    diffs = [l for l in r.stdout.splitlines() if l.startswith("icelake/cpu: ")]
    if r.returncode != 1 or len(diffs) != 1 or "tma_microcode_sequencer" not in diffs[0] or \
            OLD_MICROCODE not in r.stdout or "1 difference" not in r.stdout:
        return "exit %d:\n%s%s" % (r.returncode, r.stdout, r.stderr)
    return None


def test_tree_differs(tmp):
    """One MetricExpr changed in a scratch copy of the tree: found, on the hybrid's unit."""
    def edit(entries):
        for e in entries:
            if e.get("MetricName") == "tma_retiring" and e.get("Unit") == "cpu_core":
                e["MetricExpr"] += " + 0 * cpu_core@slots@"
    tree = edited_copy(PINNED, tmp, "x86/lunarlake/lnl-metrics.json", edit)
    r = run(tree)
    lines = r.stdout.splitlines()
    if r.returncode != 1 or not any(l.startswith("lunarlake/cpu_core: tma_retiring:")
                                    for l in lines) or \
            any(l.startswith("lunarlake/cpu_atom: ") for l in lines) or \
            not any(l.startswith("note: lunarlake/cpu_core: x86/lunarlake/lnl-metrics.json: blob")
                    for l in lines):
        return "exit %d:\n%s%s" % (r.returncode, r.stdout, r.stderr)
    # With --strict the changed blob is a difference too.
    r = run("--strict", tree)
    if r.returncode != 1 or "lunarlake/cpu_core: x86/lunarlake/lnl-metrics.json: blob" \
            not in r.stdout:
        return "--strict: exit %d:\n%s" % (r.returncode, r.stdout)
    return None


def test_usage(tmp):
    return script_usage(run, tmp)


def main():
    return run_each("test_check_formulas",
                    [test_pinned, test_every_row_cites_a_pinned_file, test_readme_hashes,
                     test_no_x86_level2_left_out, test_row_differs, test_tree_differs, test_usage])

if __name__ == "__main__":
    sys.exit(main())
