"""cuDF and CuPy edge columns on the GPU: graphs built on the device, answers equal to pandas.

Two inputs reach the device path (``nx_gpumine.inputs.device``): a cuDF frame, and a mapping
of column name -> CuPy / device array (tested without cuDF too, so the path is covered on any
GPU machine with CuPy). Checked: counts, matches and the census equal those of the same edges
in a pandas frame; the graph was built on the device and the CUDA engines use those very
arrays (nothing of the graph is uploaded); the input columns are never read on the host;
results come back as cuDF frames for cuDF input.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nx_gpumine as ng

pytestmark = pytest.mark.gpu

M = 3000


def _edges(seed: int = 3) -> pd.DataFrame:
    """A small directed temporal edge list with sparse integer keys, ties and no repeats."""
    rng = np.random.default_rng(seed)
    s = rng.integers(0, 200, M) * 5 + 7
    d = rng.integers(0, 200, M) * 5 + 7
    t = rng.integers(0, 20_000, M)
    df = pd.DataFrame({"src": s, "dst": d, "t": t})
    df = df[df.src != df.dst].drop_duplicates(["src", "dst"]).reset_index(drop=True)
    return df


@pytest.fixture(scope="module")
def cp():
    return pytest.importorskip("cupy")


class NoHost:
    """A device column that refuses every way to the host (only ``__cuda_array_interface__``)."""

    def __init__(self, arr):
        self._arr = arr

    @property
    def __cuda_array_interface__(self):
        return self._arr.__cuda_array_interface__

    def __array__(self, *args, **kwargs):
        raise AssertionError("a device column was read on the host")

    def get(self, *args, **kwargs):
        raise AssertionError("a device column was copied to the host")

    def to_numpy(self, *args, **kwargs):
        raise AssertionError("a device column was copied to the host")

    def tolist(self):
        raise AssertionError("a device column was copied to the host")


def _device_mapping(cp, df: pd.DataFrame, wrap=lambda a: a) -> dict:
    return {c: wrap(cp.asarray(df[c].to_numpy())) for c in df.columns}


def _static_answers(G, engine="auto"):
    kw = {"source": "src", "target": "dst"}
    g = ng.from_edgelist(G, directed=True, **kw)
    return g, {
        "ffl": ng.count_subgraphs(g, "feed-forward-loop", engine=engine),
        "cycle": ng.count_subgraphs(g, nx_cycle(), engine=engine),
        "find": sorted(map(tuple, ng.find_subgraphs(g, "feed-forward-loop", engine=engine))),
        "has": ng.has_subgraph(g, "feed-forward-loop", engine=engine),
    }


def nx_cycle():
    import networkx as nx

    return nx.DiGraph([(0, 1), (1, 2), (2, 0)])


def _temporal_answers(G, engine="auto"):
    kw = {"source": "src", "target": "dst", "time": "t"}
    out = {
        "count": ng.count_motifs(G, "triangle", delta=5000, engine=engine, **kw),
        "count_ff": ng.count_motifs(G, "01 12 02", delta=3000, engine=engine, **kw),
        "census": ng.motif_census(G, 4000, engine=engine, **kw),
        "has": ng.has_motif(G, "triangle", delta=5000, engine=engine, **kw),
    }
    found = ng.find_motifs(G, "triangle", delta=5000, engine=engine, output="numpy", **kw)
    out["find"] = sorted(map(tuple, np.asarray(found).tolist()))
    return out


# ---------------------------------------------------------------------- CuPy columns
def test_cupy_mapping_static_equals_pandas(cp):
    df = _edges()
    g, got = _static_answers(_device_mapping(cp, df))
    assert g.built_on_device
    _, want = _static_answers(df, engine="cpu")
    assert got == want
    assert got["ffl"] > 0


def test_cupy_mapping_temporal_equals_pandas(cp):
    df = _edges()
    got = _temporal_answers(_device_mapping(cp, df))
    want = _temporal_answers(df, engine="cpu")
    assert got == want
    assert got["count"] > 0 and sum(got["census"].values()) > 0


def test_float_times_on_device(cp):
    df = _edges()
    df["t"] = df["t"] / 7.0
    got = _temporal_answers(_device_mapping(cp, df))
    want = _temporal_answers(df, engine="cpu")
    assert got == want


def test_device_columns_never_reach_the_host(cp):
    """The columns refuse host conversion, yet graphs are built and queried."""
    df = _edges()
    cols = _device_mapping(cp, df, wrap=NoHost)
    g = ng.from_edgelist(cols, source="src", target="dst", directed=True)
    assert ng.count_subgraphs(g, "feed-forward-loop") == ng.count_subgraphs(
        ng.from_edgelist(df, source="src", target="dst", directed=True),
        "feed-forward-loop",
        engine="cpu",
    )
    T = ng.TemporalGraph.from_edgelist(cols, "src", "dst", "t")
    assert T.built_on_device
    assert ng.count_motifs(T, "triangle", delta=5000) == ng.count_motifs(
        df, "triangle", delta=5000, source="src", target="dst", time="t", engine="cpu"
    )


def test_engines_use_the_device_built_arrays(cp, monkeypatch):
    """No graph array is uploaded: the engines' device arrays are the ones built on the GPU,
    and no host array of graph-array size and type goes through ``cupy.asarray`` meanwhile."""
    from nx_gpumine.engines.cuda import static_device as cstatic_device
    from nx_gpumine.engines.cuda import temporal_data as ctemporal

    df = _edges()
    cols = _device_mapping(cp, df)
    g = ng.from_edgelist(cols, source="src", target="dst", directed=True)
    T = ng.TemporalGraph.from_edgelist(cols, "src", "dst", "t")
    uploads: list = []
    real = cp.asarray

    def counting(a, *args, **kwargs):
        if isinstance(a, np.ndarray) and a.size >= len(df) and a.dtype != np.uint8:
            uploads.append((a.dtype, a.shape))  # uint8: a plan's root mask, not the graph
        return real(a, *args, **kwargs)

    monkeypatch.setattr(cp, "asarray", counting)
    ng.count_subgraphs(g, "feed-forward-loop", engine="cuda")
    ng.count_motifs(T, "triangle", delta=5000, engine="cuda")
    assert uploads == []
    dev = g.device_arrays()
    gd = cstatic_device.graph_device(g)
    for name in ("indptr", "indices", "dircode", "loop"):
        assert gd[name] is dev[name]
    td = ctemporal.graph_arrays(T)
    tdev = T.device_data("arrays")
    assert td["src"] is tdev["src"] and td["time"] is tdev["time"]


def test_labels_take_the_host_path(cp):
    """Edge labels are not on the device path: the same answers through the host."""
    df = _edges()
    df["lab"] = (df["src"] % 2).astype(np.int64)
    cols = _device_mapping(cp, df)
    g = ng.from_edgelist(cols, source="src", target="dst", directed=True, edge_label="lab")
    assert not g.built_on_device
    want = ng.from_edgelist(df, source="src", target="dst", directed=True, edge_label="lab")
    assert np.array_equal(g.out_label, want.out_label)


# ---------------------------------------------------------------------- cuDF frames
@pytest.fixture(scope="module")
def cudf():
    return pytest.importorskip("cudf")


def test_cudf_static_equals_pandas(cudf):
    df = _edges()
    g, got = _static_answers(cudf.from_pandas(df))
    assert g.built_on_device
    _, want = _static_answers(df, engine="cpu")
    assert got == want


def test_cudf_temporal_equals_pandas(cudf):
    df = _edges()
    got = _temporal_answers(cudf.from_pandas(df))
    want = _temporal_answers(df, engine="cpu")
    assert got == want


def test_cudf_results_are_cudf_frames(cudf):
    df = _edges()
    gdf = cudf.from_pandas(df)
    kw = {"source": "src", "target": "dst", "time": "t"}
    frame = ng.find_motifs(gdf, "triangle", delta=5000, **kw)
    want = ng.find_motifs(df, "triangle", delta=5000, engine="cpu", **kw)
    assert type(frame).__module__.split(".")[0] == "cudf"
    cols = list(want.columns)
    got = frame.to_pandas().sort_values(cols).reset_index(drop=True)
    want = want.sort_values(cols).reset_index(drop=True)
    pd.testing.assert_frame_equal(got, want, check_dtype=False)
    g = ng.from_edgelist(gdf, source="src", target="dst", directed=True)
    sub = ng.find_subgraphs(g, "feed-forward-loop", as_frame="cudf")
    assert type(sub).__module__.split(".")[0] == "cudf" and len(sub) > 0


def test_cudf_nulls_are_refused(cudf):
    gdf = cudf.DataFrame({"src": [1, 2, None], "dst": [2, 3, 1], "t": [0, 1, 2]})
    with pytest.raises(ng.InputError, match="null"):
        ng.count_motifs(gdf, "triangle", delta=5, source="src", target="dst", time="t")
