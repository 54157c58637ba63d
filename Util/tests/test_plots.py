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
