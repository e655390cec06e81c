# SPDX-License-Identifier: GPL-2.0
"""What the Python tests of tdtrace-plot share: where things are, and
cmocka's summary lines, that tests/run.sh counts (test_check_formulas.py,
test_check_encodings.py and test_perf_formulas.py print theirs with it
too), and the checker scripts' tests' runner."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLOT = os.environ.get("TDTRACE_PLOT", os.path.join(ROOT, "tools", "tdtrace-plot"))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "plot")
# The checker scripts' tests: the build they read rows from.
OUTPUT = os.environ.get("OUTPUT", "build")
MKDOC = os.path.join(OUTPUT, "mkdoc")


def skip_all(name, why):
    """Print that test NAME is skipped and why; the exit status to return."""
    print(f"{name}: {why}")
    print("[  PASSED  ] 0 test(s).")
    print("[  SKIPPED ] 1 test(s), listed below:")
    print(f"[  SKIPPED ] {name}")
    return 0


def report(passed, failed):
    """Print the summary of PASSED tests and the FAILED names; the exit status."""
    print(f"[  PASSED  ] {passed} test(s).")
    if not failed:
        return 0
    print(f"[  FAILED  ] {len(failed)} test(s), listed below:")
    for f in failed:
        print(f"[  FAILED  ] {f}")
    return 1


def run_each(name, tests):
    """Test NAME: each of TESTS (a function of a scratch directory that
    returns why it failed, or None), if mkdoc is built; the exit status."""
    if not os.access(MKDOC, os.X_OK):
        return skip_all(name, "needs %s (make)" % MKDOC)
    failed = []
    for t in tests:
        tmp = tempfile.mkdtemp(prefix="tdtrace-%s." % name)
        try:
            why = t(tmp)
        finally:
            shutil.rmtree(tmp)
        if why:
            print("[  FAILED  ] %s: %s" % (t.__name__, why))
            failed.append(t.__name__)
        else:
            print("[       OK ] %s" % t.__name__)
    return report(len(tests) - len(failed), failed)


def script_usage(run, tmp):
    """A checker script run by RUN(*args) with no TREE, and with one that is
    not there: exit 2 and one line on stderr. Why not, or None."""
    r = run()
    s = run(os.path.join(tmp, "none"))
    if r.returncode != 2 or "no TREE" not in r.stderr or s.returncode != 2 or \
            "not a directory" not in s.stderr or r.stderr.count("\n") != 1:
        return "exit %d %r, exit %d %r" % (r.returncode, r.stderr, s.returncode, s.stderr)
    return None



def script_runner(script):
    """A function that runs SCRIPT (python) with its arguments, output kept."""
    def run(*args):
        return subprocess.run([sys.executable, script] + list(args), capture_output=True,
                              text=True, env=dict(os.environ, OUTPUT=OUTPUT))
    return run


def mkdoc_rows():
    """The model rows, `mkdoc formulas`' lines."""
    out = subprocess.run([MKDOC, "formulas"], capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def edited_copy(tree, tmp, rel, edit):
    """A copy of TREE in TMP with EDIT(entries) applied to JSON file REL; its path."""
    copy = os.path.join(tmp, "tree")
    shutil.copytree(tree, copy)
    entries = json.load(open(os.path.join(copy, rel)))
    edit(entries)
    json.dump(entries, open(os.path.join(copy, rel), "w"), indent=4)
    return copy
