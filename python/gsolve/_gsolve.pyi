"""Type stubs of the Rust extension gsolve._gsolve (python/src)."""

from os import PathLike
from typing import Literal, Optional, Union

import numpy as np
import numpy.typing as npt

__version__: str

Kind = Literal["win", "loss", "tie", "draw"]

class GsolveError(Exception):
    """Base class of gsolve's errors. The message is the command line's."""

class InputError(GsolveError):
    """A game, board, position, rules file or option that gsolve cannot take."""

class TooLargeError(InputError):
    """Solving would take more positions, cells or search nodes than the limits allow."""

class TablebaseError(GsolveError):
    """A tablebase that cannot be read or written, or cannot answer this position."""

class Value:
    """The exact value of a position for the side to move.

    Values compare by how much the side to move likes them: a faster win > a
    slower win > a faster tie > a draw > a slower loss > a faster loss. In a game
    that ends in a score (a rules file's ``[score]``), ``margin`` is the final
    margin for the side to move and values compare by margin first."""

    def __init__(self, kind: Kind, remoteness: Optional[int] = None, margin: Optional[int] = None) -> None: ...
    @staticmethod
    def from_code(code: int) -> Optional[Value]:
        """The value of a packed code (``Solution.values``); ``None`` for no position."""
    @property
    def kind(self) -> Kind:
        """``"win"``, ``"loss"``, ``"tie"`` or ``"draw"`` (endless play)."""
    @property
    def remoteness(self) -> Optional[int]:
        """Plies to the end in perfect play; ``None`` for a draw."""
    @property
    def margin(self) -> Optional[int]:
        """In a game with a score: the final margin for the side to move (positive: it
        wins by that much); ``None`` in other games."""
    @property
    def code(self) -> int:
        """The packed code: ``remoteness << 2 | tag`` (1 loss, 2 tie, 3 win), 0 a draw."""
    def parent_view(self) -> Value:
        """The value for the side that moved into this position."""
    def __lt__(self, other: Value) -> bool: ...
    def __le__(self, other: Value) -> bool: ...
    def __gt__(self, other: Value) -> bool: ...
    def __ge__(self, other: Value) -> bool: ...
    def __hash__(self) -> int: ...

class Move:
    """One legal move and its value for the side making it."""

    label: str
    from_cell: tuple[int, int]
    to_cell: tuple[int, int]
    value: Value
    delta: Optional[int]
    position: str

class LegalMove:
    """A legal move and the position it leads to (no value: ``Game.moves``)."""

    label: str
    from_cell: tuple[int, int]
    to_cell: tuple[int, int]
    position: str

class Moves:
    """A position's legal moves, found without solving anything."""

    position: str
    to_move: str
    over: Optional[Value]
    end: Optional[str]
    moves: list[LegalMove]
    board_size: tuple[int, int]
    """The board's rows and columns."""
    def __len__(self) -> int: ...

class Analysis:
    """A position's value and every legal move's value, best first."""

    game: str
    position: str
    to_move: str
    value: Value
    solver: str
    moves: list[Move]
    end: Optional[str]
    @property
    def best_move(self) -> Optional[Move]: ...
    @property
    def over(self) -> bool: ...
    def to_json(self) -> str:
        """The JSON of ``gsolve analyze --json`` (the web API's)."""

class Solution:
    """Every position of a game's index with its value (``Game.solve``)."""

    @property
    def values(self) -> Union[npt.NDArray[np.uint16], npt.NDArray[np.uint32]]:
        """Packed value codes by index, the solver's own buffer (no copy)."""
    @property
    def solver(self) -> str:
        """``"layered"``, ``"bit rows"`` or ``"retrograde"``: the solver ``gsolve build`` takes too."""
    def __len__(self) -> int: ...
    def index(self, position: str) -> int: ...
    def position(self, index: int) -> Optional[str]: ...
    def value(self, index: int) -> Optional[Value]: ...

class Game:
    """A game on a board; positions in its plain notation."""

    @property
    def has_score(self) -> bool:
        """Whether the game ends in a score (a rules file's ``[score]``): values then carry margins."""
    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def parameters(self) -> list[tuple[str, str]]: ...
    @property
    def start(self) -> str: ...
    @property
    def notation(self) -> str: ...
    @property
    def sides(self) -> tuple[str, str]: ...
    def analyze(self, position: Optional[str] = None) -> Analysis:
        """The value of ``position`` (the start by default) and of every move, best first."""
    def value(self, position: Optional[str] = None) -> Value: ...
    def moves(self, position: Optional[str] = None) -> Moves:
        """The legal moves and where they lead, without solving (any board size)."""
    def solve(self) -> Solution:
        """Every position of the game's index solved; values exported to NumPy."""
    def build_tablebase(
        self, path: Union[str, PathLike[str]], force: bool = False, work_dir: Optional[Union[str, PathLike[str]]] = None
    ) -> Tablebase: ...
    def build_book(
        self,
        path: Union[str, PathLike[str]],
        plies: int,
        force: bool = False,
        play: int = 0,
        opponent: Literal["any", "perfect"] = "any",
    ) -> int:
        """An opening book of a line game (as ``gsolve book``, ``play`` as ``--play``, ``opponent`` as
        ``--opponent``); the number of positions."""

class Tablebase:
    """A tablebase file, answering for its game and board."""

    def __init__(self, path: Union[str, PathLike[str]]) -> None: ...
    @property
    def path(self) -> str: ...
    @property
    def game(self) -> Game: ...
    @property
    def index_size(self) -> int: ...
    def probe(self, position: Optional[str] = None) -> Value: ...
    def analyze(self, position: Optional[str] = None) -> Analysis: ...

def game(name: str, **board: Union[int, str]) -> Game:
    """A built-in game: ``game("pawns", rows=4, cols=4)``, ``game("chase", size=4)``."""

def rules(path_or_text: str, book: Optional[Union[str, PathLike[str]]] = None, **board: Union[int, str]) -> Game:
    """The game of a rules file (a path, or the TOML text); ``book``: an opening
    book of these rules (``gsolve book``), whose positions are answered from it."""

def games() -> list[str]:
    """The built-in games' names."""

def solve_graph(
    offsets: npt.NDArray[np.uint64], children: npt.NDArray[np.uint64], outcomes: npt.NDArray[np.uint8]
) -> npt.NDArray[np.uint32]:
    """Solves an explicit move graph; returns every position's packed value code."""
