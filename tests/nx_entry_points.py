"""Register this checkout's NetworkX entry points for a subprocess, when it is not installed.

``pip install -e .`` (CI) registers ``networkx.backends`` / ``networkx.backend_info`` from
``pyproject.toml``. A checkout run through ``PYTHONPATH`` (a developer's worktree, another
checkout's editable install) has none, or another checkout's: :func:`entry_point_dir` writes a
minimal ``*.dist-info`` with this checkout's entry points into a folder that goes first on the
subprocess's ``PYTHONPATH``, so ``importlib.metadata`` (and so NetworkX) finds them.
"""

from __future__ import annotations

import tomllib
from importlib.metadata import entry_points
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GROUPS = ("networkx.backends", "networkx.backend_info")


def pyproject_entry_points() -> dict[str, dict[str, str]]:
    """``{group: {name: target}}`` of the NetworkX groups in this checkout's pyproject."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {g: dict(meta["project"]["entry-points"][g]) for g in GROUPS}


def registered() -> bool:
    """Whether the installed metadata already names this checkout's entry points."""
    want = pyproject_entry_points()
    for group, items in want.items():
        have = {ep.name: ep.value for ep in entry_points(group=group)}
        if any(have.get(name) != target for name, target in items.items()):
            return False
    return True


def entry_point_dir(folder: Path) -> Path:
    """Write ``nx_gpumine_checkout-0.dist-info`` under ``folder`` unless already registered.

    Returns
    -------
    pathlib.Path
        ``folder`` (to put first on ``PYTHONPATH``; empty when nothing was needed).
    """
    folder.mkdir(parents=True, exist_ok=True)
    if registered():
        return folder
    info = folder / "nx_gpumine_checkout-0.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: nx-gpumine-checkout\nVersion: 0\n")
    lines = []
    for group, items in pyproject_entry_points().items():
        lines.append(f"[{group}]")
        lines.extend(f"{name} = {target}" for name, target in items.items())
        lines.append("")
    (info / "entry_points.txt").write_text("\n".join(lines))
    return folder
