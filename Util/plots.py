"""Figures: how large each S_n is."""

from __future__ import annotations

from typing import Dict

import matplotlib.pyplot as plt


def plot_s_n_sizes(counts_by_table: Dict[str, Dict[int, int]]):
    """One panel per table: |S_n| against n, White to move (odd n) and Black to move (even n) told apart.

    ``counts_by_table`` maps a material name to ``{n: boards in S_n}``.
    Returns the matplotlib Figure.
    """
    tables = [name for name, counts in counts_by_table.items() if counts]
    columns = min(3, max(1, len(tables)))
    rows = (len(tables) + columns - 1) // columns
    figure, axes = plt.subplots(rows, columns, figsize=(5 * columns, 3.2 * rows), squeeze=False)
    for ax, name in zip(axes.flat, tables):
        counts = counts_by_table[name]
        for parity, colour, label in ((1, "tab:blue", "White to move (odd n)"), (0, "tab:orange", "Black to move (even n)")):
            ns = [n for n in sorted(counts) if n % 2 == parity]
            ax.bar(ns, [counts[n] for n in ns], color=colour, label=label, width=0.9)
        ax.set_title(f"{name}: {sum(counts.values()):,} boards, largest n = {max(counts)}")
        ax.set_xlabel("n (plies to mate)")
        ax.set_ylabel("|S_n| (boards)")
        ax.set_yscale("log")
        ax.legend(fontsize=8)
    for ax in list(axes.flat)[len(tables):]:
        ax.set_visible(False)
    figure.tight_layout()
    return figure
