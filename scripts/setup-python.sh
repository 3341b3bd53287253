#!/usr/bin/env bash
# Makes .venv/ (git-ignored) with the pinned reference stack: sentence-transformers on PyTorch CPU,
# the ONNX exporter and onnxruntime. Idempotent: a venv whose requirements stamp matches is kept.
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
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
# torch first and alone: with it installed, the others' `torch` requirement takes nothing more.
.venv/bin/python -m pip install -q --disable-pip-version-check "$(grep '^torch==' "$req")"
.venv/bin/python -m pip install -q --disable-pip-version-check -r "$req"
echo "$want" >"$stamp"
echo "reference venv: installed ($(.venv/bin/python -c 'import torch, transformers, sentence_transformers as s; print("torch", torch.__version__, "transformers", transformers.__version__, "sentence-transformers", s.__version__)'))"
