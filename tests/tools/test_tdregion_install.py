#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make install-tdregion into a scratch DESTDIR, then a C and a C++ program
built against the installed <tdtrace/tdregion.h> alone, linked with the
installed static and with the shared library, and run: each opens a
context, times a region and reports it. Prints a cmocka-style summary for
tests/run.sh.
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_test_lib import report, skip_all  # noqa: E402

OUTPUT = os.environ.get("OUTPUT", "build")
PROGRAM = r"""
#include <stdio.h>
#include <tdtrace/tdregion.h>

int main(void)
{
	struct tdregion *td = tdregion_open(0);
	struct tdregion_region r = TDREGION_REGION_INIT("r");
	struct tdregion_result res;
	volatile unsigned long x = 0;

	if (!td || tdregion_begin(td, &r))
		return 1;
	for (unsigned long i = 0; i < 10000000; i++)
		x += i;
	if (tdregion_end(td, &r) || tdregion_report(td, &r, &res))
		return 1;
	printf("calls %llu cpu_ns %.0f why %s\n", res.calls, res.cpu_ns, tdregion_why(td));
	tdregion_close(td);
	return res.calls == 1 && res.cpu_ns > 0 ? 0 : 1;
}
"""


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def main():
    if not shutil.which("c++"):
        return skip_all("test_tdregion_install", "skipped: no C++ compiler (Debian: g++)")
    passed, failed = 0, []

    def check(name, p, also=True):
        nonlocal passed
        if p.returncode == 0 and also:
            print(f"[       OK ] {name}")
            passed += 1
        else:
            print(f"[  FAILED  ] {name}: {p.args}: {p.stdout}{p.stderr}")
            failed.append(name)

    with tempfile.TemporaryDirectory(prefix="tdtrace-tdregion.") as tmp:
        root = os.path.join(tmp, "root")
        inc, lib = os.path.join(root, "usr/include"), os.path.join(root, "usr/lib")
        p = run(["make", "-s", "install-tdregion", f"OUTPUT={OUTPUT}", f"DESTDIR={root}",
                 "PREFIX=/usr"])
        check("installs", p, os.path.isfile(os.path.join(inc, "tdtrace/tdregion.h")) and
              os.path.isfile(os.path.join(lib, "libtdregion.a")) and
              os.access(os.path.join(lib, "libtdregion.so.0"), os.X_OK) and
              os.readlink(os.path.join(lib, "libtdregion.so")) == "libtdregion.so.0")
        env = dict(os.environ, LD_LIBRARY_PATH=lib)
        for cc, ext in (("cc", "c"), ("c++", "cc")):
            src = os.path.join(tmp, f"use.{ext}")
            with open(src, "w") as f:
                f.write(PROGRAM)
            for kind, libs in (("static", [os.path.join(lib, "libtdregion.a"), "-lm"]),
                               ("shared", [f"-L{lib}", "-ltdregion"])):
                exe = os.path.join(tmp, f"{kind}-{ext}")
                p = run([cc, "-Wall", "-Wextra", "-Werror", f"-I{inc}", "-o", exe, src] + libs)
                if p.returncode == 0:
                    p = run([exe], env=env)
                linked = run(["ldd", exe], env=env).stdout if p.returncode == 0 else ""
                check(f"{cc}_{kind}", p,
                      (os.path.join(lib, "libtdregion.so.0") in linked) == (kind == "shared"))
    return report(passed, failed)


if __name__ == "__main__":
    sys.exit(main())
