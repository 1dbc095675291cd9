"""Seeded synthetic temporal graph with skewed (power-law) node activity (the Everest kit's input).

usage: python3 gen_temporal.py OUT.txt [--edges M] [--nodes N] [--gamma G] [--cap C] [--seed S]
                               [--t0 T0] [--span SECONDS]

A lint-clean copy of ../shared/peers/gen_temporal.py: the same operations in the same order (the
same random draws), so the same arguments give the same edges; :func:`generate` returns them as
arrays for in-process benchmarks (``--seed 1`` with the defaults is the kit's 10M-edge graph).
"""

import argparse

import numpy as np


def generate(
    edges: int = 10_000_000,
    nodes: int = 1_000_000,
    gamma: float = 2.3,
    cap: float = 0.0,
    seed: int = 1,
    t0: int = 1_577_836_800,
    span: int = 365 * 86400,
    device: bool = False,
    to_host: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(src, dst, t)`` int64 arrays, sorted by ``t`` (ties keep generation order).

    ``device=True`` draws the same random numbers with NumPy and does the searches and the
    sort on the GPU with CuPy (exact operations, so the same edges; minutes faster at 100M);
    ``to_host=False`` then returns the CuPy arrays (a graph built on the device from them
    never copies the columns to the host).
    """
    rng = np.random.default_rng(seed)
    n, m = nodes, edges
    w = (np.arange(n) + 10.0) ** (-1.0 / (gamma - 1.0))
    w = w / w.mean()
    if cap > 0:
        w = np.minimum(w, cap)
    c = np.cumsum(w)
    c /= c[-1]
    xp = np
    if device:
        import cupy as xp

        c = xp.asarray(c)
    src = xp.empty(0, dtype=np.int64)
    dst = xp.empty(0, dtype=np.int64)
    while len(src) < m:  # draw, drop self loops, top up
        k = int((m - len(src)) * 1.02) + 1000
        s = xp.searchsorted(c, xp.asarray(rng.random(k)))
        d = xp.searchsorted(c, xp.asarray(rng.random(k)))
        keep = s != d
        src = xp.concatenate([src, s[keep]])
        dst = xp.concatenate([dst, d[keep]])
    src, dst = src[:m], dst[:m]
    perm = xp.asarray(rng.permutation(n))
    src, dst = perm[src], perm[dst]
    t = xp.asarray(t0 + rng.integers(0, span, size=m, dtype=np.int64))
    if device:  # a stable order: sort by (t, position), every key distinct
        order = xp.argsort((t - t0) * m + xp.arange(m, dtype=np.int64))
        if not to_host:
            return src[order], dst[order], t[order]
        return src[order].get(), dst[order].get(), t[order].get()
    order = np.argsort(t, kind="stable")
    return src[order], dst[order], t[order]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out")
    ap.add_argument("--edges", type=int, default=10_000_000)
    ap.add_argument("--nodes", type=int, default=1_000_000)
    ap.add_argument("--gamma", type=float, default=2.3)
    ap.add_argument("--cap", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--t0", type=int, default=1_577_836_800)
    ap.add_argument("--span", type=int, default=365 * 86400)
    a = ap.parse_args()
    src, dst, t = generate(a.edges, a.nodes, a.gamma, a.cap, a.seed, a.t0, a.span)
    np.savetxt(a.out, np.stack([src, dst, t], axis=1), fmt="%d")
    print(f"n={a.nodes} m={len(src)} t=[{t[0]},{t[-1]}]")


if __name__ == "__main__":
    main()
