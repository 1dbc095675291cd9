"""Layering: data flows down only, and no private name crosses from one package to another.

- The packages below ``interfaces`` never import it.
- A name starting with ``_`` (dunders aside) is private to the package that defines it
  (``nx_gpumine.inputs``, ``nx_gpumine.engines.cuda``, ...; the top-level modules form the
  package ``nx_gpumine``). Every module of the library is parsed with :mod:`ast` and checked for
  ``from <module> import _name`` (relative or absolute) where ``<module>`` lies in another
  package (a private submodule, ``from ..engines.cuda import _runtime``, counts too),
  ``import nx_gpumine.<...>._name``, and ``name._private`` where ``name`` was imported from
  another package (a module's or a class's private attribute used from outside). The same goes
  for objects that reach a module as values (a function's parameter, an attribute, a call's
  result): ``obj._name``, ``getattr(obj, "_name")`` or ``state["_name"]`` anywhere outside
  the package whose classes define ``_name`` (in a class body, or set on ``self`` / ``cls``)
  is flagged, e.g. ``graph._device_cache`` in ``engines/`` (``StaticGraph``'s field, an
  ``inputs/`` name). Types are not inferred: a name is taken for the attribute of the package
  that defines it, and a name some class of the reading package defines too is not flagged.
  Justified exceptions are listed in ``ATTRIBUTE_EXCEPTIONS`` with their reason. What other
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


# ====================================================================== private attributes
#: ``(file, attribute) -> reason`` for each private attribute another package may still read
#: (none today: the graph's caches are reached through GraphBase's public methods).
ATTRIBUTE_EXCEPTIONS: dict[tuple[str, str], str] = {}

_SELF = ("self", "cls")


def _class_attribute_names(tree: ast.Module) -> set[str]:
    """Private attribute names a module's classes define: the names bound in a class body
    (fields, class attributes, methods, nested classes) and the attributes set on ``self`` /
    ``cls`` (``self._x = ...``, ``object.__setattr__(self, "_x", v)``,
    ``self.__dict__["_x"] = v``)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    out.add(item.name)
                elif isinstance(item, ast.Assign):
                    out.update(t.id for t in item.targets if isinstance(t, ast.Name))
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    out.add(item.target.id)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                for sub in ast.walk(t):
                    if isinstance(sub, ast.Attribute) and _on_self(sub.value):
                        out.add(sub.attr)
                    elif isinstance(sub, ast.Subscript) and _is_self_dict(sub.value):
                        out.update(_str_const(sub.slice))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("__setattr__", "__setitem__") and len(node.args) >= 2:
                obj = node.func.value
                holder = node.args[0] if node.func.attr == "__setattr__" else obj
                if _on_self(holder) or _is_self_dict(holder):
                    out.update(_str_const(node.args[1 if node.func.attr == "__setattr__" else 0]))
    return {n for n in out if _private(n)}


def _on_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in _SELF


def _is_self_dict(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "__dict__" and _on_self(node.value)


def _str_const(node: ast.expr) -> list[str]:
    return [node.value] if isinstance(node, ast.Constant) and isinstance(node.value, str) else []


def attribute_owners(root: Path | None = None) -> dict[str, set[str]]:
    """Package -> the private attribute names its classes define (every module under
    ``root``, by default the library)."""
    owners: dict[str, set[str]] = {}
    for path in sorted((root or PKG).rglob("*.py")):
        package = _package_of_module(_module_name(path))
        tree = ast.parse(path.read_text())
        owners.setdefault(package, set()).update(_class_attribute_names(tree))
    return owners


def attribute_violations(
    path: Path, owners: dict[str, set[str]]
) -> list[tuple[str, str, int, str]]:
    """``(file, private name, line, what)`` for each private attribute of another package's
    classes that ``path`` reads or writes on an object (``obj._name``) or names as a string
    (``getattr(obj, "_name")``, ``state["_name"]``). Chains starting at an imported name are
    :func:`violations`' (not repeated here); f-string pieces are not names."""
    rel = path.relative_to(ROOT).as_posix()
    package = _package_of_module(_module_name(path))
    mine = owners.get(package, set())
    foreign = {
        name: owner
        for owner, names in owners.items()
        if owner != package
        for name in names
        if name not in mine
    }
    tree = ast.parse(path.read_text(), filename=rel)
    imported = set()
    in_fstring = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom | ast.Import):
            imported.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.JoinedStr):
            in_fstring.update(id(v) for v in node.values)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in foreign:
            chain = _dotted(node.value)
            if chain is not None and chain[0] in imported:
                continue
            what = f"attribute of {ast.unparse(node.value)} ({foreign[node.attr]})"
            found.append((rel, node.attr, node.lineno, what))
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value in foreign
            and id(node) not in in_fstring
        ):
            found.append((rel, node.value, node.lineno, f"string ({foreign[node.value]})"))
    return sorted(found, key=lambda v: v[2])


def test_attribute_checker_sees_each_form(tmp_path, monkeypatch):
    """Private attributes of another package's classes, read on parameters and other values."""
    fake = tmp_path / "nx_gpumine"
    for pkg in ("", "inputs", "engines", "engines/cuda"):
        (fake / pkg).mkdir(parents=True, exist_ok=True)
        (fake / pkg / "__init__.py").write_text("")
    (fake / "inputs" / "graph.py").write_text(
        "class Graph:\n"
        "    _cache: dict\n"
        "    def _helper(self):\n"
        "        self._seen = 1\n"
        "        object.__setattr__(self, '_frozen', 2)\n"
        "        return self._cache\n"  # its own package: fine
        "def build(g):\n"
        "    return g._seen\n"  # same package, another object: fine
    )
    (fake / "engines" / "cuda" / "temporal.py").write_text(
        "from ...inputs.graph import Graph\n"
        "class Mine:\n"
        "    def __init__(self):\n"
        "        self._own = 0\n"
        "def run(graph, mine):\n"
        "    a = graph._cache\n"
        "    b = getattr(graph, '_frozen')\n"
        "    graph.__dict__['_seen'] = mine._own\n"  # _own: this package's attribute
        "    c = f'{a}_cache'\n"  # an f-string piece is not a name
        "    d = Graph._helper\n"  # an imported name: the import rule's
        "    return graph.peek()._cache, c, d\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    owners = attribute_owners(fake)
    assert owners["nx_gpumine.inputs"] == {"_cache", "_helper", "_seen", "_frozen"}
    assert owners["nx_gpumine.engines.cuda"] == {"_own"}
    got = attribute_violations(fake / "engines" / "cuda" / "temporal.py", owners)
    assert [(name, line) for _, name, line, _ in got] == [
        ("_cache", 6),
        ("_frozen", 7),
        ("_seen", 8),
        ("_cache", 11),
    ]
    assert attribute_violations(fake / "inputs" / "graph.py", owners) == []
    assert [g[1] for g in violations(fake / "engines" / "cuda" / "temporal.py")] == ["_helper"]


def test_no_private_attribute_read_across_packages():
    owners = attribute_owners()
    found = [v for p in sorted(PKG.rglob("*.py")) for v in attribute_violations(p, owners)]
    bad = [v for v in found if (v[0], v[1]) not in ATTRIBUTE_EXCEPTIONS]
    assert not bad, "private attributes of another package's classes:\n" + "\n".join(
        f"  {f}:{line}: {name} ({what})" for f, name, line, what in bad
    )
    stale = set(ATTRIBUTE_EXCEPTIONS) - {(v[0], v[1]) for v in found}
    assert not stale, f"exceptions no longer needed: {sorted(stale)}"


def test_graph_caches_stay_in_inputs():
    """The graph's private caches are read and written by inputs/ only (GraphBase's methods)."""
    fields = ("_device_cache", "_derived", "_key_to_id")
    bad = []
    for path in sorted(PKG.rglob("*.py")):
        if path.parent.name == "inputs":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute):
                name = node.attr
            elif isinstance(node, ast.Constant):
                name = node.value
            else:
                continue
            if name in fields:
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    assert not bad, "\n".join(bad)


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
