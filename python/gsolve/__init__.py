"""gsolve: exact values and remoteness of two-player games, from Python.

A thin layer over gsolve's Rust crates (the same analysis as ``gsolve analyze``)::

    >>> import gsolve
    >>> hexapawn = gsolve.game("pawns", rows=3, cols=3)
    >>> hexapawn.value()                     # the start, white to move
    Value("loss", 6)
    >>> [str(m.value) for m in hexapawn.analyze().moves]   # best first
    ['loss in 6', 'loss in 4', 'loss in 4']

``gsolve.openspiel`` bridges to OpenSpiel (``pip install open-spiel``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._gsolve import (  # noqa: F401
    Analysis,
    Game,
    GsolveError,
    InputError,
    LegalMove,
    Move,
    Moves,
    Solution,
    Tablebase,
    TablebaseError,
    TooLargeError,
    Value,
    __version__,
    game,
    games,
    rules,
    solve_graph,
)

#: ``decode``'s kind numbers, by name.
DRAW, LOSS, TIE, WIN, NO_POSITION = 0, 1, 2, 3, 4

__all__ = [
    "Analysis",
    "Game",
    "GsolveError",
    "InputError",
    "LegalMove",
    "Move",
    "Moves",
    "Solution",
    "Tablebase",
    "TablebaseError",
    "TooLargeError",
    "Value",
    "decode",
    "game",
    "games",
    "rules",
    "solve_graph",
    "DRAW",
    "LOSS",
    "TIE",
    "WIN",
    "NO_POSITION",
]


if TYPE_CHECKING:  # NumPy is imported when first used: `import gsolve` stays fast.
    import numpy


def decode(codes: "numpy.ndarray") -> "tuple[numpy.ndarray, numpy.ndarray]":
    """Splits packed value codes (``Solution.values``) into two arrays.

    Returns ``(kind, remoteness)``: ``kind`` is ``WIN`` (3), ``TIE`` (2), ``LOSS``
    (1), ``DRAW`` (0) or ``NO_POSITION`` (4, an index that names no position);
    ``remoteness`` is the plies to the end, -1 for a draw or no position.
    """
    import numpy as _np

    codes = _np.asarray(codes)
    tag = (codes & 3).astype(_np.uint8)
    remoteness = (codes >> 2).astype(_np.int64)
    special = tag == 0
    kind = _np.where(special & (remoteness != 0), NO_POSITION, tag).astype(_np.uint8)
    remoteness[special] = -1
    return kind, remoteness
