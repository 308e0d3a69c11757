"""gsolve's Python API: values against the command line's, NumPy export,
tablebases, errors, Ctrl-C."""

import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import gsolve
from gsolve import Value


def test_hexapawn_start_is_a_loss_in_6_for_white():
    hexapawn = gsolve.game("pawns", rows=3, cols=3)
    assert hexapawn.start == "ppp/.../PPP w"
    analysis = hexapawn.analyze()
    assert analysis.value == Value("loss", 6)
    assert analysis.value.kind == "loss" and analysis.value.remoteness == 6
    assert analysis.to_move == "white"
    # Every move, best first: the slowest loss first.
    assert [str(m.value) for m in analysis.moves] == ["loss in 6", "loss in 4", "loss in 4"]
    assert analysis.best_move.label == "(3,2)->(2,2)"
    assert analysis.best_move.position == "ppp/.P./P.P b"
    assert analysis.moves[1].delta == -2


def test_moves_are_listed_without_solving():
    pawns = gsolve.game("pawns", rows=8, cols=8)  # far too big to solve
    listing = pawns.moves()
    assert len(listing) == 8 and listing.over is None and listing.to_move == "white"
    assert listing.moves[0].position.endswith(" b")
    over = gsolve.game("pawns", rows=3, cols=3).moves("P.p/.../... b")
    assert over.over == Value("loss", 0) and len(over) == 0 and over.end


def test_positions_and_other_games():
    pawns = gsolve.game("pawns", rows=3, cols=3)
    # The child is a win for black (to move) in 5: the parent's loss in 6.
    assert pawns.value("ppp/.P./P.P b") == Value("win", 5)
    assert gsolve.game("chase", size=4).value() == Value("loss", 8)
    queens = gsolve.game("queens-case", map="Q...E/.##../..#../E...A")
    assert queens.value().kind in ("win", "loss", "tie", "draw")
    snakes = gsolve.game("snakes", rows=3, cols=3)
    assert snakes.analyze().solver == "alpha-beta"


def test_value_order_and_codes():
    assert Value("win", 1) > Value("win", 3) > Value("tie", 0) > Value("draw") > Value("loss", 9) > Value("loss", 1)
    for value in [Value("win", 7), Value("loss", 0), Value("tie", 9), Value("draw")]:
        assert Value.from_code(value.code) == value
        assert eval(repr(value), {"Value": Value}) == value
    assert Value("loss", 6).parent_view() == Value("win", 7)
    assert Value.from_code(4) is None
    with pytest.raises(ValueError):
        Value("draw", 3)


def test_numpy_export_round_trip():
    game = gsolve.game("pawns", rows=3, cols=3)
    solution = game.solve()
    values = solution.values
    assert isinstance(values, np.ndarray) and len(values) == len(solution)
    kind, remoteness = gsolve.decode(values)
    named = np.flatnonzero(kind != gsolve.NO_POSITION)
    assert len(named) > 100
    for index in named[:: max(1, len(named) // 60)]:
        position = solution.position(int(index))
        assert solution.index(position) == index
        expected = game.value(position)
        assert solution.value(int(index)) == expected
        assert Value.from_code(int(values[index])) == expected
        assert remoteness[index] == expected.remoteness
    start = solution.index(game.start)
    assert solution.value(start) == Value("loss", 6)
    # The array is the solution's own buffer, not a copy made on each access.
    assert solution.values is values and not values.flags.owndata
    with pytest.raises(IndexError):
        solution.position(len(solution))


def test_chase_export_counts_match_a_probe():
    game = gsolve.game("chase", size=3)
    solution = game.solve()
    kind, _ = gsolve.decode(solution.values)
    for index in range(0, len(solution), 7):
        position = solution.position(index)
        if position is not None and kind[index] != gsolve.NO_POSITION:
            assert solution.value(index) == game.value(position)


def test_tablebase_build_and_probe(tmp_path):
    game = gsolve.game("chase", size=4)
    path = tmp_path / "chase4.gtb"
    tablebase = game.build_tablebase(str(path))
    assert path.exists()
    assert tablebase.probe() == game.value() == Value("loss", 8)
    again = gsolve.Tablebase(str(path))
    assert again.game.name == "chase"
    assert again.probe("2,2 4,4 b") == game.value("2,2 4,4 b")
    assert again.analyze().solver == "tablebase"
    with pytest.raises(gsolve.TablebaseError, match=r"exists \(pass force=True"):
        game.build_tablebase(str(path))

    pawns = gsolve.game("pawns", rows=3, cols=3)
    pawns_path = tmp_path / "pawns33.gtb"
    stored = pawns.build_tablebase(str(pawns_path))
    assert stored.probe() == Value("loss", 6)
    assert [m.value for m in stored.analyze().moves] == [m.value for m in pawns.analyze().moves]


def test_errors_carry_the_command_lines_messages(tmp_path):
    with pytest.raises(gsolve.InputError) as error:
        gsolve.game("pawns", rows=3, cols=3).analyze("ppx/.../PPP w")
    assert str(error.value) == "position \"ppx/.../PPP w\": column 3: unknown character 'x' (expected P, p or .)"
    with pytest.raises(gsolve.InputError, match="unknown game \"go\": expected pawns, chase, queens-case, snakes or rules"):
        gsolve.game("go")
    with pytest.raises(gsolve.InputError, match='chase: size = "1" must be a whole number from 2 to 100'):
        gsolve.game("chase", size=1)
    with pytest.raises(gsolve.TablebaseError):
        gsolve.Tablebase(str(tmp_path / "missing.gtb"))
    with pytest.raises(gsolve.InputError, match="snakes has no index"):
        gsolve.game("snakes", rows=3, cols=3).solve()
    assert issubclass(gsolve.TooLargeError, gsolve.InputError)
    assert issubclass(gsolve.InputError, gsolve.GsolveError)


def test_rules_games():
    examples = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "rules")
    files = sorted(f for f in os.listdir(examples) if f.endswith(".toml"))
    assert files, "examples/rules holds rules files"
    game = gsolve.rules(os.path.join(examples, "chase.toml"), rows=3, cols=3)
    assert game.name == "rules"
    assert game.analyze().value.kind in ("win", "loss", "tie", "draw")
    with pytest.raises(gsolve.InputError):
        gsolve.rules("name = 3\n")


def test_opening_book_answers_as_the_search(tmp_path):
    examples = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "rules")
    connect4 = os.path.join(examples, "connect-4.toml")
    game = gsolve.rules(connect4, rows=4, cols=5)
    path = str(tmp_path / "c4.book")
    assert game.build_book(path, 3) > 10
    with pytest.raises(gsolve.TablebaseError):
        game.build_book(path, 3)
    booked = gsolve.rules(connect4, book=path, rows=4, cols=5)
    for position in [None, "...../...../...../..R.. y", "...../...../..R../.RY.. y"]:
        searched = game.analyze(position).to_json()
        assert booked.analyze(position).to_json() == searched.replace('"alpha-beta"', '"opening book"')
    with pytest.raises(gsolve.InputError):
        gsolve.rules(os.path.join(examples, "tic-tac-toe.toml"), book=path)
    with pytest.raises(gsolve.InputError):
        gsolve.rules(os.path.join(examples, "breakthrough.toml")).build_book(str(tmp_path / "b.book"), 2)
    # Lines of play: more positions than within the plies alone, the same answers.
    lines = str(tmp_path / "lines.book")
    assert game.build_book(lines, 1, play=6) > game.build_book(str(tmp_path / "one.book"), 1)
    booked = gsolve.rules(connect4, book=lines, rows=4, cols=5)
    for position in [None, "...../...../...../..R.. y", "...../...../..R../.RY.. y"]:
        assert booked.analyze(position).value == game.analyze(position).value
    # Against a perfect opponent the lines branch less.
    perfect = game.build_book(str(tmp_path / "perfect.book"), 1, play=6, opponent="perfect")
    assert game.build_book(str(tmp_path / "one.book"), 1, force=True) < perfect < game.build_book(lines, 1, play=6, force=True)
    with pytest.raises(gsolve.InputError):
        game.build_book(str(tmp_path / "x.book"), 1, play=6, opponent="best")


def test_rules_game_solved_whole_and_stored(tmp_path):
    examples = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "rules")
    game = gsolve.rules(os.path.join(examples, "chase.toml"), rows=3, cols=3)
    assert repr(game) == 'gsolve.game("rules", rows=3, cols=3)'
    solution = game.solve()
    assert solution.value(solution.index(game.start)) == game.value()
    tablebase = game.build_tablebase(str(tmp_path / "rules.gtb"))
    assert tablebase.probe() == game.value()
    # The same game from the rules text rather than the file.
    with open(os.path.join(examples, "chase.toml")) as rules_file:
        assert gsolve.rules(rules_file.read(), rows=3, cols=3).value() == game.value()


def test_ctrl_c_stops_a_long_solve():
    script = textwrap.dedent(
        """
        import signal, time, gsolve
        signal.signal(signal.SIGINT, signal.default_int_handler)
        print("ready", flush=True)
        started = time.time()
        try:
            gsolve.game("chase", size=100).analyze()
            print("finished")
        except KeyboardInterrupt:
            print("interrupted", round(time.time() - started, 1))
        print(gsolve.game("chase", size=4).value())
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "ready"
    import time

    time.sleep(1.0)
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=60)
    lines = out.split("\n")
    assert lines[0].startswith("interrupted"), out
    assert float(lines[0].split()[1]) < 5
    assert lines[1] == "loss in 8"


# The solver each whole-game solve takes, for one game of each kind. The command
# line's `gsolve build` takes the same (crates/cli/tests/tablebase_cli.rs checks
# the same table): both call the catalog's one decision.
WHOLE_SOLVERS = [
    (("pawns",), {"rows": 3, "cols": 3}, "layered"),
    (("chase",), {"size": 20}, "bit rows"),
    (("queens-case",), {"map": "Q...E/.##../..#../E...A"}, "bit rows"),
    (("queens-case",), {"map": "Q#.#E/.#.#./...#./##..A"}, "retrograde"),
]


@pytest.mark.parametrize("args, board, solver", WHOLE_SOLVERS)
def test_whole_solves_take_the_catalogs_solver(args, board, solver):
    assert gsolve.game(*args, **board).solve().solver == solver


def test_rules_whole_solves_take_the_catalogs_solver():
    examples = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "rules")
    chase = gsolve.rules(os.path.join(examples, "chase.toml"), rows=5, cols=5)
    assert chase.solve().solver == "bit rows"
    tic_tac_toe = gsolve.rules(os.path.join(examples, "tic-tac-toe.toml"))
    assert tic_tac_toe.solve().solver == "retrograde"


def test_moves_give_the_drawn_boards_size():
    assert gsolve.game("pawns", rows=3, cols=4).moves().board_size == (3, 4)
    assert gsolve.game("chase", size=5).moves().board_size == (5, 5)
    assert gsolve.game("queens-case", map="Q...E/.##../..#../E...A").moves().board_size == (4, 5)


def test_a_game_with_a_score_gives_margins():
    examples = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "rules")
    othello = gsolve.rules(os.path.join(examples, "othello.toml"), rows=4, cols=4)
    analysis = othello.analyze()
    # 4 x 4 Othello: white, second to move, wins 11-3 on discs (by 10 with the
    # two empty cells counted for the winner).
    assert analysis.value == gsolve.Value("loss", 10, margin=-10)
    assert analysis.value.margin == -10 and str(analysis.value) == "loss by 10 in 10"
    assert all(m.value.margin == -10 for m in analysis.moves)
    assert analysis.value.parent_view().margin == 10
    assert gsolve.Value("win", 3, margin=4) > gsolve.Value("win", 1, margin=2)
    with pytest.raises(ValueError):
        gsolve.Value("win", 3, margin=-4)
    # Games without a score have no margin.
    assert gsolve.game("pawns", rows=3, cols=3).value().margin is None
