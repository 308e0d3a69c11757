#!/usr/bin/env bash
# Side-by-side Connect 4 timings: gsolve's rules engine against Pascal Pons'
# Connect 4 solver, on the empty board of each size asked for. See --help.
set -euo pipefail

usage() {
	cat <<'EOF'
Usage: benches/connect4-vs-pons.sh PONS_DIR [GSOLVE_BINARY] [BOARDS...]

Solves the empty Connect 4 board of each size with Pascal Pons' solver and with
`gsolve rules examples/rules/connect-4.toml --rows H --cols W`, times both
with /usr/bin/time (wall seconds, peak memory), checks that the two agree on the
value, and prints a Markdown table.

  PONS_DIR       directory holding one Pons binary per board, named c4-WxH
  GSOLVE_BINARY  gsolve to run (default: target/dist/gsolve of this checkout)
  BOARDS         sizes WxH, W = width (columns), H = height (rows); default:
                 4x4 4x5 5x4 4x6 5x5 6x4 4x7 5x6 6x5 7x4 (every board with
                 W + H <= 11 and both >= 4)

Environment:
  TIMEOUT        seconds allowed to each solver on each board (default 600);
                 a run cut short is reported as "> TIMEOUT s"
  GSOLVE_ARGS    extra arguments for gsolve rules (e.g. "-j 1" for one thread)

Pons' solver is not part of gsolve. Its source (github.com/PascalPons/connect4)
is published under the GNU AGPL v3; nothing of it is in this repository, and
this script does not fetch or build it. To make the binaries by hand:

  1. Get the source, e.g.
       git clone https://github.com/PascalPons/connect4 pons-src
  2. For each board WxH, in a separate copy of the source, set the two
     constants in Position.hpp:
       static constexpr int WIDTH = W;   // columns
       static constexpr int HEIGHT = H;  // rows
     (the code wants WIDTH < 10, and takes g++'s __int128 for its bitboards
     when WIDTH * (HEIGHT + 1) > 64).
  3. Compile with the flags of its Makefile plus the machine's own:
       g++ --std=c++11 -O3 -march=native -DNDEBUG -o PONS_DIR/c4-WxH main.cpp Solver.cpp

The binary reads one position per line on stdin (a string of 1-based column
digits; an empty line is the empty board) and prints the line followed by the
score. This script feeds it an empty line and points its opening book (-b) at a
file that does not exist, so no book is used; it runs the strong solver (no -w).

Pons' score s and gsolve's remoteness r (plies from the position to the end
of the game) relate as follows on a board of N = W*H cells: a tie is s = 0;
a win for the side to move is s = floor((N + 2 - r) / 2), a loss
s = -floor((N + 2 - r) / 2). That is, |s| counts the winner's stones left
unplayed when the game ends, plus one.
EOF
}

if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
	usage
	[[ $# -ge 1 ]] && exit 0
	exit 2
fi

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
pons_dir=$1
shift
gsolve=$here/target/dist/gsolve
if [[ $# -ge 1 && ! $1 =~ ^[0-9]+x[0-9]+$ ]]; then
	gsolve=$1
	shift
fi
if [[ $# -ge 1 ]]; then
	boards=("$@")
else
	boards=(4x4 4x5 5x4 4x6 5x5 6x4 4x7 5x6 6x5 7x4)
fi
timeout_s=${TIMEOUT:-600}
read -r -a gsolve_args <<<"${GSOLVE_ARGS:-}"
rules=$here/examples/rules/connect-4.toml

[[ -d $pons_dir ]] || { echo "no directory $pons_dir" >&2; exit 2; }
[[ -x $gsolve ]] || { echo "no gsolve binary at $gsolve (cargo build --profile dist -p gsolve-cli)" >&2; exit 2; }
pons_dir=$(cd "$pons_dir" && pwd)
gsolve=$(cd "$(dirname "$gsolve")" && pwd)/$(basename "$gsolve")
[[ -f $rules ]] || { echo "no rules file $rules" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }
command -v timeout >/dev/null || { echo "needs timeout (coreutils)" >&2; exit 2; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# run NAME CMD... : runs CMD with stdin from $scratch/NAME.in under the timeout;
# sets secs, kb and status (0 done, 124 timed out, other: failed).
run() {
	local name=$1
	shift
	status=0
	(cd "$scratch" && /usr/bin/time -f '%e %M' -o "$scratch/$name.time" \
		timeout "$timeout_s" "$@" <"$scratch/$name.in" >"$scratch/$name.out" 2>"$scratch/$name.err") || status=$?
	read -r secs kb < <(tail -n 1 "$scratch/$name.time")
}

fmt_secs() { # status secs
	if [[ $1 -eq 124 ]]; then echo "> $timeout_s"
	elif [[ $1 -ne 0 ]]; then echo "failed ($1)"
	else echo "$2"
	fi
}

echo "| board | Pons s | gsolve s | gsolve/Pons | gsolve peak MB | Pons peak MB | Pons score | gsolve value | agree |"
echo "|---|---:|---:|---:|---:|---:|---:|---|---|"
disagreements=0
for board in "${boards[@]}"; do
	if [[ ! $board =~ ^([0-9]+)x([0-9]+)$ ]]; then
		echo "bad board $board (want WxH)" >&2
		exit 2
	fi
	w=${BASH_REMATCH[1]}
	h=${BASH_REMATCH[2]}
	n=$((w * h))
	pons=$pons_dir/c4-$board
	if [[ ! -x $pons ]]; then
		echo "| $board | no $pons | | | | | | | |"
		continue
	fi

	printf '\n' >"$scratch/pons.in"
	run pons "$pons" -b "$scratch/no-such.book"
	pons_status=$status pons_secs=$secs pons_kb=$kb
	pons_score=
	if [[ $pons_status -eq 0 ]]; then
		pons_score=$(head -n 1 "$scratch/pons.out" | awk '{print $NF}')
		[[ $pons_score =~ ^-?[0-9]+$ ]] || { pons_score=; pons_status=1; }
	fi

	: >"$scratch/gsolve.in"
	# The value line only, as Pons' solver gives (--json and --explain add the
	# line of optimal play, a search for every move of it).
	run gsolve "$gsolve" rules "$rules" --rows "$h" --cols "$w" "${gsolve_args[@]}"
	g_status=$status g_secs=$secs g_kb=$kb
	value= remoteness= expected=
	if [[ $g_status -eq 0 ]]; then
		line=$(head -n 1 "$scratch/gsolve.out")
		value=$(sed -nE 's/^[^:]*: (win|loss|tie) in ([0-9]+),.*/\1/p' <<<"$line")
		remoteness=$(sed -nE 's/^[^:]*: (win|loss|tie) in ([0-9]+),.*/\2/p' <<<"$line")
		case $value in
		win) expected=$(((n + 2 - remoteness) / 2)) ;;
		loss) expected=$((-((n + 2 - remoteness) / 2))) ;;
		tie) expected=0 ;;
		*) g_status=1 ;;
		esac
	fi

	ratio=
	if [[ $pons_status -eq 0 && $g_status -eq 0 ]]; then
		ratio=$(awk -v g="$g_secs" -v p="$pons_secs" 'BEGIN { if (p > 0) printf "%.1f", g / p; else print "n/a" }')
	fi
	if [[ -n $pons_score && -n $expected ]]; then
		if [[ $pons_score -eq $expected ]]; then
			agree=yes
		else
			agree="NO (gsolve means $expected)"
			disagreements=$((disagreements + 1))
		fi
	else
		agree="?"
	fi
	g_mb=$(awk -v k="$g_kb" 'BEGIN { printf "%.0f", k / 1024 }')
	p_mb=$(awk -v k="$pons_kb" 'BEGIN { printf "%.0f", k / 1024 }')
	g_value=${value:+$value in $remoteness}
	echo "| $board | $(fmt_secs "$pons_status" "$pons_secs") | $(fmt_secs "$g_status" "$g_secs") | $ratio | $g_mb | $p_mb | $pons_score | $g_value | $agree |"
done
[[ $disagreements -eq 0 ]]
