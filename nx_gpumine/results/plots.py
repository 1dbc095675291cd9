"""Pictures of results (matplotlib, an optional dependency: ``pip install 'nx-gpumine[plot]'``).

- :func:`census_heatmap` draws a three-edge motif census (``motif_census``'s dict or its 6x6
  table) as Paranjape et al.'s grid, each cell labelled with its count;
- :func:`save_census_heatmap` writes that picture to a file (the CLI's ``census --plot``);
- :func:`graphlet_bars` draws a static subgraph census (``subgraph_census``'s dict) as a bar
  chart on a log scale, :func:`save_graphlet_bars` writes it (the CLI's ``graphlets --plot``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..inputs.motifs import CENSUS_GRID, CENSUS_GRID_COLS, CENSUS_GRID_ROWS

__all__ = [
    "census_heatmap",
    "save_census_heatmap",
    "census_grid_table",
    "graphlet_bars",
    "save_graphlet_bars",
]


def census_grid_table(census: Mapping[str, int] | np.ndarray) -> np.ndarray:
    """The census as the 6x6 ``M_{i,j}`` grid (``T[i-1, j-1]`` = count of ``M_{i,j}``).

    Parameters
    ----------
    census : dict or numpy.ndarray
        ``motif_census(...)`` (a ``{key: count}`` dict) or ``motif_census(..., as_table=True)``
        (``layout="snap"``, already the grid).

    Raises
    ------
    ValueError
        For a table that is not 6x6 or a dict that misses a census key.
    """
    if isinstance(census, Mapping):
        missing = [k for row in CENSUS_GRID for k in row if k not in census]
        if missing:
            raise ValueError(f"census dict misses motif {missing[0]!r}")
        return np.array([[census[k] for k in row] for row in CENSUS_GRID], dtype=np.int64)
    table = np.asarray(census)
    if table.shape != (6, 6):
        raise ValueError(f"a census table is 6x6, got shape {table.shape}")
    return table.astype(np.int64)


def census_heatmap(census: Mapping[str, int] | np.ndarray, ax: Any = None, title: str = "") -> Any:
    """Draw the census grid as a heatmap (log colour scale), each cell labelled with its count.

    Rows are the second motif edge, columns the third (the first is always ``0 -> 1``), as in
    Paranjape, Benson & Leskovec's figure and SNAP's table.

    Parameters
    ----------
    census : dict or numpy.ndarray
        See :func:`census_grid_table`.
    ax : matplotlib.axes.Axes, optional
        Where to draw (a new figure otherwise).
    title : str
        Axes title.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax`` (or the new figure's axes); its figure also holds the colour bar.

    Raises
    ------
    ImportError
        Without matplotlib.
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import LogNorm

    table = census_grid_table(census)
    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 5.6), layout="constrained")
    shown = np.where(table > 0, table, np.nan)
    vmax = max(int(table.max()), 1)
    im = ax.imshow(shown, cmap="viridis", norm=LogNorm(vmin=1, vmax=max(vmax, 2)))
    ax.figure.colorbar(im, ax=ax, label="matches (log scale)")
    for i in range(6):
        for j in range(6):
            v = int(table[i, j])
            light = v > 0 and np.log(v) > 0.5 * np.log(max(vmax, 2))
            ax.text(
                j,
                i,
                f"{v:,}",
                ha="center",
                va="center",
                fontsize=7,
                color="black" if light else "white" if v > 0 else "grey",
            )
    ax.set_xticks(range(6), [f"{j + 1}\n{c[0]}→{c[1]}" for j, c in enumerate(CENSUS_GRID_COLS)])
    ax.set_yticks(range(6), [f"{i + 1}  {r[0]}→{r[1]}" for i, r in enumerate(CENSUS_GRID_ROWS)])
    ax.set_xlabel("j: third edge (first edge 0→1)")
    ax.set_ylabel("i: second edge")
    if title:
        ax.set_title(title, fontsize=9)
    return ax


def save_census_heatmap(
    census: Mapping[str, int] | np.ndarray, path: str | Path, title: str = ""
) -> Path:
    """Write :func:`census_heatmap` to ``path`` (format from its suffix, e.g. ``.png``).

    Raises
    ------
    ImportError
        Without matplotlib.
    """
    return _save(lambda: census_heatmap(census, title=title), path)


def _save(draw: Any, path: str | Path) -> Path:
    """Draw with ``draw()`` (an axes-returning function) on a non-interactive backend and
    write the figure to ``path`` (format from its suffix)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    ax = draw()
    path = Path(path)
    ax.figure.savefig(path, dpi=120)
    plt.close(ax.figure)
    return path


def graphlet_bars(census: Mapping[str, int], ax: Any = None, title: str = "") -> Any:
    """Draw a static subgraph census as bars (log scale), one per pattern, in census order.

    Parameters
    ----------
    census : dict
        ``subgraph_census(...)``: ``{pattern name: count}``.
    ax, title
        As in :func:`census_heatmap`.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ImportError
        Without matplotlib.
    """
    import matplotlib.pyplot as plt

    names = list(census)
    counts = np.array([int(census[n]) for n in names], dtype=np.float64)
    if ax is None:
        width = min(max(4.0, 0.45 * len(names) + 1.5), 40.0)
        _, ax = plt.subplots(figsize=(width, 4.2), layout="constrained")
    x = np.arange(len(names))
    ax.bar(x, np.where(counts > 0, counts, np.nan), color="tab:blue")
    ax.set_yscale("log")
    ax.set_xticks(x, names, rotation=90 if len(names) > 8 else 0, fontsize=7)
    ax.set_ylabel("count (log scale)")
    for i, v in enumerate(counts):
        if v == 0:
            ax.text(i, 1, "0", ha="center", va="bottom", fontsize=7, color="grey")
    if title:
        ax.set_title(title, fontsize=9)
    return ax


def save_graphlet_bars(census: Mapping[str, int], path: str | Path, title: str = "") -> Path:
    """Write :func:`graphlet_bars` to ``path`` (format from its suffix, e.g. ``.png``).

    Raises
    ------
    ImportError
        Without matplotlib.
    """
    return _save(lambda: graphlet_bars(census, title=title), path)
