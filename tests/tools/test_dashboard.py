#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""deploy/grafana/tdtrace.json against a real Prometheus.

dashboard_json: the dashboard's shape (schema version, the DS_PROMETHEUS
input, the template variables, every panel and target on that data
source), and that every metric family user/output/prometheus.c exports is
used by some panel (but the tdtrace_region_* families: see below).

queries_answer: a real Prometheus (/usr/bin/prometheus) on 127.0.0.1,
loading prometheus/tdtrace.rules.yml, scrapes two targets every second:

  - job "tdtrace": a REAL tdtrace --software --containers --self-stats
    --listen-processes on 127.0.0.1, while a shell loop burns some CPU in
    a cgroup of its own and, if podman runs here, in a podman container
    carrying Kubernetes annotations under a kubepods pod cgroup, so that
    its namespace, pod and container labels are real;
  - job "tdtrace-synthetic": this machine has no hardware PMU, so the
    TopDown series (and tdtrace_counters_*_seconds_total) come from
    SYNTHETIC Ice Lake counts for made-up Kubernetes containers, turned
    into exposition text by tdtrace's own code (tests/tools/
    synth_exposition.c, run at each scrape) and served here.

Then every target expr of every panel, and every template variable query,
has its variables put in (each variable's "All", and for each instance the
first namespace, pod and container it has) and goes to /api/v1/query: each
must parse, and return at least one series with "All" and with some
instance's values. Which job fed each panel is printed: the TopDown,
slots and multiplexing panels' data is synthetic; CPU, BPF program cost and
the Kubernetes labels of the CPU panels are real. Each recording rule must
have series too.

Skips, saying why, when not root or without prometheus; podman is
optional. Everything runs on 127.0.0.1 and is stopped at the end; about
25 s, and the waits are bounded (WAIT_S, PODMAN_S) when something fails.
Prints a cmocka-style summary for tests/run.sh.
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUTPUT = os.path.join(ROOT, os.environ.get("OUTPUT", "build"))
DASHBOARD = os.path.join(ROOT, "deploy", "grafana", "tdtrace.json")
EXPORTER = os.path.join(ROOT, "user", "output", "prometheus.c")
RULES = os.path.join(ROOT, "prometheus", "tdtrace.rules.yml")
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "sysfs", "icelake")
TDTRACE = os.environ.get("TDTRACE", os.path.join(OUTPUT, "tdtrace"))
SYNTH = os.path.join(OUTPUT, "tests", "synth_exposition")
PROMETHEUS = "/usr/bin/prometheus"

VARIABLES = ("instance", "namespace", "pod", "container")
# Grafana's built-ins, as it would set them for 1 s scrapes: $__rate_interval
# is at least 4 scrape intervals; 10 s leaves room for a late scrape.
BUILTINS = {"__rate_interval": "10s", "__range": "30s", "__interval": "2s"}
WAIT_S = 70  # all the waits for Prometheus's series together, from its start
PODMAN_S = 30  # podman run, and podman rm
BURN = "while :; do i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; sleep 0.2; done"
POD_UID = "d7a5e3c1-9b2f-4e6d-8c4a-%012x" % os.getpid()
K8S = {"namespace": "dash-ns", "pod": "dash-pod-0", "container": "burner"}

results = []  # (name, None | failure message | "SKIP: reason")


def say(*args):
    print(*args, flush=True)


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


# ------------------------------------------------------------ the JSON


def load_dashboard():
    with open(DASHBOARD, encoding="utf-8") as f:
        return json.load(f)


def all_panels(dash):
    """Panels, with those inside collapsed rows."""
    for p in dash["panels"]:
        yield p
        for q in p.get("panels", []):
            yield q


def targets(dash):
    """(panel title, refId, expr) of every target of every panel."""
    for p in all_panels(dash):
        for t in p.get("targets", []):
            yield p["title"], t.get("refId", "?"), t.get("expr")


def exported_families():
    """Sample names of every family prometheus.c writes (counters get _total, info _info)."""
    with open(EXPORTER, encoding="utf-8") as f:
        src = f.read()
    names = set()
    for call in re.finditer(r"metrics_family\(m,(.*?),\s*METRIC_(COUNTER|GAUGE|INFO)", src,
                            re.S):
        for name in re.findall(r'"(tdtrace_[a-z_]+)"', call.group(1)):
            names.add(name + {"COUNTER": "_total", "GAUGE": "", "INFO": "_info"}[call.group(2)])
    return names


def test_dashboard_json():
    dash = load_dashboard()
    check(dash.get("schemaVersion", 0) >= 39, "schemaVersion %s: not a current Grafana's"
          % dash.get("schemaVersion"))
    inputs = [i["name"] for i in dash.get("__inputs", []) if i.get("type") == "datasource"]
    check(inputs == ["DS_PROMETHEUS"], "__inputs: %s, not one DS_PROMETHEUS data source" % inputs)
    var = {v["name"]: v for v in dash["templating"]["list"]}
    check(var.get("DS_PROMETHEUS", {}).get("type") == "datasource",
          "no DS_PROMETHEUS data source variable")
    for name in VARIABLES:
        check(name in var, "no template variable %s" % name)
        check(var[name]["type"] == "query" and "label_values(" in var[name]["definition"],
              "variable %s is not a label_values query" % name)
        check(var[name].get("includeAll"), "variable %s has no All" % name)
    ids = [p["id"] for p in all_panels(dash)]
    check(len(ids) == len(set(ids)), "panel ids repeat: %s" % ids)
    boxes = [(p["title"], p["gridPos"]) for p in dash["panels"]]
    for i, (a, g) in enumerate(boxes):
        check(g["x"] + g["w"] <= 24, "panel %r is wider than the grid" % a)
        for b, h in boxes[:i]:
            check(g["x"] >= h["x"] + h["w"] or h["x"] >= g["x"] + g["w"] or
                  g["y"] >= h["y"] + h["h"] or h["y"] >= g["y"] + g["h"],
                  "panels %r and %r overlap" % (b, a))
    n = 0
    for p in all_panels(dash):
        if p["type"] == "row":
            continue
        check(p.get("datasource", {}).get("uid") == "${DS_PROMETHEUS}",
              "panel %r: data source %s" % (p["title"], p.get("datasource")))
        check(p.get("targets"), "panel %r has no targets" % p["title"])
        for t in p["targets"]:
            check(t.get("datasource", {}).get("uid") == "${DS_PROMETHEUS}",
                  "panel %r target %s: data source %s" % (p["title"], t.get("refId"),
                                                          t.get("datasource")))
            check(t.get("expr"), "panel %r target %s: no expr" % (p["title"], t.get("refId")))
            n += 1
    exprs = "\n".join(e for _, _, e in targets(dash))
    families = exported_families()
    check(len(families) >= 15, "found only %s in %s" % (sorted(families), EXPORTER))
    # Region series (--region, --usdt) come from a session aimed at one
    # program's functions, not from a fleet's exporter; the dashboard leaves
    # them out on purpose (README, "Grafana dashboard").
    unused = sorted(f for f in families
                    if not f.startswith("tdtrace_region_") and not re.search(r"\b%s\b" % f, exprs))
    check(not unused, "families tdtrace exports that no panel shows: %s" % unused)
    say("dashboard: %d panels, %d targets; all %d families of prometheus.c shown"
        % (len(ids), n, len(families)))


# ------------------------------------------------------------ the live part


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def http_get(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read().decode("utf-8")


class Synthetic:
    """Serves synth_exposition's text on 127.0.0.1, its counts as of the time since start."""

    def __init__(self, tdtrace_args):
        start = time.monotonic()
        args = tdtrace_args

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                if self.path.split("?")[0] != "/metrics":
                    self.send_error(404)
                    return
                run = subprocess.run([SYNTH, FIXTURE, "%.3f" % (time.monotonic() - start)] + args,
                                     capture_output=True, timeout=10, check=False)
                if run.returncode:
                    self.send_error(500, run.stderr.decode(errors="replace").strip())
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                self.send_header("Content-Length", str(len(run.stdout)))
                self.end_headers()
                self.wfile.write(run.stdout)

            def log_message(self, *a):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def cgroup2_mount():
    with open("/proc/self/mountinfo", encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            sep = fields.index("-")
            if fields[sep + 1] == "cgroup2":
                return fields[4]
    return None


def podman_rm(name):
    try:
        subprocess.run(["podman", "rm", "-f", "-t", "0", name], capture_output=True,
                       timeout=PODMAN_S, check=False)
    except subprocess.TimeoutExpired:
        say("test_dashboard: podman rm %s: no answer in %d s" % (name, PODMAN_S))


class Live:
    """Everything the live test starts, stopped by stop() whatever happened."""

    def __init__(self):
        self.procs = []
        self.tmp = tempfile.mkdtemp(prefix="tdtrace-dash.")
        self.cgroup = None
        self.synthetic = None
        self.podman = None  # container name, once started
        self.podman_note = ""

    def spawn(self, argv, **kw):
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, **kw)
        self.procs.append(p)
        return p

    def burn_in_cgroup(self, mount):
        self.cgroup = os.path.join(mount, "tdtrace-dash-%d" % os.getpid())
        os.mkdir(self.cgroup)
        procs = os.path.join(self.cgroup, "cgroup.procs")

        def enter():
            with open(procs, "w", encoding="ascii") as f:
                f.write(str(os.getpid()))

        self.spawn(["/bin/sh", "-c", BURN], preexec_fn=enter)

    def start_podman(self):
        """A podman container with Kubernetes annotations, or a note saying why not."""
        busybox = shutil.which("busybox")
        if not shutil.which("podman") or not busybox:
            self.podman_note = "podman or busybox is not installed"
            return
        rootfs = os.path.join(self.tmp, "rootfs")
        os.makedirs(os.path.join(rootfs, "bin"))
        shutil.copy(busybox, os.path.join(rootfs, "bin", "busybox"))
        for applet in ("sh", "sleep"):
            os.symlink("busybox", os.path.join(rootfs, "bin", applet))
        name = "tdtrace-dash-%d" % os.getpid()
        ann = {"io.kubernetes.pod.namespace": K8S["namespace"],
               "io.kubernetes.pod.name": K8S["pod"],
               "io.kubernetes.container.name": K8S["container"],
               "io.kubernetes.pod.uid": POD_UID}
        argv = ["podman", "--runtime", "runc", "run", "-d", "--name", name, "--network=none",
                "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=4096:4096",
                "--cgroup-parent=/kubepods/burstable/pod" + POD_UID]
        for k, v in ann.items():
            argv += ["--annotation", "%s=%s" % (k, v)]
        argv += ["--rootfs", rootfs, "/bin/sh", "-c", BURN]
        try:
            run = subprocess.run(argv, capture_output=True, text=True, timeout=PODMAN_S,
                                 check=False)
        except subprocess.TimeoutExpired:
            run = subprocess.CompletedProcess(argv, -1, "", "no answer in %d s" % PODMAN_S)
        if run.returncode:
            podman_rm(name)
            self.podman_note = "podman run failed: %s" % run.stderr.strip().splitlines()[-1:]
            return
        self.podman = name

    def stop(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in reversed(self.procs):
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if self.synthetic:
            self.synthetic.stop()
        if self.podman:
            podman_rm(self.podman)
            # podman leaves the pod's cgroup behind, in v2 and each v1 hierarchy, with
            # conmon's cgroup in it until conmon is gone: ours only, deepest first.
            pod = os.path.join("kubepods", "burstable", "pod" + POD_UID)
            pods = [os.path.join("/sys/fs/cgroup", top, pod)
                    for top in [""] + os.listdir("/sys/fs/cgroup")]
            end = time.monotonic() + 10
            while any(os.path.exists(p) for p in pods) and time.monotonic() < end:
                for pod in pods:
                    for d, _, _ in sorted(os.walk(pod), key=lambda w: -len(w[0])):
                        try:
                            os.rmdir(d)
                        except OSError:
                            pass
                time.sleep(0.2)
            for p in pods:
                if os.path.exists(p):
                    say("test_dashboard: failed to remove %s" % p)
        if self.cgroup:
            try:
                os.rmdir(self.cgroup)
            except OSError as e:
                say("test_dashboard: failed to remove %s: %s" % (self.cgroup, e))
        shutil.rmtree(self.tmp, ignore_errors=True)


class Prom:
    def __init__(self, addr):
        self.base = "http://%s/api/v1/" % addr
        self.deadline = time.monotonic() + WAIT_S

    def get(self, what, **params):
        url = self.base + what + "?" + urllib.parse.urlencode(params, doseq=True)
        try:
            return json.loads(http_get(url))
        except urllib.error.HTTPError as e:  # 400 with the parse error as JSON
            body = e.read().decode("utf-8", "replace")
            try:
                return json.loads(body)
            except ValueError:  # 503 while it starts
                return {"status": "error", "error": "%s: %s" % (e, body.strip())}
        except (urllib.error.URLError, OSError) as e:  # not up yet
            return {"status": "error", "error": str(e)}

    def query(self, expr):
        return self.get("query", query=expr)


def regex_escape(value):
    """A value as Grafana puts it in a regex matcher: regex-escaped, then as a PromQL string."""
    return re.sub(r"([\\^$.|?*+()\[\]{}])", r"\\\\\1", value)


def label_values(prom, definition):
    """
    Grafana's label_values(SELECTOR, LABEL) through /api/v1/series, as it
    does it; its SELECTOR must also answer /api/v1/query with series.
    """
    m = re.fullmatch(r"label_values\((.*),\s*(\w+)\)", definition.strip(), re.S)
    check(m, "not label_values(SELECTOR, LABEL): %s" % definition)
    r = prom.query(m.group(1))
    check(r.get("status") == "success" and r["data"]["result"],
          "%s: %s" % (definition, r.get("error", "no series")))
    now = time.time()
    r = prom.get("series", **{"match[]": m.group(1), "start": now - 300, "end": now})
    check(r.get("status") == "success", "%s: %s" % (definition, r.get("error")))
    return sorted({s[m.group(2)] for s in r["data"] if s.get(m.group(2))})


def substitute(text, values):
    for name, value in list(values.items()) + list(BUILTINS.items()):
        text = text.replace("${%s}" % name, value).replace("$" + name, value)
    check("$" not in text, "a variable is left in: %s" % text)
    return text


def variable_values(prom, dash, instance=None):
    """Each variable's value for the queries: its All, or one instance's first values."""
    var = {v["name"]: v for v in dash["templating"]["list"]}
    values, shown = {}, {}
    for name in ["job"] + list(VARIABLES):
        v = var[name]
        found = label_values(prom, substitute(v["definition"], values))
        shown[name] = found
        if name == "instance" and instance:
            found = [instance]
        if instance and name != "job" and found:
            values[name] = regex_escape(found[0])
        elif "allValue" in v:
            values[name] = v["allValue"]
        else:
            check(found, "variable %s has no values" % name)
            values[name] = "(%s)" % "|".join(regex_escape(x) for x in found)
    return values, shown


def wait_for(prom, expr, what):
    while True:
        r = prom.query(expr)
        if r.get("status") == "success" and r["data"]["result"]:
            return r["data"]["result"]
        if time.monotonic() > prom.deadline:
            raise Failure("Prometheus has no %s %d s after it started (%s)"
                          % (what, WAIT_S, expr))
        time.sleep(0.5)


def test_queries_answer():
    if os.geteuid():
        return "needs root (tdtrace loads BPF programs); run the tests with sudo"
    for path, why in ((PROMETHEUS, "prometheus is not installed (Debian: prometheus)"),
                      (TDTRACE, "no %s: make" % TDTRACE),
                      (SYNTH, "no %s: make %s" % (SYNTH, os.path.relpath(SYNTH, ROOT)))):
        if not os.access(path, os.X_OK):
            return why
    mount = cgroup2_mount()
    if not mount:
        return "no cgroup v2 mounted"
    dash = load_dashboard()
    live = Live()
    try:
        live.start_podman()
        say("podman: %s" % ("container %s as %s/%s/%s" % (live.podman, K8S["namespace"],
                                                         K8S["pod"], K8S["container"])
                            if live.podman else "not used: " + live.podman_note))
        live.burn_in_cgroup(mount)
        td_port, prom_port = free_port(), free_port()
        listen = ["--containers", "--listen-processes", "10"]
        live.synthetic = Synthetic(listen + ["--listen", "127.0.0.1:9466"])
        tdtrace = live.spawn([TDTRACE, "--software", "--self-stats", "-I", "1000", "--listen",
                              "127.0.0.1:%d" % td_port] + listen, stdout=subprocess.DEVNULL)
        real, synthetic = "127.0.0.1:%d" % td_port, "127.0.0.1:%d" % live.synthetic.port
        cfg = os.path.join(live.tmp, "prometheus.yml")
        with open(cfg, "w", encoding="utf-8") as f:
            f.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                    "rule_files: ['%s']\nscrape_configs:\n"
                    "  - job_name: tdtrace\n    static_configs:\n      - targets: ['%s']\n"
                    "  - job_name: tdtrace-synthetic\n    static_configs:\n"
                    "      - targets: ['%s']\n" % (RULES, real, synthetic))
        live.spawn([PROMETHEUS, "--config.file=" + cfg,
                    "--storage.tsdb.path=" + os.path.join(live.tmp, "data"),
                    "--web.listen-address=127.0.0.1:%d" % prom_port],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        prom = Prom("127.0.0.1:%d" % prom_port)
        started = time.monotonic()
        # Enough samples of both for rates over $__rate_interval.
        wait_for(prom, 'count_over_time(tdtrace_build_info{job="tdtrace"}[1m]) >= 12',
                 "12 scrapes of the real tdtrace")
        wait_for(prom, 'count_over_time(tdtrace_build_info{job="tdtrace-synthetic"}[1m]) >= 12',
                 "12 scrapes of the synthetic target")
        check(tdtrace.poll() is None, "tdtrace exited %s" % tdtrace.returncode)
        if live.podman:
            wait_for(prom, 'rate(tdtrace_cpu_seconds_total{namespace="%s", pod="%s", '
                     'container="%s"}[10s]) > 0' % (K8S["namespace"], K8S["pod"],
                                                    K8S["container"]),
                     "CPU time of the podman container, by its Kubernetes names")
        say("Prometheus: both targets scraped %.1f s after start" % (time.monotonic() - started))

        combos = {"All": variable_values(prom, dash)}
        for inst, job in ((real, "tdtrace"), (synthetic, "tdtrace-synthetic")):
            combos["%s (%s)" % (inst, job)] = variable_values(prom, dash, inst)
        for label, (values, _) in combos.items():
            say("variables, %s: %s" % (label, json.dumps(values, separators=(",", ":"))))
        for name, found in combos["All"][1].items():
            check(found, "variable %s has no values" % name)
        check(combos["All"][1]["instance"] == sorted([real, synthetic]),
              "instances %s, not %s" % (combos["All"][1]["instance"], [real, synthetic]))

        fed = {}
        for title, ref, expr in targets(dash):
            key = "%s [%s]" % (title, ref)
            fed[key] = []
            for label, (values, _) in combos.items():
                q = substitute(expr, values)
                r = prom.query(q)
                check(r.get("status") == "success",
                      "%s, %s: %s\n  %s" % (key, label, r.get("error"), q))
                n = len(r["data"]["result"])
                if label == "All":
                    check(n, "%s: no series with All\n  %s" % (key, q))
                elif n:
                    fed[key].append("synthetic" if "synthetic" in label else "real")
            check(fed[key], "%s: no series for any one instance's values" % key)
        for key, src in fed.items():
            say("  %-60s %s" % (key, " + ".join(src)))

        with open(RULES, encoding="utf-8") as f:
            records = re.findall(r"^\s*- record: (\S+)", f.read(), re.M)
        check(records, "no recording rule in %s" % RULES)
        for rec in records:
            n = len(wait_for(prom, rec, "the recording rule " + rec)) if (
                live.podman or "cpu_seconds" not in rec) else 0
            say("  rule %-50s %s" % (rec, "%d series" % n if n else
                                     "not checked: no real pod without podman"))
        check(tdtrace.poll() is None, "tdtrace exited %s" % tdtrace.returncode)
        say("queries: %d targets and %d variables answered in %.1f s"
            % (len(fed), len(VARIABLES) + 1, time.monotonic() - started))
    finally:
        live.stop()
    return None


def main():
    tests = [("dashboard_json", test_dashboard_json), ("queries_answer", test_queries_answer)]
    for name, fn in tests:
        say("[ RUN      ] %s" % name)
        try:
            skip = fn()
        except Exception as e:  # pylint: disable=broad-except
            say("[  FAILED  ] %s: %s" % (name, e if isinstance(e, Failure) else repr(e)))
            results.append((name, "failed"))
            continue
        if skip:
            say("[ SKIP     ] %s: %s" % (name, skip))
            say("[  SKIPPED ] %s" % name)
            results.append((name, "skipped"))
        else:
            say("[       OK ] %s" % name)
            results.append((name, None))
    passed = [n for n, r in results if r is None]
    failed = [n for n, r in results if r == "failed"]
    skipped = [n for n, r in results if r == "skipped"]
    say("[  PASSED  ] %d test(s)." % len(passed))
    if skipped:
        say("[  SKIPPED ] %d test(s), listed below:" % len(skipped))
        for n in skipped:
            say("[  SKIPPED ] %s" % n)
    if failed:
        say("[  FAILED  ] %d test(s), listed below:" % len(failed))
        for n in failed:
            say("[  FAILED  ] %s" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
