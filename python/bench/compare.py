"""Side by side, in one run: OpenSpiel's value iteration against
gsolve.openspiel.solve on the same OpenSpiel games, and gsolve's native games
called from Python against the same work from the command line.

    python python/bench/compare.py [path/to/gsolve]

Each time is the best of a few runs (of seven, interleaved, for the native games);
the command line's is the whole process (start, solve, print); Python's is the
call alone in a warm interpreter with a fresh game each run (nothing cached between
runs), and a whole Python process (interpreter start, import gsolve and NumPy, the
call)."""

import subprocess
import sys
import time

import pyspiel
from open_spiel.python.algorithms import value_iteration

import gsolve
from gsolve import openspiel as gos


def best_of(runs, work):
    best, result = float("inf"), None
    for _ in range(runs):
        started = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - started)
    return best, result


def openspiel_games():
    print("| game | OpenSpiel value_iteration | gsolve.openspiel.solve | states (gsolve) | start (gsolve) | unfinished states value_iteration misvalues |")
    print("|---|---|---|---|---|---|")
    for name, params in [("tic_tac_toe", {}), ("breakthrough", {"rows": 4, "columns": 3}), ("breakthrough", {"rows": 3, "columns": 4})]:
        game = pyspiel.load_game(name, params)
        vi, values = best_of(1, lambda: value_iteration.value_iteration(game, depth_limit=-1, threshold=1e-6))
        gs, solved = best_of(3, lambda: gos.solve(game))
        label = name + (" " + "x".join(str(v) for v in params.values()) if params else "")
        start = values[str(game.new_initial_state())]
        wrong, unfinished = misvalued(solved, values)
        print(
            f"| {label} | {vi * 1000:.0f} ms (start {start:+.0f}, no remoteness) | {gs * 1000:.0f} ms "
            f"| {solved.num_states:,} | {solved.value} | {wrong:,} of {unfinished:,} |"
        )


def misvalued(solved, values):
    """Unfinished states (key: string and player) whose value for player 0 differs
    between value_iteration (keyed by the string alone) and gsolve."""
    sign = {"win": 1, "loss": -1, "tie": 0}
    wrong = unfinished = 0
    for (string, player), value in solved.items():
        if value.remoteness == 0 or value.kind == "draw":
            continue
        unfinished += 1
        ours = sign[value.kind] * (1 if player == 0 else -1)
        if round(values[string]) != ours:
            wrong += 1
    return wrong, unfinished


RUNS = 7


def native_games(cli):
    print()
    print("| work | Python call | Python process (start, import, call) | command line process | call / CLI | process / CLI |")
    print("|---|---|---|---|---|---|")
    cases = [
        ("chase 60: analyze the start", 'gsolve.game("chase", size=60).analyze()', [cli, "analyze", "chase", "--size", "60"]),
        ("pawns 4x4: analyze the start", 'gsolve.game("pawns", rows=4, cols=4).analyze()', [cli, "analyze", "pawns", "pppp/..../..../PPPP w"]),
        ("chase 80: analyze the start", 'gsolve.game("chase", size=80).analyze()', [cli, "analyze", "chase", "--size", "80"]),
    ]
    for label, source, command in cases:
        process = [sys.executable, "-c", "import gsolve; " + source]
        # Interleaved, best of RUNS each: other work on the machine slows runs, never speeds them.
        py = pp = cl = float("inf")
        for _ in range(RUNS):
            py = min(py, best_of(1, lambda: eval(source, {"gsolve": gsolve}))[0])
            pp = min(pp, best_of(1, lambda: subprocess.run(process, check=True, capture_output=True))[0])
            cl = min(cl, best_of(1, lambda: subprocess.run(command, check=True, capture_output=True))[0])
        print(
            f"| {label} | {py * 1000:.0f} ms | {pp * 1000:.0f} ms | {cl * 1000:.0f} ms | {py / cl:.2f} | {pp / cl:.2f} |"
        )

if __name__ == "__main__":
    openspiel_games()
    if len(sys.argv) > 1:
        native_games(sys.argv[1])
