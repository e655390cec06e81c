#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""deploy/kubernetes/: what matters in the manifests, read with python3-yaml.

Every YAML document parses; the DaemonSet is not privileged, drops every
capability and adds only some of the systemd unit's, has a read-only root,
the host's PID namespace, read-only host mounts (the cgroup tree, the
kernel's BTF, each runtime's state directory), probes on paths the exporter
answers, requests and limits, tolerations for every taint; the Service,
PodMonitor and ConfigMap's --listen agree with the container's port; the
plain Prometheus config keeps the node's name and passes promtool.

kubectl cannot validate against the schema without a server (even
`apply --dry-run=client` asks it for the API's discovery and OpenAPI);
offline, `kubectl label --local` reads and names each object, which is
what is checked with it. Skips (python3-yaml, kubectl, promtool missing),
saying why. Prints a cmocka-style summary for tests/run.sh.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import deploy_lib as lib  # noqa: E402

# The contract's default --runtime-root directories (README, Kubernetes).
RUNTIME_ROOTS = [
    "/run/containerd/io.containerd.runtime.v2.task/k8s.io",
    "/run/containers/storage/overlay-containers",
    "/var/lib/containers/storage/overlay-containers",
    "/var/lib/docker/containers",
]
EXAMPLES = os.path.join(lib.MANIFESTS, "examples")


def walk(node, path=""):
    """Every (path, key, value) of a parsed document."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield path, k, v
            yield from walk(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, f"{path}[{i}]")


def unit_capabilities():
    """The systemd unit's CapabilityBoundingSet, without CAP_."""
    with open(os.path.join(lib.ROOT, "systemd", "tdtrace-exporter.service")) as f:
        for line in f:
            if line.startswith("CapabilityBoundingSet="):
                return {c.removeprefix("CAP_") for c in line.split("=", 1)[1].split()}
    raise AssertionError("no CapabilityBoundingSet in the systemd unit")


def exporter_paths():
    """The URL paths user/exporter/http.c answers with 200."""
    with open(os.path.join(lib.ROOT, "user", "exporter", "http.c")) as f:
        return set(re.findall(r'strcmp\(url, "([^"]+)"\)', f.read()))


def t_parse(objs):
    for path in lib.yaml_files():
        docs = lib.load(path)
        assert docs, f"{path}: no document"
        for d in docs:
            assert isinstance(d, dict), f"{path}: a document that is not a mapping"
    for o in objs:
        assert o.get("apiVersion") and o.get("kind"), f"an object without apiVersion or kind: {o}"
        assert o.get("metadata", {}).get("name"), f"a {o['kind']} without a name"
        if o["kind"] != "Namespace":
            assert o["metadata"].get("namespace") == "tdtrace", f"{o['kind']} not in tdtrace"
    ns = lib.one(objs, "Namespace")
    assert ns["metadata"]["name"] == "tdtrace"
    lib.one(objs, "ServiceAccount")


def t_not_privileged(objs):
    for path in lib.yaml_files():
        for d in lib.load(path):
            for where, k, v in walk(d):
                assert not (k == "privileged" and v is True), f"{path}: {where}.privileged: true"
    c, spec = lib.container(objs)
    sc = c["securityContext"]
    assert sc.get("allowPrivilegeEscalation") is False, "allowPrivilegeEscalation is not false"
    assert sc.get("readOnlyRootFilesystem") is True, "readOnlyRootFilesystem is not true"
    assert spec.get("hostPID") is True, "hostPID is not true"
    assert not spec.get("hostNetwork"), "hostNetwork: the pod needs only its own network"
    assert not spec.get("hostIPC"), "hostIPC is not needed"
    assert spec.get("automountServiceAccountToken") is False, "a token tdtrace does not use"


def t_capabilities(objs):
    c, _ = lib.container(objs)
    caps = c["securityContext"]["capabilities"]
    assert caps.get("drop") == ["ALL"], f"drop is {caps.get('drop')}, not [ALL]"
    add = set(caps.get("add", []))
    assert {"BPF", "PERFMON"} <= add, f"add {sorted(add)} lacks BPF or PERFMON"
    assert add <= unit_capabilities(), f"add {sorted(add)}: more than the systemd unit's"
    assert "SYS_ADMIN" not in add


def t_host_mounts(objs):
    c, spec = lib.container(objs)
    mounts = lib.host_mounts(objs)
    hostpaths = [v for v in spec["volumes"] if "hostPath" in v]
    assert len(mounts) == len(hostpaths), "a hostPath volume not mounted, or mounted twice"
    for host, inside, ro, propagation in mounts:
        assert ro, f"hostPath {host} mounted at {inside} is not readOnly"
        assert host == inside, f"{host} mounted at {inside}: tdtrace looks at the host's paths"
        assert propagation != "Bidirectional", f"{host}: Bidirectional propagation"
    have = {h: p for h, _, _, p in mounts}
    for want in ["/sys/fs/cgroup", "/sys/kernel/btf"] + RUNTIME_ROOTS:
        assert want in have, f"{want} is not mounted"
    # Containers' root file systems and shm are mounted below these: the
    # runtime's unmounts must reach the pod's copy.
    for root in RUNTIME_ROOTS:
        assert have[root] == "HostToContainer", f"{root}: propagation {have[root]}"


def t_probes(objs):
    c, _ = lib.container(objs)
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    served = exporter_paths() | {"/"}
    for probe in ("livenessProbe", "readinessProbe"):
        assert probe in c, f"no {probe}"
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        if probe not in c:
            continue
        get = c[probe]["httpGet"]
        assert get["path"] in served, f"{probe} asks {get['path']}, the exporter serves {served}"
        port = get["port"]
        assert port in ports or port in ports.values(), f"{probe} port {port}: not the container's"


def quantity(q):
    """A CPU or memory quantity as a number (m, Ki, Mi, Gi)."""
    q = str(q)
    for suffix, mul in (("m", 1e-3), ("Ki", 2**10), ("Mi", 2**20), ("Gi", 2**30)):
        if q.endswith(suffix):
            return float(q[: -len(suffix)]) * mul
    return float(q)


def t_resources(objs):
    c, _ = lib.container(objs)
    r = c["resources"]
    for what in ("cpu", "memory"):
        req, lim = r["requests"][what], r["limits"][what]
        assert 0 < quantity(req) <= quantity(lim), f"{what}: request {req} over limit {lim}"


def t_tolerations(objs):
    _, spec = lib.container(objs)
    assert any(
        t.get("operator") == "Exists" and "key" not in t and "effect" not in t
        for t in spec.get("tolerations", [])
    ), "no toleration of every taint (operator: Exists, no key, no effect)"


def t_ports_agree(objs):
    c, _ = lib.container(objs)
    port = {p["name"]: p["containerPort"] for p in c["ports"]}["metrics"]
    listen = lib.option_value(lib.args(objs), "--listen")
    assert listen and listen.rsplit(":", 1)[-1] == str(port), f"--listen {listen}, port {port}"
    assert listen.rsplit(":", 1)[0] in ("0.0.0.0", "[::]"), "listens where the pod IP is not"
    assert "$TDTRACE_ARGS" in " ".join(c["command"]), "the command does not use TDTRACE_ARGS"
    env = {e["name"]: e for e in c["env"]}
    ref = env["TDTRACE_ARGS"]["valueFrom"]["configMapKeyRef"]["name"]
    assert ref == lib.one(objs, "ConfigMap")["metadata"]["name"], f"TDTRACE_ARGS from {ref}"
    svc = lib.one(objs, "Service")
    assert svc["spec"].get("clusterIP") == "None", "the Service is not headless"
    sel = lib.one(objs, "DaemonSet")["spec"]["template"]["metadata"]["labels"]
    assert all(sel.get(k) == v for k, v in svc["spec"]["selector"].items()), "selects no pod"
    (sp,) = svc["spec"]["ports"]
    assert sp["port"] == port and sp["targetPort"] in ("metrics", port), f"Service port {sp}"
    pm = lib.one(lib.load(os.path.join(EXAMPLES, "podmonitor.yaml")), "PodMonitor")
    assert all(sel.get(k) == v for k, v in pm["spec"]["selector"]["matchLabels"].items())
    for ep in pm["spec"]["podMetricsEndpoints"]:
        assert ep["port"] == "metrics", f"PodMonitor port {ep['port']}"
        assert ep.get("path", "/metrics") in exporter_paths()


def t_scrape_config(objs):
    (cfg,) = lib.load(os.path.join(EXAMPLES, "prometheus-scrape.yml"))
    (job,) = cfg["scrape_configs"]
    assert job["kubernetes_sd_configs"], "no kubernetes_sd"
    kept = [r for r in job["relabel_configs"]
            if "__meta_kubernetes_pod_node_name" in r.get("source_labels", [])]
    assert kept, "the node's name is not kept"
    assert job.get("honor_labels") is True, "tdtrace's namespace/pod/container labels not honoured"
    promtool = shutil.which("promtool")
    if not promtool:
        print("promtool is not installed (Debian: prometheus): config not checked by it")
        return
    import yaml

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "prometheus-scrape.yml")
        shutil.copy(os.path.join(EXAMPLES, "prometheus-scrape.yml"), path)
        shutil.copy(os.path.join(lib.ROOT, "prometheus", "tdtrace.rules.yml"), d)
        r = promtool_check(promtool, path)
        if r.returncode and "field kubernetes_sd_configs not found" in r.stdout + r.stderr:
            # Debian's Prometheus is built without Kubernetes discovery: the
            # rest (relabelings, rules) is checked with a static target instead.
            print("this promtool has no kubernetes_sd (Debian's): checked with static_configs")
            del job["kubernetes_sd_configs"]
            job["static_configs"] = [{"targets": ["node:9466"]}]
            with open(path, "w") as f:
                yaml.safe_dump(cfg, f)
            r = promtool_check(promtool, path)
        assert r.returncode == 0, f"promtool check config: {r.stdout}{r.stderr}"


def promtool_check(promtool, path):
    return subprocess.run([promtool, "check", "config", path], capture_output=True, text=True,
                          timeout=60)


def t_kubectl(objs):
    kubectl = shutil.which("kubectl")
    if not kubectl:
        print("kubectl is not installed (Debian: kubernetes-client): not read by it")
        return
    # No cluster: an empty kubeconfig, so that nothing is asked of any server.
    env = dict(os.environ, KUBECONFIG=os.devnull)
    r = subprocess.run([kubectl, "label", "--local", "-o", "name", "-f", lib.MANIFESTS,
                        "checked=yes"], capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 0, f"kubectl: {r.stderr}"
    names = r.stdout.split()
    want = [o["kind"].lower() + (".apps" if o["apiVersion"].startswith("apps/") else "")
            + "/" + o["metadata"]["name"] for o in objs]
    assert names == want, f"kubectl read {names}, expected {want}"
    print(f"kubectl (offline, no schema validation without a server) read: {' '.join(names)}")


TESTS = [t_parse, t_not_privileged, t_capabilities, t_host_mounts, t_probes, t_resources,
         t_tolerations, t_ports_agree, t_scrape_config, t_kubectl]


def main():
    try:
        import yaml  # noqa: F401
    except ImportError:
        return lib.skip_all("test_manifests", "python3-yaml is not installed")
    objs = lib.objects()
    passed, failed = lib.run_tests([(t.__name__[2:], t) for t in TESTS], objs)
    return lib.report(passed, failed)


if __name__ == "__main__":
    sys.exit(main())
