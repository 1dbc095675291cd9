"""What a new user trips on (issue 37): undeclared dependencies, extras, and the command line's
options, errors, exit status and JSON."""

from __future__ import annotations

import ast
import io
import json
import os
import re
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import numpy as np
import pytest

from nx_gpumine.interfaces import cli

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "nx_gpumine"

#: third-party modules imported only on request, and the extra (or reason) that covers each
OPTIONAL_IMPORTS = {
    "cupy": "cuda",  # GPU engines
    "cupyx": "cuda",
    "dask": "dask",
    "distributed": "dask",
    "matplotlib": "plot",
    "tqdm": "progress",
    # imported only to handle an object the user passed in (a cuDF or polars frame, a notebook)
    "cudf": None,
    "polars": None,
    "IPython": None,
}


#: third-party modules whose distribution (the requirement's name) is named otherwise
DISTRIBUTIONS = {"yaml": "pyyaml"}


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _requirement_name(req: str) -> str:
    name = re.match(r"[A-Za-z0-9_.-]+", req.strip()).group(0)
    return re.sub(r"[-_.]+", "-", name).lower()


def _third_party_imports() -> dict[str, bool]:
    """Top-level names of the third-party modules the package imports -> whether some import
    runs when its module is imported (not only inside a function)."""
    found: dict[str, bool] = {}

    class Visitor(ast.NodeVisitor):
        def __init__(self) -> None:
            self.depth = 0

        def visit_FunctionDef(self, node: ast.AST) -> None:
            self.depth += 1
            self.generic_visit(node)
            self.depth -= 1

        visit_AsyncFunctionDef = visit_FunctionDef

        def add(self, module: str) -> None:
            top = module.split(".")[0]
            if top in sys.stdlib_module_names or top in ("nx_gpumine", "__future__"):
                return
            found[top] = found.get(top, False) or self.depth == 0

        def visit_Import(self, node: ast.Import) -> None:
            for alias in node.names:
                self.add(alias.name)

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            if node.level == 0 and node.module:
                self.add(node.module)

    for path in PACKAGE.rglob("*.py"):
        Visitor().visit(ast.parse(path.read_text(), str(path)))
    return found


def test_dependencies_cover_every_import():
    """A module the package imports is a core dependency unless it is only imported on request
    (then an extra names it): ``pandas`` was used by ``find_motifs`` / ``as_frame="pandas"`` /
    ``temporal --find`` but not declared."""
    project = _pyproject()["project"]
    core = {_requirement_name(r) for r in project["dependencies"]}
    extras = {
        k: {_requirement_name(r) for r in v} for k, v in project["optional-dependencies"].items()
    }
    imports = _third_party_imports()
    assert {"numpy", "networkx", "numba", "pandas", "pyarrow", "narwhals"} <= set(imports)
    for module, at_import in sorted(imports.items()):
        if module in OPTIONAL_IMPORTS and not at_import:
            extra = OPTIONAL_IMPORTS[module]
            if extra is not None:
                assert extra in extras, (module, extra)
            continue
        dist = _requirement_name(DISTRIBUTIONS.get(module, module))
        assert dist in core, f"{module} is imported but not a dependency"


def test_default_result_frame_library_is_a_dependency():
    """``find_motifs`` on a graph that is not a frame returns pandas: a core dependency."""
    from nx_gpumine.inputs.temporal_graph import temporal_from_arrays
    from nx_gpumine.interfaces.temporal_functions import find_motifs

    g = temporal_from_arrays([0, 1, 2], [1, 2, 0], np.arange(3, dtype=np.int64))
    frame = find_motifs(g, "triangle", delta=5, engine="cpu")
    assert len(frame) == 1
    library = type(frame).__module__.split(".")[0]
    core = {_requirement_name(r) for r in _pyproject()["project"]["dependencies"]}
    assert library in core


def test_cuda_extras_for_cuda_12_and_13():
    extras = _pyproject()["project"]["optional-dependencies"]
    assert [_requirement_name(r) for r in extras["cuda"]] == ["cupy-cuda13x"]
    assert [_requirement_name(r) for r in extras["cuda12"]] == ["cupy-cuda12x"]
    readme = (ROOT / "README.md").read_text()
    assert ".[cuda]" in readme and ".[cuda12]" in readme


def test_test_extra_runs_the_tests_and_dev_adds_lint_and_docs():
    """``test``: what the suite needs to run (no linter, no docs tools: their tests skip);
    ``dev``: ``test`` + ``docs`` + ruff, what the README's test command and CI install."""
    project = _pyproject()["project"]
    extras = project["optional-dependencies"]
    names = {k: {_requirement_name(r) for r in v} for k, v in extras.items()}
    assert {"cuda", "cuda12", "progress", "dask", "plot", "docs", "test", "dev"} == set(extras)
    assert not names["test"] & {"ruff", "mkdocs", "mkdocs-material", "mkdocstrings"}
    needed = {"pytest", "hypothesis", "pytest-benchmark", "tqdm", "igraph", "pandas", "polars"}
    needed |= {"pyarrow", "scipy", "matplotlib", "dask", "pyyaml"}
    assert needed <= names["test"], needed - names["test"]
    assert "dataframe" in next(r for r in extras["test"] if r.startswith("dask["))
    assert "pyyaml" in {_requirement_name(r) for r in project["dependencies"]}
    own = [re.fullmatch(r"nx-gpumine\[([a-z0-9,\s]+)\]", r) for r in extras["dev"]]
    assert sum(m is not None for m in own) == 1
    assert {e.strip() for m in own if m for e in m.group(1).split(",")} == {"test", "docs"}
    assert names["dev"] - {"nx-gpumine"} == {"ruff"}
    # the README's test command and CI install dev; the README names every extra
    readme = (ROOT / "README.md").read_text()
    quickstart = readme[readme.index("## Quickstart") : readme.index("## API tour")]
    commands = re.findall(r"^```bash\n(.*?)\n```", quickstart, re.MULTILINE | re.DOTALL)
    assert commands == [
        "python3 -m pip install -e . && python3 -m nx_gpumine demo",
        "python3 -m pip install -e '.[dev]' && python3 -m pytest -q -n auto --dist loadfile",
    ]
    ci = (ROOT / ".ci" / "run").read_text()
    assert (
        "python3 -m pip install -q -e '.[dev]' && python3 -m pytest -q -n auto --dist loadfile"
        in ci
    )
    for extra in extras:
        assert f"| `{extra}` |" in quickstart, extra


def _run(argv: list[str]) -> tuple[int, str]:
    buf = io.StringIO()
    return cli.main(argv, out=buf), buf.getvalue()


def _temporal_file(tmp_path: Path) -> Path:
    path = tmp_path / "messages.csv"
    path.write_text("src,dst,time\n1,2,10\n2,3,20\n3,1,30\n3,1,5000\n")
    return path


def test_temporal_needs_delta(tmp_path, capsys):
    """No silent 'no window': the error names the option and ``--delta none``, before reading."""
    path = _temporal_file(tmp_path)
    t0 = time.perf_counter()
    rc, _ = _run(["temporal", "collegemsg", "--motif", "M4"])
    err = capsys.readouterr().err
    assert rc == 2 and "--delta D" in err and "--delta none" in err, err
    assert len(err.strip().splitlines()) == 1 and time.perf_counter() - t0 < 5
    rc, out = _run(["temporal", str(path), "--motif", "triangle", "--delta", "none"])
    assert rc == 0, capsys.readouterr().err
    rc, out = _run(["temporal", str(path), "--motif", "triangle", "--delta", "100"])
    assert rc == 0


def test_delta_help_says_the_same_for_temporal_and_census():
    parser = cli.build_parser()
    subs = parser._subparsers._group_actions[0]
    helps = {}
    for name in ("temporal", "census"):
        (delta,) = [a for a in subs.choices[name]._actions if "--delta" in a.option_strings]
        helps[name] = delta.help
    assert all(h.startswith(cli.DELTA_HELP) for h in helps.values())
    assert "required" in helps["temporal"] and "default 3600" in helps["census"]


def test_every_offered_graph_option_parses():
    """``demo --dataset X`` crashed with an AttributeError: an option a command offers works,
    and a command without a graph does not offer one (argparse's usage error, exit 2)."""
    parser = cli.build_parser()
    subs = parser._subparsers._group_actions[0]
    for name, sub in subs.choices.items():
        offered = any("--dataset" in a.option_strings for a in sub._actions)
        try:
            required = {"count": ["triangle"], "fsm": ["--min-support", "2"]}
            argv = [name, "--dataset", "collegemsg", *required.get(name, [])]
            args = cli._parse(parser, argv)
        except SystemExit as exc:
            assert exc.code == 2 and not offered, name
        else:
            assert offered and args.graph == "collegemsg", name
    with pytest.raises(SystemExit) as exc:
        cli._parse(parser, ["demo", "--dataset", "facebook"])
    assert exc.value.code == 2


def test_output_file_checked_before_the_work(tmp_path, monkeypatch, capsys):
    def no_work(*args, **kwargs):
        raise AssertionError("the work ran before -o was checked")

    monkeypatch.setattr(cli, "count_command", no_work)
    missing = tmp_path / "no_such_dir" / "out.json"
    rc, _ = _run(["count", "facebook", "triangle", "-o", str(missing)])
    err = capsys.readouterr().err
    assert rc == 2 and "-o" in err and "no such directory" in err, err
    rc, _ = _run(["count", "facebook", "triangle", "-o", str(tmp_path)])
    err = capsys.readouterr().err
    assert rc == 2 and "is a directory" in err, err
    monkeypatch.setattr(cli, "cmd_census", no_work)
    rc, _ = _run(["census", "collegemsg", "--plot", str(missing)])
    err = capsys.readouterr().err
    assert rc == 2 and "--plot" in err, err


def test_json_delta_is_a_number(tmp_path):
    path = _temporal_file(tmp_path)
    cases = [(["--delta", "100"], 100), (["--delta", "none"], None), (["--delta", "2.5"], 2.5)]
    for opts, want in cases:
        rc, out = _run(["temporal", str(path), "--motif", "triangle", *opts, "--format", "json"])
        assert rc == 0 and json.loads(out)["delta"] == want, out
    rc, out = _run(["census", str(path), "--format", "json"])  # the default window
    assert rc == 0 and json.loads(out)["delta"] == 3600
    iso = tmp_path / "iso.csv"
    iso.write_text("a,b,when\n1,2,2024-01-01T10:00:00\n2,3,2024-01-01T10:30:00\n")
    rc, out = _run(["temporal", str(iso), "--time", "when", "--motif", "path2", "--delta", "90min",
                    "--format", "json"])  # fmt: skip
    assert rc == 0 and json.loads(out)["delta"] == 5400, out
    rc, out = _run(["census", str(iso), "--time", "when", "--delta", "1500ms", "--format", "json"])
    assert rc == 0 and json.loads(out)["delta"] == 1.5, out


class _ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_closed_output_pipe_exits_quietly(tmp_path, capsys):
    path = _temporal_file(tmp_path)
    rc = cli.main(
        ["temporal", str(path), "--motif", "triangle", "--delta", "100"], out=_ClosedPipe()
    )
    assert rc == cli.EXIT_SIGPIPE == 141
    assert capsys.readouterr().err == ""


def test_piping_into_head_exits_quietly(tmp_path):
    """``nx-gpumine ... | head -1`` as a shell runs it: a real pipe closed after one line."""
    path = tmp_path / "many.txt"
    blocks = np.arange(20_000, dtype=np.int64) * 10
    rows = [f"0 1 {t}\n1 2 {t + 1}\n2 0 {t + 2}\n" for t in blocks]
    path.write_text("".join(rows))
    argv = ["temporal", str(path), "--motif", "triangle", "--delta", "2", "--find", "20000",
            "--format", "csv", "--engine", "cpu", "--no-progress"]  # fmt: skip
    env = dict(os.environ, PYTHONWARNINGS="ignore", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "nx_gpumine", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    first = proc.stdout.readline()
    proc.stdout.close()  # what head does after its lines
    err = proc.stderr.read().decode()
    rc = proc.wait(timeout=300)
    assert first.startswith(b"edge_0"), first
    assert rc == 141 and err == "", (rc, err)


def test_time_column_that_is_also_the_target_is_named(tmp_path, capsys):
    """``--time dst`` on a ``src,dst,time`` file: the error says the column is the target's too
    (it said the column "holds text (None)")."""
    path = _temporal_file(tmp_path)
    rc, _ = _run(["temporal", str(path), "--time", "dst", "--motif", "M4", "--delta", "100"])
    err = capsys.readouterr().err
    assert rc == 2 and "'dst' is also the target column" in err and "None" not in err, err


def test_project_metadata_is_complete():
    """What package indexes show: authors, classifiers, keywords and the SPDX license id."""
    project = _pyproject()["project"]
    assert project["authors"] and project["keywords"]
    assert project["license"] == {"text": "BSD-3-Clause"}
    classifiers = project["classifiers"]
    assert "License :: OSI Approved :: BSD License" in classifiers
    versions = {c.rsplit(" :: ", 1)[1] for c in classifiers if c.startswith("Programming Language")}
    assert project["requires-python"] == ">=3.11" and {"3.11", "3.12"} <= versions
