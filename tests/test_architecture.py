"""The house rules of docs/architecture.md that keep the package simple, checked on every file.

- No import cycle between modules of ``nx_gpumine``: every import counts, those inside
  functions too (``from .x import y`` where ``y`` is a module counts as importing that module).
- No module over :data:`MAX_LINES` lines.
- No Python function (methods, lambdas and nested functions included) and no CUDA kernel with
  more than :data:`MAX_PARAMS` parameters: engines take a few named tuples / structs instead
  (``engines/cuda/kernel_args.py``).

Private names crossing packages are ``tests/test_layers.py``'s check.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "nx_gpumine"
MAX_LINES = 900
MAX_PARAMS = 20
KERNEL = re.compile(
    r"__global__\s+void\s+(?:__launch_bounds__\s*\([^)]*\)\s*|[A-Z_][A-Z0-9_]*\s+)?"
    r"(?P<name>\w+)\s*\((?P<params>[^)]*)\)",
    re.S,
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PKG.rglob("*.py"))}


def _imports(module: str, modules: dict[str, Path]) -> set[str]:
    """The ``nx_gpumine`` modules ``module`` imports, at any level of its code."""
    path = modules[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.add(sub if sub in modules else target)
    return {m for m in out if m in modules and m != module}


def import_cycles(modules: dict[str, Path] = MODULES) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    graph = {m: _imports(m, modules) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return cycles


def _parameter_count(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> int:
    a = node.args
    return (
        len(a.posonlyargs)
        + len(a.args)
        + len(a.kwonlyargs)
        + (a.vararg is not None)
        + (a.kwarg is not None)
    )


def test_no_import_cycle():
    assert import_cycles() == []


def test_an_import_cycle_is_found(tmp_path):
    """The checker itself: two modules importing each other inside functions form a cycle."""
    pkg = tmp_path / "nx_gpumine"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from . import b\n")
    (pkg / "b.py").write_text("def g():\n    from .a import f\n")
    (pkg / "c.py").write_text("from .a import f\n")
    modules = {"nx_gpumine": pkg / "__init__.py"}
    modules.update({f"nx_gpumine.{m}": pkg / f"{m}.py" for m in "abc"})
    assert import_cycles(modules) == [["nx_gpumine.a", "nx_gpumine.b"]]


def test_no_long_module():
    long = {
        str(p.relative_to(ROOT)): n
        for p in PKG.rglob("*.py")
        if (n := len(p.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}


def test_no_function_with_many_parameters():
    wide = []
    for path in sorted(PKG.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                n = _parameter_count(node)
                if n > MAX_PARAMS:
                    name = getattr(node, "name", "<lambda>")
                    wide.append(f"{path.relative_to(ROOT)}:{node.lineno} {name} ({n})")
    assert wide == []


def kernel_parameters() -> dict[str, int]:
    """``{"file:kernel": number of parameters}`` of every ``__global__`` function."""
    out = {}
    for path in sorted((PKG / "engines" / "cuda" / "kernels").glob("*.cu*")):
        for m in KERNEL.finditer(path.read_text()):
            params = [p for p in m.group("params").split(",") if p.strip()]
            out[f"{path.name}:{m.group('name')}"] = len(params)
    return out


def test_no_kernel_with_many_parameters():
    kernels = kernel_parameters()
    assert len(kernels) >= 10, kernels  # the pattern finds the kernels (today 15 and more)
    assert {k: n for k, n in kernels.items() if n > MAX_PARAMS} == {}
