# SPDX-License-Identifier: GPL-2.0
"""The model rows as `mkdoc formulas` writes them, for the scripts that
compare them with perf's pmu-events JSON (check-formulas, check-encodings).
"""
import hashlib
import json
import os
import re
import subprocess
import sys

# A file of the tree a row's .source cites: "x86/<dir>/<file> @ <blob>".
CITED = re.compile(r"((?:x86|arm64)/[A-Za-z0-9_.+-]+(?:/[A-Za-z0-9_.+-]+)*) @ ([0-9a-f]{7,40})")


class Failure(Exception):
    """Input that cannot be read: the scripts' exit status 2."""


def blob_hash(data):
    """git hash-object of @data."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def load_rows(path):
    """The rows from @path (a saved `mkdoc formulas`, "-": stdin), or from
    $OUTPUT/mkdoc (OUTPUT defaults to build) when @path is None."""
    if path:
        try:
            text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        except (OSError, UnicodeDecodeError) as e:
            raise Failure("failed to read %s: %s" % (path, getattr(e, "strerror", None) or e))
    else:
        mkdoc = os.path.join(os.environ.get("OUTPUT", "build"), "mkdoc")
        try:
            r = subprocess.run([mkdoc, "formulas"], capture_output=True, text=True)
        except OSError as e:
            raise Failure("failed to run %s: %s; build it first (make)" % (mkdoc, e.strerror))
        if r.returncode:
            raise Failure("failed to run %s formulas: %s" % (mkdoc, r.stderr.strip()))
        text = r.stdout
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except ValueError as e:
                raise Failure("failed to read rows line %d: %s" % (n, e))
    if not rows:
        raise Failure("no rows to check")
    return rows
