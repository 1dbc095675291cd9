"""What the static and the temporal graph containers share: the key map, label codes, the
per-graph cache of derived values and the per-graph store of device data.

:class:`~nx_gpumine.inputs.static_graph.StaticGraph` and
:class:`~nx_gpumine.inputs.temporal_graph.TemporalGraph` are dataclasses whose fields include
``keys``, ``node_vocab``, ``edge_vocab``, ``_key_to_id`` (None until first used),
``_derived`` and ``_device_cache`` (dicts); :class:`GraphBase` adds no state of its own, so
pickling, copying and dataclass semantics stay those of each container. Those three private
fields are read and written here only: other modules use the public methods below.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable
from typing import Any

from .labels import Unmatchable, never_equal

__all__ = ["GraphBase", "IMPOSSIBLE_LABEL"]

#: Label code of a label value that no vertex or edge of the graph carries: it never matches.
IMPOSSIBLE_LABEL = -2
#: Entries from which a graph's build orders them in O(m) (:mod:`.csr_order`, numba: loading it
#: costs about a second, once per process) rather than by numpy's O(m log m) sorts.
LINEAR_SORT_MIN = 1 << 20

# Key in the device-data store marking a graph built on the device (value: the key of the arrays
# it was built from); see GraphBase.keep_built_arrays, built_on_device and drop_built_arrays.
_BUILT_ON_DEVICE = "built_on_device"


def _forget(store: dict, prefix: tuple) -> None:
    """Drop the entries of ``store`` whose key is a tuple starting with the items of ``prefix``
    (every entry when ``prefix`` is empty)."""
    if not prefix:
        store.clear()
        return
    n = len(prefix)
    for k in [k for k in store if isinstance(k, tuple) and k[:n] == prefix]:
        del store[k]


class GraphBase:
    """Methods shared by the graph containers (a mixin: no fields, no ``__init__``).

    Subclasses provide the attributes ``n`` (number of vertices), ``keys`` (dense id -> the
    user's node key), ``node_vocab`` and ``edge_vocab`` (label value -> code), and the
    private ``_key_to_id``, ``_derived`` and ``_device_cache`` that only these methods touch.
    """

    __slots__ = ()

    keys: list
    node_vocab: dict
    edge_vocab: dict
    _key_to_id: dict | None
    _derived: dict
    _device_cache: dict

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

    def forget_derived(self, prefix: Hashable | None = None, *more: Hashable) -> None:
        """Drop derived values: all, or those whose key is a tuple starting with the given items.

        Parameters
        ----------
        prefix : hashable, optional
            First item of the keys to drop; None (and no ``more``) drops every derived value.
        *more : hashable
            Further leading items the keys must have (``forget_derived("ooc", 1)`` drops the
            keys ``("ooc", 1, ...)`` and keeps ``("ooc", 0, ...)``).
        """
        _forget(self._derived, () if prefix is None and not more else (prefix, *more))

    # ------------------------------------------------------------------ device data
    def device_data(self, key: Hashable, build: Callable[[], Any] | None = None) -> Any:
        """Data of this graph held on a device (uploaded arrays, indexes), built once and kept.

        The store is separate from :meth:`derived`: its values live in one process's device
        memory, so :meth:`without_local_caches` drops them, and an engine frees its own with
        :meth:`forget_device_data`. Device data of several GPUs coexist: callers put the device
        id in the key (``("arrays", device_id)``).

        Parameters
        ----------
        key : hashable
            What the value is (and on which device).
        build : callable, optional
            Computes the value when it is not stored yet. None only looks: the stored value,
            or None when there is none (nothing is stored).

        Returns
        -------
        object
            The stored (or newly built) value.
        """
        try:
            return self._device_cache[key]
        except KeyError:
            if build is None:
                return None
            # setdefault: threads racing on one key (one device) all get the first value stored
            return self._device_cache.setdefault(key, build())

    def has_device_data(self, key: Hashable) -> bool:
        """Whether device data is stored under ``key`` (as :meth:`has_derived` for derived
        values)."""
        return key in self._device_cache

    def forget_device_data(self, prefix: Hashable | None = None, *more: Hashable) -> None:
        """Drop device data: all, or the values whose key is a tuple starting with the given
        items (as :meth:`forget_derived`).

        Dropping all of it also drops the mark of a graph built on the device (its arrays are
        gone: the engines upload the host mirror from then on).

        Parameters
        ----------
        prefix : hashable, optional
            First item of the keys to drop; None (and no ``more``) drops everything.
        *more : hashable
            Further leading items the keys must have (``forget_device_data("cuda_temporal",
            0)`` drops device 0's entry and keeps the other devices').
        """
        _forget(self._device_cache, () if prefix is None and not more else (prefix, *more))

    @property
    def built_on_device(self) -> bool:
        """Whether the graph was built on a device (cuDF / CuPy columns,
        :mod:`nx_gpumine.inputs.device`) and still holds the arrays it was built from."""
        return bool(self._device_cache.get(_BUILT_ON_DEVICE))

    def keep_built_arrays(self, key: Hashable, arrays: dict) -> None:
        """Keep the device arrays the graph was built from under ``key`` and mark the graph
        built on the device (:attr:`built_on_device`); :mod:`nx_gpumine.inputs.device` calls
        it once, right after building the graph.

        Parameters
        ----------
        key : hashable
            Where :meth:`device_data` finds them.
        arrays : dict
            Array name -> device array.
        """
        self._device_cache[key] = arrays
        self._device_cache[_BUILT_ON_DEVICE] = key

    def drop_built_arrays(self) -> None:
        """Let go of the device arrays the graph was built from (:meth:`keep_built_arrays`):
        the engines use the host mirror from then on (an out-of-core run that needs the
        device's memory for its partitions drops them). Nothing happens for a graph built on
        the host."""
        key = self._device_cache.pop(_BUILT_ON_DEVICE, None)
        if key is not None:
            self._device_cache.pop(key, None)

    # ------------------------------------------------------------------ process-local state
    def without_local_caches(self) -> GraphBase:
        """A shallow copy without what is local to this process: device data, derived values
        (plans, indexes) and the key map. Shipped to other processes (Dask workers), it has
        them rebuilt there on first use instead of carrying what this process happened to
        build. The arrays are shared with this graph, not copied.

        Returns
        -------
        GraphBase
            The copy (same class).
        """
        out = copy.copy(self)
        out._device_cache = {}
        out._derived = {}
        out._key_to_id = None
        return out

    def share_key_map(self, other: GraphBase) -> None:
        """Use ``other``'s key map (built or not yet) as this graph's: for a graph with the
        same ``keys`` (a slice of ``other``'s edges).

        Parameters
        ----------
        other : GraphBase
            The graph whose keys this graph shares.
        """
        self._key_to_id = other._key_to_id

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
        """Code of a node label value, ``IMPOSSIBLE_LABEL`` if no vertex carries it or if it
        matches nothing (:func:`~nx_gpumine.inputs.labels.never_equal`)."""
        return _lookup(self.node_vocab, value)

    def encode_edge_label(self, value: Hashable) -> int:
        """Code of an edge label value, ``IMPOSSIBLE_LABEL`` if no edge carries it or if it
        matches nothing (:func:`~nx_gpumine.inputs.labels.never_equal`)."""
        return _lookup(self.edge_vocab, value)


def _lookup(vocab: dict, value: Hashable) -> int:
    """``vocab``'s code of a queried label value (a value matching nothing has none)."""
    if type(value) is Unmatchable or never_equal(value):
        return IMPOSSIBLE_LABEL
    return vocab.get(value, IMPOSSIBLE_LABEL)
