"""The tables the tests check table by table: all 35 with three and four pieces in the full run, and in the
quick loop (``pytest -m "not slow"``) four that between them have every kind of table: a lone king, a long
mate, pieces on both sides, pawns with en passant."""

import pytest

from Util.bench.calculation import DEFAULT_MATERIALS

QUICK = ("KQvK", "KBNvK", "KQvKR", "KPvKP")

#: Every 3- and 4-piece table as pytest parameters, those not in QUICK marked slow.
EVERY_TABLE = [m if m in QUICK else pytest.param(m, marks=[pytest.mark.slow, pytest.mark.big]) for m in DEFAULT_MATERIALS]
