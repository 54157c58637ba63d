#!/usr/bin/env bash
# The main job: set up the machine, then compute the default tables into S_n_Results/.
# (The notebooks 01-06 join this run as they are written.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
for material in KQvK KRvK KPvK KBBvK KBNvK; do
  .venv/bin/python -m Util calculate "$material"
done
.venv/bin/python -m Util stats KBNvK | tail -n 1
echo "Results: $(pwd)/S_n_Results/"
