"""NetworkX's own tests, run with the ``gpumine`` backend switched on.

NetworkX's ``conftest.py`` reads ``NETWORKX_TEST_BACKEND`` (every dispatchable call is converted
to the backend and run there when ``can_run`` allows it) and ``NETWORKX_FALLBACK_TO_NX`` (calls
the backend cannot serve run in NetworkX instead of being marked xfail). The suite runs in a
subprocess from a neutral directory so that NetworkX's conftest is the one loaded; a small plugin
counts the calls the backend really served, so a run where everything fell back cannot pass.

Same as (about 30 s on 2 cores)::

    cd /tmp && NETWORKX_TEST_BACKEND=gpumine NETWORKX_FALLBACK_TO_NX=True \\
        python -m pytest -q -p no:cacheprovider --pyargs networkx.algorithms.isomorphism
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

PLUGIN = textwrap.dedent(
    """
    import collections, json, os

    counts = collections.Counter()

    def pytest_configure(config):
        from nx_gpumine.interfaces import backend as b
        for name in list(b._SIGNATURES):
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


def _run_suite(tmp_path, packages: list[str]) -> tuple[subprocess.CompletedProcess, dict]:
    (tmp_path / "gpumine_suite_plugin.py").write_text(PLUGIN)
    counts = tmp_path / "counts.json"
    env = dict(os.environ)
    env.update(
        NETWORKX_TEST_BACKEND="gpumine",
        NETWORKX_FALLBACK_TO_NX="True",
        GPUMINE_SUITE_COUNTS=str(counts),
        PYTHONPATH=os.pathsep.join(filter(None, [str(tmp_path), env.get("PYTHONPATH")])),
    )
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p"]
    cmd += ["gpumine_suite_plugin", "-W", "ignore", "--pyargs", *packages]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=1200)
    served = json.loads(counts.read_text()) if counts.exists() else {}
    return proc, served


def test_networkx_isomorphism_suite_with_backend(tmp_path):
    proc, served = _run_suite(tmp_path, ["networkx.algorithms.isomorphism"])
    tail = proc.stdout[-3000:] + proc.stderr[-2000:]
    assert proc.returncode == 0, tail
    assert " passed" in proc.stdout and " failed" not in proc.stdout, tail
    # every dispatched function was really served by the engines, not only by fallback
    for name in ("is_isomorphic", "vf2pp_is_isomorphic", "vf2pp_isomorphism"):
        assert served.get(name, 0) >= 10, served
    assert served.get("vf2pp_all_isomorphisms", 0) >= 1, served


@pytest.mark.slow
def test_networkx_generator_suites_with_backend(tmp_path):
    # generator tests use nx.is_isomorphic as their oracle: hundreds of calls on many shapes
    pkgs = ["networkx.generators", "networkx.algorithms.operators", "networkx.algorithms.tree"]
    proc, served = _run_suite(tmp_path, pkgs)
    tail = proc.stdout[-3000:] + proc.stderr[-2000:]
    assert proc.returncode == 0, tail
    assert served.get("is_isomorphic", 0) >= 100, served
