"""Fixture helpers shared by the backend dispatch tests."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator

import networkx as nx

from nx_gpumine.interfaces.backend import BackendInterface


def record_backend_calls(monkeypatch, names: Iterable[str]) -> list[str]:
    """Wrap the backend's implementations of ``names``; the list returned records each call
    that reached the backend (NetworkX ran it itself otherwise)."""
    calls: list[str] = []
    for name in names:
        impl = getattr(BackendInterface, name)

        def wrapper(*a, _impl=impl, _name=name, **k):
            calls.append(_name)
            return _impl(*a, **k)

        monkeypatch.setattr(BackendInterface, name, staticmethod(wrapper))
    return calls


@contextlib.contextmanager
def gpumine_priority() -> Iterator[None]:
    """``nx.config.backend_priority.algos = ["gpumine"]`` (as NETWORKX_BACKEND_PRIORITY)."""
    old = list(nx.config.backend_priority.algos)
    nx.config.backend_priority.algos = ["gpumine"]
    try:
        yield
    finally:
        nx.config.backend_priority.algos = old
