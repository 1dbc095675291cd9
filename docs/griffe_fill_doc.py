"""Griffe extension for the API reference: docstrings completed at import by
``nx_gpumine.interfaces.paramdocs.fill_doc`` are read from the imported function.

mkdocstrings reads the source without running it, so the ``{name}`` placeholders that
``fill_doc`` replaces would show as such; this extension puts the runtime docstring (what
``help()`` shows) in their place. Loaded from ``mkdocs.yml`` (handler option ``extensions``).
"""

from __future__ import annotations

import inspect
from typing import Any

import griffe


class FillDoc(griffe.Extension):
    """Use the runtime ``__doc__`` of functions decorated with ``fill_doc``."""

    def on_function_instance(self, *, node: Any, func: griffe.Function, **kwargs: Any) -> None:
        if func.docstring is None or not any("fill_doc" in str(d.value) for d in func.decorators):
            return
        doc = griffe.dynamic_import(func.path).__doc__
        func.docstring.value = inspect.cleandoc(doc)
