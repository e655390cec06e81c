# SPDX-License-Identifier: GPL-2.0
"""What the Python tests of tdtrace-plot share: where things are, and
cmocka's summary lines, that tests/run.sh counts (test_check_formulas.py
and test_perf_formulas.py print theirs with it too)."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLOT = os.environ.get("TDTRACE_PLOT", os.path.join(ROOT, "tools", "tdtrace-plot"))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "plot")


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
