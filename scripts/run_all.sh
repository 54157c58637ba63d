#!/usr/bin/env bash
# The main job: set up the machine, then run the notebook series top to bottom,
# headless and in order. Notebook 02 computes the default tables (KQvK, KRvK, KPvK,
# KBBvK, KBNvK) and those its examples use (KQvKR, KQRvK, KPvKP, and the tables they lead
# into) into S_n_Results/, once each; executed notebooks go to Tests/executed/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# It prints each notebook's time at the end, and the series' total.
.venv/bin/python -m Util notebooks "$@"
echo "Tables:    $(pwd)/S_n_Results/"
echo "Notebooks: $(pwd)/Tests/executed/"
