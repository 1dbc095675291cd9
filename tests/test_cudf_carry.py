"""benchmarks/cudf_carry.py: split wheels into carry-sized parts and join them back, byte-exact."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def carry():
    spec = importlib.util.spec_from_file_location("cudf_carry", ROOT / "benchmarks/cudf_carry.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fake_wheels(d: Path) -> dict[str, bytes]:
    rng = np.random.default_rng(0)
    sizes = {
        "libcudf_cu13-1.0-py3-none-any.whl": 2_700_000,  # spans three 1 MiB parts
        "cudf_cu13-1.0-py3-none-any.whl": 300_000,
        "nvidia_nvvm-1.0-py3-none-any.whl": 500_000,  # LATE: packed last
        "empty-1.0-py3-none-any.whl": 0,
        "numpy-2.0-cp312-cp312-any.whl": 400_000,  # excluded by default
    }
    d.mkdir()
    data = {}
    for name, size in sizes.items():
        data[name] = rng.integers(0, 256, size, dtype=np.uint8).tobytes()
        (d / name).write_bytes(data[name])
    return data


def test_split_assemble_round_trip(carry, tmp_path):
    data = _fake_wheels(tmp_path / "wheels")
    out = tmp_path / ".cudf"
    folders = carry.split(tmp_path / "wheels", out, part_mib=1.0)
    assert [f.name for f in folders] == [f"p{k}" for k in range(1, len(folders) + 1)]
    for f in folders:
        assert sum(x.stat().st_size for x in f.iterdir()) <= 1 << 20  # manifest included
    order = [
        e["wheel"] for f in folders for e in json.loads((f / "MANIFEST.json").read_text())["files"]
    ]
    assert "numpy-2.0-cp312-cp312-any.whl" not in order
    assert order[-1] == "nvidia_nvvm-1.0-py3-none-any.whl"
    assert order.count("libcudf_cu13-1.0-py3-none-any.whl") >= 3
    report = carry.assemble(out, install=False)
    assert report["missing_parts"] == [] and report["incomplete"] == []
    assert len(report["wheels"]) == 4
    for name in report["wheels"]:
        assert (out / "wheels" / name).read_bytes() == data[name]


def test_assemble_reports_missing_parts(carry, tmp_path):
    _fake_wheels(tmp_path / "wheels")
    out = tmp_path / ".cudf"
    folders = carry.split(tmp_path / "wheels", out, part_mib=1.0)
    shutil.rmtree(folders[1])  # the second part has not been carried yet
    report = carry.assemble(out, install=False)
    assert report["missing_parts"] == [2]
    assert "libcudf_cu13-1.0-py3-none-any.whl" in report["incomplete"]
    assert "libcudf_cu13-1.0-py3-none-any.whl" not in report["wheels"]


def test_checksum_mismatch_is_refused(carry, tmp_path):
    _fake_wheels(tmp_path / "wheels")
    out = tmp_path / ".cudf"
    carry.split(tmp_path / "wheels", out, part_mib=1.0)
    chunk = next(out.glob("p*/libcudf_cu13-1.0-py3-none-any.whl.chunk001"))
    raw = bytearray(chunk.read_bytes())
    raw[0] ^= 0xFF
    chunk.write_bytes(bytes(raw))
    with pytest.raises(SystemExit, match="checksum mismatch"):
        carry.assemble(out, install=False)


def test_plan_parts_bounds(carry):
    parts = carry.plan_parts([("a", 10), ("b", 25), ("c", 5)], 12)
    for p in parts:
        assert sum(length for _, _, length in p) <= 12
    joined = {}
    for p in parts:
        for name, off, length in p:
            joined.setdefault(name, []).append((off, length))
    assert joined["b"] == [(0, 2), (2, 12), (14, 11)]
    with pytest.raises(ValueError):
        carry.plan_parts([("a", 1)], 0)


def test_image_packages_are_not_carried_nor_shadowed(carry, tmp_path, monkeypatch):
    """numba, llvmlite and pandas come from the GPU image: split leaves them out, and parts
    packed before that rule do not install them over the image's versions."""
    d = tmp_path / "wheels"
    d.mkdir()
    for name in ("numba-0.64.0-cp312-cp312-any.whl", "pandas-3.0.6-cp312-cp312-any.whl",
                 "cudf_cu13-1.0-py3-none-any.whl"):  # fmt: skip
        (d / name).write_bytes(b"x" * 1000)
    folders = carry.split(d, tmp_path / "a", part_mib=1.0)
    names = [
        e["wheel"] for f in folders for e in json.loads((f / "MANIFEST.json").read_text())["files"]
    ]
    assert names == ["cudf_cu13-1.0-py3-none-any.whl"]
    # parts of the old layout (nothing excluded): joined, but the image's own are not installed
    carry.split(d, tmp_path / "b", part_mib=1.0, exclude=())
    monkeypatch.setattr(carry, "_installed", lambda dist: dist in ("numba", "pandas"))
    calls = []
    monkeypatch.setattr(carry.subprocess, "run", lambda cmd, check: calls.append(cmd))
    report = carry.assemble(tmp_path / "b")
    assert sorted(report["not_installed"]) == [
        "numba-0.64.0-cp312-cp312-any.whl",
        "pandas-3.0.6-cp312-cp312-any.whl",
    ]
    assert [Path(c).name for c in calls[0] if c.endswith(".whl")] == [
        "cudf_cu13-1.0-py3-none-any.whl"
    ]
    assert carry._distribution("nvidia_cuda_runtime-13.5-py3-none-any.whl") == "nvidia-cuda-runtime"


def test_numpy_patch_applies_once(carry, tmp_path):
    rel, old, new = carry.PATCHES[0]
    target = tmp_path / rel
    target.parent.mkdir(parents=True)
    target.write_text("if numpy_version >= (2, 0):\n" + old + "x = 1\n")
    assert carry.patch_site(tmp_path) == [rel]
    text = target.read_text()
    assert new in text and "x = 1" in text
    compile(text, str(target), "exec")  # still valid Python
    assert carry.patch_site(tmp_path) == []  # already patched: left alone
    assert target.read_text() == text
    assert carry.patch_site(tmp_path / "absent") == []
