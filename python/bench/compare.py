"""Side by side, in one run: OpenSpiel's value iteration against
gsolve.openspiel.solve on the same OpenSpiel games, and gsolve's native games
called from Python against the same work from the command line.

    python python/bench/compare.py [path/to/gsolve]

Each time is the best of a few runs; the command line's is the whole process
(start, solve, print), Python's the call alone in a warm interpreter with a fresh
game each run (nothing cached between runs)."""

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
    print("| game | OpenSpiel value_iteration | gsolve.openspiel.solve | states (gsolve) | start (gsolve) |")
    print("|---|---|---|---|---|")
    for name, params in [("tic_tac_toe", {}), ("breakthrough", {"rows": 4, "columns": 3}), ("breakthrough", {"rows": 3, "columns": 4})]:
        game = pyspiel.load_game(name, params)
        vi, values = best_of(1, lambda: value_iteration.value_iteration(game, depth_limit=-1, threshold=1e-6))
        gs, solved = best_of(3, lambda: gos.solve(game))
        label = name + (" " + "x".join(str(v) for v in params.values()) if params else "")
        start = values[str(game.new_initial_state())]
        print(f"| {label} | {vi * 1000:.0f} ms (start {start:+.0f}, no remoteness) | {gs * 1000:.0f} ms | {solved.num_states:,} | {solved.value} |")


def native_games(cli):
    print()
    print("| work | from Python | command line (whole process) | Python / CLI |")
    print("|---|---|---|---|")
    cases = [
        ("chase 60: analyze the start", lambda: gsolve.game("chase", size=60).analyze(), [cli, "analyze", "chase", "--size", "60"]),
        ("pawns 4x4: analyze the start", lambda: gsolve.game("pawns", rows=4, cols=4).analyze(), [cli, "analyze", "pawns", "pppp/..../..../PPPP w"]),
        ("chase 80: analyze the start", lambda: gsolve.game("chase", size=80).analyze(), [cli, "analyze", "chase", "--size", "80"]),
    ]
    for label, python_work, command in cases:
        py, _ = best_of(3, python_work)
        cl, _ = best_of(3, lambda: subprocess.run(command, check=True, capture_output=True))
        print(f"| {label} | {py * 1000:.0f} ms | {cl * 1000:.0f} ms | {py / cl:.2f} |")


if __name__ == "__main__":
    openspiel_games()
    if len(sys.argv) > 1:
        native_games(sys.argv[1])
