"""Figures: how large each S_n is, how the checks of chapter 6 agree, how the AI and Stockfish compare."""

from __future__ import annotations

from typing import Dict, List, Optional

import matplotlib.pyplot as plt
from matplotlib.ticker import MaxNLocator


#: The legend of :func:`plot_s_n_sizes` where every panel holds White's mates.
WHITE_MATES = ("White to move (odd n)", "Black to move (even n)")
#: The legend where a panel holds Black's mates too (odd n: Black to move).
EITHER_MATES = ("the side that mates to move (odd n)", "the side that is mated to move (even n)")


def plot_s_n_sizes(counts_by_table: Dict[str, Dict[int, int]], labels: tuple = WHITE_MATES):
    """One panel per table: |S_n| against n, the side that mates to move (odd n) and the side that is mated
    (even n) told apart, under ``labels`` (odd n first).

    ``counts_by_table`` maps a panel's title (a material name) to ``{n: boards in S_n}``.
    Returns the matplotlib Figure.
    """
    tables = [name for name, counts in counts_by_table.items() if counts]
    columns = min(3, max(1, len(tables)))
    rows = (len(tables) + columns - 1) // columns
    # One scale for all panels, so that the tables can be compared; one legend above them, off the bars.
    figure, axes = plt.subplots(rows, columns, figsize=(5 * columns, 3.2 * rows + 0.5), squeeze=False,
                                sharex=True, sharey=True)
    for ax, name in zip(axes.flat, tables):
        counts = counts_by_table[name]
        for parity, colour, label in ((1, "tab:blue", labels[0]), (0, "tab:orange", labels[1])):
            ns = [n for n in sorted(counts) if n % 2 == parity]
            ax.bar(ns, [counts[n] for n in ns], color=colour, label=label, width=0.9)
        ax.set_title(f"{name}: {sum(counts.values()):,} boards, largest n = {max(counts)}", fontsize=10)
        ax.set_xlabel("n (plies to mate)")
        ax.set_ylabel("|S_n| (boards)")
        ax.set_yscale("log")
        ax.tick_params(labelbottom=True, labelleft=True)
    # Set once all bars are drawn: a limit set inside the loop froze the top at the first table's largest S_n
    # and cut the bars of larger tables off.  From 0.8, an S_n of one board keeps its bar.
    largest = max(max(counts_by_table[name].values()) for name in tables) if tables else 1
    axes.flat[0].set_ylim(0.8, 2 * largest)
    for ax in list(axes.flat)[len(tables):]:
        ax.set_visible(False)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="upper center", ncol=2, fontsize=9, frameon=False)
    figure.tight_layout(rect=(0, 0, 1, 1 - 0.45 / figure.get_figheight()))
    return figure


def agreement_line(title: str, panels: List[tuple]) -> Optional[str]:
    """One sentence when every check of ``panels`` agrees on every board (nothing to draw), else None.

    ``panels``: ``(check name, {n: checked}, {n: agreed})`` as for :func:`plot_agreement`.
    """
    if any(checked[n] != agreed.get(n, 0) for _, checked, agreed, *_ in panels for n in checked):
        return None
    checks = "; ".join(f"{name}: {sum(checked.values()):,} checked" for name, checked, *_ in panels)
    return f"{title}: every check agrees with the table on every board it looked at, in every S_n ({checks})."


def plot_agreement(title: str, panels: List[tuple]):
    """One panel per check: in each S_n, the boards (stored positions, for the move checks) on which the
    check agrees with our n as green bars, those on which it disagrees as red bars and crosses, and, where
    given, all the S_n holds as a grey bar behind them (a check that looked at a sample covers part of
    it); each panel's title has the check's totals.  Panels rather than lines on one axis: checks that
    look at the same boards of each S_n would draw the same line, and one would hide the other.

    ``panels``: ``(check name, {n: checked}, {n: agreed})``, or with a fourth item ``{n: boards (or
    stored positions) in S_n}``; sized to stay legible at notebook width and in a saved PNG.  Returns the
    Figure.
    """
    columns = 2 if len(panels) > 1 else 1
    rows = -(-len(panels) // columns)
    figure, axes = plt.subplots(rows, columns, figsize=(9, 2.4 * rows + 0.7), squeeze=False, sharex=True)
    wrong_in_all = 0
    for ax, (name, checked, agreed, *population) in zip(axes.flat, panels):
        ns = sorted(checked)
        right = [agreed.get(n, 0) for n in ns]
        wrong = [checked[n] - agreed.get(n, 0) for n in ns]
        wrong_in_all += sum(wrong)
        of = ""
        if population:
            sizes = population[0]
            ax.bar(sorted(sizes), [sizes[n] for n in sorted(sizes)], width=0.8, color="0.85", label="in S_n")
            of = f" of {sum(sizes.values()):,}"
        ax.bar(ns, right, width=0.8, color="tab:green", label="agree")
        bad = [(n, w) for n, w in zip(ns, wrong) if w]
        if bad:
            ax.bar([n for n, _ in bad], [w for _, w in bad], width=0.8, color="tab:red", label="disagree", zorder=3)
            ax.scatter([n for n, _ in bad], [w for _, w in bad], color="tab:red", marker="x", s=40, zorder=4)
        ax.set_yscale("log")
        ax.set_ylim(bottom=0.8)  # an S_n of one board keeps its bar
        ax.set_title(f"{name}: {sum(checked.values()):,}{of} checked, {sum(wrong):,} disagree", fontsize=9)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.tick_params(labelbottom=True)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("n (plies to mate)")
    for row in axes:
        row[0].set_ylabel("per S_n")
    figure.suptitle(f"{title}: in each S_n, boards checked that agree (green) and disagree (red), "
                    f"of all it holds (grey): {wrong_in_all:,} disagree", fontsize=10)
    figure.tight_layout()
    return figure


#: The games of a Stockfish comparison, as plotted: attribute of PositionResult, colour, label.
_GAMES = (("ai", "tab:blue", "AI vs Stockfish's defence"),
          ("stockfish", "tab:orange", "Stockfish vs itself"),
          ("stockfish_best", "tab:red", "Stockfish vs best defence"))
_VERDICT_COLOURS = {"equal": "tab:grey", "ai better": "tab:blue", "stockfish better": "tab:orange",
                    "stockfish failed": "tab:red", "failed": "black"}


def scenario_in_words(scenario: str) -> str:
    """A scenario of :mod:`Util.stockfish.compare` as a title says it: ``random_boards`` -> "random positions",
    ``S_9`` -> "positions of S_9", ``all_S_n`` -> "positions of every S_n"."""
    words = {"random_boards": "random positions", "all_S_n": "positions of every S_n"}
    return words.get(scenario, f"positions of {scenario}" if scenario.startswith("S_") else scenario)


def _verdict_label(verdict: str) -> str:
    """A verdict as a legend says it: the engines' names capitalised ("AI better", "Stockfish failed")."""
    return verdict.replace("ai ", "AI ").replace("stockfish", "Stockfish")


def _mated_plies(results, side: str) -> List[int]:
    return [getattr(r, side).plies for r in results if getattr(r, side) is not None and getattr(r, side).mated]


def plot_stockfish_comparison(report):
    """Two panels for a :class:`Util.stockfish.compare.ComparisonReport`: the plies each game needed,
    and the thesis's verdicts.  Over several n: one point per game against n and verdict shares per n; from a single
    S_n (nothing to draw against n): how often each number of plies occurred, and the verdict shares.
    Legends sit beside the panels, never on the data.  Returns the Figure."""
    from ..stockfish.compare import VERDICTS, by_n

    groups = by_n(report)
    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 3.8))
    if len(groups) > 1:
        _plies_against_n(left, groups)
        _verdicts_per_n(right, groups, VERDICTS)
    else:
        _plies_histogram(left, report.results, next(iter(groups), 0))
        _verdict_shares(right, report, VERDICTS)
    for ax in (left, right):
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    figure.suptitle(f"{report.material}: {scenario_in_words(report.scenario)}, {len(report.results)} positions, "
                    f"Stockfish {report.settings.describe()}")
    pad = 14 if len(groups) > 1 else 6  # over several n each panel has a row of counts above it, under the title
    left.set_title("How many plies each game needed", fontsize=10, pad=pad)
    right.set_title("Which attacker mated faster (the thesis's verdicts)", fontsize=10, pad=pad)
    figure.tight_layout()
    return figure


def _plies_against_n(ax, groups) -> None:
    """One point per mated game (the three games of a position side by side), not means joined by lines:
    an n with one game must not look like a trend.  Above each n: its number of positions."""
    ns = list(groups)
    for k, (side, colour, label) in enumerate(_GAMES):
        points = [(n + 0.22 * (k - 1), p) for n, results in groups.items() for p in _mated_plies(results, side)]
        ax.scatter([x for x, _ in points], [y for _, y in points], s=10, color=colour, label=label, alpha=0.7)
    ax.plot(ns, ns, ":", color="black", label="n (AI vs best defence)")
    top = ax.get_ylim()[1]
    for n in ns:
        ax.text(n, top, str(len(groups[n])), ha="center", va="bottom", fontsize=7)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("n of the start position (above: its number of positions)")
    ax.set_ylabel("plies to mate (one point per mated game)")


def _plies_histogram(ax, results, n: int) -> None:
    series = [(_mated_plies(results, side), colour, label) for side, colour, label in _GAMES]
    values = sorted({p for plies, _, _ in series for p in plies} | {n})
    width = 0.8 / len(series)
    for k, (plies, colour, label) in enumerate(series):
        ax.bar([v - 0.4 + width * (k + 0.5) for v in values], [plies.count(v) for v in values], width=width,
               color=colour, label=label)
    ax.axvline(n, linestyle=":", color="black", label=f"n = {n} (AI vs best defence)")
    if len(values) <= 16:  # every number of plies that occurred gets its tick, odd ones too
        ax.set_xticks(values)
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=12))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # a count of games
    ax.set_xlabel("plies to mate")
    ax.set_ylabel("games")


def _verdicts_per_n(ax, groups, verdicts) -> None:
    ns = list(groups)
    bottom = [0.0] * len(ns)
    for verdict in verdicts:
        shares = [100 * sum(r.verdict == verdict for r in groups[n]) / len(groups[n]) for n in ns]
        if any(shares):
            ax.bar(ns, shares, bottom=bottom, color=_VERDICT_COLOURS[verdict], label=_verdict_label(verdict),
                   width=0.9)
            bottom = [b + s for b, s in zip(bottom, shares)]
    for n in ns:  # a bar of one or two positions must not look like a rate
        ax.text(n, 101, str(len(groups[n])), ha="center", va="bottom", fontsize=7)
    ax.set_ylim(0, 112)
    ax.set_xlabel("n of the start position (above each bar: its number of positions)")
    ax.set_ylabel("% of positions (thesis's verdict)")


def _verdict_shares(ax, report, verdicts) -> None:
    shown = [v for v in verdicts if report.count(v)]
    ax.barh([_verdict_label(v) for v in shown], [report.share(v) for v in shown],
            color=[_VERDICT_COLOURS[v] for v in shown])
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of positions (thesis's verdict)")


def plot_table_chain(names: List[str]):
    """The tables that feed each other: one box per table of ``names`` and per table they lead into, in rows by
    number of pieces (a pawn table half a row above the tables its promotions lead into), and an arrow from
    a table of ``names`` to each table a capture or a promotion turns it into (whose S_n it reads; two bare
    kings, a draw, left out).  Returns the Figure."""
    from ..board.material import Material

    given = [Material.parse(name).canonical for name in names]
    tables = {m: [d for d in m.dependencies() if d.white or d.black] for m in given}
    for feeders in list(tables.values()):
        for child in feeders:
            tables.setdefault(child, [])
    rows: Dict[float, list] = {}
    for material in sorted(tables, key=lambda m: m.name):
        rows.setdefault(material.piece_count + 0.5 * material.has_pawns, []).append(material)
    place = {m: (1.5 * (k - (len(row) - 1) / 2), level) for level, row in rows.items() for k, m in enumerate(row)}
    figure, ax = plt.subplots(figsize=(max(7.0, 2.0 * max(len(r) for r in rows.values())), 1.3 * len(rows) + 0.8))
    for material, feeders in tables.items():
        for child in feeders:
            promotion = "P" in material.white + material.black and child.piece_count == material.piece_count
            ax.annotate("", place[child], place[material], arrowprops=dict(
                arrowstyle="->", color="tab:green" if promotion else "tab:blue", shrinkA=14, shrinkB=14))
    for material, (x, y) in place.items():
        ax.text(x, y, material.name, ha="center", va="center", fontsize=11,
                bbox=dict(boxstyle="round", facecolor="white", edgecolor="grey"))
    ax.plot([], [], color="tab:green", label="a promotion leads into")
    ax.plot([], [], color="tab:blue", label="a capture leads into")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9, frameon=False)
    ax.set_yticks(sorted(rows), [f"{int(level)} pieces{', a pawn' if level % 1 else ''}" for level in sorted(rows)])
    ax.set_xticks([])
    ax.set_xlim(min(x for x, _ in place.values()) - 0.8, max(x for x, _ in place.values()) + 0.8)
    ax.set_ylim(min(rows) - 0.6, max(rows) + 0.6)
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)
    ax.set_title("Which tables a table reads: arrows point to the tables computed first")
    figure.tight_layout()
    return figure


def plot_dtm_heat_map(values: Dict[int, int], title: str, pieces: Optional[Dict[int, str]] = None):
    """An 8 x 8 board with each square coloured by the n of ``values`` (square number -> n, -1 for a board in
    no S_n, squares missing for pieces or illegal placements) and n written on it; ``pieces`` (square ->
    letter) are written on their squares.  Returns the Figure."""
    import numpy as np

    grid = np.full((8, 8), np.nan)
    for square, n in values.items():
        grid[7 - square // 8, square % 8] = n
    figure, ax = plt.subplots(figsize=(6.4, 5.0))
    shown = np.ma.masked_where(~(grid >= 0), grid)
    image = ax.imshow(shown, cmap="viridis_r")
    for row in range(8):
        for column in range(8):
            value = grid[row, column]
            if not np.isnan(value):
                ax.text(column, row, "draw" if value < 0 else int(value), ha="center", va="center", fontsize=8,
                        color="black" if value < 0 or value < np.nanmax(grid) * 0.6 else "white")
    for square, letter in (pieces or {}).items():
        ax.text(square % 8, 7 - square // 8, letter, ha="center", va="center", fontsize=14, fontweight="bold")
    ax.set_xticks(range(8), list("abcdefgh"))
    ax.set_yticks(range(8), [str(r) for r in range(8, 0, -1)])
    figure.colorbar(image, ax=ax, label="n (plies to mate)")
    ax.set_title(title, fontsize=10)
    figure.tight_layout()
    return figure
