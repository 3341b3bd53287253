"""The independent reference MemLens is checked against: embeds texts the way the field does.

Modes:
  sentence-transformers  a sentence-transformers folder (safetensors): SentenceTransformer on
                         torch CPU, its own tokenizer, truncation, pooling and normalisation.
  onnx                   a folder with tokenizer.json and an ONNX graph: HF `tokenizers`
                         (truncation keeps [SEP]) + Python onnxruntime, then mean/CLS pooling.

Usage: python embed.py MODE MODEL_DIR TEXTS_JSON OUT_F32 [--max-tokens N] [--pooling mean|cls]
       [--onnx-file onnx/model.onnx] [--batch 32]
TEXTS_JSON is a JSON array of strings (prefixes already applied); OUT_F32 gets float32
row-major vectors. One JSON line on stdout says what ran.
"""

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np


def by_sentence_transformers(model_dir: Path, texts, max_tokens, batch, repeats=0):
    import sentence_transformers
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(max(1, torch.get_num_threads()))
    model = SentenceTransformer(str(model_dir), device="cpu", local_files_only=True)
    model.eval()
    if max_tokens:
        model.max_seq_length = max_tokens
    def encode():
        return model.encode(
            texts, batch_size=batch, convert_to_numpy=True, normalize_embeddings=True
        )

    vectors = encode()
    runs = []
    for _ in range(repeats):
        started = time.perf_counter()
        encode()
        runs.append(round(time.perf_counter() - started, 4))
    info = {
        "run_seconds": runs,
        "threads": torch.get_num_threads(),
        "engine": "sentence-transformers",
        "version": sentence_transformers.__version__,
        "torch": torch.__version__,
        "max_seq_length": model.max_seq_length,
    }
    return vectors.astype(np.float32), info


def by_onnx(model_dir: Path, texts, max_tokens, batch, pooling, onnx_file):
    import onnxruntime
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=max_tokens)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    options = onnxruntime.SessionOptions()
    session = onnxruntime.InferenceSession(
        str(model_dir / onnx_file), options, providers=["CPUExecutionProvider"]
    )
    names = {i.name for i in session.get_inputs()}
    out = []
    for start in range(0, len(texts), batch):
        enc = tokenizer.encode_batch(texts[start : start + batch])
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = session.run(["last_hidden_state"], feeds)[0].astype(np.float64)
        if pooling == "cls":
            pooled = hidden[:, 0, :]
        else:
            weights = mask[:, :, None].astype(np.float64)
            pooled = (hidden * weights).sum(1) / np.clip(weights.sum(1), 1e-9, None)
        norms = np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
        out.append((pooled / norms).astype(np.float32))
    info = {"engine": "onnxruntime", "version": onnxruntime.__version__, "file": onnx_file}
    return np.concatenate(out) if out else np.zeros((0, 0), np.float32), info


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["sentence-transformers", "onnx"])
    parser.add_argument("model_dir", type=Path)
    parser.add_argument("texts_json", type=Path)
    parser.add_argument("out_f32", type=Path)
    parser.add_argument("--max-tokens", type=int, default=0)
    parser.add_argument("--pooling", choices=["mean", "cls"], default="mean")
    parser.add_argument("--onnx-file", default="onnx/model.onnx")
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=0, help="timed runs after the first")
    args = parser.parse_args()
    texts = json.loads(args.texts_json.read_text(encoding="utf-8"))
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        sys.exit(f"{args.texts_json}: expected a JSON array of strings")
    started = time.perf_counter()
    if args.mode == "sentence-transformers":
        vectors, info = by_sentence_transformers(
            args.model_dir, texts, args.max_tokens, args.batch, args.repeats
        )
    else:
        vectors, info = by_onnx(
            args.model_dir, texts, args.max_tokens, args.batch, args.pooling, args.onnx_file
        )
    seconds = time.perf_counter() - started
    args.out_f32.parent.mkdir(parents=True, exist_ok=True)
    args.out_f32.write_bytes(np.ascontiguousarray(vectors, dtype="<f4").tobytes())
    info.update(
        {
            "texts": len(texts),
            "dim": int(vectors.shape[1]) if vectors.ndim == 2 else 0,
            "seconds": round(seconds, 3),
            "python": platform.python_version(),
        }
    )
    print(json.dumps(info))


if __name__ == "__main__":
    main()
