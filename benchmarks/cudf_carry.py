"""Carry cuDF's wheels to the GPU machine in pieces, and install them there.

The GPU machine has no network and one device call carries at most 64 MiB, while cuDF's wheels
(libcudf alone ~290 MB) are far larger. So:

1. Here (a machine with the wheels, e.g. from ``pip download --no-deps --python-version 3.12
   --only-binary=:all: --platform manylinux_2_28_x86_64 cudf-cu13 ...``)::

       python3 benchmarks/cudf_carry.py split WHEEL_DIR [--out .cudf] [--part-mib 54]

   packs the wheels into numbered folders ``.cudf/p1``, ``.cudf/p2``, ... of at most
   ``--part-mib`` MiB each (a wheel larger than the room left is cut into byte chunks), each
   with a ``MANIFEST.json``, and prints the number of parts. Wheels the GPU image already has
   (CuPy and the CUDA libraries of its ``ctk`` extra, NumPy, pyarrow, nvcc) are left out
   (``--exclude``); the wheels that plain ``import cudf`` does not need come last (``LATE``),
   so the first parts alone may do.

2. On the GPU machine, one device call per part, each carrying only ``.cudf/pK`` (files of
   earlier calls stay on the warm machine; ``.cudf/`` is git-ignored)::

       python3 benchmarks/cudf_carry.py assemble [--dir .cudf]

   joins the chunks of every complete wheel (checked against its SHA-256), installs them all
   with ``pip install --no-deps --target .cudf/site`` in one pip call (one call, so wheels
   sharing a namespace folder such as ``nvidia/`` merge), except excluded ones (parts packed
   before the exclusion) whose distribution this Python already has (``.cudf/site`` comes first
   on ``PYTHONPATH`` and would shadow the image's numba, pandas ...), and says which parts are
   still missing, and applies the source fixes the image's NumPy needs (``PATCHES``). Then
   ``PYTHONPATH=.cudf/site python3 -c "import cudf"`` (``check`` does that).
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

MIB = 1 << 20
#: Wheels the GPU image already provides (CuPy for CUDA 13 with its CUDA libraries, NumPy,
#: pyarrow, numba with llvmlite, pandas with its dependencies) or that nothing here needs (the
#: nvcc compiler). A carried copy of numba, llvmlite or pandas would also come first on
#: ``PYTHONPATH`` and shadow the image's versions, which the project's tests run with (cuDF's
#: resolution picked numba 0.64, against the image's NumPy 2.5 and numba 0.68).
EXCLUDE = (
    "cupy_cuda*",
    "numpy-*",
    "pyarrow-*",
    "numba-*",
    "llvmlite-*",
    "pandas-*",
    "python_dateutil-*",  # pandas' own dependencies, on the image with it
    "tzdata-*",
    "packaging-*",  # pytest's
    "nvidia_cublas*",
    "nvidia_cusolver*",
    "nvidia_cusparse*",
    "nvidia_cufft*",
    "nvidia_curand*",
    "nvidia_cuda_nvcc*",
)
#: Wheels ``import cudf`` and frame work do not load (UDF compilation): packed last.
LATE = ("numba_cuda_mlir*", "nvidia_nvvm*")
#: Bytes of each part kept for its MANIFEST.json.
MANIFEST_ROOM = 64 << 10


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(MIB), b""):
            h.update(block)
    return h.hexdigest()


def plan_parts(sizes: list[tuple[str, int]], part_bytes: int) -> list[list[tuple]]:
    """Pack files (in order) into parts of at most ``part_bytes``.

    Returns one list per part of ``(name, offset, length)`` pieces; a file that does not fit in
    the room left in the current part is cut, its first piece filling that room.
    """
    if part_bytes <= 0:
        raise ValueError("part size must be positive")
    parts: list[list[tuple]] = [[]]
    room = part_bytes
    for name, size in sizes:
        offset = 0
        while True:
            take = min(room, size - offset)
            if take > 0 or size == 0:
                parts[-1].append((name, offset, take))
            offset += take
            room -= take
            if offset >= size:
                break
            parts.append([])
            room = part_bytes
        if room == 0:
            parts.append([])
            room = part_bytes
    return [p for p in parts if p]


def split(
    wheel_dir: Path, out: Path, part_mib: float, exclude: tuple[str, ...] = EXCLUDE
) -> list[Path]:
    """Write the parts ``out/p1 ...`` for the wheels in ``wheel_dir``; return their folders."""
    wheels = sorted(p for p in wheel_dir.glob("*.whl") if p.is_file())
    wheels = [w for w in wheels if not any(fnmatch.fnmatch(w.name, pat) for pat in exclude)]
    if not wheels:
        raise SystemExit(f"no wheels to carry in {wheel_dir}")

    def late(w: Path) -> bool:
        return any(fnmatch.fnmatch(w.name, pat) for pat in LATE)

    wheels = [w for w in wheels if not late(w)] + [w for w in wheels if late(w)]
    info = {w.name: {"size": w.stat().st_size, "sha256": _sha256(w)} for w in wheels}
    budget = int(part_mib * MIB) - MANIFEST_ROOM  # the part's folder, manifest included
    layout = plan_parts([(w.name, info[w.name]["size"]) for w in wheels], budget)
    pieces: dict[str, int] = {}
    for part in layout:
        for name, _, _ in part:
            pieces[name] = pieces.get(name, 0) + 1
    if out.exists():
        shutil.rmtree(out)
    folders = []
    seen: dict[str, int] = {}
    for k, part in enumerate(layout, start=1):
        folder = out / f"p{k}"
        folder.mkdir(parents=True)
        manifest = {"part": k, "parts": len(layout), "files": []}
        for name, offset, length in part:
            idx = seen.get(name, 0)
            seen[name] = idx + 1
            whole = pieces[name] == 1
            fname = name if whole else f"{name}.chunk{idx:03d}"
            with open(wheel_dir / name, "rb") as src, open(folder / fname, "wb") as dst:
                src.seek(offset)
                dst.write(src.read(length))
            manifest["files"].append(
                {
                    "file": fname,
                    "wheel": name,
                    "index": idx,
                    "chunks": pieces[name],
                    "wheel_size": info[name]["size"],
                    "wheel_sha256": info[name]["sha256"],
                }
            )
        (folder / "MANIFEST.json").write_text(json.dumps(manifest, indent=1))
        folders.append(folder)
    return folders


def assemble(root: Path, site: Path | None = None, install: bool = True) -> dict:
    """Join the chunks found in ``root/p*/``, verify, and install the complete wheels.

    Returns ``{"parts": [...found], "missing_parts": [...], "wheels": [...complete],
    "incomplete": [...]}``.
    """
    site = site or root / "site"
    found, total, entries = [], 0, {}
    for man in sorted(root.glob("p*/MANIFEST.json")):
        m = json.loads(man.read_text())
        found.append(m["part"])
        total = max(total, m["parts"])
        for f in m["files"]:
            entries.setdefault(f["wheel"], {"meta": f, "chunks": {}})
            entries[f["wheel"]]["chunks"][f["index"]] = man.parent / f["file"]
    wheels_dir = root / "wheels"
    wheels_dir.mkdir(parents=True, exist_ok=True)
    complete, incomplete = [], []
    for wheel, e in sorted(entries.items()):
        meta = e["meta"]
        if len(e["chunks"]) < meta["chunks"]:
            incomplete.append(wheel)
            continue
        target = wheels_dir / wheel
        if not (target.exists() and target.stat().st_size == meta["wheel_size"]):
            with open(target, "wb") as dst:
                for i in range(meta["chunks"]):
                    with open(e["chunks"][i], "rb") as src:
                        shutil.copyfileobj(src, dst, MIB)
        if _sha256(target) != meta["wheel_sha256"]:
            target.unlink()
            raise SystemExit(f"{wheel}: checksum mismatch after joining its chunks")
        complete.append(target)
    report = {
        "parts": sorted(found),
        "missing_parts": sorted(set(range(1, total + 1)) - set(found)),
        "wheels": [w.name for w in complete],
        "incomplete": incomplete,
        "site": str(site),
    }
    shadowing = [
        w
        for w in complete
        if any(fnmatch.fnmatch(w.name, pat) for pat in EXCLUDE)
        and _installed(_distribution(w.name))
    ]
    report["not_installed"] = [w.name for w in shadowing]  # the image's own version is used
    install_these = [w for w in complete if w not in shadowing]
    if install and install_these:
        if site.exists():
            shutil.rmtree(site)  # one pip call over all wheels: shared folders merge
        cmd = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q"]
        cmd += ["--target", str(site), *map(str, install_these)]
        subprocess.run(cmd, check=True)
    if site.exists():
        report["patched"] = patch_site(site)
    return report


#: Source fixes applied to the installed wheels, for the GPU image's newer NumPy: (file under
#: the site folder, exact line, replacement). numba-cuda 0.30 registers an overload for
#: ``np.row_stack`` at import, which NumPy 2.5 removed (``import cudf`` then fails with
#: AttributeError); the overload is registered only where NumPy still has the function.
PATCHES = (
    (
        "numba_cuda/numba/cuda/np/arrayobj.py",
        "    overload(np.row_stack)(impl_np_vstack)\n",
        '    if hasattr(np, "row_stack"):\n        overload(np.row_stack)(impl_np_vstack)\n',
    ),
)


def patch_site(site: Path) -> list[str]:
    """Apply :data:`PATCHES` to the wheels installed in ``site``; return the files changed.

    A file that is absent, or no longer holds the line (already patched, or another version),
    is left as it is.
    """
    changed = []
    for rel, old, new in PATCHES:
        path = site / rel
        if not path.exists():
            continue
        text = path.read_text()
        if old in text and new not in text:
            path.write_text(text.replace(old, new, 1))
            changed.append(rel)
    return changed


def _distribution(wheel: str) -> str:
    """The distribution name of a wheel file name (``numba-0.64.0-cp312-...`` -> ``numba``)."""
    return wheel.split("-", 1)[0].lower().replace("_", "-")


def _installed(dist: str) -> bool:
    """Whether this interpreter already has ``dist`` (then a carried copy would shadow it)."""
    from importlib import metadata

    try:
        metadata.version(dist)
    except metadata.PackageNotFoundError:
        return False
    return True


def check(site: Path) -> int:
    """Import cuDF with ``site`` first on the path; print its version (exit status 0 = ok)."""
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])
    )
    code = "import cudf, cupy; print('cudf', cudf.__version__, 'cupy', cupy.__version__)"
    return subprocess.run([sys.executable, "-c", code], env=env).returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("split", help="pack the wheels of WHEEL_DIR into parts")
    s.add_argument("wheel_dir", type=Path)
    s.add_argument("--out", type=Path, default=Path(".cudf"))
    # a call carries the working tree too (about 6 MiB) within its 64 MiB
    s.add_argument("--part-mib", type=float, default=54.0)
    s.add_argument("--exclude", nargs="*", default=list(EXCLUDE), help="wheel name patterns")
    a = sub.add_parser("assemble", help="join and install the parts found (on the GPU machine)")
    a.add_argument("--dir", type=Path, default=Path(".cudf"))
    a.add_argument("--site", type=Path, default=None)
    a.add_argument("--no-install", action="store_true")
    c = sub.add_parser("check", help="import cudf from the installed site folder")
    c.add_argument("--site", type=Path, default=Path(".cudf/site"))
    args = ap.parse_args()
    if args.cmd == "split":
        folders = split(args.wheel_dir, args.out, args.part_mib, tuple(args.exclude))
        total = sum(f.stat().st_size for d in folders for f in d.iterdir())
        for d in folders:
            size = sum(f.stat().st_size for f in d.iterdir())
            names = json.loads((d / "MANIFEST.json").read_text())["files"]
            print(f"{d}: {size / MIB:.1f} MiB, {', '.join(n['file'] for n in names)}")
        print(f"{len(folders)} parts, {total / MIB:.1f} MiB in all")
    elif args.cmd == "assemble":
        report = assemble(args.dir, args.site, install=not args.no_install)
        print(json.dumps(report, indent=1))
        if report["missing_parts"]:
            print(f"missing parts: {report['missing_parts']} (carry them, then assemble again)")
        else:
            print(f"installed; use PYTHONPATH={report['site']}")
    else:
        sys.exit(check(args.site))


if __name__ == "__main__":
    main()
