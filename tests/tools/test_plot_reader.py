#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tdtrace-plot's reader on a corpus of malformed lines.

Each case is a recorded run (tests/fixtures/plot) with one line changed:
a field given a hostile value (wrong type, NaN, Infinity, 1e999, 400
digits, deep nesting, a lone surrogate, ...), a field taken out or added,
the line cut, bytes changed or put in, or a whole line of something else.
The corpus comes from a fixed seed, so a failure can be run again.

For every case, the reader (read_run: lines_of, parse_line, Run.add,
Run.finish) must either accept the file or raise InputError with one line
that names FILE:LINE and does not repeat the input; any other exception
fails. An accepted file's points must be finite or NaN, never infinite.
Some accepted cases are then drawn by main(), which must return 0 or 1.

Prints a cmocka-style summary for tests/run.sh; skips, saying why, without
python3-matplotlib.
"""
import importlib.util
import io
import json
import math
import os
import random
import sys
import tempfile
import traceback
from importlib.machinery import SourceFileLoader

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_test_lib import FIXTURES, PLOT, report, skip_all  # noqa: E402

RUNS = [os.path.join(FIXTURES, f) for f in ("software-run.jsonl", "synthetic-topdown.jsonl")]
SEED = 21
CASES = 2000  # per fixture
DRAWN = 3  # accepted cases drawn, per fixture

# Values as JSON text: what may stand where tdtrace writes a number or a name.
HOSTILE = [
    "null", "true", "false", "[]", "{}", "[1]", '{"a":1}', '""', '"x"', '"$\\\\frac{$y"',
    '"_x"', '"\\ud800"', '"\\u0000"', '"' + "w" * 5000 + '"', "0", "-1", "0.5", "-0.0",
    "1e308", "-1e308", "1e-320", "1e999", "-1e999", "NaN", "Infinity", "-Infinity",
    "1" + "0" * 400, "-" + "9" * 400, str(2**64), str(2**64 - 1), str(-2**63), str(2**63),
    "1e9", "1000000001", "[" * 5000 + "]" * 5000, '{"a":' * 3000 + "1" + "}" * 3000,
    "[" * 100000, '"\\x"', "01", "1.", ".5", "+1", "0x10", "True", "None", "nan",
]
KEYS_EXTRA = ["tma_retiring", "tma_memory_bound", "backend_bound_x", "retiring_" + "y" * 70,
              "frontend_bound_$x$", "label", "model", "idle", "cgroup", "tid"]
WHOLE_LINES = ["null", "1", "[]", '"x"', "{}", "[" * 10000, "{" * 10000, '{"a":' * 10000,
               "\x00", "\xff\xfe", '{"schema":2}', '{"schema":2,"phase":"interval"}',
               '{"schema":2,"phase":"interval","mode":"software"}',
               '{"schema":[],"phase":"interval"}', '{"schema":2.0,"mode":"topdown",'
               '"phase":"interval","interval":1,"elapsed_s":1}', "\ufeff{}", "{}{}", "}{"]


def load():
    loader = SourceFileLoader("tdtrace_plot", PLOT)
    spec = importlib.util.spec_from_loader("tdtrace_plot", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def set_value(line, key, text):
    """line (JSON text) with key's value replaced by text (raw JSON), or added."""
    d = json.loads(line)
    d[key] = "@HOSTILE@"
    return json.dumps(d, separators=(",", ":")).replace('"@HOSTILE@"', text, 1)


def mutate(rng, lines):
    """(description, bytes) of one malformed line from the fixture's lines."""
    line = rng.choice(lines)
    how = rng.randrange(7)
    if how == 0:
        key = rng.choice(list(json.loads(line)))
        text = rng.choice(HOSTILE)
        return f"{key} = {text[:40]}", set_value(line, key, text).encode()
    if how == 1:
        d = json.loads(line)
        key = rng.choice(list(d))
        del d[key]
        return f"without {key}", json.dumps(d).encode()
    if how == 2:
        key, text = rng.choice(KEYS_EXTRA), rng.choice(HOSTILE)
        return f"added {key} = {text[:40]}", set_value(line, key, text).encode()
    raw = line.encode()
    at = rng.randrange(len(raw))
    if how == 3:
        return f"cut at {at}", raw[:at]
    if how == 4:
        b = bytes([rng.randrange(256)])
        if b == b"\n":
            b = b"\r"
        return f"byte {at} = {b!r}", raw[:at] + b + raw[at + 1:]
    if how == 5:
        junk = bytes(rng.choice(b"{}[]\",:0123456789eE.-+\\utnfal \x00\xff\xc3")
                     for _ in range(rng.randrange(1, 8)))
        return f"{junk!r} put in at {at}", raw[:at] + junk + raw[at:]
    text = rng.choice(WHOLE_LINES)
    return f"whole line {text[:20]!r}", text.encode("utf-8", "surrogatepass")


def check_case(mod, path, by, where, desc):
    """None if the reader behaves, else what went wrong."""
    try:
        run = mod.read_run(path, by)
        points = list(run.t) + list(run.system_pct)
        for e in run.ents.values():
            for k in run.fields:
                points += run.series(e, k)
        if any(not isinstance(v, float) or math.isinf(v) for v in points):
            return f"{desc}: a point not a finite float or NaN accepted at line {where}"
    except mod.InputError as e:
        msg = str(e)
        if "\n" in msg or len(msg) > 200:
            return f"{desc}: message of {len(msg)} characters or lines: {msg[:300]!r}"
        if not msg.startswith((f"{path}:", "failed to plot ")):
            return f"{desc}: message does not name {path}: {msg!r}"
        return None
    except Exception:  # the point of the test: anything else is a bug
        return f"{desc}: {traceback.format_exc(limit=3)}"
    return "accepted"


def main():
    try:
        mod = load()
        import matplotlib  # noqa: F401
    except ImportError as e:
        return skip_all("test_plot_reader", f"{e}: install python3-matplotlib")
    rng = random.Random(SEED)
    passed, failed = 0, []
    # In memory where there is a tmpfs: thousands of small files are written.
    shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(dir=shm) as tmp:
        for fixture in RUNS:
            with open(fixture, encoding="utf-8") as f:
                lines = [x.rstrip("\n") for x in f if x.strip()]
            name = "corpus_" + os.path.basename(fixture).split("-")[0]
            path = os.path.join(tmp, "case.jsonl")
            problems, accepted, refused = [], [], 0
            for i in range(CASES):
                desc, bad = mutate(rng, lines)
                where = rng.randrange(1, len(lines) + 1)
                with open(path, "wb") as f:
                    f.write("\n".join(lines[: where - 1]).encode() + b"\n" if where > 1 else b"")
                    f.write(bad + b"\n")
                    f.write("\n".join(lines[where - 1:]).encode() + b"\n")
                by = rng.choice(("cgroup", "process"))
                what = check_case(mod, path, by, where, f"case {i} ({desc}, line {where}, "
                                  f"--by {by})")
                if what == "accepted":
                    if len(accepted) < DRAWN and rng.random() < 0.05:
                        keep = os.path.join(tmp, f"accepted{len(accepted)}.jsonl")
                        os.rename(path, keep)
                        accepted.append((keep, by, desc))
                elif what is None:
                    refused += 1
                else:
                    problems.append(what)
            # Accepted cases drawn: main() returns 0 or 1 (some have no
            # process lines left, say), with no exception.
            for keep, by, desc in accepted:
                err = io.StringIO()
                old, sys.stderr = sys.stderr, err
                try:
                    rc = mod.main([keep, "-o", os.path.join(tmp, "x.png"), "--by", by])
                except Exception:
                    rc = traceback.format_exc(limit=3)
                finally:
                    sys.stderr = old
                if rc not in (0, 1):
                    problems.append(f"drawing ({desc}, --by {by}): {rc}")
            print(f"test_plot_reader: {name}: {CASES} cases, {refused} refused with one line, "
                  f"{CASES - refused - len(problems)} accepted, {len(accepted)} of them drawn")
            if problems:
                failed.append(name)
                for p in problems[:5]:
                    print(f"test_plot_reader: {p}")
                print(f"[  FAILED  ] {name}: {len(problems)} cases")
            else:
                passed += 1
                print(f"[       OK ] {name}")
    return report(passed, failed)


if __name__ == "__main__":
    sys.exit(main())
