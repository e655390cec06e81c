#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""tdtrace's image (Containerfile), run as the DaemonSet runs it, scraped
by a real Prometheus.

No registry is reachable here: the base is a Debian 12 root file system
made with mmdebstrap from this machine's apt sources, cached in
build/deploy/, imported into podman. The image is built FROM it (apt in
the build needs the network: --network=host). Then its container runs the
DaemonSet's command with the ConfigMap's arguments (--listen on
127.0.0.1:PORT, -I 1000, and --software: no PMU here), exactly the
DaemonSet's capabilities, its read-only host mounts (those this machine
has), --pid=host, a read-only root, no new privileges, its memory and CPU
limits, and a seccomp profile that allows bpf() with CAP_BPF and
perf_event_open() with CAP_PERFMON as containerd's default does (made from
podman's own default here, which allows them only with CAP_SYS_ADMIN).
Prometheus (/usr/bin/prometheus, on 127.0.0.1, a temporary config and
data) must see up == 1 and tdtrace_cpu_seconds_total; SIGTERM (podman
stop) must end it with 0. Without the capabilities the same container must
fail at once with tdtrace's one-line error and exit 1.

The base image, the last built image and its build stage stay, as the
next build's cache; the images they replace are removed. Skips (not root, no podman, mmdebstrap,
prometheus or python3-yaml), saying why. Prints a cmocka-style summary for
tests/run.sh.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import deploy_lib as lib  # noqa: E402

CACHE = os.path.join(lib.ROOT, "build", "deploy")
BASE_TAR = os.path.join(CACHE, "debian-12.tar")
BASE = "localhost/tdtrace-test-debian:12"
IMAGE = "localhost/tdtrace-test:latest"
BUILD_STAGE = "localhost/tdtrace-test-build:latest"
PROMETHEUS = "/usr/bin/prometheus"
SECCOMP = "/usr/share/containers/seccomp.json"
# This sandbox's podman: runc (crun refuses the hybrid cgroup layout), and
# rlimits no higher than the sandbox's own.
PODMAN = ["podman", "--runtime", "runc"]
LIMITS = ["--ulimit", "nofile=1024:1024", "--ulimit", "nproc=4096:4096"]
SCRAPE_S = 60  # how long Prometheus has to see the series


def run(argv, timeout, **kw):
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, **kw)


def must(argv, timeout, what):
    r = run(argv, timeout)
    assert r.returncode == 0, f"{what} failed ({r.returncode}): {r.stderr.strip()[-2000:]}"
    return r.stdout


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def apt_sources():
    """This machine's Debian sources, for mmdebstrap (none: its default mirror)."""
    for p in ("/etc/apt/sources.list.d/debian.sources", "/etc/apt/sources.list"):
        if os.path.exists(p):
            return [p]
    return []


def base_image():
    """The Debian 12 base: the cached root file system, made if missing, imported if missing."""
    os.makedirs(CACHE, exist_ok=True)
    if not os.path.exists(BASE_TAR):
        t = time.monotonic()
        tmp = BASE_TAR + ".tmp"
        must(["mmdebstrap", "--mode=root", "--variant=minbase", "--format=tar", "bookworm", tmp]
             + apt_sources(), 900, "mmdebstrap")
        os.rename(tmp, BASE_TAR)
        print(f"base root file system made in {time.monotonic() - t:.0f} s: {BASE_TAR}")
    if run(PODMAN + ["image", "exists", BASE], 60).returncode:
        must(PODMAN + ["import", "-q", BASE_TAR, BASE], 300, "podman import")


def image_id(name):
    r = run(PODMAN + ["image", "inspect", "--format", "{{.Id}}", name], 60)
    return r.stdout.strip() if r.returncode == 0 else None


def build():
    """The image, and its build stage tagged too: that stage's layers (the
    build dependencies) stay as the next build's cache, and what a new
    build replaces can be removed by name rather than left without one."""
    t = time.monotonic()
    for target, tag in (["--target", "build"], BUILD_STAGE), ([], IMAGE):
        old = image_id(tag)
        must(PODMAN + ["build", "--network=host", "-q"] + LIMITS + target
             + ["--build-arg", f"BASE={BASE}", "-t", tag, "-f",
                os.path.join(lib.ROOT, "Containerfile"), lib.ROOT], 1800, "podman build")
        if old and old != image_id(tag):
            run(PODMAN + ["rmi", old], 120)  # fails harmlessly if something still uses it
    print(f"image built in {time.monotonic() - t:.0f} s")


def seccomp_profile(d):
    """Podman's default profile, with bpf() allowed by CAP_BPF and perf_event_open() by CAP_PERFMON."""
    if not os.path.exists(SECCOMP):
        print(f"no {SECCOMP}: run without seccomp")
        return "unconfined"
    with open(SECCOMP) as f:
        p = json.load(f)
    wanted = {"bpf": "CAP_BPF", "perf_event_open": "CAP_PERFMON"}
    for r in p["syscalls"]:
        if r["action"] != "SCMP_ACT_ALLOW":
            r["names"] = [n for n in r["names"] if n not in wanted]
    p["syscalls"] = [r for r in p["syscalls"] if r["names"]]
    for name, cap in wanted.items():
        p["syscalls"].append({"names": [name], "action": "SCMP_ACT_ALLOW", "args": [],
                              "includes": {"caps": [cap]}, "excludes": {}})
    path = os.path.join(d, "seccomp.json")
    with open(path, "w") as f:
        json.dump(p, f)
    return path


def daemonset_options(objs, seccomp, with_caps=True):
    """podman run's options for what the DaemonSet gives its container."""
    c, spec = lib.container(objs)
    sc = c["securityContext"]
    opts = ["--pid=host" if spec.get("hostPID") else "--pid=private", "--network=host",
            "--security-opt", f"seccomp={seccomp}"]
    if sc.get("readOnlyRootFilesystem"):
        opts.append("--read-only")
    if sc.get("allowPrivilegeEscalation") is False:
        opts += ["--security-opt", "no-new-privileges"]
    if "runAsUser" in sc:
        opts += ["--user", str(sc["runAsUser"])]
    opts += ["--cap-drop=" + ",".join(sc["capabilities"]["drop"]).lower()]
    if with_caps:
        opts += ["--cap-add=" + ",".join(sc["capabilities"]["add"])]
    for host, inside, ro in lib.host_mounts(objs):
        if os.path.exists(host):
            opts += ["-v", f"{host}:{inside}" + (":ro" if ro else "")]
        else:
            print(f"{host}: not on this machine (no such runtime here), not mounted")
    lim = c["resources"]["limits"]
    opts += ["--memory", lim["memory"].replace("Mi", "m").replace("Gi", "g"), "--cpus", str(lim["cpu"])]
    return opts + LIMITS


def tdtrace_args(objs, port):
    argv = lib.replace_option(lib.args(objs), "--listen", f"127.0.0.1:{port}")
    return lib.replace_option(argv, "-I", "1000") + ["--software"]


def container_cmd(objs, argv):
    """The DaemonSet's command, with TDTRACE_ARGS set as the ConfigMap sets it."""
    c, _ = lib.container(objs)
    return ["-e", "TDTRACE_ARGS=" + " ".join(argv), "--entrypoint", c["command"][0], IMAGE] + c["command"][1:]


def prom_query(addr, q):
    url = f"http://{addr}/api/v1/query?" + urllib.parse.urlencode({"query": q})
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.load(r)["data"]["result"]


def t_scraped(objs, d):
    port, prom_port = free_port(), free_port()
    name = f"tdtrace-test-{os.getpid()}"
    cfg = os.path.join(d, "prometheus.yml")
    with open(cfg, "w") as f:
        f.write("global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: tdtrace\n"
                f"    static_configs:\n      - targets: ['127.0.0.1:{port}']\n")
    argv = tdtrace_args(objs, port)
    print("tdtrace " + " ".join(argv))
    prom = None
    try:
        must(PODMAN + ["run", "-d", "--name", name] + daemonset_options(objs, seccomp_profile(d))
             + container_cmd(objs, argv), 120, "podman run")
        prom = subprocess.Popen([PROMETHEUS, f"--config.file={cfg}", f"--storage.tsdb.path={d}/data",
                                 f"--web.listen-address=127.0.0.1:{prom_port}"],
                                stdout=subprocess.DEVNULL, stderr=open(os.path.join(d, "prom.log"), "w"))
        addr, up, cpu, end = f"127.0.0.1:{prom_port}", None, [], time.monotonic() + SCRAPE_S
        while time.monotonic() < end:
            time.sleep(1)
            try:
                up = prom_query(addr, 'up{job="tdtrace"}')
                cpu = prom_query(addr, "tdtrace_cpu_seconds_total")
            except OSError:
                continue  # Prometheus still starting
            if up and up[0]["value"][1] == "1" and cpu:
                break
        state = run(PODMAN + ["inspect", "--format", "{{.State.Status}}", name], 60).stdout.strip()
        logs = run(PODMAN + ["logs", name], 60)
        assert up and up[0]["value"][1] == "1", f"up is {up}; container {state}: {logs.stderr[-1000:]}"
        assert cpu, f"no tdtrace_cpu_seconds_total after {SCRAPE_S} s: {logs.stderr[-1000:]}"
        root = [s for s in cpu if s["metric"].get("cgroup") == "/"]
        print(f"Prometheus: up 1, {len(cpu)} tdtrace_cpu_seconds_total series, "
              f"cgroup=\"/\" {root[0]['value'][1] if root else '?'} s")
        # SIGTERM, as the kubelet stops it: the run ends with its summary, 0.
        must(PODMAN + ["stop", "-t", "20", name], 60, "podman stop")
        code = run(PODMAN + ["inspect", "--format", "{{.State.ExitCode}}", name], 60).stdout.strip()
        assert code == "0", f"exit {code} after SIGTERM: {run(PODMAN + ['logs', name], 60).stderr[-1000:]}"
    finally:
        if prom:
            prom.terminate()
            try:
                prom.wait(30)
            except subprocess.TimeoutExpired:
                prom.kill()
                prom.wait()
        run(PODMAN + ["rm", "-f", "-t", "0", name], 120)


def t_no_capabilities(objs, d):
    argv = tdtrace_args(objs, free_port())
    t = time.monotonic()
    r = run(PODMAN + ["run", "--rm"] + daemonset_options(objs, seccomp_profile(d), with_caps=False)
            + container_cmd(objs, argv), 60)
    took = time.monotonic() - t
    lines = r.stderr.strip().splitlines()
    print(f"without capabilities: exit {r.returncode} in {took:.1f} s: {r.stderr.strip()}")
    assert r.returncode == 1, f"exit {r.returncode}, expected 1"
    assert len(lines) == 1 and lines[0].startswith("tdtrace: "), f"not one tdtrace line: {lines}"
    assert "CAP_BPF" in lines[0] or "CAP_PERFMON" in lines[0], "the error does not name what is missing"


def main():
    name = "test_image"
    try:
        import yaml  # noqa: F401
    except ImportError:
        return lib.skip_all(name, "python3-yaml is not installed (Debian: python3-yaml)")
    if os.geteuid():
        return lib.skip_all(name, "needs root (podman, BPF)")
    for tool, pkg in (("podman", "podman"), ("mmdebstrap", "mmdebstrap"), ("runc", "runc")):
        if not shutil.which(tool):
            return lib.skip_all(name, f"{tool} is not installed (Debian: {pkg})")
    if not os.access(PROMETHEUS, os.X_OK):
        return lib.skip_all(name, f"{PROMETHEUS} is not installed (Debian: prometheus)")
    objs = lib.objects()
    t0 = time.monotonic()
    tests = [("build", lambda o, d: (base_image(), build())), ("scraped", t_scraped),
             ("no_capabilities", t_no_capabilities)]
    with tempfile.TemporaryDirectory(prefix="tdtrace-image-") as d:
        passed, failed = lib.run_tests(tests, objs, d, stop_after_failure=True)
    print(f"test_image: {time.monotonic() - t0:.0f} s in all")
    return lib.report(passed, failed)


if __name__ == "__main__":
    sys.exit(main())
