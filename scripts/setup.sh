#!/usr/bin/env bash
# Sets up a fresh Debian machine for this project: system packages, a virtual
# environment in .venv with the pinned Python packages, and ./gaviota linked to
# Debian's 3-piece Gaviota tables.  Safe to run again: it skips what is done.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
# libgaviotatb1: Gaviota's C prober (validation); gaviotatb: the 3-piece tables;
# stockfish: the engine notebook 05 compares the AI with (/usr/games/stockfish);
# chromium: the browser the tests of notebook 03 and of the trainer page drive through Playwright;
# nodejs, npm: install and bundle the trainer page's JavaScript (web/: chessground, esbuild);
# gnuchess-book: a public-domain Polyglot opening book, the whole-game AI's default book;
# phalanx, glaurung, toga2, ethereal-chess: engines of the matches (python -m Util match), which the tests of the
# match runner start (each under 0.5 MB).
packages=(libgaviotatb1 gaviotatb stockfish chromium nodejs gnuchess-book phalanx glaurung toga2 ethereal-chess)
# A Node.js from elsewhere (NodeSource's nodejs) brings its own npm and conflicts with Debian's package.
command -v npm >/dev/null 2>&1 || packages+=(npm)
python3 -m venv --help >/dev/null 2>&1 && python3 -c "import ensurepip" 2>/dev/null || packages+=(python3-venv)
missing=()
# "install ok installed" only: a removed package can still be known to dpkg (config files left).
for p in "${packages[@]}"; do
  [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  python3 -m venv .venv
fi
# The pinned packages: pyproject.toml's dependencies and its "test" extra (the one list; the package
# itself is not installed: everything runs from the repository root).
mapfile -t requirements < <(.venv/bin/python -c '
import tomllib
project = tomllib.load(open("pyproject.toml", "rb"))["project"]
print("\n".join(project["dependencies"] + project["optional-dependencies"]["test"]))')
.venv/bin/python -m pip install -q --disable-pip-version-check "${requirements[@]}"
# sunfish, the whole-game engine's sparring partner (notebook 07, `python -m Util match sunfish`): without its
# dependencies, because its metadata pins an older python-chess than ours and sunfish itself imports none.
.venv/bin/python -m pip install -q --disable-pip-version-check --no-deps sunfish==2026.1

# The engine's compiled kernels: numba compiles them the first time on a machine (minutes), here on every
# core at once; later runs load them from the cache beside the source.
.venv/bin/python -m Util.retrograde_kernels.precompile
# The whole-game AI's kernels (move generation, evaluation, search), so that `python -m Util uci` is ready at once.
.venv/bin/python -m Util.whole_game.precompile

# fastchess, the match runner behind `python -m Util match` (as behind Stockfish's and OpenBench's testing):
# built from its pinned source in ../shared/tools when that is there, into .tools/fastchess/ (git ignores
# it), outside the repository's tree so that its version names fastchess's commit, not ours.  A second run
# finds the build of the same tarball and skips it at once.
fastchess_tarball="${FASTCHESS_TARBALL:-../shared/tools/fastchess-74deac23.tar.gz}"
fastchess_dir=.tools/fastchess
if [ -x "$fastchess_dir/fastchess" ] && [ "$(cat "$fastchess_dir/SOURCE" 2>/dev/null)" = "$(basename "$fastchess_tarball")" ]; then
  :
elif [ -f "$fastchess_tarball" ]; then
  echo "setup: building fastchess from $fastchess_tarball (a few minutes; log in $fastchess_dir/build.log)"
  mkdir -p "$fastchess_dir"
  build="$(mktemp -d)"
  tar xzf "$fastchess_tarball" -C "$build"
  source_dir="$(find "$build" -mindepth 1 -maxdepth 1 -type d -name 'fastchess*' | head -n 1)"
  commit="${source_dir##*-}"  # fastchess-74deac23: the commit it was taken at
  if make -C "$source_dir" -j"$(nproc)" GIT_SHA="$commit" >"$fastchess_dir/build.log" 2>&1; then
    cp "$source_dir/fastchess" "$fastchess_dir/fastchess"
    basename "$fastchess_tarball" >"$fastchess_dir/SOURCE"
    rm -rf "$build"
  else
    rm -rf "$build"
    echo "setup: fastchess did not build (g++ with C++17 and make are needed); see $fastchess_dir/build.log" >&2
    exit 1
  fi
else
  echo "setup: fastchess not built: $fastchess_tarball is missing. python -m Util match needs it: put the tarball" \
       "there (see ../shared/tools/README.md), or build https://github.com/Disservin/fastchess (make -j2) and set" \
       "FASTCHESS=/path/to/fastchess; the tests that need it are skipped"
fi

# The thesis keeps reference tables in ./gaviota (in git: its README only); offer Debian's 3-piece ones there,
# each file that is not there yet (a file of the user's own is kept; a ./gaviota that is a link to a folder
# elsewhere is left alone).
if [ -d /usr/share/gaviotatb/gtb4 ] && [ ! -L gaviota ]; then
  mkdir -p gaviota
  for table in /usr/share/gaviotatb/gtb4/*.gtb.cp4; do
    [ -e "gaviota/$(basename "$table")" ] || ln -s "$table" gaviota/
  done
fi
# The trainer page (python -m Util serve) and notebook 03's widgets (board, hint table): chessground from npm at the
# versions of the lock file, bundled into web/dist/, which the server and the widgets read; nothing is
# fetched when the page or the notebook is used.
if [ ! -f web/dist/main.js ] || [ ! -f web/dist/widget.js ] || [ ! -f web/dist/hints.js ] || [ web/package-lock.json -nt web/dist/main.js ] || [ -n "$(find web/src -newer web/dist/main.js 2>/dev/null)" ]; then
  echo "setup: building the trainer page and the notebook widgets (web/: npm ci, esbuild)"
  (cd web && npm ci --no-audit --no-fund --loglevel=error && npm run --silent build)
fi
echo "setup: ready (.venv, web/dist)"
