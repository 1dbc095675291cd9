"""Layering: the packages below ``interfaces`` never import it (data flows down only)."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "nx_gpumine"
LOWER = ("inputs", "plan", "engines", "execution", "results")


def _imported_modules(path: Path) -> set[str]:
    """Absolute dotted names of the ``nx_gpumine`` modules a file imports (lazy ones too)."""
    parts = path.relative_to(PKG.parent).with_suffix("").parts
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = parts[: len(parts) - node.level]
                mod = ".".join((*base, node.module) if node.module else base)
            else:
                mod = node.module or ""
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
    return out


def test_lower_layers_do_not_import_interfaces():
    bad = []
    for layer in LOWER:
        for path in sorted((PKG / layer).rglob("*.py")):
            for mod in _imported_modules(path):
                if mod == "nx_gpumine.interfaces" or mod.startswith("nx_gpumine.interfaces."):
                    bad.append(f"{path.relative_to(PKG.parent)} imports {mod}")
    assert not bad, "\n".join(bad)


def test_backend_graph_dispatches_to_the_backend():
    from nx_gpumine.inputs.backend_graph import GpumineGraph
    from nx_gpumine.inputs.static_graph import StaticGraph
    from nx_gpumine.interfaces.backend_info import BACKEND_NAME

    assert GpumineGraph.__networkx_backend__ == StaticGraph.__networkx_backend__ == BACKEND_NAME
