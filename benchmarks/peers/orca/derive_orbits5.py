"""Derive ORCA's numbering of the 58 node orbits (15..72) of the 21 connected 5-node graphlets.

usage: python3 benchmarks/peers/orca/derive_orbits5.py ORCA_BINARY

ORCA_BINARY: ORCA (Hočevar and Demšar 2014, ``orca.cpp``) compiled, e.g.
``g++ -O2 -o orca orca.cpp``. For each connected 5-node graph of NetworkX's graph atlas
(``networkx.graph_atlas_g()``, atlas numbers 29..52), ORCA runs on that graph alone
(``orca node 5 IN OUT``); each node's only 5-node induced subgraph is the graph itself, so its
one nonzero column among 15..72 is its orbit. Prints the table of
``nx_gpumine.plan.orbits`` (``_TABLE5``: atlas number, edges on nodes 0..4, each node's orbit)
and checks that the 58 orbits come out once each, one per automorphism orbit.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import networkx as nx
from networkx.algorithms.isomorphism import GraphMatcher


def orca_rows(binary: str, g: nx.Graph) -> list[list[int]]:
    """ORCA's 73 node-orbit counts of each node of ``g`` (nodes ``0..n-1``)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "in.txt"
        out = Path(tmp) / "out.txt"
        lines = [f"{g.number_of_nodes()} {g.number_of_edges()}"]
        lines += [f"{u} {v}" for u, v in sorted(g.edges())]
        src.write_text("\n".join(lines) + "\n")
        subprocess.run([binary, "node", "5", str(src), str(out)], check=True, capture_output=True)
        return [[int(x) for x in row.split()] for row in out.read_text().splitlines()]


def automorphism_orbits(h: nx.Graph) -> set[frozenset[int]]:
    """The node orbits of ``h`` under its automorphisms."""
    reach: dict[int, set[int]] = {v: set() for v in h}
    for iso in GraphMatcher(h, h).isomorphisms_iter():
        for a, b in iso.items():
            reach[a].add(b)
    return {frozenset(s) for s in reach.values()}


def derive(binary: str) -> list[tuple[int, tuple[tuple[int, int], ...], tuple[int, ...]]]:
    """``(atlas number, edges, orbit of each node 0..4)`` for the 21 connected 5-node graphs."""
    table = []
    for number, g in enumerate(nx.graph_atlas_g()):
        if g.number_of_nodes() != 5 or not nx.is_connected(g):
            continue
        rows = orca_rows(binary, g)
        node_orbits = []
        for v, row in enumerate(rows):
            hits = [j for j in range(15, 73) if row[j]]
            assert len(hits) == 1 and row[hits[0]] == 1, (number, v, hits)
            node_orbits.append(hits[0])
        classes = {frozenset(v for v in g if node_orbits[v] == o) for o in set(node_orbits)}
        assert classes == automorphism_orbits(g), number
        edges = tuple(sorted((min(u, v), max(u, v)) for u, v in g.edges()))
        table.append((number, edges, tuple(node_orbits)))
    used = sorted(o for _n, _e, obs in table for o in set(obs))
    assert len(table) == 21 and used == list(range(15, 73)), used
    return table


def main(argv: list[str]) -> int:
    """Print the table (Python literal rows)."""
    if len(argv) != 2:
        print(__doc__)
        return 2
    for number, edges, node_orbits in derive(argv[1]):
        print(f"    ({number}, {edges}, {node_orbits}),")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
