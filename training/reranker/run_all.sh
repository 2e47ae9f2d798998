#!/usr/bin/env bash
# Rebuild the shipped reranker from scratch: data, training, fp16 export, evaluation (~2 h on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
$PY training/reranker/prepare.py
$PY training/reranker/train.py --steps 600 --run main
$PY training/reranker/export.py --run main --which best
$PY training/reranker/evaluate.py
$PY training/reranker/export.py --sums-only
