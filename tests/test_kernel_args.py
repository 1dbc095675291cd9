"""Kernel argument structs: the header is parsed right and the host packing matches the compiler.

The numpy dtype that :class:`~nx_gpumine.engines.cuda.kernel_args.KernelStruct` builds from a
header's struct is compared with ``sizeof`` / ``offsetof`` as nvcc's host compiler lays the same
struct out (no GPU needed), under every macro combination that changes a field's type; on a GPU
the module's own layout probe does the same at the first compile (``check_layout``).
"""

from __future__ import annotations

import importlib
import shutil
import subprocess

import numpy as np
import pytest

from nx_gpumine.engines.cuda import kernel_args
from nx_gpumine.engines.cuda._runtime import KERNEL_DIR, preprocess_source
from nx_gpumine.engines.cuda.kernel_args import (
    KernelStruct,
    expected_layout,
    layout_probe_source,
    struct_fields,
    temporal_types,
)

NVCC = shutil.which("nvcc")
#: Engine modules that declare kernel structs (imported so that every struct is declared).
STRUCT_MODULES = ("nx_gpumine.engines.cuda.static", "nx_gpumine.engines.cuda.temporal")
#: Macro sets that change a struct field's C type (temporal: idx_t, tm_t).
VARIANTS = [{}, {"IDX64": 1}, {"TFLOAT": 1}, {"IDX64": 1, "TFLOAT": 1}]


def _declared() -> list[KernelStruct]:
    for name in STRUCT_MODULES:
        importlib.import_module(name)
    return list(kernel_args.DECLARED)


def test_fields_are_parsed_in_order():
    src = """
    // a comment
    struct S {
      const int* __restrict__ a;  // trailing comment
      i64 b;
      /* block */ unsigned char* c;
      tm_t d;
    };
    """
    assert struct_fields(src, "S") == (
        ("a", "int", True),
        ("b", "i64", False),
        ("c", "unsigned char", True),
        ("d", "tm_t", False),
    )


@pytest.mark.parametrize("body", ["int a[4];", "int a : 3;", "void f();", "struct T t; int x, y;"])
def test_unsupported_members_are_refused(body):
    with pytest.raises(ValueError, match="unsupported member"):
        struct_fields(f"struct S {{ {body} }};", "S")


def test_missing_struct_is_refused():
    with pytest.raises(ValueError, match="not found"):
        struct_fields("struct T { int a; };", "S")


def test_pack_needs_every_field_by_name():
    s = KernelStruct("temporal_common.cuh", "TGraph", temporal_types)
    pointers = {n: None for n, _, ptr in s.fields if ptr}
    with pytest.raises(TypeError, match="missing fields"):
        s.pack({}, **pointers)
    with pytest.raises(TypeError, match="unknown fields"):
        s.pack({}, **pointers, n=1, m=2, bogus=3)
    v = s.pack({"IDX64": 1}, **pointers, n=7, m=1 << 40)
    assert v.dtype == s.dtype({"IDX64": 1}) and v["m"][0] == 1 << 40 and v["n"][0] == 7
    assert s.dtype({})["m"] == np.int32 and s.dtype({"TFLOAT": 1}).itemsize == s.dtype().itemsize


def test_every_engine_struct_has_a_dtype():
    structs = _declared()
    assert structs, "no kernel struct declared"
    for s in structs:
        for defines in VARIANTS:
            dt = s.dtype(defines)
            assert dt.names == s.names and dt.isalignedstruct


def _header_variants() -> list[tuple[str, dict]]:
    headers = dict.fromkeys(s.header for s in _declared())
    return [(h, d) for h in headers for d in (VARIANTS if "temporal" in h else VARIANTS[:1])]


@pytest.mark.skipif(NVCC is None, reason="nvcc not on PATH")
@pytest.mark.parametrize(
    "header,defines",
    _header_variants(),
    ids=lambda v: v if isinstance(v, str) else ",".join(v) or "default",
)
def test_host_compiler_layout_equals_the_packing(tmp_path, header, defines):
    """nvcc lays each struct of a header out as the numpy dtype says (host ``offsetof``) and
    compiles the device-side layout probe."""
    structs = tuple(s for s in _declared() if s.header == header)
    src = "#include <cstddef>\n#include <cstdio>\n" + preprocess_source(header, KERNEL_DIR)
    src += layout_probe_source(structs)
    src += "int main() {\n"
    for s in structs:
        src += f'  std::printf("%zu\\n", sizeof({s.name}));\n'
        for name in s.names:
            src += f'  std::printf("%zu\\n", offsetof({s.name}, {name}));\n'
    src += "  return 0;\n}\n"
    (tmp_path / "layout.cu").write_text(src)
    flags = [f"-D{k}={v}" for k, v in defines.items()]
    exe = tmp_path / "layout"
    cmd = [NVCC, "-std=c++17", "-arch=sm_90", *flags, "-o", str(exe), str(tmp_path / "layout.cu")]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    assert [int(x) for x in out.split()] == expected_layout(structs, defines)


@pytest.mark.parametrize("defines", VARIANTS, ids=lambda d: ",".join(d) or "default")
def test_packer_bytes_equal_a_field_by_field_fill(defines):
    """Every declared struct: the packer's row write gives the bytes of assigning each field
    in turn (pointers: device arrays, None, integer addresses), padding zero."""
    from types import SimpleNamespace

    for s in _declared():
        values, want = {}, np.zeros(1, s.dtype(defines))
        for i, (name, ctype, pointer) in enumerate(s.fields):
            if pointer:
                address = (1 << 40) + 8 * i
                values[name] = (SimpleNamespace(data=SimpleNamespace(ptr=address)), None, address)[
                    i % 3
                ]
                want[name] = 0 if i % 3 == 1 else address
            else:
                values[name] = want[name] = (-i if ctype == "int" else (1 << 20) + i) if i else 3
        got = s.packer(defines)(values)
        assert got.dtype == want.dtype and got.shape == (1,) and got.flags.writeable
        assert got.tobytes() == want.tobytes() == s.pack(defines, **values).tobytes()
        assert s.packer(defines) is s.packer(dict(defines))  # built once per macros
        first = s.names[0]
        with pytest.raises(
            TypeError, match=rf"missing fields \['{first}'\], unknown fields \['bogus'\]"
        ):
            s.packer(defines)({**{k: v for k, v in values.items() if k != first}, "bogus": 1})
