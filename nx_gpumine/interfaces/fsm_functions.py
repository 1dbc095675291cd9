"""Frequent subgraph mining: every small connected pattern occurring at least ``s`` times."""

from __future__ import annotations

from typing import Any

from ..device_limits import device_budget
from ..engines import resolve_engine_name
from ..errors import InputError, QueryError
from ..execution.executors.devices import resolve_devices
from ..execution.fsm import mine_frequent
from ..inputs.options import as_flag, as_limit
from ..inputs.static_graph import as_static_graph
from ..results.fsm import FrequentPattern, frequent_frame, frequent_patterns
from ..results.static import FRAME_KINDS

__all__ = ["frequent_subgraphs", "FrequentPattern"]

_ENGINES = ("auto", "cpu", "cuda")


def _positive(value: Any, name: str) -> int:
    n = as_limit(value, name)
    if n is None or n < 1:
        raise QueryError(f"{name} must be an integer >= 1, got {value!r}")
    return n


def frequent_subgraphs(
    G: Any,
    min_support: int,
    *,
    max_edges: int = 3,
    node_label: Any = None,
    edge_label: Any = None,
    engine: str = "auto",
    as_frame: str | None = None,
    progress: bool = False,
    exact_support: bool = True,
    max_device_bytes: int | None = None,
    devices: Any = None,
) -> Any:
    """Every connected pattern of 1 to ``max_edges`` edges whose support in ``G`` is at least
    ``min_support`` (frequent subgraph mining, single-graph setting).

    Semantics: patterns are connected undirected simple graphs with 1 to ``max_edges`` edges;
    an embedding is a subgraph monomorphism (an injective map of the pattern's nodes keeping
    every pattern edge, edge-induced: ``G`` may have more edges among the images, as NetworkX's
    ``GraphMatcher.subgraph_monomorphisms_iter``); labels are compared categorically (equal
    values match, a NaN label matches nothing); the support is the minimum image-based support
    (MNI): over the pattern's nodes, the least number of distinct nodes of ``G`` that the node is
    mapped to across all embeddings. MNI is anti-monotone (a pattern's support is at most that
    of each of its sub-patterns), so patterns are grown level by level from the frequent edges,
    and a candidate with an infrequent one-edge-smaller sub-pattern is dropped unsearched.
    Self-loops of ``G`` are ignored.

    Parameters
    ----------
    G : networkx.Graph, StaticGraph or edge frame
        The undirected data graph. Directed graphs are refused (a :class:`QueryError`);
        multigraphs too (an :class:`~nx_gpumine.errors.UnsupportedGraphError`).
    min_support : int
        The least MNI support a pattern must have (>= 1).
    max_edges : int
        The largest patterns, in edges (>= 1; patterns have at most ``max_edges + 1`` nodes).
    node_label, edge_label : str or list of str, optional
        Attribute(s) of ``G``'s nodes / edges holding their labels; None: one label for all.
    engine : {"auto", "cpu", "cuda"}
        Where supports are computed, as in :func:`~nx_gpumine.count_subgraphs` (array passes
        over the graph's entries and existence searches; ``docs/static.md``).
    as_frame : {None, "pandas", "polars", "pyarrow", "cudf"}
        Return a table instead, one row per pattern in the same order: columns ``edges``,
        ``support``, ``nodes``, ``edge_list`` (``"0-1 1-2"``), ``node_labels``
        (``"0:a 1:b 2:a"``) and ``edge_labels`` (``"0-1:x 1-2:y"``).
    progress : bool
        A bar over each level's candidate patterns (needs tqdm).
    exact_support : bool
        True (default): each ``.support`` is the exact MNI, which takes an existence search
        for every candidate vertex of every orbit of a frequent pattern that is not a star.
        False: an orbit stops once it has ``min_support`` images (as G2Miner and Peregrine
        stop), faster on large graphs; the same patterns are returned, but a support is then
        only a lower bound (at least ``min_support``, at most the exact MNI).
    max_device_bytes : int, optional
        Device memory the CUDA engine may use (default: the configured budget, see
        :mod:`nx_gpumine.device_limits`; None there: total device memory minus a margin). A
        graph whose mining data exceed it is mined out of core: the level-1 and 2 passes run
        on the host, and the existence searches of larger patterns read the graph's per-edge
        arrays from pinned host memory over the bus (``docs/out_of_core.md``).
    devices : int, list of int or "all", optional
        GPUs of this host to mine on (``docs/multigpu.md``): ``N`` = the first N devices, a list
        of device ids (repeats allowed), ``"all"``. The candidates of three edges or more go to
        the GPUs from one shared queue, each searching on its own copy of the graph; levels 1
        and 2 run on the first. None (default): the current device only, or the
        ``NX_GPUMINE_DEVICES`` environment default for calls on the CUDA engine. Results are
        identical to one device's. Not with ``engine="cpu"``.

    Returns
    -------
    list of FrequentPattern or frame
        Ordered by edges, then support (descending). Each has ``.pattern`` (a
        ``networkx.Graph`` on nodes ``0 .. k - 1`` whose nodes carry their label under the
        ``node_label`` attribute and edges under ``edge_label``, when given), ``.support``
        (int) and ``.edges`` (int).

    Raises
    ------
    QueryError
        A directed graph, ``min_support`` or ``max_edges`` not an integer >= 1, an unknown
        engine or frame kind.
    InputError
        A label attribute missing on a node or edge of ``G``.
    UnsupportedGraphError
        A multigraph.
    EngineUnavailableError
        ``engine="cuda"`` without a GPU.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1), (1, 2), (2, 0), (2, 3)])
    >>> nx.set_node_attributes(G, {0: "C", 1: "C", 2: "O", 3: "H"}, "atom")
    >>> for r in frequent_subgraphs(G, 1, max_edges=2, node_label="atom"):
    ...     print(r.edges, r.support, dict(r.pattern.nodes(data="atom")), list(r.pattern.edges))
    1 2 {0: 'C', 1: 'C'} [(0, 1)]
    1 1 {0: 'C', 1: 'O'} [(0, 1)]
    1 1 {0: 'O', 1: 'H'} [(0, 1)]
    2 1 {0: 'C', 1: 'C', 2: 'O'} [(0, 1), (1, 2)]
    2 1 {0: 'C', 1: 'C', 2: 'O'} [(0, 2), (1, 2)]
    2 1 {0: 'C', 1: 'O', 2: 'H'} [(0, 1), (1, 2)]
    >>> df = frequent_subgraphs(nx.cycle_graph(5), 5, as_frame="pandas")
    >>> df[["edges", "support", "nodes", "edge_list"]]
       edges  support  nodes    edge_list
    0      1        5      2          0-1
    1      2        5      3      0-2 1-2
    2      3        5      4  0-2 1-3 2-3
    """
    min_support = _positive(min_support, "min_support")
    max_edges = _positive(max_edges, "max_edges")
    progress = as_flag(progress, "progress")
    exact = as_flag(exact_support, "exact_support")
    if not isinstance(engine, str) or engine not in _ENGINES:
        raise QueryError(f"engine must be one of {_ENGINES}, got {engine!r}")
    if as_frame is not None and as_frame not in FRAME_KINDS:
        raise InputError(f"as_frame must be one of {FRAME_KINDS} or None, got {as_frame!r}")
    slots = resolve_devices(devices, engine)  # the engine as asked: its own messages
    engine = resolve_engine_name(engine)
    graph = as_static_graph(G, node_label=node_label, edge_label=edge_label)
    if graph.directed:
        raise QueryError(
            "frequent_subgraphs mines undirected patterns; the graph is directed (pass "
            "G.to_undirected() to mine its undirected shape)"
        )
    with device_budget(max_device_bytes):
        codes, found = mine_frequent(
            graph, min_support, max_edges, engine=engine, progress=progress, exact=exact,
            slots=slots,
        )  # fmt: skip
    results = frequent_patterns(
        found, codes.node_values, codes.edge_values, graph.node_label_spec, graph.edge_label_spec
    )
    if as_frame is not None:
        return frequent_frame(results, as_frame)
    return results
