"""Shared parameter descriptions (``interfaces/paramdocs.py``) reach the public docstrings."""

from __future__ import annotations

import pytest

import nx_gpumine as ng
from nx_gpumine.interfaces import paramdocs


@pytest.mark.parametrize("func", [ng.count_subgraphs, ng.count_motifs])
def test_filled_docstrings(func):
    doc = func.__doc__
    assert "{devices}" not in doc and "{max_device_bytes}" not in doc
    assert doc.count("NX_GPUMINE_DEVICES") == 1 and doc.count("NX_GPUMINE_MAX_DEVICE_BYTES") == 1
    lines = doc.splitlines()
    at = lines.index('    devices : int, list of int or "all", optional')
    assert lines[at + 1].startswith("        GPUs of this host")
    assert all(len(line) <= paramdocs.WIDTH for line in lines)


def test_fill_doc_needs_its_placeholder():
    def f():
        """Doc.

        Parameters
        ----------
        x : int
            {x}
        """

    paramdocs.fill_doc(x="The x.")(f)
    assert "            The x." in f.__doc__.splitlines()
    with pytest.raises(ValueError, match="no {y} line"):
        paramdocs.fill_doc(y="The y.")(f)


def test_fill_doc_writes_parameter_entries():
    def f():
        """Doc.

        Parameters
        ----------
        {opts}
        """

    paramdocs.fill_doc(opts=[("a : int", "The a."), ("b : str, optional", "The b.")])(f)
    lines = f.__doc__.splitlines()
    at = lines.index("        a : int")
    assert lines[at + 1 : at + 4] == [
        "            The a.",
        "        b : str, optional",
        "            The b.",
    ]
