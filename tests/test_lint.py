"""The code base stays ruff-clean (lint and format), checked in CI."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _ruff() -> list[str]:
    if shutil.which("ruff"):
        return ["ruff"]
    try:
        import ruff  # noqa: F401
    except ImportError:
        pytest.skip("ruff is not installed (it is in the 'dev' extra: pip install -e '.[dev]')")
    return [sys.executable, "-m", "ruff"]


@pytest.mark.parametrize("args", [["check"], ["format", "--check"]], ids=["check", "format"])
def test_ruff_clean(args):
    paths = [str(ROOT / p) for p in ("nx_gpumine", "tests", "benchmarks", "conftest.py")]
    proc = subprocess.run([*_ruff(), *args, *paths], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
