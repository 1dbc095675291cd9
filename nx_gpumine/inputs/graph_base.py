"""What the static and the temporal graph containers share: the key map, label codes and the
per-graph cache of derived values.

:class:`~nx_gpumine.inputs.static_graph.StaticGraph` and
:class:`~nx_gpumine.inputs.temporal_graph.TemporalGraph` are dataclasses whose fields include
``keys``, ``node_vocab``, ``edge_vocab``, ``_key_to_id`` (None until first used) and
``_derived`` (a dict); :class:`GraphBase` adds no state of its own, so pickling, copying and
dataclass semantics stay those of each container.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

__all__ = ["GraphBase", "IMPOSSIBLE_LABEL"]

#: Label code of a label value that no vertex or edge of the graph carries: it never matches.
IMPOSSIBLE_LABEL = -2


class GraphBase:
    """Methods shared by the graph containers (a mixin: no fields, no ``__init__``).

    Subclasses provide the attributes ``n`` (number of vertices), ``keys`` (dense id -> the
    user's node key), ``node_vocab`` and ``edge_vocab`` (label value -> code), ``_key_to_id``
    and ``_derived``.
    """

    __slots__ = ()

    keys: list
    node_vocab: dict
    edge_vocab: dict
    _key_to_id: dict | None
    _derived: dict

    # ------------------------------------------------------------------ derived data
    def derived(self, key: Hashable, build: Callable[[], Any]) -> Any:
        """A value computed from this graph (a plan, an index), built once and kept.

        The graph's arrays never change after construction, so a derived value stays valid for
        the graph's lifetime and is freed with it. Callers choose keys that name everything the
        value depends on besides the graph (e.g. ``("static_plan", pattern.key(), induced)``).

        Parameters
        ----------
        key : hashable
            What the value is.
        build : callable
            Computes the value when it is not stored yet.

        Returns
        -------
        object
            The stored (or newly built) value.
        """
        try:
            return self._derived[key]
        except KeyError:
            value = build()
            self._derived[key] = value
            return value

    def has_derived(self, key: Hashable) -> bool:
        """Whether a derived value is stored under ``key``.

        Parameters
        ----------
        key : hashable
            What the value is.

        Returns
        -------
        bool
        """
        return key in self._derived

    def forget_derived(self, prefix: Hashable | None = None) -> None:
        """Drop derived values (all, or those whose key is a tuple starting with ``prefix``).

        Parameters
        ----------
        prefix : hashable, optional
            First item of the keys to drop; None drops every derived value.
        """
        if prefix is None:
            self._derived.clear()
            return
        for k in [k for k in self._derived if isinstance(k, tuple) and k and k[0] == prefix]:
            del self._derived[k]

    # ------------------------------------------------------------------ keys and labels
    @property
    def key_to_id(self) -> dict:
        """User node key -> dense id (built on first use)."""
        if self._key_to_id is None:
            self._key_to_id = {k: i for i, k in enumerate(self.keys)}
        return self._key_to_id

    def __len__(self) -> int:
        return self.n

    def encode_node_label(self, value: Hashable) -> int:
        """Code of a node label value, ``IMPOSSIBLE_LABEL`` if no vertex carries it."""
        return self.node_vocab.get(value, IMPOSSIBLE_LABEL)

    def encode_edge_label(self, value: Hashable) -> int:
        """Code of an edge label value, ``IMPOSSIBLE_LABEL`` if no edge carries it."""
        return self.edge_vocab.get(value, IMPOSSIBLE_LABEL)
