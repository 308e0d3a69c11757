"""gsolve and OpenSpiel (``pip install open-spiel``), both ways.

* ``load(...)``: a gsolve game as an OpenSpiel game (its Python-game API), so that
  OpenSpiel's algorithms and bots run on it. Returns are +1/-1/0, or the final
  margins in a game that ends in a score (Othello: the disc difference).
* ``PerfectBot``: an OpenSpiel bot that plays perfectly (fastest win, slowest
  loss), from gsolve's solver, a tablebase, or a ``solve`` result; ``evaluate``
  measures an agent against it (results, and the plies it survives).
* ``solve(pyspiel_game)``: any two-player, deterministic, perfect-information,
  sequential OpenSpiel game solved exactly: its states are explored through
  pyspiel, keyed exactly (``key_for``), and the move graph is solved by gsolve's
  retrograde solver (value and remoteness; endless play is a draw, not a tie).
"""

from __future__ import annotations

import collections
import itertools
from typing import Any, Callable, Dict, Hashable, Iterator, List, Optional, Tuple, Union

import numpy as np

import gsolve

try:
    import pyspiel
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("gsolve.openspiel needs OpenSpiel: pip install open-spiel") from error

__all__ = ["load", "PerfectBot", "evaluate", "solve", "key_for", "SolvedGame", "EXACT_STRING_KEYS"]

# --------------------------------------------------------------------------------
# gsolve games in OpenSpiel

_SHORT_NAME = "python_gsolve"
_PARAMETERS = {
    "game": "pawns",
    "rows": 0,
    "cols": 0,
    "size": 0,
    "map": "",
    "rules": "",
    "start": "",
    "max_game_length": 1000,
}
_GAME_TYPE = pyspiel.GameType(
    short_name=_SHORT_NAME,
    long_name="gsolve game",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=_PARAMETERS,
)

# The gsolve games behind OpenSpiel games, by handle: states keep only a handle
# and a position, so that OpenSpiel can copy them.
_GAMES: Dict[int, "_Bridge"] = {}
_HANDLES = itertools.count()


class _Position:
    """What a state needs of a position: its player, moves and end (from
    ``Game.moves``, which solves nothing)."""

    __slots__ = ("position", "player", "over", "returns", "actions", "children", "labels")

    def __init__(self, bridge: "_Bridge", listing: gsolve.Moves):
        self.position = listing.position
        self.player = 0 if listing.to_move == bridge.sides[0] else 1
        self.over = listing.over is not None
        self.children: Dict[int, str] = {}
        self.labels: Dict[int, str] = {}
        for move in listing.moves:
            action = bridge.action(move)
            if action in self.children:
                raise gsolve.GsolveError(
                    f"{listing.position}: two moves start and end on the same cells "
                    f"({self.labels[action]} and {move.label}); OpenSpiel actions cannot tell them apart"
                )
            self.children[action] = move.position
            self.labels[action] = move.label
        self.actions = sorted(self.children)
        if self.over:
            over = listing.over
            if over.margin is not None:
                # A game that ends in a score: the returns are the final margins.
                mover = float(over.margin)
            else:
                mover = 1.0 if over.kind == "win" else -1.0 if over.kind == "loss" else 0.0
            self.returns = [mover, -mover] if self.player == 0 else [-mover, mover]
        else:
            self.returns = [0.0, 0.0]


class _Bridge:
    """A gsolve game with its board's size (for action numbers) and a cache of
    analysed positions."""

    def __init__(self, game: gsolve.Game, start: Optional[str]):
        self.game = game
        self.start = game.moves(start).position if start else game.start
        self.sides = game.sides
        self.rows, self.cols = _board_size(game, self.start)
        self.cells = self.rows * self.cols
        self.positions: Dict[str, _Position] = {}

    def action(self, move: Union[gsolve.Move, gsolve.LegalMove]) -> int:
        (fr, fc), (tr, tc) = move.from_cell, move.to_cell
        return ((fr - 1) * self.cols + fc - 1) * self.cells + (tr - 1) * self.cols + tc - 1

    def position(self, text: str) -> _Position:
        found = self.positions.get(text)
        if found is None:
            found = _Position(self, self.game.moves(text))
            self.positions[text] = found
        return found


def _board_size(game: gsolve.Game, start: str) -> Tuple[int, int]:
    """Rows and columns of the game's board (action numbers count its cells), as
    gsolve draws it."""
    return game.moves(start).board_size


def _gsolve_game(params: Dict[str, Any]) -> gsolve.Game:
    board = {k: params[k] for k in ("rows", "cols", "size") if params.get(k)}
    if params.get("map"):
        board["map"] = params["map"]
    if params["game"] == "rules":
        if not params.get("rules"):
            raise gsolve.InputError("a rules game needs rules=PATH")
        return gsolve.rules(params["rules"], **board)
    return gsolve.game(params["game"], **board)


class GsolveGame(pyspiel.Game):
    """A gsolve game as an OpenSpiel game (made by ``load``). Actions number the
    moving piece's cell and its destination: ``from_cell * cells + to_cell``,
    cells counted row by row from 0. Player 0 is the game's first side
    (``gsolve_game.sides[0]``: white in pawns and chase), whoever moves first in
    ``start``."""

    def __init__(self, params: Optional[Dict[str, Any]] = None, game: Optional[gsolve.Game] = None):
        params = dict(_PARAMETERS, **(params or {}))
        if game is None:
            game = _gsolve_game(params)
        self.bridge = _Bridge(game, params.get("start") or None)
        self.handle = next(_HANDLES)
        _GAMES[self.handle] = self.bridge
        # A game with a score returns margins, at most one a cell.
        utility = float(self.bridge.cells) if game.has_score else 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=self.bridge.cells * self.bridge.cells,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-utility,
            max_utility=utility,
            utility_sum=0.0,
            max_game_length=int(params["max_game_length"]),
        )
        super().__init__(_GAME_TYPE, info, params)

    @property
    def gsolve_game(self) -> gsolve.Game:
        """The gsolve game behind this one."""
        return self.bridge.game

    def new_initial_state(self) -> "GsolveState":
        return GsolveState(self)

    def state_at(self, position: str) -> "GsolveState":
        """A state at a position in the gsolve game's plain notation."""
        state = GsolveState(self)
        state.position = self.bridge.game.moves(position).position
        return state

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _PositionObserver()


class GsolveState(pyspiel.State):
    """A position of a gsolve game; ``position`` is its plain notation and
    ``str(state)`` too."""

    def __init__(self, game: GsolveGame):
        super().__init__(game)
        self.handle = game.handle
        self.position = game.bridge.start

    def _info(self) -> _Position:
        return _GAMES[self.handle].position(self.position)

    def current_player(self) -> int:
        info = self._info()
        return pyspiel.PlayerId.TERMINAL if info.over else info.player

    def _legal_actions(self, player: int) -> List[int]:
        return list(self._info().actions)

    def _apply_action(self, action: int) -> None:
        self.position = self._info().children[action]

    def _action_to_string(self, player: int, action: int) -> str:
        return self._info().labels.get(action, f"action {action}")

    def is_terminal(self) -> bool:
        return self._info().over

    def returns(self) -> List[float]:
        return list(self._info().returns)

    def value(self) -> gsolve.Value:
        """The exact value of this position for its side to move (solves)."""
        return _GAMES[self.handle].game.value(self.position)

    def __str__(self) -> str:
        return self.position


class _PositionObserver:
    """Observation strings: the position (the game has perfect information)."""

    def __init__(self):
        self.tensor = np.zeros(0, np.float32)
        self.dict: Dict[str, np.ndarray] = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        return state.position


pyspiel.register_game(_GAME_TYPE, GsolveGame)


def load(game: Union[str, gsolve.Game], *, start: Optional[str] = None, max_game_length: int = 1000, **board) -> GsolveGame:
    """A gsolve game as an OpenSpiel game: ``load("pawns", rows=4, cols=4)``,
    ``load(gsolve.rules("examples/rules/chase.toml"))``, ``load(tablebase.game)``.
    ``start`` is a position in plain notation (the game's start by default);
    player 0 is the game's first side (``game.sides[0]``).
    The same game loads by name: ``pyspiel.load_game("python_gsolve",
    {"game": "pawns", "rows": 4, "cols": 4})``."""
    params: Dict[str, Any] = {"max_game_length": max_game_length, "start": start or ""}
    if isinstance(game, gsolve.Game):
        params["game"] = game.name
        return GsolveGame(params, game=game)
    params["game"] = game
    params.update(board)
    return GsolveGame(params)


# --------------------------------------------------------------------------------
# Perfect play

Source = Union[gsolve.Game, gsolve.Tablebase, "SolvedGame", None]


class PerfectBot(pyspiel.Bot):
    """Plays perfectly: the fastest win, the slowest loss, a tie or draw kept.

    ``source`` is where values come from: ``None`` for the gsolve game behind a
    ``load``-ed game (its own solver), a ``gsolve.Tablebase``, or a ``SolvedGame``
    from ``solve`` (any OpenSpiel game). Among equally good moves it plays the
    first, or a random one when given ``rng`` (a ``numpy.random.Generator``)."""

    def __init__(self, source: Source = None, rng: Optional[np.random.Generator] = None):
        pyspiel.Bot.__init__(self)
        self.source = source
        self.rng = rng

    def move_values(self, state) -> List[Tuple[int, gsolve.Value]]:
        """Every legal action with its value for the side to move, best first."""
        if isinstance(self.source, SolvedGame):
            scored = []
            for action in state.legal_actions():
                child = state.child(action)
                value = self.source.value_of(child, mover=state.current_player())
                scored.append((action, value.parent_view()))
        else:
            bridge = _GAMES[state.handle]
            analysis = (self.source or bridge.game).analyze(state.position)
            scored = [(bridge.action(m), m.value) for m in analysis.moves]
        scored.sort(key=lambda pair: pair[1], reverse=True)
        return scored

    def step(self, state) -> int:
        scored = self.move_values(state)
        if not scored:
            raise gsolve.GsolveError("the game is over: no move to choose")
        best = [action for action, value in scored if value == scored[0][1]]
        if self.rng is not None:
            return int(self.rng.choice(best))
        return best[0]

    def restart_at(self, state) -> None:
        pass

    def inform_action(self, state, player_id, action) -> None:
        pass

    def provides_policy(self) -> bool:
        return False


def evaluate(agent, game, *, episodes: int = 20, perfect: Optional[PerfectBot] = None, start_state=None) -> Dict[str, Any]:
    """Plays ``agent`` against perfect play, half the games from each seat
    (``agent`` is an OpenSpiel bot, or a function of the seat that returns one,
        for bots bound to a player such as ``UniformRandomBot``). Returns the agent's
    ``wins``, ``losses``, ``ties`` and ``draws`` (games that reach
    ``max_game_length``), ``win_rate``, the ``plies`` and the agent's
    ``returns`` of every game (even games: the agent moves first), and
    ``mean_plies_survived`` over the games the agent lost."""
    perfect = perfect or PerfectBot()
    results = collections.Counter()
    plies: List[int] = []
    outcomes: List[float] = []
    lost_plies: List[int] = []
    for episode in range(episodes):
        seat = episode % 2
        player_bot = agent if isinstance(agent, pyspiel.Bot) else agent(seat)
        bots = [player_bot, perfect] if seat == 0 else [perfect, player_bot]
        state = start_state.clone() if start_state is not None else game.new_initial_state()
        for bot in bots:
            bot.restart_at(state)
        length = 0
        limit = game.max_game_length()
        while not state.is_terminal() and length < limit:
            player = state.current_player()
            action = bots[player].step(state)
            for i, bot in enumerate(bots):
                if i != player:
                    bot.inform_action(state, player, action)
            state.apply_action(action)
            length += 1
        plies.append(length)
        outcome = state.returns()[seat] if state.is_terminal() else 0.0
        outcomes.append(outcome)
        if not state.is_terminal():
            results["draws"] += 1
        elif outcome > 0:
            results["wins"] += 1
        elif outcome < 0:
            results["losses"] += 1
            lost_plies.append(length)
        else:
            results["ties"] += 1
    return {
        "episodes": episodes,
        "wins": results["wins"],
        "losses": results["losses"],
        "ties": results["ties"],
        "draws": results["draws"],
        "win_rate": results["wins"] / episodes if episodes else 0.0,
        "plies": plies,
        "returns": outcomes,
        "mean_plies_survived": float(np.mean(lost_plies)) if lost_plies else None,
    }


# --------------------------------------------------------------------------------
# OpenSpiel games in gsolve

#: Games whose state string, with the player to move, identifies a state exactly
#: (their states hold the board and the player to move, nothing else; a gsolve
#: game's string is its position in plain notation, side to move included). Every other game
#: gets the move history unless the caller passes a key.
EXACT_STRING_KEYS = frozenset({"tic_tac_toe", "breakthrough", "connect_four", _SHORT_NAME})

KeyFunction = Callable[[Any], Hashable]


def key_for(game) -> str:
    """The key ``solve`` uses for a game by default: ``"string"`` (the state's
    string with the player to move) for the games in ``EXACT_STRING_KEYS``,
    ``"history"`` (the moves played, exact for every game but one key per path:
    549,946 for tic-tac-toe's 5,478 positions) for any other."""
    return "string" if game.get_type().short_name in EXACT_STRING_KEYS else "history"


def _key_function(key: Union[str, KeyFunction]) -> KeyFunction:
    if callable(key):
        return key
    if key == "string":
        return str
    if key == "history":
        return lambda state: tuple(state.history())
    raise ValueError(f"unknown key {key!r}: expected 'string', 'history' or a function of a state")


def _check_game(game) -> None:
    kind = game.get_type()
    problems = []
    if game.num_players() != 2:
        problems.append(f"{game.num_players()} players (gsolve solves two-player games)")
    if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        problems.append("simultaneous moves")
    if kind.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC:
        problems.append("chance")
    if kind.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        problems.append("imperfect information")
    if kind.utility not in (pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM):
        problems.append("payoffs that are not zero-sum or constant-sum")
    if problems:
        raise gsolve.InputError(f"{kind.short_name}: cannot be solved exactly: " + ", ".join(problems))


class SolvedGame:
    """An OpenSpiel game solved by ``solve``: ``value`` is the start's value for
    player 0 (who moves first), ``num_states`` the states told apart by the key,
    ``codes`` every state's packed value (``gsolve.decode``) for its side to move."""

    def __init__(self, game, key_name: str, key: KeyFunction, index: Dict[Hashable, int], codes: np.ndarray, start: int):
        self.game = game
        self.key_name = key_name
        self._key = key
        self._index = index
        self.codes = codes
        self.num_states = len(codes)
        self.value = gsolve.Value.from_code(int(codes[start]))

    def key(self, state, mover: Optional[int] = None) -> Hashable:
        """The key of a state: ``(key(state), side to move)``; for a finished
        state, the side that would move there is given by ``mover`` (the player
        who moved into it)."""
        player = state.current_player()
        if player < 0:
            if mover is None:
                raise ValueError("a finished state's key needs the player who moved into it (mover=)")
            player = 1 - mover
        return (self._key(state), player)

    def value_of(self, state, mover: Optional[int] = None) -> gsolve.Value:
        """The exact value of a state for its side to move (for a finished state,
        the side after ``mover``). Raises ``KeyError`` for a state not explored
        (``solve(..., keep_index=False)`` keeps none)."""
        return gsolve.Value.from_code(int(self.codes[self._index[self.key(state, mover)]]))

    def items(self) -> Iterator[Tuple[Hashable, gsolve.Value]]:
        """Every state's key and value."""
        for key, i in self._index.items():
            yield key, gsolve.Value.from_code(int(self.codes[i]))

    def counts(self) -> Dict[str, int]:
        """How many states are won, lost, tied and drawn by their side to move."""
        kind, _ = gsolve.decode(self.codes)
        names = {gsolve.WIN: "win", gsolve.LOSS: "loss", gsolve.TIE: "tie", gsolve.DRAW: "draw"}
        return {name: int(np.count_nonzero(kind == k)) for k, name in names.items()}

    def __repr__(self) -> str:
        return f"SolvedGame({self.game.get_type().short_name}, {self.value!r}, {self.num_states} states, key={self.key_name})"


def solve(
    game,
    key: Union[str, KeyFunction, None] = None,
    *,
    keep_index: bool = True,
    check: bool = True,
    max_states: Optional[int] = None,
) -> SolvedGame:
    """Solves an OpenSpiel game exactly from its start.

    ``game`` is a ``pyspiel.Game`` or a name for ``pyspiel.load_game``. ``key``
    says which states are the same: ``"string"`` (``str(state)`` with the player
    to move), ``"history"`` (the moves played), or a function of a state (the
    player to move is added to what it returns); ``None`` takes ``key_for(game)``.
    With ``check``, a state reached again under a key must have the same legal
    actions and end as the first (a key that merges different states is refused).
    ``keep_index=False`` drops the key-to-state table after solving (only the
    start's value and the counts remain). Play must alternate between the two
    players; the returns decide a finished game (higher wins, equal ties).
    """
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    _check_game(game)
    key_name = key if isinstance(key, str) else (key_for(game) if key is None else getattr(key, "__name__", "function"))
    key_function = _key_function(key if key is not None else key_name)

    index: Dict[Hashable, int] = {}
    # Per state: its children (indices), how it ended (0 not, 1 won, 2 lost, 3
    # tied by its side to move), and for checks its legal actions.
    children: List[List[int]] = []
    outcomes: List[int] = []
    signature: List[Tuple] = []
    queue = collections.deque()

    def visit(state, mover: Optional[int]) -> int:
        player = state.current_player()
        over = state.is_terminal()
        if not over and player not in (0, 1):
            raise gsolve.InputError(f"{game.get_type().short_name}: a state where player {player} moves")
        if over:
            if mover is None:
                raise gsolve.InputError("the start is already over")
            player = 1 - mover
        elif mover is not None and player == mover:
            raise gsolve.InputError(
                f"{game.get_type().short_name}: player {player} moves twice in a row; "
                "gsolve's solvers need the players to alternate"
            )
        k = (key_function(state), player)
        found = index.get(k)
        if found is not None:
            if check:
                seen = signature[found]
                now = (over, tuple(state.returns()) if over else tuple(state.legal_actions()))
                if seen != now:
                    raise gsolve.InputError(
                        f"{game.get_type().short_name}: the key {key_name!r} gives two different states the same key "
                        f"({k!r}); pass key='history' or a key function"
                    )
            return found
        i = len(outcomes)
        if max_states is not None and i >= max_states:
            raise gsolve.TooLargeError(f"more than {max_states} states (max_states)")
        index[k] = i
        children.append([])
        if over:
            returns = state.returns()
            mine, theirs = returns[player], returns[1 - player]
            outcomes.append(1 if mine > theirs else 2 if mine < theirs else 3)
            signature.append((True, tuple(returns)) if check else ())
        else:
            outcomes.append(0)
            signature.append((False, tuple(state.legal_actions())) if check else ())
            queue.append((i, state))
        return i

    start = visit(game.new_initial_state(), None)
    while queue:
        i, state = queue.popleft()
        player = state.current_player()
        children[i] = [visit(state.child(action), player) for action in state.legal_actions()]

    offsets = np.zeros(len(children) + 1, np.uint64)
    np.cumsum([len(c) for c in children], out=offsets[1:])
    flat = np.fromiter(itertools.chain.from_iterable(children), np.uint64, count=int(offsets[-1]))
    codes = gsolve.solve_graph(offsets, flat, np.asarray(outcomes, np.uint8))
    solved = SolvedGame(game, key_name, key_function, index if keep_index else {}, codes, start)
    return solved
