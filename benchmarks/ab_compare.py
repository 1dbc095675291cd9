"""Compare the old and new runs of benchmarks/ab_peers.sh: counts, kernel and call times per cell.

usage: python3 benchmarks/ab_compare.py AB_DIR   (AB_DIR holds old_R/ and new_R/ run folders)

Per cell and side, the time is the median over rounds of each round's median (kernel ms: CUDA
events from first launch to last; call ms: host clock around the public call). The ratio is
new / old (above 1: slower). Writes AB_DIR/compare.json and AB_DIR/compare.md and prints the
table, the geometric means and the worst cells.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from statistics import median


def _cells(run: Path) -> dict[tuple, dict]:
    files = list(run.glob("*_peers.json"))
    if not files:
        return {}
    rows = json.loads(files[0].read_text())["rows"]
    out = {}
    for r in rows:
        key = (r["graph"], r.get("pattern") or r.get("motif"), r.get("delta", ""))
        out[key] = r
    return out


def main(ab: Path) -> dict:
    sides: dict[str, list[dict]] = {"old": [], "new": []}
    for run in sorted(ab.iterdir()):
        side = run.name.split("_")[0]
        if run.is_dir() and side in sides:
            sides[side].append(_cells(run))
    keys = [k for k in sides["new"][0] if all(k in c for s in sides.values() for c in s)]
    table = []
    for key in keys:
        row = {"graph": key[0], "query": key[1], "delta": key[2]}
        for side, runs in sides.items():
            counts = {runs[i][key]["count"] for i in range(len(runs))}
            row[f"{side}_count"] = counts.pop() if len(counts) == 1 else sorted(counts)
            for t in ("kernel_ms", "wall_ms"):
                row[f"{side}_{t}"] = median(r[key][t] for r in runs)
        row["counts_equal"] = row["old_count"] == row["new_count"]
        row["kernel_ratio"] = row["new_kernel_ms"] / row["old_kernel_ms"]
        row["call_ratio"] = row["new_wall_ms"] / row["old_wall_ms"]
        table.append(row)

    def geo(name: str) -> float:
        return math.exp(sum(math.log(r[name]) for r in table) / len(table))

    summary = {
        "cells": len(table),
        "rounds": {s: len(r) for s, r in sides.items()},
        "counts_equal": sum(r["counts_equal"] for r in table),
        "kernel_geomean_ratio": geo("kernel_ratio"),
        "call_geomean_ratio": geo("call_ratio"),
        "worst_kernel": max(table, key=lambda r: r["kernel_ratio"]),
        "worst_call": max(table, key=lambda r: r["call_ratio"]),
        "cells_kernel_over_5pct": [r for r in table if r["kernel_ratio"] > 1.05],
    }
    lines = [
        "| graph | query | delta | count | old kernel ms | new kernel ms | ratio "
        "| old call ms | new call ms | ratio | counts equal |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in table:
        lines.append(
            f"| {r['graph']} | {r['query']} | {r['delta']} | {r['new_count']} "
            f"| {r['old_kernel_ms']:.3f} | {r['new_kernel_ms']:.3f} | {r['kernel_ratio']:.3f} "
            f"| {r['old_wall_ms']:.3f} | {r['new_wall_ms']:.3f} | {r['call_ratio']:.3f} "
            f"| {r['counts_equal']} |"
        )
    lines.append(
        f"\n{summary['cells']} cells, counts equal {summary['counts_equal']}/{summary['cells']}; "
        f"geomean new/old kernel {summary['kernel_geomean_ratio']:.4f}, "
        f"call {summary['call_geomean_ratio']:.4f}; worst kernel cell "
        f"{summary['worst_kernel']['graph']} {summary['worst_kernel']['query']} "
        f"{summary['worst_kernel']['delta']} {summary['worst_kernel']['kernel_ratio']:.3f}; "
        f"cells over 5%: {len(summary['cells_kernel_over_5pct'])}"
    )
    (ab / "compare.md").write_text("\n".join(lines) + "\n")
    (ab / "compare.json").write_text(json.dumps({"summary": summary, "cells": table}, indent=1))
    print("\n".join(lines))
    return summary


if __name__ == "__main__":
    main(Path(sys.argv[1]))
