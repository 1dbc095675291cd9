"""Label values and their integer codes, shared by every graph and query.

A label is the value of a node or edge attribute (or the tuple of several attributes' values),
read as NetworkX's categorical matchers read it: ``data.get(attr, default)``
(:class:`LabelSpec`). Graphs store labels as small integer codes into a vocabulary (value ->
code, :func:`encode_labels`), and queries are encoded with the data graph's vocabulary.

Labels are compared with ``==``, as NetworkX's categorical matchers compare them, so a value
that is not equal to itself (NaN, ``pandas.NaT``, ``pandas.NA``: :func:`never_equal`) matches
nothing, not even the same object: each occurrence on the data side gets a code of its own
(kept under an :class:`Unmatchable`), and a query value that matches nothing has no code.
NetworkX's ``vf2pp_*`` functions look labels up in dicts instead, where the same NaN object
matches itself: the backend reads their labels with ``LabelSpec.by_identity`` (a
:class:`SameObject` per such value).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError, QueryError

__all__ = [
    "NO_DEFAULT",
    "LabelSpec",
    "EncodedLabels",
    "UNLABELLED",
    "SameObject",
    "Unmatchable",
    "encode_labels",
    "label_attrs",
    "label_value",
    "never_equal",
]

#: Sentinel default of a :class:`LabelSpec` (and of the ``*_label_default`` arguments): no
#: default was given, so a node or edge lacking the label attribute is an error.
NO_DEFAULT = object()

#: Types whose values always equal themselves (the common labels skip the ``x == x`` test).
_SELF_EQUAL_TYPES = frozenset({str, int, bool, bytes, tuple, frozenset, type(None)})


def never_equal(value: Any) -> bool:
    """Whether a label value matches nothing, not even itself: ``value == value`` is not True.

    NetworkX's categorical matchers compare labels with ``==``, so a NaN label (``float("nan")``,
    ``numpy.nan``, ``numpy.float64("nan")``), ``pandas.NaT``, ``numpy.datetime64("NaT")`` or
    ``pandas.NA`` (whose ``==`` is neither True nor False) matches no label, itself included.
    Tuples are compared item by item with an identity test first (Python's rule), so a tuple
    always equals itself; a label made of several attributes is checked part by part by
    :meth:`~nx_gpumine.inputs.labels.LabelSpec.value`.

    Parameters
    ----------
    value : object
        A label value.

    Returns
    -------
    bool
        True when ``value == value`` is not True (or raises).
    """
    kind = type(value)
    if kind in _SELF_EQUAL_TYPES or kind is Unmatchable or kind is SameObject:
        return False
    if kind is float:
        return value != value
    try:
        return not bool(value == value)
    except Exception:  # pandas.NA and the like: == gives no truth value; NetworkX would fail
        return True


class Unmatchable:
    """A label value that matches nothing, not even itself (see :func:`never_equal`).

    Each occurrence of such a value is wrapped in its own :class:`Unmatchable`, which equals only
    itself: the data side gives every occurrence a label code of its own, and a pattern's
    :class:`Unmatchable` is in no vocabulary, so its code is
    :data:`~nx_gpumine.inputs.graph_base.IMPOSSIBLE_LABEL`.

    Parameters
    ----------
    value : object
        The label as the user gave it (NaN, ``pandas.NA``, a tuple holding one...).
    """

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"Unmatchable({self.value!r})"


class SameObject:
    """A label value that is not equal to itself (NaN) but matches the very same object.

    NetworkX's ``vf2pp_*`` functions look labels up in dicts, which test identity before
    ``==``: there one NaN object matches itself (and no other NaN). The ``gpumine`` backend
    wraps such values in a :class:`SameObject` to give the same answers.

    Parameters
    ----------
    value : object
        The label as the user gave it.
    """

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SameObject) and other.value is self.value

    def __hash__(self) -> int:
        return id(self.value)

    def __repr__(self) -> str:
        return f"SameObject({self.value!r})"


def label_value(label: Any) -> Any:
    """The user's label value behind a vocabulary key (:class:`Unmatchable` and
    :class:`SameObject` unwrapped; anything else as it is).

    Parameters
    ----------
    label : object
        A label value or vocabulary key.

    Returns
    -------
    object
    """
    if type(label) is Unmatchable or type(label) is SameObject:
        return label.value
    return label


@dataclass(frozen=True)
class LabelSpec:
    """Which attribute(s) give node or edge labels, and the default for missing values.

    ``attr`` may be a string or a tuple of strings (a label is then the tuple of values, as in
    ``networkx.algorithms.isomorphism.categorical_node_match(["a", "b"], [da, db])``).
    ``default`` is used where the attribute is missing; when it is :data:`NO_DEFAULT` a missing
    value is an error naming the node or edge.

    Labels are compared as NetworkX's categorical matchers compare them, with ``==``: a value
    that is not equal to itself (NaN, ``pandas.NaT``, ``pandas.NA``; see
    :func:`~nx_gpumine.inputs.labels.never_equal`), or a label of several attributes with
    such a part, matches nothing, not even the same object. :meth:`value` gives it as an
    :class:`~nx_gpumine.inputs.labels.Unmatchable`. With ``by_identity`` it matches the very
    same object instead (a :class:`~nx_gpumine.inputs.labels.SameObject`), as NetworkX's
    ``vf2pp_*`` functions, which look labels up in dicts, match it.
    """

    attr: str | tuple[str, ...]
    default: Any = NO_DEFAULT
    by_identity: bool = False

    @classmethod
    def of(
        cls, attr: Any, default: Any = NO_DEFAULT, *, by_identity: bool = False
    ) -> LabelSpec | None:
        """Build a spec from user arguments (``None`` means unlabeled; a spec is kept as is).

        Parameters
        ----------
        attr : str, list or tuple of str, LabelSpec or None
            The label attribute(s).
        default : optional
            Label of nodes / edges without the attribute (a list becomes a tuple).
        by_identity : bool
            A value not equal to itself matches the same object (NetworkX's ``vf2pp_*`` rule)
            instead of nothing (``==``, NetworkX's categorical matchers).

        Returns
        -------
        LabelSpec or None

        Raises
        ------
        QueryError
            An empty list of attributes, or one that is not an attribute name.
        """
        if attr is None:
            return None
        if isinstance(attr, LabelSpec):
            return attr
        if isinstance(attr, list | tuple):
            attr = tuple(attr)
            if not attr:
                raise QueryError("a label attribute list must name at least one attribute")
        names = attr if isinstance(attr, tuple) else (attr,)
        for name in names:
            if not isinstance(name, Hashable) or isinstance(name, tuple):
                raise QueryError(
                    f"a label attribute must be an attribute name (or a list of names), got "
                    f"{type(name).__name__} {name!r:.60}"
                )
            if isinstance(default, list):
                default = tuple(default)
        return cls(attr, default, bool(by_identity))

    def value(self, data: Mapping, where: str) -> Hashable:
        """The label of one node/edge given its attribute dict.

        Parameters
        ----------
        data : mapping
            The node's or edge's attributes.
        where : str
            The node or edge, for error messages.

        Returns
        -------
        hashable
            The value (a tuple for several attributes); a value matching nothing wrapped in an
            :class:`~nx_gpumine.inputs.labels.Unmatchable` (one per call), or with
            ``by_identity`` in a :class:`~nx_gpumine.inputs.labels.SameObject`.

        Raises
        ------
        InputError
            The attribute is missing and there is no default, or a value is not hashable.
        """
        if isinstance(self.attr, tuple):
            d = self.default
            defaults = d if isinstance(d, tuple) else (d,) * len(self.attr)
            vals = []
            for a, d in zip(self.attr, defaults, strict=True):
                vals.append(self._one(data, a, d, where))
            label = tuple(vals)
            # NetworkX compares a label of several attributes part by part with ==; a dict
            # (by_identity) compares the tuples' items by identity first, as Python does
            if not self.by_identity and any(never_equal(v) for v in label):
                return Unmatchable(label)
            return label
        label = self._one(data, self.attr, self.default, where)
        kind = type(label)
        if kind in _SELF_EQUAL_TYPES or (kind is float and label == label):
            return label  # the common labels, without a call
        if never_equal(label):
            return SameObject(label) if self.by_identity else Unmatchable(label)
        return label

    @staticmethod
    def _one(data: Mapping, attr: str, default: Any, where: str) -> Hashable:
        if attr in data:
            v = data[attr]
        elif default is not NO_DEFAULT:
            v = default
        else:
            raise InputError(
                f"label attribute {attr!r} is missing on {where} (give a default to allow that)"
            )
        try:
            hash(v)
        except TypeError as exc:
            raise InputError(f"label {attr!r}={v!r} on {where} is not hashable") from exc
        return v


def label_attrs(spec: LabelSpec, value: Any) -> dict:
    """The attribute dict that carries label ``value`` under ``spec``'s attribute(s).

    Parameters
    ----------
    spec : LabelSpec
        The label's attribute name, or tuple of names.
    value : hashable
        A label value as :meth:`LabelSpec.value` gives it (a tuple for a tuple of names).

    Returns
    -------
    dict
        ``{attr: value}``, or ``{name: part}`` per name of a tuple (a value wrapped as
        :class:`~nx_gpumine.inputs.labels.Unmatchable` or ``SameObject`` is unwrapped).
    """
    value = label_value(value)
    if isinstance(spec.attr, tuple):
        return dict(zip(spec.attr, value, strict=True))
    return {spec.attr: value}


def encode_labels(values: Sequence[Hashable], vocab: dict) -> np.ndarray:
    """Integer codes of label values, growing ``vocab`` with values it does not hold yet.

    A value that matches nothing (NaN... :func:`~nx_gpumine.inputs.labels.never_equal`)
    gets a code of its own at each occurrence, kept in ``vocab`` under an
    :class:`~nx_gpumine.inputs.labels.Unmatchable` (so no query value ever finds it).

    Parameters
    ----------
    values : sequence of hashable
        Label values, one per node or edge.
    vocab : dict
        Value -> code, updated in place (a new value gets code ``len(vocab)``).

    Returns
    -------
    numpy.ndarray
        int32 code per value.
    """
    out = np.empty(len(values), dtype=np.int32)
    for i, v in enumerate(values):
        code = vocab.get(v)
        if code is None:
            key = Unmatchable(v) if never_equal(v) else v
            code = vocab[key] = len(vocab)
        out[i] = code
    return out


@dataclass(frozen=True)
class EncodedLabels:
    """One side's labels (nodes or edges) as :func:`build_static_graph` stores them.

    Attributes
    ----------
    codes : numpy.ndarray, optional
        Label code per vertex / per edge (aligned with the edge arrays); None: unlabelled.
    spec : LabelSpec, optional
        Where the labels came from.
    vocab : dict, optional
        Label value -> code.
    """

    codes: np.ndarray | None = None
    spec: LabelSpec | None = None
    vocab: dict | None = None

    @classmethod
    def encode(cls, spec: LabelSpec, values: Sequence[Hashable]) -> EncodedLabels:
        """``values`` (one per vertex or edge) encoded with a new vocabulary
        (:func:`encode_labels`)."""
        vocab: dict = {}
        return cls(encode_labels(values, vocab), spec, vocab)


#: No labels on that side.
UNLABELLED = EncodedLabels()
