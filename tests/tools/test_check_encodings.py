#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""scripts/check-encodings against the pinned pmu-events files.

Every model row's raw configs must be what perf v7.3-rc7 programs for
those events, as pinned in tests/fixtures/pmu-events-v7.3/ (each model
directory's events-used.json, and the event files pinned whole). Scratch
copies of the rows with a wrong umask, a wrong AMD event select, a wrong
arm64 event number, a dropped modifier or an unknown name, and a scratch
copy of the tree with one UMask changed, must each be found and named.
Prints a cmocka-style summary for tests/run.sh.
"""
import json
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_test_lib import (edited_copy, mkdoc_rows, run_each, script_runner,  # noqa: E402
                           script_usage)

SCRIPT = "scripts/check-encodings"
PINNED = "tests/fixtures/pmu-events-v7.3"
SUMMARY = re.compile(r"(\d+) rows, (\d+) events compared with .*, (\d+) by sysfs: (\d+) difference")
run = script_runner(SCRIPT)
rows = mkdoc_rows


def summary(r):
    m = SUMMARY.search(r.stdout)
    return tuple(int(g) for g in m.groups()) if m else None


def mutated(tmp, change):
    """A scratch copy of the rows, @change(row, event) -> True where it
    changed that event; the path and each "<model>/<pmu>: <event>" changed,
    by its new name."""
    path, changed = os.path.join(tmp, "rows.jsonl"), []
    with open(path, "w") as f:
        for row in rows():
            for ev in row["events"]:
                if change(row, ev):
                    changed.append("%s/%s: %s" % (row["model"], row["pmu"], ev["name"]))
            f.write(json.dumps(row) + "\n")
    return path, changed


def expect_caught(tmp, change, *words):
    path, changed = mutated(tmp, change)
    if not changed:
        return "no event of the rows to change"
    r = run("--rows", path, PINNED)
    diffs = [l for l in r.stdout.splitlines() if not l.startswith(("note:", "check-encodings:"))]
    got = summary(r)
    if r.returncode != 1 or not got or got[3] != len(changed) or len(diffs) != len(changed):
        return "%d changed, exit %d:\n%s%s" % (len(changed), r.returncode, r.stdout, r.stderr)
    for who, line in zip(sorted(changed), sorted(diffs)):
        if not line.startswith(who + ":") or any(w not in line for w in words):
            return "changed %s, found %r" % (who, line)
    return None


def test_pinned(tmp):
    """The rows as built: no difference; every raw config compared."""
    r = run(PINNED)
    all_rows = rows()
    events = [e for row in all_rows for e in row["events"]]
    sysfs = [e for e in events if e.get("sysfs")]
    want = (len(all_rows), len(events) - len(sysfs), len(sysfs), 0)
    if r.returncode != 0 or summary(r) != want or len(events) - len(sysfs) < 300:
        return "want %s, exit %d:\n%s%s" % (want, r.returncode, r.stdout, r.stderr)
    return None


def expect_config_caught(tmp, pick, new_config, *words):
    """The configs of the events @pick(row, event) selects made
    @new_config(config): each caught."""
    def change(row, ev):
        if not pick(row, ev):
            return False
        ev["config"] = hex(new_config(int(ev["config"], 16)))
        return True
    return expect_caught(tmp, change, *words)


def test_umask(tmp):
    """A wrong umask on the Intel rows of one event: every one caught."""
    return expect_config_caught(tmp, lambda row, ev: ev["name"] == "INT_MISC.UOP_DROPPING",
                                lambda c: c ^ 0x3000, "the row has", "umask=0x10")


def test_amd_event_select(tmp):
    """AMD: event select bits 11:8 (config 35:32) dropped: caught."""
    return expect_config_caught(
        tmp, lambda row, ev: row.get("vendor") == "AuthenticAMD" and
        ev["name"] == "ex_ret_ucode_ops", lambda c: c & 0xffffffff, "event=0x1c2")


def test_arm64_event(tmp):
    """arm64: an event number off by one, through ArchStdEvent and raw: caught."""
    return expect_config_caught(
        tmp, lambda row, ev: (row["model"], ev["name"]) in
        (("neoverse-v1", "STALL_SLOT"), ("hip08", "event=0x7005")), lambda c: c + 1,
        "the row has")


def test_modifier(tmp):
    """A name's cmask modifier is part of the encoding: dropped, caught
    (Ice Lake's UOPS_DECODED.DEC0 0x1000156, Haswell's UOPS_EXECUTED.CORE
    0x10002b1: cmask 1 at bit 24)."""
    def change(row, ev):
        if not ev["name"].endswith(",cmask=1"):
            return False
        ev["name"] = ev["name"][:-len(",cmask=1")]
        return True
    return expect_caught(tmp, change, "the row has 0x100")


def test_unknown_event(tmp):
    """An event perf does not have is a difference."""
    def change(row, ev):
        if row["model"] != "sapphirerapids" or ev.get("sysfs"):
            return False
        ev["name"] += "_NOT_IN_PERF"
        return True
    return expect_caught(tmp, change, "perf has no such event in x86/sapphirerapids")


def test_tree_differs(tmp):
    """One UMask changed in a scratch copy of the tree: that event on every row using it."""
    def edit(entries):
        for e in entries:
            if e["EventName"] == "IDQ.MS_UOPS":
                e["UMask"] = "0x31"
    tree = edited_copy(PINNED, tmp, "x86/haswell/events-used.json", edit)
    r = run(tree)
    diffs = [l for l in r.stdout.splitlines() if not l.startswith(("note:", "check-encodings:"))]
    if r.returncode != 1 or len(diffs) != 1 or \
            not diffs[0].startswith("haswell/cpu: IDQ.MS_UOPS: the row has 0x3079, perf 0x3179"):
        return "exit %d:\n%s%s" % (r.returncode, r.stdout, r.stderr)
    return None


def test_pin(tmp):
    """--pin from the pinned tree: into an empty directory, enough to check
    the rows; into a copy of the fixture, the same events-used.json files."""
    empty = os.path.join(tmp, "empty")
    os.mkdir(empty)
    p = run("--pin", empty, PINNED)
    r = run(empty)
    if p.returncode or r.returncode or summary(r) != summary(run(PINNED)):
        return "pin exit %d %s, check exit %d:\n%s" % (p.returncode, p.stderr, r.returncode,
                                                      r.stdout)
    copy = os.path.join(tmp, "copy")
    shutil.copytree(PINNED, copy)
    p = run("--pin", copy, PINNED)
    for line in p.stdout.splitlines():
        blob, rel = line.split()
        if open(os.path.join(copy, rel), "rb").read() != open(os.path.join(PINNED, rel),
                                                               "rb").read():
            return "--pin writes %s other than the fixture's" % rel
    pinned = {os.path.relpath(os.path.join(d, "events-used.json"), PINNED)
              for d, _, fs in os.walk(PINNED) if "events-used.json" in fs}
    written = {line.split()[1] for line in p.stdout.splitlines()}
    if p.returncode or written != pinned:
        return "--pin wrote %s, the fixture has %s" % (sorted(written), sorted(pinned))
    return None


def test_usage(tmp):
    return script_usage(run, tmp)


def main():
    return run_each("test_check_encodings",
                    [test_pinned, test_umask, test_amd_event_select, test_arm64_event,
                     test_modifier, test_unknown_event, test_tree_differs, test_pin, test_usage])


if __name__ == "__main__":
    sys.exit(main())
