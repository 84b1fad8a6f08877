#!/usr/bin/env bash
# One prepared check for a machine with an NVIDIA GPU (e.g. an H200 lent for a session).
#
#   bash scripts/device_check.sh            # writes to $OUT (or ./device-out)
#
# Installs nothing: uses python3 (or $PYTHON) with numpy and cuda-bindings as found;
# nvidia-ml-py, pytest, nvcc, cuobjdump, ncu and numba are used when present. Runs the
# GPU-backend tests, measures every shipped preset (plus matched-occupancy and
# per-block variants), profiles four of them with Nsight Compute for comparison,
# calibrates the simulator when numba is there, and writes everything to $OUT.
# Stops starting new steps after ~8 minutes; the hard limit below is 9.5 minutes.
set -u
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/device-out}"
mkdir -p "$OUT"
PY="${PYTHON:-python3}"
command -v "$PY" >/dev/null 2>&1 || PY=python
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1
echo "device_check: $("$PY" --version 2>&1) at $(command -v "$PY"); output in $OUT"
if ! "$PY" -c "import numpy" 2>/dev/null; then
  echo "device_check: numpy is missing for $PY; nothing can run" | tee -a "$OUT/log.txt"
  exit 1
fi
timeout -k 10 570 "$PY" scripts/device_check.py --out "$OUT" --budget "${BUDGET:-480}" "$@"
rc=$?
[ $rc -eq 124 ] && echo "device_check: stopped by the 570 s limit" | tee -a "$OUT/log.txt"
exit $rc
