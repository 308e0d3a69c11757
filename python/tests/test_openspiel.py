"""The OpenSpiel bridge: OpenSpiel games solved by gsolve against known values and
an independent search; gsolve games run by OpenSpiel's algorithms; perfect play."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import gsolve  # noqa: E402
from gsolve import Value  # noqa: E402
from gsolve import openspiel as gos  # noqa: E402


def test_tic_tac_toe_is_a_tie_in_9_over_5478_positions():
    solved = gos.solve("tic_tac_toe")
    assert solved.key_name == "string"
    assert solved.num_states == 5478
    assert solved.value == Value("tie", 9)
    assert sum(solved.counts().values()) == 5478
    assert solved.counts()["draw"] == 0


def negamax(state, memo):
    """Plain negamax with remoteness, keyed by the state string and the player to
    move: ('win'|'loss', plies) for the player to move (breakthrough cannot tie)."""
    key = (str(state), state.current_player())
    if key in memo:
        return memo[key]
    best = None
    for action in state.legal_actions():
        child = state.child(action)
        if child.is_terminal():
            mover = state.current_player()
            ours = ("win", 1) if child.returns()[mover] > 0 else ("loss", 1)
        else:
            kind, plies = negamax(child, memo)
            ours = ("loss" if kind == "win" else "win", plies + 1)
        rank = (1, -ours[1]) if ours[0] == "win" else (0, ours[1])
        if best is None or rank > best[0]:
            best = (rank, ours)
    memo[key] = best[1]
    return best[1]


@pytest.mark.parametrize("rows,columns", [(3, 3), (4, 3), (3, 4), (4, 4)])
def test_breakthrough_against_an_independent_search(rows, columns):
    game = pyspiel.load_game("breakthrough", {"rows": rows, "columns": columns})
    solved = gos.solve(game)
    memo = {}
    kind, plies = negamax(game.new_initial_state(), memo)
    assert solved.value == Value(kind, plies)
    # Every unfinished state the search met has the same value.
    for (string, player), (kind, plies) in memo.items():
        assert Value.from_code(int(solved.codes[solved._index[(string, player)]])) == Value(kind, plies)


def test_keys_history_and_refused_keys():
    game = pyspiel.load_game("tic_tac_toe")
    by_history = gos.solve(game, key="history", keep_index=False)
    assert by_history.value == Value("tie", 9)
    assert by_history.num_states == 549946
    # The board alone, without the player, is still exact for tic-tac-toe; a key
    # that merges states is refused.
    with pytest.raises(gsolve.InputError, match="same key"):
        gos.solve(game, key=lambda state: str(state).count("x"))


def test_games_gsolve_cannot_solve_are_refused():
    with pytest.raises(gsolve.InputError, match="chance"):
        gos.solve("pig")


def test_loaded_gsolve_game_runs_openspiel_algorithms():
    from open_spiel.python.algorithms import minimax

    game = gos.load("pawns", rows=3, cols=3)
    state = game.new_initial_state()
    assert str(state) == "ppp/.../PPP w"
    assert state.current_player() == 0
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["(3,1)->(2,1)", "(3,2)->(2,2)", "(3,3)->(2,3)"]
    value, _ = minimax.alpha_beta_search(game)
    assert value == -1.0  # Hexapawn: black (player 1) wins
    # gsolve's own solve of the loaded game through pyspiel agrees.
    assert gos.solve(game).value == Value("loss", 6)
    # From another start: black to move there is player 1.
    later = gos.load("pawns", rows=3, cols=3, start="ppp/.P./P.P b").new_initial_state()
    assert later.current_player() == 1 and later.value() == Value("win", 5)
    by_name = pyspiel.load_game("python_gsolve", {"game": "chase", "size": 3})
    assert by_name.new_initial_state().value() == gsolve.game("chase", size=3).value()


def test_mcts_runs_on_a_loaded_game():
    from open_spiel.python.algorithms import mcts

    game = gos.load("pawns", rows=3, cols=3)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2, 50, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    assert bot.step(state) in state.legal_actions()


def test_perfect_bot_never_loses_a_won_position():
    from open_spiel.python.bots import uniform_random

    game = gos.load("pawns", rows=3, cols=3)
    rng = np.random.RandomState(3)
    result = gos.evaluate(lambda seat: uniform_random.UniformRandomBot(seat, rng), game, episodes=20)
    # Black (player 1) wins Hexapawn: the agent, white in even games, loses them all.
    assert result["returns"][0::2] == [-1.0] * 10
    assert result["mean_plies_survived"] is not None
    # Perfect play against itself lasts the start's remoteness.
    perfect = gos.PerfectBot()
    both = gos.evaluate(perfect, game, episodes=2)
    assert both["plies"] == [6, 6]

    # A solved OpenSpiel game backs the bot too: first player wins 4x3 breakthrough.
    breakthrough = pyspiel.load_game("breakthrough", {"rows": 4, "columns": 3})
    solved = gos.solve(breakthrough)
    assert solved.value.kind == "win"
    result = gos.evaluate(
        lambda seat: uniform_random.UniformRandomBot(seat, rng), breakthrough, episodes=10, perfect=gos.PerfectBot(solved)
    )
    # The perfect bot wins every game where it moves first (the agent's seat 1).
    assert result["returns"][1::2] == [-1.0] * 5


def test_perfect_bot_from_a_tablebase(tmp_path):
    game = gsolve.game("chase", size=3)
    tablebase = game.build_tablebase(str(tmp_path / "chase3.gtb"))
    loaded = gos.load(tablebase.game)
    bot = gos.PerfectBot(tablebase)
    state = loaded.new_initial_state()
    action = bot.step(state)
    assert state.action_to_string(action) == game.analyze().best_move.label


def test_a_board_too_big_to_solve_still_plays():
    game = gos.load("pawns", rows=6, cols=6)
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    plies = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        plies += 1
    assert plies > 0 and sorted(state.returns()) == [-1.0, 1.0]


def test_returns_are_the_margins_of_a_game_with_a_score():
    import os

    examples = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "rules")
    othello = gsolve.rules(os.path.join(examples, "othello.toml"), rows=4, cols=4)
    game = gos.load(othello)
    state = game.new_initial_state()
    bot = gos.PerfectBot()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    # White (player 1) wins by 10 under perfect play.
    assert state.returns() == [-10.0, 10.0]
