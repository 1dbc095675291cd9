"""Parameter descriptions shared by the static and temporal public functions.

``devices=`` and ``max_device_bytes=`` mean the same on :func:`~nx_gpumine.count_subgraphs` and
:func:`~nx_gpumine.count_motifs` except for what is split or streamed; their text lives here
once, and :func:`fill_doc` writes it into each docstring at import (``help()`` shows the whole
text). In the source, a parameter's description is a single line ``{name}``; parameters shared
whole (``client``, ``max_device_bytes``, ``devices``: :func:`run_options_doc`) are one line
``{name}`` at the indentation of a parameter.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import TypeVar

__all__ = [
    "max_device_bytes_doc",
    "devices_doc",
    "run_options_doc",
    "static_run_options_doc",
    "fill_doc",
]

_F = TypeVar("_F", bound=Callable)

#: Width of a filled description line, indentation included.
WIDTH = 96

#: A numpydoc parameter entry: its ``name : type`` line and its description.
ParamEntry = tuple[str, str]


def max_device_bytes_doc(over_budget: str, per_device: str) -> str:
    """The ``max_device_bytes`` description.

    Parameters
    ----------
    over_budget : str
        What happens to a call whose estimated need exceeds the budget.
    per_device : str
        What the budget means with several devices, after "it applies to each device".
    """
    return (
        "Device memory the CUDA engine may use in this call (graph data and working memory); "
        f"{over_budget} (``docs/out_of_core.md``). Default: ``nx_gpumine.set_max_device_bytes``"
        " / ``NX_GPUMINE_MAX_DEVICE_BYTES``, else the total device memory minus a safety "
        f"margin. Ignored by the CPU engine. With ``devices``, it applies to each device"
        f"{per_device}."
    )


def devices_doc(work: str) -> str:
    """The ``devices`` description; ``work`` names the units the GPUs share."""
    return (
        f"GPUs of this host to split the work over (one thread per GPU, {work}; see "
        "``docs/multigpu.md``): ``N`` = the first N devices, a list of device ids (repeats "
        'allowed), ``"all"``. None (default): the current device only, or the '
        "``NX_GPUMINE_DEVICES`` environment default for calls on the CUDA engine. Results are "
        'identical to one device\'s. Not with ``engine="cpu"`` or Dask.'
    )


def run_options_doc(max_device_bytes: str, devices: str) -> list[ParamEntry]:
    """The ``client``, ``max_device_bytes`` and ``devices`` entries of a counting function.

    Parameters
    ----------
    max_device_bytes, devices : str
        Their descriptions (:func:`max_device_bytes_doc`, :func:`devices_doc`).
    """
    return [
        (
            "client : distributed.Client, optional",
            'Run on this Dask cluster; ``engine`` ("auto", "cpu", "cuda") then names the engine '
            "of every worker.",
        ),
        ("max_device_bytes : int, optional", max_device_bytes),
        ('devices : int, list of int or "all", optional', devices),
    ]


def _wrap(text: str, indent: str) -> str:
    return textwrap.fill(
        text,
        width=WIDTH,
        initial_indent=indent,
        subsequent_indent=indent,
        break_on_hyphens=False,
        break_long_words=False,
    )


def static_run_options_doc(work: str) -> list[ParamEntry]:
    """The ``client``, ``max_device_bytes`` and ``devices`` entries of a static counting
    function (the out-of-core static path runs on one GPU); ``work``: what the GPUs share."""
    return run_options_doc(
        max_device_bytes_doc(
            "a graph whose estimated need exceeds it runs out of core",
            "; a graph that would run out of core on several distinct devices raises "
            ":class:`~nx_gpumine.errors.CapacityError` (the out-of-core static path runs on one "
            "GPU)",
        ),
        devices_doc(work),
    )


def fill_doc(**texts: str | Sequence[ParamEntry]) -> Callable[[_F], _F]:
    """Decorator: replace each docstring line that holds only ``{name}`` by ``texts[name]``.

    A text is wrapped at :data:`WIDTH` with that line's indentation; a sequence of
    :data:`ParamEntry` becomes those parameter entries, each ``name : type`` line at that
    indentation and its description wrapped four spaces deeper.

    Raises
    ------
    ValueError
        At import, when a placeholder is missing from the docstring.
    """

    def apply(func: _F) -> _F:
        lines = (func.__doc__ or "").split("\n")
        for name, text in texts.items():
            marker = "{" + name + "}"
            hits = [i for i, line in enumerate(lines) if line.strip() == marker]
            if not hits:
                raise ValueError(f"{func.__qualname__}: no {marker} line in the docstring")
            for i in hits:
                indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
                if isinstance(text, str):
                    lines[i] = _wrap(text, indent)
                else:
                    entries = (
                        f"{indent}{head}\n{_wrap(desc, indent + '    ')}" for head, desc in text
                    )
                    lines[i] = "\n".join(entries)
        func.__doc__ = "\n".join(lines)
        return func

    return apply
