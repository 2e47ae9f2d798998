#!/usr/bin/env bash
# Rebuild the shipped answer reader from scratch: data, training, fp16 export, evaluation and the gate's
# threshold (~70 min on 2 idle cores). Then put the printed sha256 of model.safetensors into
# READER_SHA256 (engine/citedesk_engine/models/registry.py) and min_reader_agreement into config.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
$PY training/reader/prepare.py
$PY training/reader/train.py --steps 450 --run main --eval-every 150 --eval-rows 200
$PY training/reader/export.py --run main --which last
$PY training/reader/evaluate.py
$PY training/reader/export.py --sums-only
