"""The plumbing of notebook 06 (validating the S_n sets), so that its cells show the checks themselves.

Each helper takes the results of the checks in :mod:`Util.validation` and turns them into what the
chapter prints: how many boards of a check disagree, the Syzygy comparison for each side that mates in
a table, the closing table's row of a table checked against Gaviota with its saved report and figure,
and the per-n table of Syzygy's DTZ beside Gaviota's DTM with alike S_n merged into one line.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, List, Optional, Tuple

from ..sequence import SnSequence
from ..validation.dtz_per_n import HEADER, DtzRow
from ..validation.comparison import AgreementPerN
from ..validation.matchrate import MatchRate
from ..validation.report import write_report
from ..validation.syzygy_checks import SyzygyComparison, compare_with_syzygy

__all__ = ["DTZ_HEADER", "GAVIOTA_HEADER", "compare_winners_with_syzygy", "disagreeing", "dtz_surprises", "gaviota_row",
           "merged_dtz_rows", "missed", "save_gaviota_report"]


def disagreeing(result: AgreementPerN) -> int:
    """Boards of a per-n comparison (Gaviota, Syzygy) on which the reference disagrees with our n."""
    return result.total - sum(result.agreed.values())


def missed(rate: MatchRate) -> int:
    """Boards the matching rate finds wrong: won by Gaviota but in no S_n, or in an S_n but not won."""
    return rate.gaviota_won - rate.matched + rate.ours_but_not_gaviota


def compare_winners_with_syzygy(sequence: SnSequence, folder: os.PathLike, *, every_board: bool,
                                sample: Optional[int], dtz_every: int) -> List[SyzygyComparison]:
    """:func:`Util.validation.references.compare_with_syzygy` for each side that mates in the table:
    White's sets, and Black's too where Black has pieces (KQvKR)."""
    winners = [sequence] if sequence.material.lone_black_king else [sequence, sequence.black]
    return [compare_with_syzygy(side, folder, every_board=every_board, sample=sample, dtz_every=dtz_every)
            for side in winners]


def dtz_surprises(results: Iterable[SyzygyComparison]) -> List[str]:
    """What DTZ may never do, table by table: exceed n on a board with n >= 1 (mate is itself a zeroing
    event), or be anything but python-chess's -1 on a checkmate.  [] when neither happened."""
    surprises = []
    for result in results:
        if max(result.dtz_minus_n, default=0) > 0:
            surprises.append(f"{result.material}: |DTZ| above n for a board with n >= 1")
        if not set(result.dtz_at_mate) <= {-1}:
            surprises.append(f"{result.material}: a checkmate whose DTZ is not python-chess's -1")
    return surprises


#: The columns of :func:`gaviota_row`.
GAVIOTA_HEADER = ("table", "boards in some S_n", "of those, asked of Gaviota", "Gaviota's DTM ≠ our n",
                  "legal boards for the matching rate", "matching rate (of those Gaviota calls won)",
                  "in an S_n, not won for Gaviota", "Gaviota comparison, boards/s")


def gaviota_row(sequence: SnSequence, versus: AgreementPerN, rate: MatchRate) -> Tuple:
    """One table's line of the Gaviota summary: how many boards the table has in its S_n (either winner's),
    how many of them Gaviota was asked about and how many it disagrees with, the matching rate over how many
    legal boards (all, or a sample), and the rate in boards per second to two significant figures."""
    speed = versus.total / versus.seconds if versus.seconds else float("nan")
    boards = sum(sequence.board_counts.values()) + sum(sequence.black.board_counts.values())
    scope = "all" if not rate.sampled else "sampled"
    return (sequence.material.name, f"{boards:,}", f"{versus.total:,}", disagreeing(versus),
            f"{rate.legal:,} ({scope})", f"{rate.rate:.4f} %", rate.ours_but_not_gaviota,
            f"about {float(f'{speed:.2g}'):,.0f}")


def save_gaviota_report(name: str, versus: AgreementPerN, rate: MatchRate, folder: os.PathLike) -> Path:
    """Write ``validation_<name>.txt`` (both lines) and ``.png`` (boards checked per n) into ``folder``;
    returns the report's path."""
    import matplotlib.pyplot as plt

    from .plots import plot_agreement

    path = write_report(name, [versus.line(), rate.line()], folder)
    figure = plot_agreement(f"{name}: Gaviota", [("Gaviota DTM = n", versus.checked, versus.agreed)])
    figure.savefig(Path(folder) / f"validation_{name}.png", dpi=100)
    plt.close(figure)
    return path


#: The columns of :func:`merged_dtz_rows`.
DTZ_HEADER = ("S_n", *HEADER[1:])


def merged_dtz_rows(rows: List[DtzRow]) -> List[Tuple]:
    """:meth:`DtzRow.cells` with the n written ``S_2 .. S_38`` for consecutive S_n whose every count is
    alike (none, or all of the sampled boards), their counts added up; other rows stay one per n."""
    def pattern(row: DtzRow) -> Optional[Tuple]:
        counts = row.cells()[2:]
        alike = all(c in (0, row.sampled) for c in counts)
        return tuple(c == row.sampled for c in counts) if alike and row.sampled else None

    groups: List[List[DtzRow]] = []
    for row in rows:
        if groups and pattern(row) is not None and pattern(row) == pattern(groups[-1][-1]):
            groups[-1].append(row)
        else:
            groups.append([row])
    merged = []
    for group in groups:
        first, last = group[0].n, group[-1].n
        label = f"S_{first}" if first == last else f"S_{first} .. S_{last}"
        sums = [sum(column) for column in zip(*(row.cells()[1:] for row in group))]
        merged.append((label, *(f"{s:,}" for s in sums)))
    return merged
