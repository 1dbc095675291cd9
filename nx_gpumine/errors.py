"""Exceptions raised by nx_gpumine.

Every error names the problem: the column, attribute, node or parameter at fault.
"""

from __future__ import annotations


class GpumineError(Exception):
    """Base class of every error nx_gpumine raises on purpose."""


class InputError(GpumineError, ValueError):
    """The input graph, frame or array is malformed (missing column, nulls, NaN times...)."""


class UnsupportedGraphError(GpumineError, TypeError):
    """The graph kind is not supported (multigraph, mixed directedness...)."""


class QueryError(GpumineError, ValueError):
    """A pattern or temporal motif query is invalid (negative window, unknown node...)."""


class EngineUnavailableError(GpumineError, RuntimeError):
    """The requested engine cannot run here (no CuPy, no GPU...)."""


class CapacityError(GpumineError, RuntimeError):
    """A result does not fit where it must go and cannot grow (e.g. a count past 2**128 - 1)."""


class WorkLimitError(CapacityError):
    """A search would exceed the work the caller allowed (``max_work=``): refused before it runs.

    Attributes
    ----------
    estimate : object
        The :class:`~nx_gpumine.execution.estimate.Estimate` the decision was made on.
    """

    def __init__(self, message: str, estimate: object = None) -> None:
        super().__init__(message)
        self.estimate = estimate
