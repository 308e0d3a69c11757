#!/usr/bin/env bash
# Side-by-side Othello endgame timings: gsolve's flip-game search against
# Richard Delorme's reversi-solver, on the FFO positions. See --help.
set -euo pipefail

usage() {
	cat <<'EOF'
Usage: benches/othello-vs-reversi-solver.sh SOLVER_BINARY [FFO_BINARY] [OBF_FILES...]

Solves each position of the .obf files (default: FFO #1-#19 and #20-#39, the
copies in crates/rules/tests/data/) with reversi-solver and with gsolve's
flip-game search (the example crates/rules/examples/ffo.rs), one position at a
time, checks that the two best scores agree with each other and with the file,
and prints a Markdown table: per position the best score each, seconds each,
nodes each, and the time ratio gsolve / reversi-solver.

  SOLVER_BINARY  reversi-solver, built with its root window widened (below)
  FFO_BINARY     the example to run (default: target/release/examples/ffo of
                 this checkout: cargo build --release -p gsolve-rules --example ffo)
  OBF_FILES      Edax .obf files (board, side, then each move's exact score)

Environment:
  THREADS        gsolve's threads (default 2; reversi-solver has one)
  TABLE_MB       gsolve's table in MiB (default 128)
  HASH_BITS      reversi-solver's -h (default 22: 2^22 entries of 32 bytes, 128 MiB)
  TIMEOUT        seconds allowed to each solver on each position (default 600)

reversi-solver is not part of gsolve. Its source (github.com/abulmo/reversi-solver,
one C file, MIT licence) is not in this repository and this script does not
fetch it. It solves for win / draw / loss only by default: its root search
runs in the window [-1, +1]. To build it for exact scores:

  1. Get solver.c, e.g.
       git clone https://github.com/abulmo/reversi-solver rs-src
  2. In solve(), widen both root calls PVS_root(board, hash_table, -1, +1, ...)
     to PVS_root(board, hash_table, -64, +64, ...), e.g.
       sed -i 's/PVS_root(board, hash_table, -1, +1,/PVS_root(board, hash_table, -64, +64,/' solver.c
  3. Compile as its comment recommends:
       gcc -O3 -fomit-frame-pointer -funroll-loops -march=native solver.c -o reversi-solver

It reads a script file (one `board side` line a position, the .obf line cut
before its first ';'), prints with -v a line per position: number, empties,
score, principal variation, time (CPU, tenths of a second), nodes. This script
runs it on one position at a time and takes the wall time of the whole run
(/usr/bin/time), as for gsolve, so both times include starting the process and
clearing a table of the same size (most of the time of positions of 20 empty
cells or fewer). The "own" columns are each solver's own clock around its
search: reversi-solver's CPU time in tenths, gsolve's wall time.

Scores: both are the final disc margin for the side to move with the empty
cells given to the winner (Edax's scores, the World Othello Federation's rule).
Nodes: reversi-solver counts every position it sets up, gsolve every position
its search visits (a leaf valued without playing its last move is not one);
compare them as orders of magnitude.
EOF
}

if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
	usage
	[[ $# -ge 1 ]] && exit 0
	exit 2
fi

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
solver=$1
shift
ffo=$here/target/release/examples/ffo
if [[ $# -ge 1 && $1 != *.obf ]]; then
	ffo=$1
	shift
fi
if [[ $# -ge 1 ]]; then
	files=("$@")
else
	files=("$here/crates/rules/tests/data/fforum-1-19.obf" "$here/crates/rules/tests/data/fforum-20-39.obf")
fi
threads=${THREADS:-2}
table_mb=${TABLE_MB:-128}
hash_bits=${HASH_BITS:-22}
timeout_s=${TIMEOUT:-600}

[[ -x $solver ]] || { echo "no reversi-solver binary at $solver" >&2; exit 2; }
[[ -x $ffo ]] || { echo "no ffo example at $ffo (cargo build --release -p gsolve-rules --example ffo)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }
command -v timeout >/dev/null || { echo "needs timeout (coreutils)" >&2; exit 2; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# run NAME CMD... : runs CMD under the timeout; sets secs and status (0 done,
# 124 timed out, other: failed).
run() {
	local name=$1
	shift
	status=0
	/usr/bin/time -f '%e' -o "$scratch/$name.time" timeout "$timeout_s" "$@" \
		>"$scratch/$name.out" 2>"$scratch/$name.err" || status=$?
	secs=$(tail -n 1 "$scratch/$name.time")
}

fmt_secs() { # status secs
	if [[ $1 -eq 124 ]]; then echo "> $timeout_s"
	elif [[ $1 -ne 0 ]]; then echo "failed ($1)"
	else echo "$2"
	fi
}

echo "| FFO | empties | file | reversi-solver | gsolve | reversi-solver s | gsolve s | gsolve/rs | rs own s | gsolve own s | reversi-solver nodes | gsolve nodes | agree |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
disagreements=0
rs_total=0
g_total=0
for file in "${files[@]}"; do
	first=1
	[[ $(basename "$file") =~ fforum-([0-9]+)- ]] && first=${BASH_REMATCH[1]}
	n=$first
	while IFS= read -r line; do
		[[ -z ${line// /} || $line == %* || $line == \#* ]] && continue
		position=${line%%;*}
		expected=$(sed -nE 's/^[^;]*; *[A-Za-z0-9]+:([+-]?[0-9]+);.*/\1/p' <<<"$line")
		expected=${expected#+}
		empties=$(awk '{ print gsub(/-/, "", $1) }' <<<"$position")
		printf '%s\n' "$position" >"$scratch/position.scr"

		run rs "$solver" -v -h "$hash_bits" "$scratch/position.scr"
		rs_status=$status rs_secs=$secs
		rs_score= rs_nodes= rs_own=
		if [[ $rs_status -eq 0 ]]; then
			# " 1|  20 | +18 | G8 ... | 0:00:00.1 |   1234567 | ..."
			row=$(grep -E '^ *1\|' "$scratch/rs.out" | head -n 1)
			# Scores print as +08: read as decimal numbers.
			rs_score=$(awk -F'|' '$3 ~ /[0-9]/ { printf "%d", $3 + 0 }' <<<"$row")
			rs_nodes=$(awk -F'|' '{gsub(/ /, "", $6); print $6}' <<<"$row")
			rs_own=$(awk -F'|' '{ split($5, t, ":"); printf "%.1f", t[1] * 3600 + t[2] * 60 + t[3] }' <<<"$row")
			[[ $rs_score =~ ^-?[0-9]+$ ]] || { rs_score=; rs_status=1; }
		fi

		run g "$ffo" --threads "$threads" --table-mb "$table_mb" "$scratch/position.scr"
		g_status=$status g_secs=$secs
		g_score= g_nodes= g_own=
		if [[ $g_status -eq 0 ]]; then
			row=$(grep -E '^1 empties' "$scratch/g.out" | head -n 1)
			g_score=$(sed -nE 's/.* score ([+-]?[0-9]+) .*/\1/p' <<<"$row")
			g_score=${g_score#+}
			g_nodes=$(sed -nE 's/.* nodes ([0-9]+) .*/\1/p' <<<"$row")
			g_own=$(sed -nE 's/.* seconds ([0-9.]+).*/\1/p' <<<"$row")
			[[ $g_score =~ ^-?[0-9]+$ ]] || { g_score=; g_status=1; }
		fi

		ratio=
		if [[ $rs_status -eq 0 && $g_status -eq 0 ]]; then
			ratio=$(awk -v g="$g_secs" -v p="$rs_secs" 'BEGIN { if (p > 0) printf "%.2f", g / p; else print "n/a" }')
			rs_total=$(awk -v a="$rs_total" -v b="$rs_secs" 'BEGIN { print a + b }')
			g_total=$(awk -v a="$g_total" -v b="$g_secs" 'BEGIN { print a + b }')
		fi
		if [[ -n $rs_score && -n $g_score && $rs_score -eq $g_score && $g_score -eq $expected ]]; then
			agree=yes
		else
			agree="NO"
			disagreements=$((disagreements + 1))
		fi
		echo "| $n | $empties | $expected | $rs_score | $g_score | $(fmt_secs "$rs_status" "$rs_secs") | $(fmt_secs "$g_status" "$g_secs") | $ratio | $rs_own | $g_own | $rs_nodes | $g_nodes | $agree |"
		n=$((n + 1))
	done <"$file"
done
ratio=$(awk -v g="$g_total" -v p="$rs_total" 'BEGIN { if (p > 0) printf "%.2f", g / p; else print "n/a" }')
echo "| all | | | | | $rs_total | $g_total | $ratio | | | | | |"
[[ $disagreements -eq 0 ]]
