"""The documentation site builds with ``mkdocs build --strict`` (API reference included)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mkdocs_build_strict(tmp_path):
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    pytest.importorskip("mkdocstrings")
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
    for name in ("count_subgraphs", "count_motifs", "read_edge_file", "census_heatmap"):
        assert name in api
    # descriptions filled in at import (interfaces/paramdocs.py) are shown filled
    assert "{devices}" not in api and "{max_device_bytes}" not in api
    assert api.count("NX_GPUMINE_DEVICES") == 2
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
