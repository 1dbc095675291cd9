"""Kernel arguments as structs: one C declaration, packed on the host, layout checked on the device.

A kernel family takes its graph view and its launch parameters as a few structs passed by value
(``static_dfs(const Graph g, const DfsPlan p, const DfsLaunch a)``) instead of dozens of
positional arguments kept in step by hand. The struct's C declaration in the family's header
(``kernels/*.cuh``) is the only declaration:

* :class:`KernelStruct` reads the struct's fields from that header (one field per line,
  ``[const] TYPE [*] [__restrict__] NAME;``: the grammar the headers keep to) and builds, for a
  compiled module's macros (``idx_t`` and ``tm_t`` depend on ``IDX64`` / ``TFLOAT``), the
  aligned numpy dtype of the same C layout (:meth:`KernelStruct.dtype`);
* :meth:`KernelStruct.pack` (per launch: :meth:`KernelStruct.packer`) fills one value of it by
  field name (CuPy arrays or ``None`` for
  pointers, numbers for scalars; a field left out or unknown is an error), which
  ``cupy.RawKernel`` passes to the kernel by value;
* :func:`layout_probe_source` is a kernel that writes ``sizeof`` and every field's offset
  (NVRTC has no ``offsetof``: the offsets are pointer differences inside a local object);
  :func:`check_layout` runs it once per compiled module and raises when the numpy dtype and
  the compiler disagree, so a header edit that the parser misreads fails loudly at the first
  launch instead of passing garbage. The CPU test suite checks the same layouts against the
  host compiler (``tests/test_kernel_args.py``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

#: The kernel sources (``_runtime.KERNEL_DIR``; not imported from there, which imports this).
_KERNEL_DIR = Path(__file__).resolve().parent / "kernels"

__all__ = [
    "KernelStruct",
    "StructPacker",
    "layout_probe_source",
    "check_layout",
    "struct_fields",
    "expected_layout",
    "temporal_types",
    "SCALAR_TYPES",
    "DECLARED",
]

#: C scalar types the headers' structs use, as numpy type codes (pointers are ``u8``).
SCALAR_TYPES = {
    "int": "i4",
    "unsigned": "u4",
    "i64": "i8",
    "u64": "u8",
    "double": "f8",
    "float": "f4",
    "unsigned char": "u1",
}

_FIELD = re.compile(
    r"^(?:const\s+)?(?P<type>[A-Za-z_][A-Za-z0-9_ ]*?)\s*(?P<ptr>\*)?\s*(?:__restrict__\s+)?"
    r"(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*;$"
)


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def struct_fields(source: str, name: str) -> tuple[tuple[str, str, bool], ...]:
    """The fields of ``struct name { ... };`` in ``source``, in declaration order.

    Parameters
    ----------
    source : str
        C++ source (a header's text).
    name : str
        The struct's name.

    Returns
    -------
    tuple of (str, str, bool)
        ``(field name, C base type, is a pointer)`` per field.

    Raises
    ------
    ValueError
        The struct is missing, or a line of its body is not a one-field declaration of the
        grammar above (arrays, bit fields, nested structs and methods are not accepted).
    """
    match = re.search(rf"\bstruct\s+{name}\s*\{{(.*?)\}};", _strip_comments(source), re.S)
    if match is None:
        raise ValueError(f"struct {name} not found")
    out = []
    for line in match.group(1).split("\n"):
        line = " ".join(line.split())
        if not line:
            continue
        m = _FIELD.match(line)
        if m is None:
            raise ValueError(f"struct {name}: unsupported member declaration {line!r}")
        out.append((m.group("name"), m.group("type"), m.group("ptr") is not None))
    if not out:
        raise ValueError(f"struct {name} has no fields")
    return tuple(out)


def temporal_types(defines: Mapping[str, int]) -> dict[str, str]:
    """The temporal family's macro-dependent types (``kernels/temporal_common.cuh``)."""
    return {
        "idx_t": "i8" if defines.get("IDX64") else "i4",
        "tm_t": "f8" if defines.get("TFLOAT") else "i8",
    }


#: Every struct declared so far (the layout tests check each under its family's macros).
DECLARED: list[KernelStruct] = []


def _no_types(defines: Mapping[str, int]) -> dict[str, str]:
    return {}


@dataclass(frozen=True)
class KernelStruct:
    """A struct that kernels take by value, declared once in a kernel header.

    Parameters
    ----------
    header : str
        The header (a file in ``engines/cuda/kernels``) that declares the struct.
    name : str
        The struct's name there.
    types : callable, optional
        ``types(defines)``: numpy codes of the family's macro-dependent scalar types
        (e.g. :func:`temporal_types`); the fixed ones are :data:`SCALAR_TYPES`.
    """

    header: str
    name: str
    types: Callable[[Mapping[str, int]], dict[str, str]] = field(default=_no_types)

    def __post_init__(self) -> None:
        if self not in DECLARED:
            DECLARED.append(self)

    @functools.cached_property
    def fields(self) -> tuple[tuple[str, str, bool], ...]:
        """``(name, C type, is a pointer)`` per field, read from the header once."""
        return struct_fields((_KERNEL_DIR / self.header).read_text(), self.name)

    @property
    def names(self) -> tuple[str, ...]:
        """The field names, in declaration order."""
        return tuple(f[0] for f in self.fields)

    def dtype(self, defines: Mapping[str, int] | None = None) -> np.dtype:
        """The aligned numpy dtype of the struct under ``defines`` (the module's macros)."""
        return _dtype(self, tuple(sorted((defines or {}).items())))

    def packer(self, defines: Mapping[str, int] | None = None) -> StructPacker:
        """The packer of this struct under ``defines`` (built once per struct and macros)."""
        return _packer(self, tuple(sorted((defines or {}).items())))

    def pack(self, defines: Mapping[str, int] | None = None, /, **values: Any) -> np.ndarray:
        """One struct value, every field given by name (``self.packer(defines)(**values)``).

        Parameters
        ----------
        defines : mapping, optional
            The compiled module's macros (they fix ``idx_t`` / ``tm_t``).
        **values
            One per field: a CuPy array (its device pointer), ``None`` (a null pointer) or an
            integer address for pointers; a number for scalars.

        Returns
        -------
        numpy.ndarray
            A one-element array of :meth:`dtype`, the form ``cupy.RawKernel`` passes by value.

        Raises
        ------
        TypeError
            A field is missing or unknown.
        """
        return self.packer(defines)(values)


class StructPacker:
    """Packs one :class:`KernelStruct` under fixed macros: the launches' per-call path.

    The dtype and the field order are decided once; a value is one row of the fields in
    declaration order written into a zeroed one-element array (padding bytes stay zero), some
    4 us for a 20-field struct where field-by-field assignment took 50-60 us.

    Parameters
    ----------
    struct : KernelStruct
        The struct.
    defines : mapping
        The compiled module's macros.
    """

    def __init__(self, struct: KernelStruct, defines: Mapping[str, int]) -> None:
        self.struct = struct
        self.dtype = struct.dtype(defines)
        self._order = tuple((name, pointer) for name, _, pointer in struct.fields)
        self._names = frozenset(struct.names)

    def __call__(self, values: Mapping[str, Any] | None = None, /, **more: Any) -> np.ndarray:
        """One value from ``values`` and/or keyword arguments, every field by name.

        Raises
        ------
        TypeError
            A field is missing or unknown.
        """
        if values is None:
            values = more
        elif more:
            values = {**values, **more}
        if values.keys() != self._names:
            missing = [n for n in self.struct.names if n not in values]
            unknown = [n for n in values if n not in self._names]
            raise TypeError(
                f"struct {self.struct.name}: missing fields {missing}, unknown fields {unknown}"
            )
        row = [_address(values[n]) if pointer else values[n] for n, pointer in self._order]
        out = np.zeros(1, self.dtype)
        out[0] = tuple(row)
        return out


@functools.cache
def _packer(struct: KernelStruct, defines: tuple[tuple[str, int], ...]) -> StructPacker:
    return StructPacker(struct, dict(defines))


@functools.cache
def _dtype(struct: KernelStruct, defines: tuple[tuple[str, int], ...]) -> np.dtype:
    types = {**SCALAR_TYPES, **struct.types(dict(defines))}
    formats = []
    for name, ctype, pointer in struct.fields:
        if pointer:
            formats.append("u8")
        elif ctype in types:
            formats.append(types[ctype])
        else:
            raise ValueError(f"struct {struct.name}: field {name} has unknown type {ctype!r}")
    return np.dtype({"names": list(struct.names), "formats": formats}, align=True)


def _address(value: Any) -> int:
    if value is None:
        return 0
    if type(value) is int:
        return value
    if isinstance(value, np.integer):
        return int(value)
    return value.data.ptr


def layout_probe_source(structs: tuple[KernelStruct, ...]) -> str:
    """A kernel ``kernel_args_layout(u64* out)`` writing each struct's size and field offsets.

    For each struct in order: ``sizeof``, then the offset of each field, in one flat array
    (:func:`check_layout` reads it). Appended to the module source that declares the structs.
    """
    lines = [
        'extern "C" __global__ void kernel_args_layout(unsigned long long* out) {',
        "  int i = 0;",
    ]
    for s in structs:
        lines.append(f"  {{ {s.name} v; const char* b = (const char*)&v;")
        lines.append(f"    out[i++] = sizeof({s.name});")
        for name in s.names:
            lines.append(f"    out[i++] = (unsigned long long)((const char*)&v.{name} - b);")
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def expected_layout(structs: tuple[KernelStruct, ...], defines: Mapping[str, int]) -> list[int]:
    """What :func:`layout_probe_source`'s kernel must write when the numpy dtypes are right."""
    out = []
    for s in structs:
        dt = s.dtype(defines)
        out.append(dt.itemsize)
        out.extend(dt.fields[n][1] for n in s.names)
    return out


def check_layout(
    module: Any, structs: tuple[KernelStruct, ...], defines: Mapping[str, int]
) -> None:
    """Run the module's layout probe once and compare it with the numpy dtypes.

    Parameters
    ----------
    module : cupy.RawModule
        A module compiled from a source with :func:`layout_probe_source` appended.
    structs : tuple of KernelStruct
        The structs the probe was generated for, in the same order.
    defines : mapping
        The module's macros.

    Raises
    ------
    RuntimeError
        The compiler's layout differs from the numpy dtype of some struct.
    """
    import cupy as cp

    want = expected_layout(structs, defines)
    got = cp.zeros(len(want), dtype=np.uint64)
    module.get_function("kernel_args_layout")((1,), (1,), (got,))
    have = [int(x) for x in got.get()]
    if have != want:
        raise RuntimeError(
            "kernel argument layout differs between the CUDA compiler and the host packing: "
            f"{[s.name for s in structs]} compiled {have}, packed {want}"
        )
