"""The ``networkx.backend_info`` entry point costs ``import networkx`` nothing heavy."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "numba", "scipy", "cupy", "pandas", "pyarrow", "narwhals")


def _entry_point() -> str:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return meta["project"]["entry-points"]["networkx.backend_info"]["gpumine"]


def test_backend_info_target_imports_nothing_heavy():
    # import the pyproject's entry-point target in a fresh interpreter, as `import networkx`
    # does, and read -X importtime: no numpy, no engine, no networkx, no other nx_gpumine module
    module, func = _entry_point().split(":")
    code = f"import {module} as m; info = m.{func}(); assert info['backend_name'] == 'gpumine'"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if "|" in line]
    top = {name.split(".")[0] for name in loaded}
    assert not top & {*HEAVY, "networkx"}, sorted(top & {*HEAVY, "networkx"})
    ours = {name for name in loaded if name.startswith("nx_gpumine")}
    assert ours <= {"nx_gpumine", "nx_gpumine.interfaces", module}, ours


def test_backend_info_matches_the_backend():
    module, func = _entry_point().split(":")
    m = importlib.import_module(module)
    info = getattr(m, func)()
    from nx_gpumine.interfaces import backend

    assert set(info["functions"]) == set(backend.SERVED)
    for name, entry in info["functions"].items():
        assert entry["additional_docs"]
        assert ("engine" in str(entry["additional_parameters"])) != (name in m.NO_ENGINE)
        assert callable(getattr(backend.BackendInterface, name))
    assert info["default_config"]["engine"] in ("auto", "cpu", "cuda")


def test_import_networkx_loads_only_the_metadata_module(tmp_path):
    # `import networkx` with the entry points registered (installed, or this checkout's written
    # by tests/nx_entry_points.py): backend_info is called, and nothing heavy is imported
    from tests.nx_entry_points import entry_point_dir

    entry_point_dir(tmp_path)
    code = (
        "import sys, networkx as nx\n"
        "info = nx.utils.backends.backend_info['gpumine']\n"
        "assert 'is_isomorphic' in info['functions'], info\n"
        "print(sorted(m for m in sys.modules if m.startswith('nx_gpumine')))\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))\n"
    )
    path = os.pathsep.join(filter(None, [str(tmp_path), str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {k: v for k, v in os.environ.items() if not k.startswith("NETWORKX_")}
    env["PYTHONPATH"] = path
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    ours, heavy = proc.stdout.strip().splitlines()[-2:]
    assert eval(ours) == [
        "nx_gpumine",
        "nx_gpumine.interfaces",
        "nx_gpumine.interfaces.backend_info",
    ]
    assert eval(heavy) == []
    # -X importtime lists what `import networkx` imported through import statements
    loaded = {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in proc.stderr.splitlines()}
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))
