"""The documentation site builds with ``mkdocs build --strict`` (API reference included)."""

from __future__ import annotations

import ast
import builtins
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mkdocs_build_strict(tmp_path):
    why = "the docs tools are not installed (the 'docs' and 'dev' extras: pip install -e '.[dev]')"
    for module in ("mkdocs", "material", "mkdocstrings"):
        pytest.importorskip(module, reason=why)
    site = tmp_path / "site"
    # no -q: quiet mode drops warnings below the level that --strict counts, so a build with
    # warnings would pass; the output must hold none
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "WARNING" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    api = (site / "api" / "index.html").read_text()
    for name in (
        "count_subgraphs",
        "count_motifs",
        "read_edge_file",
        "census_heatmap",
        "subgraph_census",
        "motif_counts",
    ):
        assert name in api
    # descriptions filled in at import (interfaces/paramdocs.py) are shown filled
    assert "{devices}" not in api and "{max_device_bytes}" not in api
    # the devices= text, once per function taking it: count_subgraphs, count_motifs,
    # motif_counts, subgraph_census and frequent_subgraphs
    assert api.count("NX_GPUMINE_DEVICES") == 5
    assert (site / "img" / "census_collegemsg.png").is_file()
    assert (site / "img" / "scaling_temporal.png").is_file()


def test_license_and_metadata():
    text = (ROOT / "LICENSE").read_text()
    assert "BSD 3-Clause" in text
    assert 'license = { text = "BSD-3-Clause" }' in (ROOT / "pyproject.toml").read_text()


def test_project_urls_match_docs_site():
    """``[project.urls]`` names the site and repository that mkdocs.yml and the README name."""
    import tomllib

    urls = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]
    assert set(urls) == {"Homepage", "Documentation", "Source", "Issues"}
    assert all(u.startswith("https://") for u in urls.values())
    mk = {}
    for line in (ROOT / "mkdocs.yml").read_text().splitlines():
        key, sep, value = line.partition(": ")
        if sep and key in ("site_url", "repo_url"):
            mk[key] = value.strip()
    assert mk["site_url"] == urls["Documentation"]
    assert mk["repo_url"] == urls["Source"] == urls["Homepage"]
    assert urls["Issues"] == urls["Source"].rstrip("/") + "/issues"
    readme = (ROOT / "README.md").read_text()
    assert urls["Documentation"] in readme and urls["Source"] in readme


# ---------------------------------------------------------------- user pages speak of the product
#: Pages for users; docs/architecture.md is developer documentation and is not checked here.
USER_PAGES = sorted(
    [p for p in (ROOT / "docs").glob("*.md") if p.name != "architecture.md"] + [ROOT / "README.md"]
)
#: Talk about how measurements were obtained, not about the product.
WORK_TALK = re.compile(r"\bsessions?\b|\blent\b|\bdevice calls?\b|\bdevice time\b", re.IGNORECASE)
CODE_SPAN = re.compile(r"`[^`\n]*`")


def test_user_pages_listed():
    names = {p.name for p in USER_PAGES}
    assert {"README.md", "index.md", "backend.md", "cuda_temporal.md", "cuda_static.md"} <= names
    assert "architecture.md" not in names


@pytest.mark.parametrize("page", USER_PAGES, ids=lambda p: p.name)
def test_user_pages_have_no_work_talk(page):
    """No "session", "lent", "device call" prose (file names in code spans may keep theirs)."""
    hits = [
        f"{page.name}:{n}: {line.strip()}"
        for n, line in enumerate(page.read_text().splitlines(), 1)
        if WORK_TALK.search(CODE_SPAN.sub("", line))
    ]
    assert not hits, "\n".join(hits)


@pytest.mark.parametrize("page", USER_PAGES, ids=lambda p: p.name)
def test_user_pages_link_nothing_outside_the_repository(page):
    text = page.read_text()
    assert "shared/" not in text
    assert "NetworkX 3.7" not in text and "3.7's" not in text


@pytest.mark.parametrize("page", USER_PAGES, ids=lambda p: p.name)
def test_result_files_named_in_the_docs_exist(page):
    """Every ``benchmarks/results/...`` file a page names (a figure's source) is in the repo;
    ``..._x.txt`` shorthand after a full name is checked against that name's folder."""
    root = Path(__file__).resolve().parents[1]
    missing = []
    for line in page.read_text().splitlines():
        full = re.findall(r"benchmarks/results/[\w./-]+\.(?:json|txt|tsv|md|xml)", line)
        for name in full:
            if not (root / name).exists():
                missing.append(name)
        if full:
            folder = (root / full[0]).parent
            for short in re.findall(r"`\.\.\.(_[\w.-]+)`", line):
                stem = Path(full[0]).name.split("_20")[0]
                if not any(folder.glob(f"{stem}*{short}")):
                    missing.append(f"{stem}...{short}")
    assert not missing, f"{page.name} names missing files: {missing}"


def test_index_lists_the_served_backend_functions():
    from nx_gpumine.interfaces.backend_dispatch import SERVED
    from nx_gpumine.interfaces.backend_info import FUNCTIONS

    text = (ROOT / "docs" / "index.md").read_text()
    start, end = "<!-- backend functions: start -->", "<!-- backend functions: end -->"
    assert text.count(start) == 1 and text.count(end) == 1
    listed = re.findall(r"`(\w+)`", text[text.index(start) : text.index(end)])
    assert len(listed) == len(set(listed))
    assert set(listed) == set(SERVED) == set(FUNCTIONS)
    assert f"for these {len(SERVED)} functions" in text


# ---------------------------------------------------------------- examples are self-contained
FENCE = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _bound_names(tree: ast.AST) -> set[str]:
    """Names a code block binds anywhere (assignments, imports, defs, arguments, loops)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return names


@pytest.mark.parametrize("page", USER_PAGES, ids=lambda p: p.name)
def test_python_examples_define_the_names_they_use(page):
    """Each ```python block, read after its page's earlier blocks, uses only names that it or
    those blocks bind (or builtins): a reader can run a page's examples top to bottom."""
    bound = set(dir(builtins))
    problems = []
    for n, match in enumerate(FENCE.finditer(page.read_text()), 1):
        tree = ast.parse(match.group(1), filename=f"{page.name} block {n}")
        bound |= _bound_names(tree)
        used = {
            node.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
        }
        if used - bound:
            problems.append(f"{page.name} block {n}: {sorted(used - bound)}")
    assert not problems, "\n".join(problems)
