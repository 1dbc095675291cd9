"""Public static-matching functions: count, find, test and iterate subgraph matches.

``G`` may be a NetworkX ``Graph``/``DiGraph``, a :class:`~nx_gpumine.StaticGraph` or an edge
frame (pandas, polars, pyarrow, cuDF: columns ``source``/``target``); ``pattern`` a catalogue
name (see :func:`nx_gpumine.inputs.patterns.pattern_names`), a NetworkX graph or a
:class:`~nx_gpumine.Pattern`.

Semantics (``docs/static.md``): a match is an injective map f from pattern nodes to graph nodes
keeping every pattern edge with its direction (and labels, where a label attribute is named);
``induced=True`` also keeps every non-edge, exactly like NetworkX's
``GraphMatcher.subgraph_isomorphisms_iter`` (``induced=False``: ``subgraph_monomorphisms_iter``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..device_limits import device_budget
from ..engines.checks import checked_total
from ..errors import QueryError, WorkLimitError
from ..execution.estimate import (
    DEFAULT_SAMPLES,
    Estimate,
    as_seconds,
    estimate_plan,
    eta_wanted,
    work_check,
)
from ..execution.jobs.static import closed_form_count
from ..execution.static import count_mappings, iter_static_blocks, on_search_copy, run_static
from ..execution.subgraph_census import census_count
from ..inputs.options import as_flag, as_limit
from ..inputs.patterns import Pattern, as_pattern
from ..inputs.static_graph import NO_DEFAULT, StaticGraph, as_static_graph
from ..plan.static_plan import StaticPlan, static_plan
from ..results.static import iter_mappings, matches_to_frame, matches_to_keys
from .paramdocs import fill_doc, static_run_options_doc

__all__ = [
    "count_subgraphs",
    "estimate",
    "find_subgraphs",
    "has_subgraph",
    "iter_subgraph_mappings",
]

_COUNT_KINDS = ("mappings", "subgraphs")
#: The label arguments every function takes, in the order :func:`_prepare` receives them.
_LABEL_ARGS = ("node_label", "edge_label", "node_label_default", "edge_label_default")


def _prepare(
    G: Any,
    pattern: Any,
    induced: bool,
    distinct: bool,
    label_args: tuple,
) -> tuple[StaticGraph, Pattern, StaticPlan]:
    """The graph, pattern and plan of a call; ``label_args``: its ``node_label``,
    ``edge_label``, ``node_label_default`` and ``edge_label_default``, in this order."""
    labels = dict(zip(_LABEL_ARGS, label_args, strict=True))
    induced = as_flag(induced, "induced")
    distinct = as_flag(distinct, "distinct")
    graph = as_static_graph(G, **labels)
    pat = as_pattern(pattern, **labels)
    plan = static_plan(pat, graph, induced=induced, distinct=distinct)
    return graph, pat, plan


@fill_doc(run_options=static_run_options_doc("root-edge ranges from a shared queue"))
def count_subgraphs(
    G: Any,
    pattern: Any,
    *,
    induced: bool = False,
    count: str = "mappings",
    node_label: Any = None,
    edge_label: Any = None,
    node_label_default: Any = NO_DEFAULT,
    edge_label_default: Any = NO_DEFAULT,
    engine: str = "auto",
    progress: bool = False,
    client: Any = None,
    max_device_bytes: int | None = None,
    devices: Any = None,
    max_work: int | None = None,
    max_seconds: float | None = None,
) -> int:
    """Count occurrences of ``pattern`` in ``G``.

    Parameters
    ----------
    G : networkx.Graph, networkx.DiGraph, StaticGraph or edge frame
        The data graph (simple; self-loops allowed).
    pattern : str, networkx.Graph, networkx.DiGraph or Pattern
        The connected query pattern, or a catalogue name such as ``"triangle"``.
    induced : bool
        Also require pattern non-edges to be non-edges of ``G`` (node-induced matches).
    count : {"mappings", "subgraphs"}
        ``"mappings"`` counts every injective map (NetworkX's number: each occurrence
        ``|Aut(P)|`` times); ``"subgraphs"`` counts distinct occurrences, found once each
        through symmetry-breaking restrictions. Mappings are computed as
        ``subgraphs * |Aut(P)|`` (exact: ``Aut(P)`` acts freely on mappings), so both cost
        the same.
    node_label, edge_label : str or list of str, optional
        Attribute(s) whose values must be equal between matched nodes / edges.
    node_label_default, edge_label_default : optional
        Value used where the attribute is missing (otherwise a missing value is an error).
    engine : {"auto", "cpu", "cuda", "dask"}
        Engine; ``"auto"`` uses the GPU when CuPy sees one. ``"dask"`` runs the query on the
        workers of a Dask cluster (``client``, default: the current ``distributed.Client``),
        each with its own ``"auto"`` engine; see ``docs/dask.md``.
    progress : bool
        Show a progress bar (needs tqdm; on Dask: Dask's own bar). Before a count whose work
        bound exceeds 10^7 partial matches, first estimate it (:func:`estimate`, a fraction of
        a second) and print its prediction as one line on stderr, ``nx_gpumine: estimated
        ~12 s on the CPU engine (2.1e+09 partial matches)``; the time is the CPU engine's,
        whatever ``engine`` runs the count.
    {run_options}
    max_work : int, optional
        Refuse, before any search, a count whose estimated work exceeds this many partial
        matches (the search-tree nodes the count walk visits, :func:`estimate`'s ``work``):
        raises :class:`~nx_gpumine.errors.WorkLimitError` naming the estimate instead of
        running for hours. The plan's work bound (degrees only, no search) admits most
        counts at once; only above it are the plan's first levels sampled on a few hundred
        roots (a fraction of a second), stopping as soon as the levels measured pass the
        limit. A count in closed form (stars; cliques in a graph of complete components) is
        never refused, whatever its size. None (default): no limit.
    max_seconds : float, optional
        Refuse, before any search, a count whose predicted run time (:func:`estimate`'s
        ``seconds``: a sample of the count timed on the CPU engine, a fraction of a second)
        exceeds this many seconds: raises :class:`~nx_gpumine.errors.WorkLimitError` naming
        the prediction. The prediction is the CPU engine's whatever ``engine`` runs the
        count: on a GPU, which is usually much faster, the limit is conservative (it may
        refuse a count the GPU would finish in time). None (default): no limit.

    Returns
    -------
    int
        The count.

    Raises
    ------
    QueryError
        Unknown pattern name, empty or disconnected pattern, pattern larger than ``G``,
        directedness mismatch, a label attribute the pattern does not carry.
    InputError
        A label attribute missing on the data graph.
    UnsupportedGraphError
        Multigraph input.
    CapacityError
        The count exceeds 2**128 - 1.
    WorkLimitError
        The estimated work exceeds ``max_work``, or the predicted CPU time ``max_seconds``
        (a :class:`CapacityError`).

    Examples
    --------
    >>> import networkx as nx
    >>> count_subgraphs(nx.complete_graph(4), "triangle", count="subgraphs")
    4
    >>> from nx_gpumine.errors import WorkLimitError
    >>> G = nx.complete_graph(30)
    >>> count_subgraphs(G, nx.complete_graph(8), count="subgraphs")  # closed form: C(30, 8)
    5852925
    >>> G.remove_edge(0, 1)  # no closed form left: the count would walk the graph
    >>> try:
    ...     count_subgraphs(G, nx.complete_graph(8), max_work=10**5)
    ... except WorkLimitError as err:
    ...     print(err.estimate.work > 10**5)
    True
    """
    if not isinstance(count, str) or count not in _COUNT_KINDS:
        raise QueryError(f"count must be one of {_COUNT_KINDS}, got {count!r}")
    progress = as_flag(progress, "progress")
    max_work = as_limit(max_work, "max_work")
    max_seconds = as_seconds(max_seconds, "max_seconds")
    # One plan for both kinds: the symmetry-broken search (one match per occurrence); its
    # mappings are execution's count_mappings (distinct x |Aut(P)|), so no mapping plan is built.
    labels = (node_label, edge_label, node_label_default, edge_label_default)
    graph, _, plan = _prepare(G, pattern, induced, True, labels)
    if client is None and devices is None and max_work is None and max_seconds is None:
        # an induced 5-node count from the census (CPU engine; the work limits estimate the
        # walk, so a count under them walks)
        census = census_count(graph, plan, engine, progress)
        if census is not None:
            mappings = census * int(plan.num_automorphisms)
            return census if count == "subgraphs" else checked_total(mappings)
    # a count in closed form (stars, cliques in complete components) costs milliseconds
    # whatever its size: nothing to estimate or refuse (run_static answers it the same way)
    formula = closed_form_count(graph, plan) is not None
    if not formula and (max_work is not None or max_seconds is not None or progress):
        # the estimates describe the search the count runs: on the copy it moves to
        searched = on_search_copy(graph, plan, "count", engine, client)
    if max_work is not None and not formula:
        refused = work_check(*searched, max_work, kind=count)
        if refused is not None:
            raise WorkLimitError(refused.refusal(max_work), refused)
    if not formula and (max_seconds is not None or (progress and eta_wanted(*searched))):
        est = estimate_plan(*searched, kind=count)
        if max_seconds is not None and est.seconds > max_seconds:
            raise WorkLimitError(est.time_refusal(max_seconds), est)
        if progress:
            print(f"nx_gpumine: {est.eta()}", file=sys.stderr, flush=True)
    run = dict(engine=engine, progress=progress, client=client, devices=devices)
    with device_budget(max_device_bytes):
        if count == "subgraphs":
            return int(run_static(graph, plan, "count", **run))
        return count_mappings(graph, plan, **run)


def estimate(
    G: Any,
    pattern: Any,
    *,
    induced: bool = False,
    count: str = "mappings",
    node_label: Any = None,
    edge_label: Any = None,
    node_label_default: Any = NO_DEFAULT,
    edge_label_default: Any = NO_DEFAULT,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
) -> Estimate:
    """Estimate what :func:`count_subgraphs` would find and what it would cost, in well under
    a second: a sampled count with a rough interval, the search work and the run time.

    The work bound comes from the plan and the degrees alone (no search); the count, the work
    and the time come from a stratified sample of root edges whose matches are counted exactly
    on the CPU engine, level by level, within about 0.3 s of engine time (``docs/static.md``,
    "Estimates and work limits"), on the graph that engine's count searches (its
    degree-ordered copy where execution moves the count there).

    Parameters
    ----------
    G, pattern, induced, count, node_label, edge_label, node_label_default, edge_label_default
        As in :func:`count_subgraphs`.
    samples : int
        Root edges to sample (fewer are counted at the deepest levels when time runs short;
        all of them when the graph has no more, which makes the estimate exact).
    seed : int
        Seed of the sample (the same seed gives the same sample).

    Returns
    -------
    Estimate
        ``count``, ``count_low`` / ``count_high`` (a rough interval: three standard errors),
        ``work`` (estimated partial matches the count walks), ``work_bound`` (an upper bound
        of it), ``seconds`` (predicted run time on the CPU engine), ``samples``; ``str()``
        reads as a sentence.

    Raises
    ------
    QueryError
        As :func:`count_subgraphs`; ``samples`` not a positive integer, ``seed`` not a
        non-negative integer.
    InputError
        A label attribute missing on the data graph.

    Examples
    --------
    >>> import networkx as nx
    >>> est = estimate(nx.complete_graph(10), "triangle", count="subgraphs")
    >>> est.count, est.exact
    (120, True)
    >>> est.count_low == est.count == est.count_high
    True
    """
    if not isinstance(count, str) or count not in _COUNT_KINDS:
        raise QueryError(f"count must be one of {_COUNT_KINDS}, got {count!r}")
    n = as_limit(samples, "samples")
    if n == 0:
        raise QueryError("samples must be >= 1, got 0")
    seed = as_limit(seed, "seed")
    labels = (node_label, edge_label, node_label_default, edge_label_default)
    graph, _, plan = _prepare(G, pattern, induced, True, labels)
    # on the graph the CPU engine's count would search (its degree-ordered copy, if any)
    graph, plan = on_search_copy(graph, plan, "count", "cpu")
    return estimate_plan(graph, plan, kind=count, samples=n, seed=seed)


def find_subgraphs(
    G: Any,
    pattern: Any,
    *,
    induced: bool = False,
    distinct: bool = False,
    limit: int | None = None,
    node_label: Any = None,
    edge_label: Any = None,
    node_label_default: Any = NO_DEFAULT,
    edge_label_default: Any = NO_DEFAULT,
    engine: str = "auto",
    as_frame: str | None = None,
    progress: bool = False,
    client: Any = None,
    max_device_bytes: int | None = None,
    devices: Any = None,
) -> Any:
    """List matches of ``pattern`` in ``G``.

    Parameters
    ----------
    G, pattern, induced, node_label, edge_label, node_label_default, edge_label_default, engine
        As in :func:`count_subgraphs`.
    progress, client, max_device_bytes
        As in :func:`count_subgraphs`.
    distinct : bool
        One match per distinct occurrence (symmetry-broken) instead of every mapping.
    limit : int, optional
        Stop after this many matches.
    as_frame : {None, "pandas", "polars", "pyarrow", "cudf", "dask"}
        Return a frame with one column per pattern node (named ``str(node)``). ``"dask"``
        (Dask engine only) returns a dask DataFrame with one partition per root-edge task,
        enumerated on the workers when computed (with ``limit``: one partition, found now).
    devices : int, list of int or "all", optional
        As in :func:`count_subgraphs`; each device's matches are copied to the host per
        root-edge range and concatenated in root order.

    Returns
    -------
    numpy.ndarray or dataframe
        ``(n, k)`` array of graph node keys; column ``a`` holds the image of pattern node
        ``pattern.nodes[a]`` (the pattern's own node order). Integer keys give an int64 array,
        other keys an object array.
    """
    limit = as_limit(limit)
    progress = as_flag(progress, "progress")
    labels = (node_label, edge_label, node_label_default, edge_label_default)
    graph, pat, plan = _prepare(G, pattern, induced, distinct, labels)
    if as_frame == "dask":
        if client is None and engine != "dask":
            raise ValueError("as_frame='dask' needs engine='dask' or a client")
        from ..execution.static import static_frame_dask

        return static_frame_dask(graph, plan, client=client, engine=engine, limit=limit)
    run = dict(engine=engine, progress=progress, client=client, devices=devices)
    with device_budget(max_device_bytes):
        ids = run_static(graph, plan, "enumerate", limit=limit, **run)
    if as_frame is not None:
        return matches_to_frame(graph, pat, ids, as_frame)
    return matches_to_keys(graph, np.asarray(ids))


def has_subgraph(
    G: Any,
    pattern: Any,
    *,
    induced: bool = False,
    node_label: Any = None,
    edge_label: Any = None,
    node_label_default: Any = NO_DEFAULT,
    edge_label_default: Any = NO_DEFAULT,
    engine: str = "auto",
    client: Any = None,
    max_device_bytes: int | None = None,
    devices: Any = None,
) -> bool:
    """Whether ``G`` contains at least one match of ``pattern`` (stops at the first).

    Parameters
    ----------
    G, pattern, induced, node_label, edge_label, node_label_default, edge_label_default, engine
        As in :func:`count_subgraphs`.
    client, max_device_bytes
        As in :func:`count_subgraphs`.
    devices : int, list of int or "all", optional
        As in :func:`count_subgraphs` (every device stops at the first match found).

    Returns
    -------
    bool
    """
    labels = (node_label, edge_label, node_label_default, edge_label_default)
    graph, _, plan = _prepare(G, pattern, induced, False, labels)
    with device_budget(max_device_bytes):
        return bool(
            run_static(graph, plan, "exists", engine=engine, client=client, devices=devices)
        )


def iter_subgraph_mappings(
    G: Any,
    pattern: Any,
    *,
    induced: bool = False,
    distinct: bool = False,
    node_label: Any = None,
    edge_label: Any = None,
    node_label_default: Any = NO_DEFAULT,
    edge_label_default: Any = NO_DEFAULT,
    engine: str = "auto",
    client: Any = None,
) -> Iterator[dict]:
    """Iterate matches as NetworkX-style dicts ``{G node: pattern node}``.

    Work is done one root-edge task at a time, so stopping early is cheap (on Dask the tasks
    run ahead on the workers; closing the iterator cancels the rest).

    Parameters
    ----------
    G, pattern, induced, node_label, edge_label, node_label_default, edge_label_default, engine
        As in :func:`count_subgraphs`.
    client
        As in :func:`count_subgraphs`.
    distinct : bool
        One mapping per distinct occurrence.

    Returns
    -------
    iterator of dict
        The same direction as ``GraphMatcher(G, pattern).subgraph_isomorphisms_iter()``.
    """
    labels = (node_label, edge_label, node_label_default, edge_label_default)
    graph, pat, plan = _prepare(G, pattern, induced, distinct, labels)
    # validation above runs eagerly (this is not a generator function); the search is lazy
    blocks = iter_static_blocks(graph, plan, engine=engine, client=client)
    return iter_mappings(graph, pat, blocks)
