"""The per-graph stores of GraphBase: derived values and device data (CPU: any object stands in
for a device array), and what a copy shipped to another process keeps."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

import nx_gpumine as ng
from nx_gpumine.inputs.temporal_graph import temporal_from_arrays


@pytest.fixture(params=["static", "temporal"])
def graph(request):
    if request.param == "static":
        return ng.from_networkx(nx.path_graph(5), cache=False)
    return temporal_from_arrays(np.array([0, 1, 2]), np.array([1, 2, 0]), np.array([1, 2, 3]))


def test_device_data_built_once_per_key(graph):
    calls = []

    def build():
        calls.append(1)
        return {"x": len(calls)}

    assert graph.device_data(("arrays", 0)) is None  # no build: only looks, stores nothing
    assert not graph.has_device_data(("arrays", 0))
    first = graph.device_data(("arrays", 0), build)
    assert graph.device_data(("arrays", 0), build) is first
    assert graph.device_data(("arrays", 0)) is first
    assert graph.has_device_data(("arrays", 0)) and len(calls) == 1
    other = graph.device_data(("arrays", 1), build)  # another device: its own entry
    assert other is not first and len(calls) == 2
    assert not graph.has_derived(("arrays", 0))  # a store apart from the derived values


def test_forget_device_data_by_prefix(graph):
    for dev in (0, 1):
        graph.device_data(("cuda_temporal", dev), dict)["g"] = dev
        graph.device_data(("arrays", dev), dict)
    graph.forget_device_data("cuda_temporal", 0)  # one device's entry, as release() does
    assert not graph.has_device_data(("cuda_temporal", 0))
    assert graph.device_data(("cuda_temporal", 1))["g"] == 1
    assert graph.has_device_data(("arrays", 0)) and graph.has_device_data(("arrays", 1))
    graph.forget_device_data("arrays")  # every device's
    assert not graph.has_device_data(("arrays", 0)) and not graph.has_device_data(("arrays", 1))
    graph.forget_device_data()
    assert not graph.has_device_data(("cuda_temporal", 1))


def test_forget_derived_by_prefix(graph):
    for key in [("ooc", 0, "a"), ("ooc", 0, "b"), ("ooc", 1, "a"), ("plan", 0), "plain"]:
        graph.derived(key, lambda: 1)
    graph.forget_derived("ooc", 0)
    assert not graph.has_derived(("ooc", 0, "a")) and not graph.has_derived(("ooc", 0, "b"))
    assert graph.has_derived(("ooc", 1, "a")) and graph.has_derived(("plan", 0))
    graph.forget_derived("ooc")
    assert not graph.has_derived(("ooc", 1, "a")) and graph.has_derived(("plan", 0))
    graph.forget_derived()
    assert not graph.has_derived(("plan", 0)) and not graph.has_derived("plain")


def test_built_on_device_mark(graph):
    assert not graph.built_on_device
    arrays = {"src": object()}
    graph.keep_built_arrays("arrays", arrays)
    assert graph.built_on_device and graph.device_data("arrays") is arrays
    graph.forget_device_data("cuda_temporal")  # an engine's own entries: the mark stays
    assert graph.built_on_device
    graph.forget_device_data()  # the built arrays are gone: so is the mark
    assert not graph.built_on_device and graph.device_data("arrays") is None
    graph.keep_built_arrays("arrays", arrays)
    graph.device_data(("cuda_temporal", 0), dict)
    graph.drop_built_arrays()  # the arrays and the mark go, other entries stay
    assert not graph.built_on_device and graph.device_data("arrays") is None
    assert graph.has_device_data(("cuda_temporal", 0))
    graph.drop_built_arrays()  # nothing left to drop


def test_copy_without_local_caches(graph):
    graph.keep_built_arrays("arrays", {"src": object()})
    graph.derived(("plan",), lambda: "plan")
    _ = graph.key_to_id
    out = graph.without_local_caches()
    assert type(out) is type(graph) and out is not graph
    assert not out.built_on_device and not out.has_device_data("arrays")
    assert not out.has_derived(("plan",))
    assert out.key_to_id == graph.key_to_id  # rebuilt on first use
    # the original keeps its own
    assert graph.built_on_device and graph.has_derived(("plan",))
    assert out.keys is graph.keys  # arrays shared, not copied


def test_edge_slice_shares_the_key_map():
    g = temporal_from_arrays(np.array([5, 6, 7]), np.array([6, 7, 5]), np.array([1, 2, 3]))
    built = g.key_to_id
    sub = g.edge_slice(1, 3)
    assert sub.key_to_id is built
