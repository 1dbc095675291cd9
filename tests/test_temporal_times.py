"""Edge times as users hold them: every time type x every limit type, against a numeric oracle.

The reference is the same events with plain integer seconds and integer limits (itself checked
against a brute force in ``test_cli.py`` / ``test_temporal_differential.py``); every datetime or
duration representation with a duration limit must give the same count, a plain number against
datetimes must raise an error that names the unit, and ``find_motifs`` must give the times back
in the input's type.
"""

from __future__ import annotations

import datetime as dt
import itertools

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nx_gpumine as ng
from nx_gpumine.errors import InputError, QueryError
from nx_gpumine.inputs.motifs import TemporalMotif
from nx_gpumine.inputs.temporal_graph import as_temporal_graph, temporal_from_arrays
from nx_gpumine.inputs.times import NUMBER_TIMES, TimeSpec, as_duration, limit_in_units

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")

# events: (src, dst, seconds after BASE); two triangles, one within 30 min, one spread over 2 h
EVENTS = [
    (1, 2, 0),
    (2, 3, 600),
    (3, 1, 1200),
    (1, 3, 1500),
    (4, 5, 3600),
    (5, 6, 5400),
    (6, 4, 10800),
    (2, 1, 10801),
]
SRC = [e[0] for e in EVENTS]
DST = [e[1] for e in EVENTS]
SECS = np.array([e[2] for e in EVENTS], dtype=np.int64)
BASE = np.datetime64("2024-03-30T23:00:00", "s")  # across the Paris DST change
COLS = {"source": "src", "target": "dst", "time": "t"}


def _dt64(unit: str) -> np.ndarray:
    return (BASE + SECS.astype("timedelta64[s]")).astype(f"datetime64[{unit}]")


def _aware(tz: str) -> list:
    zone = __import__("zoneinfo").ZoneInfo(tz)
    return [
        dt.datetime(2024, 3, 30, 23, tzinfo=dt.UTC).astimezone(zone) + dt.timedelta(seconds=int(s))
        for s in SECS
    ]


def _frame(lib: str, times) -> object:
    df = pd.DataFrame({"src": SRC, "dst": DST, "t": times})
    if lib == "pandas":
        return df
    if lib == "polars":
        return pl.from_pandas(df)
    return pa.Table.from_pandas(df, preserve_index=False)


def _nx(times: list) -> nx.MultiDiGraph:
    G = nx.MultiDiGraph()
    for (u, v, _), t in zip(EVENTS, times, strict=True):
        G.add_edge(u, v, t=t)
    return G


def _paris(unit: str) -> object:
    return pd.Series(pd.to_datetime(_dt64(unit)).tz_localize("UTC").tz_convert("Europe/Paris"))


#: name -> (input object, time unit of the stored counts, kind, time zone)
TIME_INPUTS = {
    "numpy datetime64[ns]": (lambda: (SRC, DST, _dt64("ns")), "ns", "datetime", None),
    "numpy datetime64[us]": (lambda: (SRC, DST, _dt64("us")), "us", "datetime", None),
    "numpy datetime64[ms]": (lambda: (SRC, DST, _dt64("ms")), "ms", "datetime", None),
    "numpy datetime64[s]": (lambda: (SRC, DST, _dt64("s")), "s", "datetime", None),
    "numpy datetime64[m]": (
        lambda: (SRC, DST, (BASE + (SECS // 60 * 60).astype("m8[s]")).astype("M8[m]")),
        "s",
        "datetime",
        None,
    ),
    "pandas datetime[ns]": (lambda: _frame("pandas", _dt64("ns")), "ns", "datetime", None),
    "pandas datetime[s] tz": (lambda: _frame("pandas", _paris("s")), "s", "datetime", "Paris"),
    "polars datetime[us]": (lambda: _frame("polars", _dt64("us")), "us", "datetime", None),
    "polars datetime[ms] tz": (lambda: _frame("polars", _paris("ms")), "ms", "datetime", "Paris"),
    "pyarrow timestamp[s]": (lambda: _frame("pyarrow", _dt64("s")), "s", "datetime", None),
    "pyarrow timestamp[ns] tz": (
        lambda: _frame("pyarrow", _paris("ns")),
        "ns",
        "datetime",
        "Paris",
    ),
    "pandas series tz (arrays)": (lambda: (SRC, DST, _paris("us")), "us", "datetime", "Paris"),
    "networkx datetime": (lambda: _nx(list(_dt64("us").tolist())), "us", "datetime", None),
    "networkx tz-aware datetime": (lambda: _nx(_aware("Asia/Kolkata")), "us", "datetime", "Kol"),
    "networkx pd.Timestamp": (
        lambda: _nx([pd.Timestamp(x) for x in _dt64("ns")]),
        "us",
        "datetime",
        None,
    ),
    "numpy timedelta64[s]": (
        lambda: (SRC, DST, SECS.astype("timedelta64[s]")),
        "s",
        "duration",
        None,
    ),
    "pandas timedelta[ms]": (
        lambda: _frame("pandas", SECS.astype("m8[s]").astype("m8[ms]")),
        "ms",
        "duration",
        None,
    ),
    "networkx timedelta": (
        lambda: _nx([dt.timedelta(seconds=int(s)) for s in SECS]),
        "ns",
        "duration",
        None,
    ),
}

#: name -> (make(seconds) -> limit, is a duration)
LIMITS = {
    "pd.Timedelta": (lambda s: pd.Timedelta(seconds=s), True),
    "datetime.timedelta": (lambda s: dt.timedelta(seconds=s), True),
    "np.timedelta64[s]": (lambda s: np.timedelta64(s, "s"), True),
    "np.timedelta64[ms]": (lambda s: np.timedelta64(s * 1000, "ms"), True),
    "np.timedelta64[m]": (lambda s: np.timedelta64(s // 60, "m"), True),
    "pyarrow duration": (lambda s: pa.scalar(dt.timedelta(seconds=s), pa.duration("s")), True),
    "int": (lambda s: int(s), False),
    "float": (lambda s: float(s), False),
}

MOTIFS = {"triangle": [(0, 1), (1, 2), (2, 0)], "path2": [(0, 1), (1, 2)]}
WINDOWS = (1200, 1800, 10800)  # seconds; all whole minutes


def _graph_kw(obj) -> dict:
    return COLS if not isinstance(obj, tuple | nx.Graph) else {"time": "t"}


def _reference(motif, seconds: int) -> int:
    return ng.count_motifs((SRC, DST, SECS), motif, delta=seconds, engine="cpu")


def _call(obj, fn, *args, **kw):
    if isinstance(obj, tuple):
        return fn(as_temporal_graph(obj), *args, **kw)
    return fn(obj, *args, **_graph_kw(obj), **kw)


def test_reference_is_brute_force():
    for name, motif in MOTIFS.items():
        for w in WINDOWS:
            want = 0
            for combo in itertools.permutations(range(len(EVENTS)), len(motif)):
                es = [EVENTS[i] for i in combo]
                if any(es[i][2] >= es[i + 1][2] for i in range(len(es) - 1)):
                    continue
                if es[-1][2] - es[0][2] > w:
                    continue
                f: dict = {}
                ok = all(
                    f.setdefault(a, u) == u and f.setdefault(b, v) == v
                    for (a, b), (u, v, _) in zip(motif, es, strict=True)
                )
                want += ok and len(set(f.values())) == len(f)
            assert _reference(motif, w) == want, (name, w)


@pytest.mark.parametrize("limit_name", list(LIMITS))
@pytest.mark.parametrize("time_name", list(TIME_INPUTS))
def test_time_type_x_limit_type(time_name, limit_name):
    make_input, unit, kind, _ = TIME_INPUTS[time_name]
    make_limit, is_duration = LIMITS[limit_name]
    obj = make_input()
    graph = as_temporal_graph(obj, **_graph_kw(obj)) if not isinstance(obj, tuple) else None
    graph = graph or as_temporal_graph(obj)
    assert graph.time_spec.kind == kind and graph.time_spec.unit == unit
    for mname, motif in MOTIFS.items():
        for w in WINDOWS:
            if not is_duration:
                with pytest.raises(QueryError, match=rf"plain number.*\[{unit}.*{unit_word(unit)}"):
                    _call(obj, ng.count_motifs, motif, delta=make_limit(w), engine="cpu")
                continue
            got = _call(obj, ng.count_motifs, motif, delta=make_limit(w), engine="cpu")
            assert got == _reference(motif, w), (mname, w)


def unit_word(unit: str) -> str:
    return {"s": "seconds", "ms": "milliseconds", "us": "microseconds", "ns": "nanoseconds"}[unit]


@pytest.mark.parametrize("limit_name", list(LIMITS))
def test_numeric_times_x_limit_type(limit_name):
    make_limit, is_duration = LIMITS[limit_name]
    for obj in ((SRC, DST, SECS), (SRC, DST, SECS.astype(float)), _frame("polars", SECS)):
        for motif in MOTIFS.values():
            if is_duration:
                with pytest.raises(QueryError, match="duration.*plain numbers"):
                    _call(obj, ng.count_motifs, motif, delta=make_limit(1800), engine="cpu")
            else:
                got = _call(obj, ng.count_motifs, motif, delta=make_limit(1800), engine="cpu")
                assert got == _reference(motif, 1800)


@pytest.mark.parametrize("time_name", list(TIME_INPUTS))
def test_gaps_anti_edges_census_and_has_motif(time_name):
    make_input, *_ = TIME_INPUTS[time_name]
    obj = make_input()
    graph = as_temporal_graph(obj, **_graph_kw(obj)) if not isinstance(obj, tuple) else None
    graph = graph or as_temporal_graph(obj)
    num = as_temporal_graph((SRC, DST, SECS))
    td = dt.timedelta
    m_dur = TemporalMotif(
        [(0, 1), (1, 2)], delta=td(hours=3), gaps=[td(minutes=10)], anti_edges=[(2, 0, 1, None)]
    )
    m_num = TemporalMotif([(0, 1), (1, 2)], delta=10800, gaps=[600], anti_edges=[(2, 0, 1, None)])
    assert ng.count_motifs(graph, m_dur, engine="cpu") == ng.count_motifs(num, m_num, engine="cpu")
    m_dur2 = m_dur.with_(anti_edges=[(2, 0, 1, np.timedelta64(5, "m"))], gaps=None)
    m_num2 = m_num.with_(anti_edges=[(2, 0, 1, 300)], gaps=None)
    assert ng.count_motifs(graph, m_dur2, engine="cpu") == ng.count_motifs(
        num, m_num2, engine="cpu"
    )
    assert ng.motif_census(graph, pd.Timedelta(hours=2), engine="cpu") == ng.motif_census(
        num, 7200, engine="cpu"
    )
    assert ng.has_motif(graph, "triangle", delta=td(minutes=20), engine="cpu")
    assert not ng.has_motif(graph, "triangle", delta=td(minutes=19), engine="cpu")
    with pytest.raises(QueryError, match="gaps\\[0\\]=600 is a plain number"):
        ng.count_motifs(graph, m_num.with_(delta=None, anti_edges=()), engine="cpu")
    with pytest.raises(QueryError, match="plain number"):
        ng.motif_census(graph, 7200, engine="cpu")


@pytest.mark.parametrize("time_name", list(TIME_INPUTS))
def test_find_motifs_gives_times_in_input_type(time_name):
    make_input, unit, kind, tz = TIME_INPUTS[time_name]
    obj = make_input()
    kw = {} if isinstance(obj, tuple) else _graph_kw(obj)
    src = as_temporal_graph(obj) if isinstance(obj, tuple) else obj
    frame = ng.find_motifs(src, "triangle", delta=pd.Timedelta(hours=3), engine="cpu", **kw)
    want_rows = ng.find_motifs((SRC, DST, SECS), "triangle", delta=10800, engine="cpu")
    native = frame if isinstance(frame, pd.DataFrame) else frame.to_pandas()
    native = native.sort_values("node_0", ignore_index=True)  # NetworkX rows follow G.edges
    want_rows = want_rows.sort_values("node_0", ignore_index=True)
    assert native[["node_0", "node_1", "node_2"]].equals(want_rows[["node_0", "node_1", "node_2"]])
    assert len(native) == 2
    col = native["time_0"]
    if kind == "datetime":
        assert str(col.dtype).startswith(f"datetime64[{unit}")
        if tz:
            assert tz in str(col.dtype)
        else:
            assert col.dt.tz is None
        secs = (col.dt.tz_localize(None) if tz is None else col.dt.tz_convert(None)).astype(
            "datetime64[s]"
        )
        got = ((secs - pd.Timestamp(BASE)).dt.total_seconds()).astype(int).tolist()
    else:
        assert str(col.dtype) == f"timedelta64[{unit}]"
        got = col.dt.total_seconds().astype(int).tolist()
    assert got == want_rows["time_0"].tolist()
    if isinstance(obj, pl.DataFrame | pa.Table):
        assert type(frame) is type(obj)


def test_numeric_times_stay_numbers_in_results():
    frame = ng.find_motifs((SRC, DST, SECS.astype(float)), "triangle", delta=1800.0, engine="cpu")
    assert frame["time_0"].dtype == np.float64
    frame = ng.find_motifs((SRC, DST, SECS), "triangle", delta=1800, engine="cpu")
    assert frame["time_0"].dtype == np.int64


def test_sub_unit_durations_floor_exactly():
    g = as_temporal_graph((SRC, DST, _dt64("s")))
    # 1200.9 s against whole seconds: differences of 1200 s pass, 1201 s do not
    assert ng.count_motifs(g, "triangle", delta=pd.Timedelta(milliseconds=1_200_900)) == 1
    assert ng.count_motifs(g, "triangle", delta=pd.Timedelta(milliseconds=1_199_999)) == 0


@pytest.mark.parametrize(
    "bad, words",
    [
        (pd.Timedelta(seconds=-1), ">= 0"),
        (dt.timedelta(days=-1), ">= 0"),
        (np.timedelta64("NaT"), "NaT"),
        (np.timedelta64(1, "M"), "months"),
        (dt.timedelta(days=999_999), "nanosecond range"),
    ],
)
def test_bad_durations(bad, words):
    with pytest.raises(QueryError, match=words):
        TemporalMotif([(0, 1)], delta=bad)


def test_limit_in_units_unit_conversion():
    spec = TimeSpec("datetime", "ms")
    assert limit_in_units(dt.timedelta(seconds=2, microseconds=1500), spec, "delta") == 2001
    assert limit_in_units(None, spec, "delta") is None
    assert limit_in_units(5, NUMBER_TIMES, "delta") == 5
    assert int(as_duration(np.timedelta64(3, "h")).astype(np.int64)) == 3 * 3600 * 10**9
    assert int(as_duration(np.timedelta64(1500, "ps")).astype(np.int64)) == 1


def test_time_errors():
    with pytest.raises(InputError, match="NaT"):
        temporal_from_arrays([0, 1], [1, 0], np.array(["2024-01-01", "NaT"], dtype="M8[s]"))
    mixed = np.array([dt.datetime(2024, 1, 1), dt.datetime(2024, 1, 1, tzinfo=dt.UTC)], object)
    with pytest.raises(InputError, match="tz-aware and naive"):
        temporal_from_arrays([0, 1], [1, 0], mixed)
    with pytest.raises(InputError, match="mix datetimes"):
        temporal_from_arrays([0, 1], [1, 0], np.array([dt.datetime(2024, 1, 1), 5], object))
    G = nx.DiGraph()
    G.add_edge(0, 1, time=dt.datetime(2024, 1, 1))
    G.add_edge(1, 2, time=3.5)
    with pytest.raises(InputError, match="mix datetimes"):
        as_temporal_graph(G)
    df = pd.DataFrame({"src": [0, 1], "dst": [1, 2], "t": pd.to_datetime(["2024-01-01", None])})
    with pytest.raises(InputError, match="null|NaT"):
        as_temporal_graph(df, **COLS)


def test_repr_names_the_time_type():
    g = as_temporal_graph(_frame("pandas", _paris("s")), **COLS)
    assert "datetime64[s, Europe/Paris]" in repr(g)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 5000)),
        min_size=1,
        max_size=25,
    ),
    st.integers(0, 4000),
    st.sampled_from(["s", "ms", "us", "ns"]),
    st.sampled_from(["strict", "input_order"]),
)
def test_property_datetimes_equal_seconds(edges, window, unit, tie):
    src = [u for u, _, _ in edges]
    dst = [v for _, v, _ in edges]
    secs = np.array([t for _, _, t in edges], dtype=np.int64)
    times = (BASE + secs.astype("m8[s]")).astype(f"M8[{unit}]")
    num = as_temporal_graph((src, dst, secs))
    dat = as_temporal_graph((src, dst, times))
    for motif in (*MOTIFS.values(), [(0, 1), (1, 0), (0, 1)]):
        want = ng.count_motifs(num, motif, delta=window, tie=tie, engine="cpu")
        got = ng.count_motifs(dat, motif, delta=np.timedelta64(window, "s"), tie=tie, engine="cpu")
        assert got == want
