#!/usr/bin/env bash
# Makes .venv/ (git-ignored) with the pinned reference stack: sentence-transformers on PyTorch CPU,
# the ONNX exporter, onnxruntime, and actionlint (npm test lints the workflows with it).
# Idempotent: a venv whose requirements stamp matches is kept.
# PyTorch is always the CPU build: the wheel on this machine's disk where pip's find-links has it,
# else the PyTorch project's CPU wheel index (PyPI's Linux x86-64 torch is the multi-GB CUDA build).
set -euo pipefail
case "${1:-}" in
  "") ;;
  -h | --help)
    echo "Usage: bash scripts/setup-python.sh"
    echo
    echo "Makes .venv/ with the pinned reference stack (scripts/reference/requirements.txt);"
    echo "keeps a venv whose requirements stamp matches."
    exit 0
    ;;
  *)
    echo "error: unknown option \"$1\" (bash scripts/setup-python.sh --help)" >&2
    exit 2
    ;;
esac
cd "$(dirname "$0")/.."
req=scripts/reference/requirements.txt
stamp=.venv/.requirements.sha256
want=$(sha256sum "$req" | cut -d' ' -f1)
if [ -x .venv/bin/python ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  echo "reference venv: up to date (.venv)"
  exit 0
fi
python3 -m venv .venv
pip=(.venv/bin/python -m pip install -q --disable-pip-version-check)
"${pip[@]}" --upgrade pip
torch=$(grep '^torch==' "$req")
cpu_index=https://download.pytorch.org/whl/cpu
# torch first and alone, without its dependencies (the next step brings them from PyPI).
if "${pip[@]}" --no-deps --no-index "$torch" 2>/dev/null; then
  from="the wheel on disk"
else
  "${pip[@]}" --no-deps --index-url "$cpu_index" "$torch"
  from=$cpu_index
fi
"${pip[@]}" -r "$req"
if ! .venv/bin/python -c 'import sys, torch; sys.exit(torch.version.cuda is not None)'; then
  echo "reference venv: $torch from $from is a CUDA build; MemLens wants the CPU one" >&2
  exit 1
fi
echo "$want" >"$stamp"
echo "reference venv: installed, torch CPU from $from ($(.venv/bin/python -c 'import torch, transformers, sentence_transformers as s; print("torch", torch.__version__, "transformers", transformers.__version__, "sentence-transformers", s.__version__)'))"
