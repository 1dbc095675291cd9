"""Write an edge list as ORCA's input (``n m`` then one ``u v`` line per edge): self-loops and
repeated edges dropped, node ids kept (``--n`` nodes, or the largest id + 1), so that ORCA's
rows are our dense ids.

usage: python3 to_orca.py EDGES.txt OUT.in [--n N]
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("edges")
    ap.add_argument("out")
    ap.add_argument("--n", type=int, default=0)
    args = ap.parse_args()
    frame = pd.read_csv(args.edges, sep=r"\s+", header=None, comment="#", usecols=[0, 1])
    e = frame.to_numpy(dtype=np.int64)
    e = e[e[:, 0] != e[:, 1]]
    e = np.unique(np.sort(e, axis=1), axis=0)
    n = max(args.n, int(e.max()) + 1 if len(e) else 0)
    with open(args.out, "w") as f:
        f.write(f"{n} {len(e)}\n")
        pd.DataFrame(e).to_csv(f, sep=" ", header=False, index=False)


if __name__ == "__main__":
    main()
