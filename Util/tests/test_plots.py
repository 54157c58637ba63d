"""The figures the notebooks draw show all of their data."""

import matplotlib

matplotlib.use("Agg")

from Util.notebook.plots import plot_s_n_sizes  # noqa: E402


def test_every_bar_of_the_s_n_sizes_fits_under_the_shared_scale(store):
    """Notebook 02's panels share one scale; the largest S_n of the largest table stays inside it (a limit
    frozen at the first table's largest S_n once cut KBBvK's and KBNvK's bars off)."""
    from Util.calculation.boards import board_counts

    counts = {name: board_counts(store.get(name)) for name in ("KQvK", "KBBvK")}
    figure = plot_s_n_sizes(counts)
    largest = max(max(c.values()) for c in counts.values())
    for ax in figure.axes:
        if ax.get_visible():
            low, high = ax.get_ylim()
            assert low < 1 and high >= largest
            assert all(bar.get_height() <= high for bar in ax.patches)


def test_the_search_tree_knows_exact_values_and_bounds_where_it_cut():
    """The alpha-beta panel of chapter 7: an exact value where every move below was looked at, a bound where
    one was cut (at least, for White to move; at most, for Black), and the root exact again."""
    from Util.notebook.tree_plot import known_values, leaves_of, node_paths, plot_search_tree

    tree = [[[6, 1], [7, 2]], [[3, 5], [8, 9]]]
    seen = [(), (0,), (0, 0), (0, 0, 0), (0, 0, 1), (0, 1), (0, 1, 0), (1,), (1, 0), (1, 0, 0), (1, 0, 1)]
    known = known_values(tree, seen)
    assert known == {(): "6", (0,): "6", (0, 0): "6", (0, 1): "≥7", (1,): "≤5", (1, 0): "5",
                     (0, 0, 0): "6", (0, 0, 1): "1", (0, 1, 0): "7", (1, 0, 0): "3", (1, 0, 1): "5"}
    assert len(leaves_of(seen, tree)) == 5 and len(list(node_paths(tree))) == 15
    ax = plot_search_tree(tree, "alpha-beta", known, visited=seen, cuts=[((0, 1, 1), "cut")])
    texts = [t.get_text() for t in ax.texts]
    assert texts.count("?") == 4 and "≥7" in texts and "cut" in texts  # four positions never looked at
