#!/usr/bin/env bash
# Side-by-side Dobutsu shogi tablebase builds: gsolve from the rules file
# against Robert Clausecker's dedicated generator. See --help.
set -euo pipefail

usage() {
	cat <<'EOF'
Usage: benches/dobutsu-vs-gentb.sh GENTB [GSOLVE_BINARY] [WORK_DIR]

Builds the whole Dobutsu shogi tablebase twice, one build after the other on
this machine: with Clausecker's generator (`GENTB -j THREADS FILE`) and with
`gsolve build rules examples/rules/dobutsu.toml -o FILE`. Times both with
/usr/bin/time (wall and CPU seconds, peak memory), checks that gsolve's start is
the published loss in 78, and prints a Markdown table with gsolve's ratios.

  GENTB          the generator binary `gentb` of github.com/clausecker/dobutsu
  GSOLVE_BINARY  gsolve to run (default: target/dist/gsolve of this checkout)
  WORK_DIR       where the two files are written (default: a new temporary
                 directory, removed at the end); both are about 170 MB

Environment:
  THREADS        threads for both builds (default: the number of cores)

The two files do not hold the same thing: gentb stores one byte an entry (the
distance to the end, values only for its own index of 255,280,704 entries, of
which it writes 167,527,962), gsolve stores each position's value and
remoteness (win, loss or draw, and plies to the end) in 2-byte codes for its
index, compressed in blocks with checksums (docs/tablebase-format.md).

Clausecker's generator is not part of gsolve: nothing of it is in this
repository, and this script does not fetch or build it. To make the binary by
hand (its Makefile wants readline, liblzma and gettext for the other programs;
the generator needs none of them):

  1. Get the source, e.g.
       git clone https://github.com/clausecker/dobutsu gentb-src
  2. Compile the generator alone:
       cd gentb-src
       gcc -std=gnu99 -O3 -march=native -o gentb \
           gentb.c tbgenerate.c poscode.c unmoves.c moves.c -lpthread
EOF
}

if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
	usage
	[[ $# -ge 1 ]] && exit 0
	exit 2
fi

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
gentb=$1
gsolve=${2:-$here/target/dist/gsolve}
threads=${THREADS:-$(nproc)}
if [[ ! -x $gentb ]]; then
	echo "error: $gentb is not an executable (see --help for how to build it)" >&2
	exit 2
fi
if [[ ! -x $gsolve ]]; then
	echo "error: $gsolve is not an executable: cargo build --profile dist -p gsolve-cli" >&2
	exit 2
fi
if [[ $# -ge 3 ]]; then
	work=$3
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi

# run NAME COMMAND...: times a command; leaves "wall cpu peak_kb" in $NAME.time
run() {
	local name=$1
	shift
	/usr/bin/time -f "%e %U %S %M" -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" || {
		echo "error: $name failed:" >&2
		tail -5 "$work/$name.err" >&2
		exit 1
	}
}

rm -f "$work/gentb.tb" "$work/gsolve.gtb"
run gentb "$gentb" -j "$threads" "$work/gentb.tb"
run gsolve "$gsolve" build rules "$here/examples/rules/dobutsu.toml" -j "$threads" -o "$work/gsolve.gtb"
start=$("$gsolve" probe "$work/gsolve.gtb" 'gle/.c./.C./ELG s -' | head -1)
if [[ $start != *"loss in 78"* ]]; then
	echo "error: gsolve's start is not the published loss in 78: $start" >&2
	exit 1
fi

read -r gw gu gs gm <"$work/gentb.time"
read -r sw su ss sm <"$work/gsolve.time"
gsize=$(stat -c %s "$work/gentb.tb")
ssize=$(stat -c %s "$work/gsolve.gtb")
awk -v gw="$gw" -v gu="$gu" -v gs="$gs" -v gm="$gm" -v gsize="$gsize" \
	-v sw="$sw" -v su="$su" -v ss="$ss" -v sm="$sm" -v ssize="$ssize" -v threads="$threads" 'BEGIN {
	gc = gu + gs
	sc = su + ss
	printf "| Dobutsu, %d threads | wall | CPU | peak memory | file |\n", threads
	printf "|---|---|---|---|---|\n"
	printf "| gentb | %.1f s | %.1f s | %.0f MB | %.0f MB |\n", gw, gc, gm / 1024, gsize / 1e6
	printf "| gsolve | %.1f s | %.1f s | %.0f MB | %.0f MB |\n", sw, sc, sm / 1024, ssize / 1e6
	printf "| gsolve / gentb | %.2fx | %.2fx | %.2fx | %.2fx |\n", sw / gw, sc / gc, sm / gm, ssize / gsize
}'
echo
echo "gsolve: $start"
