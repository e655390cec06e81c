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
data) must see up == 1 and tdtrace_cpu_seconds_total, and a busy
container that podman runs with CRI-O's Kubernetes annotations in
kubelet's cgroupfs layout must have CPU time under its namespace, pod
and container labels (its names read through the DaemonSet's mount of
podman's state); SIGTERM (podman stop) must end tdtrace with 0.
Without the capabilities the same container must fail at once with
tdtrace's one-line error and exit 1.

The base image, the last built image and its build stage stay, as the
next build's cache; the images they replace are removed. Skips (not
root, no podman, mmdebstrap, prometheus or python3-yaml), saying why.
Prints a cmocka-style summary for tests/run.sh.
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
import uuid

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
# Kubernetes' mountPropagation as podman's bind options (CRI's mapping).
PROPAGATION = {"None": "rprivate", "HostToContainer": "rslave", "Bidirectional": "rshared"}
BUSYBOX = "/bin/busybox"
CGROUP = "/sys/fs/cgroup"
WORKLOAD = ("tdtrace-test", "web-1", "spin")  # namespace, pod, container


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
    """Podman's default profile, with bpf() allowed by CAP_BPF and
    perf_event_open() by CAP_PERFMON."""
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
    for host, inside, ro, propagation in lib.host_mounts(objs):
        flags = (["ro"] if ro else []) + [PROPAGATION[propagation]]
        if os.path.exists(host):
            opts += ["-v", f"{host}:{inside}:" + ",".join(flags)]
        else:
            print(f"{host}: not on this machine (no such runtime here), not mounted")
    lim = c["resources"]["limits"]
    memory = lim["memory"].replace("Mi", "m").replace("Gi", "g")
    opts += ["--memory", memory, "--cpus", str(lim["cpu"])]
    return opts + LIMITS


def tdtrace_args(objs, port):
    argv = lib.replace_option(lib.args(objs), "--listen", f"127.0.0.1:{port}")
    return lib.replace_option(argv, "-I", "1000") + ["--software"]


def container_cmd(objs, argv):
    """The DaemonSet's command, with TDTRACE_ARGS set as the ConfigMap sets it."""
    c, _ = lib.container(objs)
    shell, rest = c["command"][0], c["command"][1:]
    return ["-e", "TDTRACE_ARGS=" + " ".join(argv), "--entrypoint", shell, IMAGE] + rest


def prom_query(addr, q):
    url = f"http://{addr}/api/v1/query?" + urllib.parse.urlencode({"query": q})
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.load(r)["data"]["result"]


def start_workload(d, name, uid):
    """A busy container as kubelet's cgroupfs driver places one, with the
    annotations CRI-O writes, in podman's state directory (the DaemonSet's
    "crio" mount). None without busybox."""
    if not os.path.exists(BUSYBOX):
        print(f"no {BUSYBOX} (Debian: busybox-static): Kubernetes names not checked")
        return None
    root = os.path.join(d, "rootfs")
    os.makedirs(os.path.join(root, "bin"))
    shutil.copy(BUSYBOX, os.path.join(root, "bin", "busybox"))
    notes = {"io.kubernetes.pod.namespace": WORKLOAD[0], "io.kubernetes.pod.name": WORKLOAD[1],
             "io.kubernetes.container.name": WORKLOAD[2], "io.kubernetes.pod.uid": uid}
    opts = ["--network=none", "--cgroup-parent", f"/kubepods/burstable/pod{uid}"] + LIMITS
    for k, v in notes.items():
        opts += ["--annotation", f"{k}={v}"]
    must(PODMAN + ["run", "-d", "--name", name] + opts
         + ["--rootfs", root, "/bin/busybox", "sh", "-c", "while :; do :; done"], 120, "workload")
    return WORKLOAD


def remove_pod_cgroups(uid):
    """The pod's cgroup directories podman made and left, in every hierarchy
    (a v1 one stays busy while the container's conmon is still exiting)."""
    tops = [CGROUP] + [os.path.join(CGROUP, h) for h in os.listdir(CGROUP)]
    pods = [os.path.join(t, "kubepods", "burstable", f"pod{uid}") for t in tops]
    end = time.monotonic() + 10
    while True:
        left = sorted((w[0] for p in pods for w in os.walk(p)), key=len, reverse=True)
        for d in left:
            try:
                os.rmdir(d)
            except OSError as e:
                err = e
        if not any(os.path.exists(p) for p in pods):
            return
        if time.monotonic() > end:
            print(f"pod{uid}: cgroups left: {err}")
            return
        time.sleep(0.2)


def probe_paths(objs, port):
    """Each of the DaemonSet's HTTP probes answers 200, as the kubelet wants."""
    c, _ = lib.container(objs)
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        if probe in c:
            path = c[probe]["httpGet"]["path"]
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
                assert r.status == 200, f"{probe} {path}: {r.status}"
            print(f"{probe} {path}: 200")


def t_scraped(objs, d):
    port, prom_port = free_port(), free_port()
    name = f"tdtrace-test-{os.getpid()}"
    work, uid = f"tdtrace-test-workload-{os.getpid()}", str(uuid.uuid4())
    cfg = os.path.join(d, "prometheus.yml")
    with open(cfg, "w") as f:
        f.write("global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: tdtrace\n"
                f"    static_configs:\n      - targets: ['127.0.0.1:{port}']\n")
    argv = tdtrace_args(objs, port)
    print("tdtrace " + " ".join(argv))
    prom = None
    try:
        k8s = start_workload(d, work, uid)
        must(PODMAN + ["run", "-d", "--name", name] + daemonset_options(objs, seccomp_profile(d))
             + container_cmd(objs, argv), 120, "podman run")
        prom_log = open(os.path.join(d, "prom.log"), "w")
        prom = subprocess.Popen([PROMETHEUS, f"--config.file={cfg}",
                                 f"--storage.tsdb.path={d}/data",
                                 f"--web.listen-address=127.0.0.1:{prom_port}"],
                                stdout=subprocess.DEVNULL, stderr=prom_log)
        addr, up, cpu, named = f"127.0.0.1:{prom_port}", None, [], []
        named_q = ('tdtrace_cpu_seconds_total{namespace="%s",pod="%s",container="%s"} > 0'
                   % (k8s or ("",) * 3))
        end = time.monotonic() + SCRAPE_S
        while time.monotonic() < end:
            time.sleep(1)
            try:
                up = prom_query(addr, 'up{job="tdtrace"}')
                cpu = prom_query(addr, "tdtrace_cpu_seconds_total")
                named = prom_query(addr, named_q) if k8s else [None]
            except OSError:
                continue  # Prometheus still starting
            if up and up[0]["value"][1] == "1" and cpu and named:
                break
            running = run(PODMAN + ["inspect", "--format", "{{.State.Running}}", name], 60)
            if running.stdout.strip() != "true":
                break  # tdtrace ended: said below
        state = run(PODMAN + ["inspect", "--format", "{{.State.Status}}", name], 60).stdout.strip()
        logs = run(PODMAN + ["logs", name], 60)
        assert up and up[0]["value"][1] == "1", \
            f"up is {up}; container {state}: {logs.stderr[-1000:]}"
        assert cpu, f"no tdtrace_cpu_seconds_total after {SCRAPE_S} s: {logs.stderr[-1000:]}"
        root = [s for s in cpu if s["metric"].get("cgroup") == "/"]
        print(f"Prometheus: up 1, {len(cpu)} tdtrace_cpu_seconds_total series, "
              f"cgroup=\"/\" {root[0]['value'][1] if root else '?'} s")
        if k8s:
            assert named, f"no {named_q}: {logs.stderr[-1000:]}"
            print(f"Prometheus: {named[0]['metric']} {named[0]['value'][1]} s")
        probe_paths(objs, port)
        # SIGTERM, as the kubelet stops it: the run ends with its summary, 0.
        must(PODMAN + ["stop", "-t", "20", name], 60, "podman stop")
        code = run(PODMAN + ["inspect", "--format", "{{.State.ExitCode}}", name], 60).stdout.strip()
        logs = run(PODMAN + ["logs", name], 60)
        assert code == "0", f"exit {code} after SIGTERM: {logs.stderr[-1000:]}"
    finally:
        if prom:
            prom.terminate()
            try:
                prom.wait(30)
            except subprocess.TimeoutExpired:
                prom.kill()
                prom.wait()
        run(PODMAN + ["rm", "-f", "--ignore", "-t", "0", name, work], 120)
        remove_pod_cgroups(uid)


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
    assert "CAP_BPF" in lines[0] or "CAP_PERFMON" in lines[0], "it does not name what is missing"


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
        passed, failed = lib.run_tests(tests, objs, d, first_is_setup=True)
    print(f"test_image: {time.monotonic() - t0:.0f} s in all")
    return lib.report(passed, failed)


if __name__ == "__main__":
    sys.exit(main())
