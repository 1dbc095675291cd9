"""Scaling plot of the temporal engines from the committed benchmark JSON.

Reads ``benchmarks/results/temporal_gpu_*.json`` (written by ``bench_temporal_gpu.py`` on the
GPU machine: CollegeMsg, the burst graph, the 10M- and 50M-edge skewed graphs; each row holds
the CUDA kernel's median milliseconds and the CPU engine's seconds on that machine's CPU cores)
and draws query time against graph size for both engines, one line per query::

    python3 benchmarks/plot_scaling.py docs/img/scaling_temporal.png

Needs matplotlib (``pip install 'nx-gpumine[plot]'``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
QUERIES = ("3-cycle 01 12 20 d=1h", "4-cycle M4 d=1h", "M4-A labels+gaps+anti d=1d")


def load_rows(paths: list[Path]) -> list[dict[str, Any]]:
    """One record per (graph, query): edges, CUDA seconds, CPU seconds, counts agree."""
    out = []
    for path in paths:
        doc = json.loads(path.read_text())
        for row in doc["rows"]:
            if row["query"] not in QUERIES or "cpu_s" not in row:
                continue
            out.append(
                {
                    "graph": doc["graph"],
                    "edges": int(doc["edges"]),
                    "query": row["query"],
                    "cuda_s": row["cuda"]["kernel_ms_median"] / 1000.0,
                    "cpu_s": float(row["cpu_s"]),
                    "agree": bool(row.get("cpu_agrees", False)),
                    "gpu": doc["machine"]["device"]["name"],
                    "cpu_cores": doc["machine"].get("cpu_count"),
                }
            )
    return sorted(out, key=lambda r: (r["query"], r["edges"]))


def scaling_figure(rows: list[dict[str, Any]]) -> Any:
    """Two panels: time per query against edges (log-log), and the CUDA/CPU ratio."""
    import matplotlib.pyplot as plt

    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4.4), layout="constrained")
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, q in enumerate(QUERIES):
        rs = [r for r in rows if r["query"] == q]
        if not rs:
            continue
        x = [r["edges"] for r in rs]
        c = colours[i % len(colours)]
        ax.plot(x, [r["cuda_s"] for r in rs], "o-", color=c, label=f"{q}: CUDA kernel")
        ax.plot(x, [r["cpu_s"] for r in rs], "s--", color=c, label=f"{q}: CPU engine")
        ax2.plot(x, [r["cpu_s"] / r["cuda_s"] for r in rs], "o-", color=c, label=q)
    for a in (ax, ax2):
        a.set_xscale("log")
        a.set_yscale("log")
        a.set_xlabel("temporal edges")
        a.grid(True, which="both", alpha=0.3)
    graphs = sorted({(r["edges"], r["graph"]) for r in rows})
    for a in (ax, ax2):
        for e, g in graphs:
            a.axvline(e, color="grey", lw=0.5, alpha=0.5)
            a.annotate(g, (e, 0.02), xycoords=("data", "axes fraction"), fontsize=7, rotation=90,
                       va="bottom", ha="right", color="grey")  # fmt: skip
    ax.set_ylabel("seconds per query (median)")
    ax.set_title("query time", fontsize=10)
    ax2.set_ylabel("CPU engine time / CUDA kernel time")
    ax2.set_title("GPU speed-up over the CPU engine", fontsize=10)
    ax.legend(fontsize=6.5, loc="upper left")
    ax2.legend(fontsize=7, loc="lower right")
    if rows:
        r = rows[0]
        fig.suptitle(
            f"Temporal motif engines on {r['gpu']} vs {r['cpu_cores']} CPU cores "
            "(benchmarks/results/temporal_gpu_*.json; all counts agree)"
            if all(x["agree"] for x in rows)
            else f"Temporal motif engines on {r['gpu']} (some counts disagree!)",
            fontsize=10,
        )
    return fig


def main(argv: list[str] | None = None) -> int:
    """Write the plot; the path is the only argument."""
    import matplotlib

    matplotlib.use("Agg")
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", help="image to write (e.g. docs/img/scaling_temporal.png)")
    args = p.parse_args(argv)
    rows = load_rows(sorted(RESULTS.glob("temporal_gpu_*.json")))
    fig = scaling_figure(rows)
    fig.savefig(args.out, dpi=120)
    print(f"{args.out}: {len(rows)} points")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
