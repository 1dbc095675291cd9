"""NetworkX's own tests, run with the ``gpumine`` backend switched on.

NetworkX's ``conftest.py`` reads ``NETWORKX_TEST_BACKEND`` (every dispatchable call is converted
to the backend and run there when ``can_run`` allows it) and ``NETWORKX_FALLBACK_TO_NX`` (calls
the backend cannot serve run in NetworkX instead of being marked xfail). The isomorphism suite
runs **without** fallback: a call the backend refuses marks its test xfail, and the only xfails
allowed are functions outside the backend's scope (:data:`OUT_OF_SCOPE`: tree isomorphism, graph
editing helpers the tests call, the ``could_be_isomorphic`` invariant family). The suite runs in a
subprocess from a neutral directory so that NetworkX's conftest is the one loaded; a small plugin
counts the calls the backend really served.

Same as (about 30 s on 2 cores)::

    cd /tmp && NETWORKX_TEST_BACKEND=gpumine \\
        python -m pytest -q -rx -p no:cacheprovider --pyargs networkx.algorithms.isomorphism

CI runs the isomorphism package without fallback, the clustering module, and VF2++'s test module
with fallback (about 50 s); ``NX_GPUMINE_FULL_NX_SUITE=1`` adds the whole isomorphism package
with fallback and the generator suites (about 90 s more). A checkout that is not installed gets
its entry points from :mod:`tests.nx_entry_points`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap

import pytest

from tests.nx_entry_points import entry_point_dir

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PLUGIN = textwrap.dedent(
    """
    import collections, json, os

    counts = collections.Counter()

    def pytest_configure(config):
        from nx_gpumine.interfaces import backend as b
        for name in b.SERVED:
            impl = getattr(b.BackendInterface, name)
            def wrapper(*a, _impl=impl, _name=name, **k):
                counts[_name] += 1
                return _impl(*a, **k)
            setattr(b.BackendInterface, name, staticmethod(wrapper))

    def pytest_sessionfinish(session, exitstatus):
        with open(os.environ["GPUMINE_SUITE_COUNTS"], "w") as f:
            json.dump(dict(counts), f)
    """
)


#: Also run the slow parts (the whole isomorphism package with fallback, the generator suites).
FULL = os.environ.get("NX_GPUMINE_FULL_NX_SUITE", "") not in ("", "0")

#: Dispatchables the isomorphism tests call that the backend does not serve, each for a reason
#: given in docs/backend.md: tree isomorphism (rooted-tree canonical forms, a different
#: algorithm from graph matching), ``relabel_nodes`` (a graph-editing helper returning a new
#: graph) and ``bfs_layers`` (a traversal, called only by the tests of VF2++'s private
#: ``_matching_order`` helper, which runs in NetworkX on NetworkX graphs).
OUT_OF_SCOPE = {
    "relabel_nodes",
    "tree_isomorphism",
    "rooted_tree_isomorphism",
    "bfs_layers",
}


def _run_suite(
    tmp_path, packages: list[str], fallback: bool = True, extra_env: dict | None = None
) -> tuple[subprocess.CompletedProcess, dict]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "gpumine_suite_plugin.py").write_text(PLUGIN)
    entry_point_dir(tmp_path)  # this checkout's entry points, when it is not installed
    counts = tmp_path / "counts.json"
    env = dict(os.environ)
    env.pop("NETWORKX_FALLBACK_TO_NX", None)
    if fallback:
        env["NETWORKX_FALLBACK_TO_NX"] = "True"
    env.update(
        NETWORKX_TEST_BACKEND="gpumine",
        GPUMINE_SUITE_COUNTS=str(counts),
        # this checkout's package first (an editable install may point at another checkout)
        PYTHONPATH=os.pathsep.join(filter(None, [str(tmp_path), ROOT, env.get("PYTHONPATH")])),
    )
    env.update(extra_env or {})
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p"]
    cmd += ["gpumine_suite_plugin", "-W", "ignore", "-rx", "--pyargs", *packages]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=1200)
    served = json.loads(counts.read_text()) if counts.exists() else {}
    return proc, served


def _check_isomorphism_suite(proc: subprocess.CompletedProcess, served: dict) -> None:
    tail = proc.stdout[-3000:] + proc.stderr[-2000:]
    assert proc.returncode == 0, tail
    assert " passed" in proc.stdout and " failed" not in proc.stdout, tail
    # every xfail names a function outside the backend's scope
    reasons = re.findall(r"^XFAIL .* - '(\w+)' not implemented by gpumine(.*)$", proc.stdout, re.M)
    xfails = [line for line in proc.stdout.splitlines() if line.startswith("XFAIL")]
    assert len(reasons) == len(xfails), xfails
    assert {name for name, _ in reasons} <= OUT_OF_SCOPE, reasons
    # every dispatched function was really served by the engines
    for name in ("is_isomorphic", "vf2pp_is_isomorphic", "vf2pp_isomorphism"):
        assert served.get(name, 0) >= 10, served
    for name in ("could_be_isomorphic", "fast_could_be_isomorphic", "faster_could_be_isomorphic"):
        assert served.get(name, 0) >= 3, served
    assert served.get("set_node_attributes", 0) >= 6, served
    assert served.get("get_node_attributes", 0) >= 1, served
    # (NetworkX 3.6's vf2pp_all_isomorphisms tests first call relabel_nodes: xfail without
    # fallback; the fallback run below reaches it)
    print(proc.stdout.splitlines()[-1], json.dumps(served, sort_keys=True))


def test_networkx_isomorphism_suite_with_backend(tmp_path):
    proc, served = _run_suite(tmp_path, ["networkx.algorithms.isomorphism"], fallback=False)
    _check_isomorphism_suite(proc, served)


@pytest.mark.gpu
def test_networkx_suites_on_cuda(tmp_path):
    # the same suites with nx.config.backends.gpumine.engine = "cuda": refinement with CuPy,
    # counts with cuSPARSE; no failures, the same out-of-scope xfails
    pytest.importorskip("cupy")
    cuda = {"NX_GPUMINE_ENGINE": "cuda"}
    proc, served = _run_suite(tmp_path / "iso", ["networkx.algorithms.isomorphism"], False, cuda)
    _check_isomorphism_suite(proc, served)
    pkgs = ["networkx.algorithms.tests.test_cluster"]
    proc, served = _run_suite(tmp_path / "cluster", pkgs, False, cuda)
    _check_cluster_suite(proc, served)


def test_networkx_isomorphism_suite_with_fallback(tmp_path):
    # with fallback the editing helpers run in NetworkX, so the tests reach every function;
    # CI runs VF2++'s test module (the one calling vf2pp_all_isomorphisms after relabel_nodes),
    # NX_GPUMINE_FULL_NX_SUITE=1 the whole package
    pkg = "networkx.algorithms.isomorphism"
    proc, served = _run_suite(tmp_path, [pkg if FULL else f"{pkg}.tests.test_vf2pp"], True)
    tail = proc.stdout[-3000:] + proc.stderr[-2000:]
    assert proc.returncode == 0, tail
    assert " failed" not in proc.stdout, tail
    for name in ("vf2pp_is_isomorphic", "vf2pp_isomorphism"):
        assert served.get(name, 0) >= 10, served
    assert served.get("vf2pp_all_isomorphisms", 0) >= 3, served
    if FULL:
        assert served.get("is_isomorphic", 0) >= 10, served


def test_networkx_cluster_suite_with_backend(tmp_path):
    # triangles, transitivity, (average_)clustering, square_clustering: no fallback; only
    # weighted calls and functions the backend does not serve may xfail
    proc, served = _run_suite(tmp_path, ["networkx.algorithms.tests.test_cluster"], fallback=False)
    _check_cluster_suite(proc, served)


def _check_cluster_suite(proc: subprocess.CompletedProcess, served: dict) -> None:
    tail = proc.stdout[-3000:] + proc.stderr[-2000:]
    assert proc.returncode == 0, tail
    assert " failed" not in proc.stdout, tail
    reasons = re.findall(r"^XFAIL .* - '(\w+)' not implemented by gpumine(.*)$", proc.stdout, re.M)
    for name, rest in reasons:
        weighted = name in ("clustering", "average_clustering") and "given arguments" in rest
        assert weighted or name in ("all_triangles", "generalized_degree"), (name, rest)
    for name in ("triangles", "transitivity", "clustering", "average_clustering"):
        assert served.get(name, 0) >= 3, served
    assert served.get("square_clustering", 0) >= 5, served
    print(proc.stdout.splitlines()[-1], json.dumps(served, sort_keys=True))


@pytest.mark.slow
@pytest.mark.skipif(not FULL, reason="about a minute: set NX_GPUMINE_FULL_NX_SUITE=1")
def test_networkx_generator_suites_with_backend(tmp_path):
    # generator tests use nx.is_isomorphic as their oracle: hundreds of calls on many shapes
    pkgs = ["networkx.generators", "networkx.algorithms.operators", "networkx.algorithms.tree"]
    proc, served = _run_suite(tmp_path, pkgs)
    tail = proc.stdout[-3000:] + proc.stderr[-2000:]
    assert proc.returncode == 0, tail
    assert served.get("is_isomorphic", 0) >= 100, served
