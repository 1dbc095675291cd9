"""Everest query text read with PyYAML: quoting, comments, block and flow lists, errors."""

from __future__ import annotations

import sys

import pytest

from nx_gpumine.errors import QueryError
from nx_gpumine.inputs.everest_query import parse_everest_query
from nx_gpumine.inputs.motifs import AntiEdge

pytest.importorskip("yaml")

# Everest's M4-A query (as in its additional-features/*-M4-all.yaml) in the flow spelling
FLOW = """\
pattern: M4-A.txt
graph: ethereum.txt
constraints:
  node0: f > 500000000
  antiEdge: [False, False, True, False, False]
  temporal: [900, 1800, 1800, 900]
  delta: 3600
options:
  gpu: 1
"""

# the same query with block lists, comments everywhere and quoted values
BLOCK = """\
# an Everest query
pattern: "M4-A.txt"   # the motif file
graph: 'ethereum.txt'
constraints:          # constraints follow
  node0: "f > 500000000"
  antiEdge:
    - False
    - False
    - True            # the anti-edge (listed third)
    - False
    - False
  temporal:
  - 900
  - 1800
  - 1800
  - 900
  delta: 3600
options:
  gpu: 1
"""


def test_flow_and_block_lists_and_comments_give_the_same_query() -> None:
    flow = parse_everest_query(FLOW)
    block = parse_everest_query(BLOCK)
    assert flow == block
    m = block.motif
    assert m.edges == ((0, 1), (1, 2), (2, 3), (3, 0))
    assert m.delta == 3600 and m.gaps == (900, 1800, 900)
    assert m.anti_edges == (AntiEdge(2, 0, 1, 1800),)
    assert m.node_where == ((0, ">", 5e8),)
    assert block.graph == "ethereum.txt" and block.gpus == 1


def test_hash_inside_quotes_is_not_a_comment() -> None:
    text = (
        "pattern: M4\n"
        "graph: 'data#1.txt'  # a real comment\n"
        "constraints:\n"
        '  node1: "label red#2"\n'
        "  edge0: 'label #x'   # another comment\n"
    )
    q = parse_everest_query(text)
    assert q.graph == "data#1.txt"
    assert q.motif.node_labels == {1: "red#2"} and q.motif.edge_labels == {0: "#x"}


def test_comment_only_lines_and_trailing_comments() -> None:
    text = "# header\n\npattern: M1   # 3-path\n# between\nconstraints:\n  delta: 60 # s\n"
    q = parse_everest_query(text)
    assert q.motif.edges == ((0, 1), (1, 2), (2, 3)) and q.motif.delta == 60


def test_block_list_for_fg_delta_and_anti_edges_spelling() -> None:
    text = "pattern: M4\nconstraints:\n  fg_delta:\n    - 10\n    - 20\n    - 30\n"
    assert parse_everest_query(text).motif.gaps == (10, 20, 30)
    text = "pattern: M4\nconstraints:\n  anti_edges:\n    - false\n    - true\n    - false\n"
    with pytest.raises(QueryError, match=r"one flag per listed edge \(4\), got \[False, True, F"):
        parse_everest_query(text)  # M4 lists 4 edges: the length check sees the block list


def test_numbers_read_as_decimal() -> None:
    """Numbers as YAML 1.2 / Python read them (PyYAML alone reads 1e3 as text, 010 as 8)."""
    q = parse_everest_query(
        "pattern: M4\nconstraints:\n  delta: 3.6e3\n  temporal: [010, 1e2, 5]\n"
    )
    assert q.motif.delta == 3600.0 and q.motif.gaps == (10, 100.0, 5)
    q = parse_everest_query("pattern: M4\noptions:\n  enumerate: none\n")
    assert q.enumerate is None


def test_literal_block_pattern() -> None:
    q = parse_everest_query("pattern: |\n  1 2 1\n  2 3 2\n  3 1 3\nconstraints:\n  delta: 5\n")
    assert q.motif.edges == ((0, 1), (1, 2), (2, 0))
    assert parse_everest_query("pattern: |\n  M4\n").motif.edges[-1] == (3, 0)


@pytest.mark.parametrize(
    "text,msg",
    [
        ("pattern: [1, 2\n", r"not valid YAML \(line 2, column 1: .*flow sequence"),
        ("pattern: M4\n  bad: : x\n", r"not valid YAML \(line 2, column 6: mapping values"),
        ("pattern: M4\nconstraints:\n\tdelta: 5\n", r"not valid YAML \(line 3"),
        ("pattern: 'M4\n", r"not valid YAML .*quoted scalar"),
        ("pattern: M4\n---\npattern: M1\n", "single document"),
        ("just words\n", "expected 'key: value' lines, got 'just words'"),
        ("- pattern: M4\n", "expected 'key: value' lines"),
        ("pattern: M4\nconstraints:\n  - delta: 5\n", "'constraints' must be a section"),
        ("pattern: M4\nconstraints:\n  7: 3\n", "unknown key '7'"),
    ],
)
def test_malformed_text_gives_a_clear_query_error(text: str, msg: str) -> None:
    with pytest.raises(QueryError, match=msg) as info:
        parse_everest_query(text)
    assert info.value.__cause__ is None  # no PyYAML traceback chained to the message


def test_missing_pyyaml_is_a_query_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "yaml", None)  # import yaml raises ImportError
    with pytest.raises(QueryError, match="needs PyYAML: pip install pyyaml"):
        parse_everest_query("pattern: M4\n")
