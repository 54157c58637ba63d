"""A small game tree drawn as chapter 7 teaches the search on it: every node's value, and where alpha-beta cut.

A tree is nested lists: an inner node is the list of the positions its moves lead to, a leaf is a number
(the evaluation, from White's side).  The root has White to move, so White moves at even depths and Black at
odd ones.  A node is named by its *path*, the tuple of move numbers (0, 1, ...) that lead to it from the
root, ``()`` for the root itself.
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

import matplotlib.pyplot as plt

__all__ = ["Path", "known_values", "leaf_count", "leaves_of", "node_paths", "plot_search_tree"]

Path = Tuple[int, ...]

#: Colours: a node the search visited, one it never looked at, and the mark of a cut.
SEEN, UNSEEN, CUT = "black", "#bbbbbb", "tab:red"


def node_paths(tree, path: Path = ()) -> Iterable[Path]:
    """Every node's path, the root first, depth first."""
    yield path
    if isinstance(tree, list):
        for i, child in enumerate(tree):
            yield from node_paths(child, path + (i,))


def _layout(tree) -> Dict[Path, Tuple[float, float]]:
    """(x, y) of every node: leaves one unit apart from the left, a parent above the middle of its children."""
    places: Dict[Path, Tuple[float, float]] = {}
    next_leaf = [0.0]

    def place(node, path: Path) -> float:
        if not isinstance(node, list):
            x = next_leaf[0]
            next_leaf[0] += 1
        else:
            xs = [place(child, path + (i,)) for i, child in enumerate(node)]
            x = (xs[0] + xs[-1]) / 2
        places[path] = (x, -len(path))
        return x

    place(tree, ())
    return places


def _subtree(tree, path: Path):
    for i in path:
        tree = tree[i]
    return tree


def plot_search_tree(tree, title: str, values: Dict[Path, Union[float, str]], visited: Optional[Sequence[Path]] = None,
                     cuts: Sequence[Tuple[Path, str]] = (), ax=None, row_names: bool = True):
    """Draws ``tree`` with each node's value from ``values`` (White's side, a number or a text such as
    "≥7"; a node without one shows "?"), White to move as an upward triangle, Black as a downward one,
    leaves as squares.  ``visited``: the nodes a search looked at (None: all); the others and their edges
    are grey.  ``cuts``: ``(path, label)`` of each first child a search did not look at, its edge crossed in
    red and labelled (e.g. "cut: 7 ≥ β = 6").  ``row_names``: whose move each row is, written on the left.
    Returns the Axes (a new figure's when ``ax`` is None)."""
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.2))
    places = _layout(tree)
    seen = set(places) if visited is None else set(visited)
    for path, (x, y) in places.items():
        if path:
            px, py = places[path[:-1]]
            looked = path in seen
            ax.plot([px, x], [py, y], color=SEEN if looked else UNSEEN, lw=1.2 if looked else 0.8,
                    ls="-" if looked else ":", zorder=1)
    for path, label in cuts:
        (px, py), (x, y) = places[path[:-1]], places[path]
        mx, my = px + 0.45 * (x - px), py + 0.45 * (y - py)
        ax.plot([mx - 0.18, mx + 0.18], [my - 0.12, my + 0.12], color=CUT, lw=2.5, zorder=3)
        ax.annotate(label, (mx, my), xytext=(6, -2), textcoords="offset points", color=CUT, fontsize=8,
                    ha="left", va="top", zorder=4)
    for path, (x, y) in places.items():
        node = _subtree(tree, path)
        looked = path in seen
        marker = "s" if not isinstance(node, list) else ("^" if len(path) % 2 == 0 else "v")
        ax.scatter([x], [y], s=700, marker=marker, facecolor="white", edgecolor=SEEN if looked else UNSEEN,
                   linewidth=1.5, zorder=2)
        value = values.get(path)
        text = "?" if value is None else value if isinstance(value, str) else f"{value:g}"
        nudge = {"^": -0.07, "v": 0.07}.get(marker, 0.0)  # into the wide part of a triangle
        ax.text(x, y + nudge, text, ha="center", va="center", fontsize=9, color=SEEN if looked else UNSEEN,
                zorder=5)
    depth = max(len(p) for p in places)
    for level in range(depth + 1 if row_names else 0):
        name = "leaves" if level == depth else ("White to move (max)" if level % 2 == 0 else "Black to move (min)")
        ax.text(min(x for x, _ in places.values()) - 0.8, -level, name, ha="right", va="center", fontsize=8)
    ax.set_title(title, fontsize=10)
    ax.set_xlim(min(x for x, _ in places.values()) - (4.2 if row_names else 0.8), max(x for x, _ in places.values()) + 0.8)
    ax.set_ylim(-depth - 0.6, 0.6)
    ax.axis("off")
    return ax


def known_values(tree, seen: Sequence[Path]) -> Dict[Path, str]:
    """What a search that looked only at the nodes ``seen`` knows of each of them, from White's side: the
    exact value ("6"), or a bound where moves were cut below ("≥7": White to move reached at least 7 and its
    other moves were not looked at; "≤5": likewise for Black, or a bound that came up from below)."""
    seen_set = set(seen)
    known: Dict[Path, Tuple[str, float]] = {}

    def visit(node, path: Path) -> Tuple[str, float]:
        if not isinstance(node, list):
            known[path] = ("", node)
            return known[path]
        white = len(path) % 2 == 0
        children = [visit(child, path + (i,)) for i, child in enumerate(node) if path + (i,) in seen_set]
        pick = max if white else min
        value = pick(v for _, v in children)
        if len(children) < len(node):  # cut: the moves not looked at could only make it better for the mover
            kind = "≥" if white else "≤"
        else:  # exact unless the best value is only a bound that came up from a cut below
            against = "≤" if white else "≥"
            exact = [v for k, v in children if k == ""]
            kind = "" if exact and pick(exact) == value else against
        known[path] = (kind, value)
        return known[path]

    visit(tree, ())
    return {path: f"{kind}{value:g}" for path, (kind, value) in known.items()}


def leaf_count(tree) -> int:
    """How many leaves ``tree`` has."""
    return 1 if not isinstance(tree, list) else sum(leaf_count(child) for child in tree)


def leaves_of(paths: Iterable[Path], tree) -> List[Path]:
    """Those of ``paths`` that are leaves of ``tree``."""
    return [path for path in paths if not isinstance(_subtree(tree, path), list)]
