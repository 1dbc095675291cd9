"""Layering: data flows down only, and no private name crosses from one package to another.

- The packages below ``interfaces`` never import it.
- A name starting with ``_`` (dunders aside) is private to the package that defines it
  (``nx_gpumine.inputs``, ``nx_gpumine.engines.cuda``, ...; the top-level modules form the
  package ``nx_gpumine``). Every module of the library is parsed with :mod:`ast` and checked for
  ``from <module> import _name`` (relative or absolute) where ``<module>`` lies in another
  package (a private submodule, ``from ..engines.cuda import _runtime``, counts too),
  ``import nx_gpumine.<...>._name``, and ``name._private`` where ``name`` was imported from
  another package (a module's or a class's private attribute used from outside). What other
  packages need gets a public, documented name in its defining module (or moves to the layer
  that owns it). Tests and benchmarks may look inside the module they test.
- The CUDA engines import no numba (tables both engines read live in ``plan/``).
"""

from __future__ import annotations

import ast
import subprocess
import sys
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


# ====================================================================== private names
ROOT = Path(__file__).resolve().parents[1]


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _path_of(dotted: str) -> Path:
    return ROOT.joinpath(*dotted.split("."))


def _is_package(dotted: str) -> bool:
    return (_path_of(dotted) / "__init__.py").is_file()


def _is_module(dotted: str) -> bool:
    return _is_package(dotted) or _path_of(dotted).with_suffix(".py").is_file()


def _package_of_module(dotted: str) -> str:
    """The package a module belongs to (a package belongs to itself)."""
    return dotted if _is_package(dotted) else dotted.rpartition(".")[0]


def _owner(dotted: str) -> str:
    """Package owning the object ``dotted`` names (a module, or a name inside one)."""
    parts = dotted.split(".")
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        if _is_module(prefix):
            return _package_of_module(prefix)
    return parts[0]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(node: ast.ImportFrom, package: str) -> str | None:
    """Absolute module name of a ``from ... import`` (None outside ``nx_gpumine``)."""
    if node.level:
        base = package.split(".")
        base = base[: len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    return target if target.split(".")[0] == "nx_gpumine" else None


def _dotted(node: ast.expr) -> list[str] | None:
    """``a.b.c`` as ``["a", "b", "c"]`` (None for anything but names and attributes)."""
    chain = []
    while isinstance(node, ast.Attribute):
        chain.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    chain.append(node.id)
    return chain[::-1]


def violations(path: Path) -> list[tuple[str, str, int, str]]:
    """``(file, private name, line, what)`` for each private name ``path`` takes from another
    package."""
    rel = path.relative_to(ROOT).as_posix()
    module = _module_name(path)
    package = _package_of_module(module)
    tree = ast.parse(path.read_text(), filename=rel)
    found = []
    bound: dict[str, str] = {}  # local name -> dotted object it was imported as
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = _resolve(node, package)
            if target is None:
                continue
            for alias in node.names:
                obj = f"{target}.{alias.name}"
                bound[alias.asname or alias.name] = obj
                if _private(alias.name) and _owner(obj) != package:
                    found.append((rel, alias.name, node.lineno, f"from {target} import"))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] != "nx_gpumine":
                    continue
                bound[alias.asname or parts[0]] = alias.name if alias.asname else parts[0]
                for i, part in enumerate(parts):
                    if _private(part) and _owner(".".join(parts[: i + 1])) != package:
                        found.append((rel, part, node.lineno, f"import {alias.name}"))
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _private(node.attr)):
            continue
        chain = _dotted(node.value)
        if chain is None or chain[0] not in bound:
            continue
        obj = ".".join([bound[chain[0]], *chain[1:], node.attr])
        if _owner(obj) != package:
            found.append((rel, node.attr, node.lineno, f"attribute of {'.'.join(chain)}"))
    return found


def test_owner_rules():
    assert _owner("nx_gpumine.inputs.motifs.as_time_limit") == "nx_gpumine.inputs"
    assert _owner("nx_gpumine.engines.cuda._runtime") == "nx_gpumine.engines.cuda"
    assert _owner("nx_gpumine.engines.cuda") == "nx_gpumine.engines.cuda"
    assert _owner("nx_gpumine.errors.QueryError") == "nx_gpumine"
    assert _package_of_module("nx_gpumine.engines") == "nx_gpumine.engines"


def test_checker_sees_each_form(tmp_path, monkeypatch):
    """The checker flags the forms it promises to (a module planted in a fake tree)."""
    fake = tmp_path / "nx_gpumine"
    for pkg in ("", "inputs", "engines", "engines/cuda"):
        (fake / pkg).mkdir(parents=True, exist_ok=True)
        (fake / pkg / "__init__.py").write_text("")
    (fake / "inputs" / "motifs.py").write_text("_num = 1\nok = 2\n")
    (fake / "engines" / "cuda" / "_runtime.py").write_text("")
    (fake / "engines" / "cuda" / "temporal.py").write_text(
        "from ...inputs.motifs import _num, ok\n"
        "from . import _runtime\n"  # same package: fine
        "from ...inputs import motifs\n"
        "import nx_gpumine.inputs.motifs as m\n"
        "x = motifs._num + m._num + ok\n"
    )
    (fake / "engines" / "cpu.py").write_text("from .cuda import _runtime\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    got = violations(fake / "engines" / "cuda" / "temporal.py")
    assert [(name, line) for _, name, line, _ in got] == [("_num", 1), ("_num", 5), ("_num", 5)]
    assert [g[1] for g in violations(fake / "engines" / "cpu.py")] == ["_runtime"]


def test_no_private_name_crosses_packages():
    bad = [v for p in sorted(PKG.rglob("*.py")) for v in violations(p)]
    assert not bad, "private names used from another package:\n" + "\n".join(
        f"  {f}:{line}: {name} ({what})" for f, name, line, what in bad
    )


def test_cuda_engines_import_no_numba():
    """The CUDA engines share nothing with the numba CPU engines (shared tables live in plan/)."""
    code = (
        "import sys\n"
        "import nx_gpumine.engines.cuda.static, nx_gpumine.engines.cuda.temporal\n"
        "print('numba' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"
