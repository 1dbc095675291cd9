"""Edge files read block by block (``pyarrow.csv.open_csv``) give what one whole read gives.

``block_size`` is made small so that a few-kilobyte file is parsed in many blocks; a value in a
late block that changes a column's type (float after ints, text after numbers, a text or empty
id after integer ids) must give the whole-file result, never a truncated or refused value.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest

from nx_gpumine.inputs.files import CSV_BLOCK_SIZE, FileError, read_edge_file

pytest.importorskip("pyarrow")

WHOLE = 1 << 26  # one block for these files: pyarrow infers over all of it
SMALL = (64, 300, 4096)
N = 3000


def _lines(delim: str = " ", header: bool = False) -> list[str]:
    rng = np.random.default_rng(7)
    src = rng.integers(0, 50_000, N)
    dst = rng.integers(0, 50_000, N)
    t = np.sort(rng.integers(0, 10**9, N))
    rows = [delim.join(map(str, r)) for r in zip(src, dst, t, strict=True)]
    return ([delim.join(("src", "dst", "time"))] if header else []) + rows


def _read(lines: list[str], block_size: int, **kw: Any) -> Any:
    data = ("\n".join(lines) + "\n").encode()
    assert block_size >= WHOLE or len(data) > 4 * block_size  # several blocks
    return read_edge_file(io.BytesIO(data), time_col=2, block_size=block_size, **kw)


def _columns(ef: Any) -> dict:
    return {c: ef.table.column(c).to_pylist() for c in ef.table.column_names}


@pytest.fixture
def streamed_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail on a whole-file ``pyarrow.csv.read_csv``: the read must stream (small blocks)."""
    import pyarrow.csv as pacsv

    real = pacsv.read_csv

    def read_csv(source: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs["read_options"].block_size < WHOLE:
            raise AssertionError("a whole-file read_csv where streaming was expected")
        return real(source, *args, **kwargs)

    monkeypatch.setattr(pacsv, "read_csv", read_csv)


@pytest.mark.parametrize("block_size", SMALL)
@pytest.mark.parametrize("delim,header", [(" ", False), (",", True), ("\t", False)])
def test_blocks_equal_a_whole_read(
    block_size: int, delim: str, header: bool, streamed_only: None
) -> None:
    lines = _lines(delim, header)
    ef = _read(lines, block_size)
    whole = _read(lines, WHOLE)
    assert ef.table.schema == whole.table.schema
    assert [str(t) for t in ef.table.schema.types] == ["int64"] * 3
    assert _columns(ef) == _columns(whole)
    assert (ef.header, ef.columns, ef.num_columns) == (whole.header, whole.columns, 3)
    body = lines[1:] if header else lines
    want = np.array([[int(x) for x in s.split(delim)] for s in body])
    for j, role in enumerate(("source", "target", "time")):
        col = ef.table.column(role)
        assert col.num_chunks == 1  # one array, no concatenation left to the caller
        np.testing.assert_array_equal(col.to_numpy(), want[:, j])


@pytest.mark.parametrize("block_size", SMALL)
def test_float_in_a_late_block_is_not_truncated(block_size: int, streamed_only: None) -> None:
    lines = _lines()
    lines[-3] = "1 2 1700000000.75"
    ef = _read(lines, block_size)
    assert str(ef.table.column("time").type) == "double"
    assert ef.table.column("time")[N - 3].as_py() == 1700000000.75
    assert _columns(ef) == _columns(_read(lines, WHOLE))
    assert str(ef.table.column("source").type) == "int64"


@pytest.mark.parametrize("block_size", SMALL)
def test_values_only_in_late_blocks(block_size: int, streamed_only: None) -> None:
    """A first block with no value in a column (nulls) and numbers later: int64, then float."""
    lines = [f"{i},{i + 1},{i}," for i in range(N)]
    lines[-1] = f"{N},{N + 1},{N},7"
    ef = _read(lines, block_size, label_col=3)
    assert str(ef.table.column("label").type) == "int64"
    assert ef.table.column("label").to_pylist() == [None] * (N - 1) + [7]
    assert _columns(ef) == _columns(_read(lines, WHOLE, label_col=3))
    lines[-2] = f"{N},{N + 1},{N},2.5"
    ef = _read(lines, block_size, label_col=3)
    assert str(ef.table.column("label").type) == "double"
    assert ef.table.column("label").to_pylist()[-2:] == [2.5, 7.0]
    assert _columns(ef) == _columns(_read(lines, WHOLE, label_col=3))


@pytest.mark.parametrize("block_size", SMALL)
def test_text_time_in_a_late_block_is_the_same_error(block_size: int) -> None:
    lines = _lines()
    lines[-5] = "1 2 soon"
    with pytest.raises(FileError) as whole:
        _read(lines, WHOLE)
    with pytest.raises(FileError) as blocks:
        _read(lines, block_size)
    assert str(blocks.value) == str(whole.value)
    assert "the time column 'f2' holds text ('soon')" in str(blocks.value)


@pytest.mark.parametrize("block_size", SMALL)
@pytest.mark.parametrize("late_id", ["alice", "NA", '""', '" 42"', "9223372036854775808"])
def test_a_late_id_that_is_not_an_int64(block_size: int, late_id: str, streamed_only: None) -> None:
    lines = [s.replace(" ", ",") for s in _lines()]
    lines[-2] = f"17,{late_id},5"
    ef = _read(lines, block_size)
    whole = _read(lines, WHOLE)
    assert ef.table.schema == whole.table.schema
    assert _columns(ef) == _columns(whole)
    if late_id == '" 42"':  # a quoted id with a space is still an integer
        assert str(ef.table.column("target").type) == "int64"
        assert ef.table.column("target")[N - 2].as_py() == 42
    else:  # text ids for every row, as in a whole read
        assert str(ef.table.column("source").type) == "string"
        assert ef.table.column("source")[0].as_py() == lines[0].split(",")[0]


@pytest.mark.parametrize("block_size", SMALL)
def test_text_label_after_numbers(block_size: int) -> None:
    lines = [f"{s} {i % 7}" for i, s in enumerate(_lines())]
    lines[-1] = lines[-1].rsplit(" ", 1)[0] + " transfer"
    ef = _read(lines, block_size, label_col=3)
    assert str(ef.table.column("label").type) == "string"
    assert _columns(ef) == _columns(_read(lines, WHOLE, label_col=3))


@pytest.mark.parametrize("block_size", SMALL)
def test_a_bad_row_in_a_late_block_names_its_line(block_size: int, streamed_only: None) -> None:
    lines = _lines()
    lines[N - 10] = "1 2"
    with pytest.raises(FileError, match=f"line {N - 9}: expected 3 fields") as blocks:
        _read(lines, block_size)
    with pytest.raises(FileError) as whole:
        _read(lines, WHOLE)
    assert str(blocks.value) == str(whole.value)


def test_default_block_size_and_long_rows() -> None:
    assert CSV_BLOCK_SIZE >= 1 << 16
    long = "x" * (3 * 4096)  # a row longer than the block: read whole, as before
    data = f"1,2,3,a\n4,5,6,{long}\n7,8,9,b\n".encode()
    ef = read_edge_file(io.BytesIO(data), time_col=2, label_col=3, block_size=4096)
    assert ef.table.column("label").to_pylist() == ["a", long, "b"]
