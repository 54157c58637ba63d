"""Figures: how large each S_n is."""

from __future__ import annotations

from typing import Dict, List

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


def plot_agreement(title: str, panels: List[tuple]):
    """Boards checked per n, agreeing (green) and not (red), one panel per check.

    ``panels``: ``(check name, {n: checked}, {n: agreed})``.  Returns the Figure.
    """
    figure, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 3.2), squeeze=False)
    for ax, (name, checked, agreed) in zip(axes.flat, panels):
        ns = sorted(checked)
        good = [agreed.get(n, 0) for n in ns]
        bad = [checked[n] - agreed.get(n, 0) for n in ns]
        ax.bar(ns, good, color="tab:green", label="agrees", width=0.9)
        ax.bar(ns, bad, bottom=good, color="tab:red", label="disagrees", width=0.9)
        wrong = sum(bad)
        ax.set_title(f"{name}: {sum(checked.values()):,} boards, {wrong:,} disagree", fontsize=10)
        ax.set_xlabel("n (plies to mate)")
        ax.set_ylabel("boards checked")
        ax.set_yscale("log")
        ax.set_ylim(bottom=0.8)  # small S_n (S_0 has few boards) must not fall below the axis
        ax.legend(fontsize=8)
    figure.suptitle(title)
    figure.tight_layout()
    return figure


def plot_stockfish_comparison(report):
    """Two panels for a :class:`Util.stockfish_compare.ComparisonReport`: plies to mate against n
    (AI, Stockfish, and the promise n), and the verdicts per n.  Returns the Figure."""
    from .stockfish_compare import VERDICTS, by_n

    groups = by_n(report)
    ns = list(groups)
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 3.6))
    for side, colour, label in (("ai", "tab:blue", "AI (White) vs Stockfish"), ("stockfish", "tab:orange", "Stockfish vs itself")):
        xs, ys = [], []
        for n, results in groups.items():
            games = [getattr(r, side) for r in results if getattr(r, side) is not None and getattr(r, side).mated]
            if games:
                xs.append(n)
                ys.append(sum(g.plies for g in games) / len(games))
        left.plot(xs, ys, "o-", color=colour, label=label, markersize=3)
    left.plot(ns, ns, ":", color="grey", label="n (the AI's promise)")
    left.set_xlabel("n of the start position")
    left.set_ylabel("plies to mate (mean of mated games)")
    left.legend(fontsize=8)
    colours = {"equal": "tab:grey", "ai better": "tab:blue", "stockfish better": "tab:orange",
               "stockfish failed": "tab:red", "failed": "black"}
    bottom = [0] * len(ns)
    for verdict in VERDICTS:
        shares = [100 * sum(r.verdict == verdict for r in groups[n]) / len(groups[n]) for n in ns]
        if any(shares):
            right.bar(ns, shares, bottom=bottom, color=colours[verdict], label=verdict, width=0.9)
            bottom = [b + s for b, s in zip(bottom, shares)]
    right.set_xlabel("n of the start position")
    right.set_ylabel("% of positions")
    right.legend(fontsize=8)
    figure.suptitle(f"{report.material}: {report.scenario}, {len(report.results)} positions, "
                    f"Stockfish {report.settings.describe()}")
    figure.tight_layout()
    return figure
