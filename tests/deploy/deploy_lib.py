# SPDX-License-Identifier: GPL-2.0
"""What the tests of deploy/kubernetes/ share: the manifests, read with
python3-yaml, and what the DaemonSet gives its container (capabilities,
mounts, arguments), which test_image.py turns into podman's options."""
import os
import shlex
import sys
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MANIFESTS = os.path.join(ROOT, "deploy", "kubernetes")
sys.path.insert(0, os.path.join(ROOT, "tests", "tools"))
from plot_test_lib import report, skip_all  # noqa: E402,F401 cmocka's summary lines


def yaml_files(folder=MANIFESTS):
    """The YAML files of FOLDER and its subfolders, sorted."""
    out = []
    for d, _, files in os.walk(folder):
        out += [os.path.join(d, f) for f in files if f.endswith((".yaml", ".yml"))]
    return sorted(out)


def load(path):
    """Every document of PATH that is not empty."""
    import yaml

    with open(path, encoding="utf-8") as f:
        return [d for d in yaml.safe_load_all(f) if d is not None]


def objects(folder=MANIFESTS):
    """The Kubernetes objects that `kubectl apply -f FOLDER` applies (not its subfolders)."""
    out = []
    for name in sorted(os.listdir(folder)):
        if name.endswith((".yaml", ".yml")):
            out += load(os.path.join(folder, name))
    return out


def one(objs, kind):
    found = [o for o in objs if o.get("kind") == kind]
    if len(found) != 1:
        raise AssertionError(f"{len(found)} {kind} objects, expected 1")
    return found[0]


def container(objs):
    """The DaemonSet's one container and its pod spec."""
    spec = one(objs, "DaemonSet")["spec"]["template"]["spec"]
    if len(spec["containers"]) != 1:
        raise AssertionError("the DaemonSet should run one container")
    return spec["containers"][0], spec


def args(objs):
    """tdtrace's arguments, as the ConfigMap holds them (the container's shell splits them)."""
    return shlex.split(one(objs, "ConfigMap")["data"]["TDTRACE_ARGS"])


def option_value(argv, name):
    """The value of option NAME in ARGV (--name VALUE or --name=VALUE), or None."""
    for i, a in enumerate(argv):
        if a == name and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith(name + "="):
            return a[len(name) + 1 :]
    return None


def replace_option(argv, name, value):
    """ARGV with option NAME's value replaced (tdtrace refuses one given twice)."""
    out, i = [], 0
    while i < len(argv):
        if argv[i] == name:
            out += [name, value]
            i += 2
            continue
        out.append(name + "=" + value if argv[i].startswith(name + "=") else argv[i])
        i += 1
    return out


def host_mounts(objs):
    """(host path, container path, read-only, propagation) of each hostPath
    the container mounts; propagation is Kubernetes' mountPropagation."""
    c, spec = container(objs)
    paths = {v["name"]: v["hostPath"]["path"] for v in spec.get("volumes", []) if "hostPath" in v}
    return [
        (paths[m["name"]], m["mountPath"], bool(m.get("readOnly")),
         m.get("mountPropagation", "None"))
        for m in c.get("volumeMounts", [])
        if m["name"] in paths
    ]


def run_tests(tests, *args, first_is_setup=False):
    """Run each (name, function) of TESTS on ARGS, cmocka's way; (passed, failed names).
    With FIRST_IS_SETUP, the others fail without running if the first failed."""
    passed, failed = 0, []
    for i, (name, t) in enumerate(tests):
        print(f"[ RUN      ] {name}")
        try:
            if i and first_is_setup and failed == [tests[0][0]]:
                raise AssertionError(f"not run: {failed[0]} failed")
            t(*args)
            print(f"[       OK ] {name}")
            passed += 1
        except Exception:
            traceback.print_exc(file=sys.stdout)
            print(f"[  FAILED  ] {name}")
            failed.append(name)
    return passed, failed
