#!/usr/bin/env bash
# One prepared check for a machine with an NVIDIA GPU (e.g. an H200 lent for a session).
#
#   bash scripts/device_check.sh                 # results to $OUT (or ./device-out)
#   TOTAL_S=300 bash scripts/device_check.sh     # a shorter run (steps that do not fit are skipped)
#   bash scripts/device_check.sh --runs example-240x256,tensor-gemm --skip-ncu   # a quick rerun
#
# Installs nothing: uses python3 (or $PYTHON) with numpy and cuda-bindings as found;
# nvidia-ml-py, pytest, nvcc, cuobjdump, ncu and numba are used when present. Measures every
# shipped preset first, then the microbenchmarks (latencies, loaded latency, bandwidths, FFMA,
# launch costs, NVML: the catalog fragment measured/GPU.toml), then runs the GPU tests and
# Nsight Compute, and the fault and hang tests last (scripts/device_check.py says why and what
# it writes). `python3 scripts/device_check.py --adopt results.tar.gz` puts the returned
# fragment into resources/measured/.
#
# What comes back from a GPU run is at most 8 files (16 MiB each, 64 MiB in all, 2 folders
# deep, plain names), so everything is written to a staging folder and packed afterwards
# into $OUT: log.txt, summary.txt and results*.tar.gz. The packing runs after the time
# limit has returned, so a run that was stopped still brings back what it had.
#
# Budget (TOTAL_S, default 420 s = 7 min, at most 570 s so it always ends inside 10 minutes):
# no step starts after TOTAL_S - 75 s, the check is stopped at TOTAL_S - 45 s, packing has
# 30 s (the rest is slack). The first full run on an H200 (2026-12-04, before the
# microbenchmarks) took 73 s: 11 measurements ~40 s, device tests ~7 s, Nsight Compute ~4-5 s
# per preset, fault and hang tests ~5 s. The microbenchmarks add an estimated 15-30 s (not yet
# timed on a GPU; NVML's windows alone are ~7 s; the step is capped at 150 s and groups that
# would not fit are skipped), so a second run still fits in the 15
# minutes of device time a session gets, machine start included; a quick rerun: TOTAL_S=180 and
# --runs/--skip-ncu/--skip-microbench.
set -u
cd "$(dirname "$0")/.."
OUT="${OUT:-$PWD/device-out}"
STAGE="${STAGE:-$(mktemp -d "${TMPDIR:-/tmp}/device-stage.XXXXXX")}"
TOTAL_S="${TOTAL_S:-420}"
[ "$TOTAL_S" -gt 570 ] && TOTAL_S=570
HARD_S=$((TOTAL_S - 45))
SOFT_S=$((TOTAL_S - 75))
[ "$SOFT_S" -lt 10 ] && SOFT_S=10
mkdir -p "$OUT" "$STAGE"
PY="${PYTHON:-python3}"
command -v "$PY" >/dev/null 2>&1 || PY=python
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1
say() { echo "device_check: $*" | tee -a "$STAGE/log.txt"; }
say "$("$PY" --version 2>&1) at $(command -v "$PY"); staging in $STAGE; results to $OUT"
say "budget: ${TOTAL_S} s in all: no step starts after ${SOFT_S} s, the check is stopped at ${HARD_S} s, packing <= 30 s"
started=$(date +%s)
if "$PY" -c "import numpy" 2>/dev/null; then
  timeout -k 10 "$HARD_S" "$PY" scripts/device_check.py --stage "$STAGE" --budget "$SOFT_S" \
    --hard "$((HARD_S - 5))" "$@"
  rc=$?
  [ $rc -eq 124 ] || [ $rc -eq 137 ] && say "stopped by the ${HARD_S} s limit (exit $rc); packing what there is"
else
  say "numpy is missing for $PY; nothing can run"
  rc=1
fi
say "check finished after $(( $(date +%s) - started )) s (exit $rc); packing"
if ! timeout -k 5 30 "$PY" scripts/device_check.py --pack "$STAGE" --out "$OUT"; then
  say "the Python packer failed: falling back to tar"
  rm -f "$OUT"/results*.tar.gz*
  tar -czf "$OUT/results.tar.gz" -C "$STAGE" . 2>/dev/null
  if [ "$(stat -c %s "$OUT/results.tar.gz" 2>/dev/null || echo 0)" -gt 15728640 ]; then
    split -b 15m -a 1 "$OUT/results.tar.gz" "$OUT/results.tar.gz.part-" && rm -f "$OUT/results.tar.gz"
  fi
  cp -f "$STAGE/log.txt" "$OUT/log.txt" 2>/dev/null
  [ -f "$STAGE/summary.txt" ] && cp -f "$STAGE/summary.txt" "$OUT/summary.txt"
fi
echo "device_check: done after $(( $(date +%s) - started )) s; in $OUT: $(ls "$OUT" | tr '\n' ' ')"
exit $rc
