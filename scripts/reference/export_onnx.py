"""Export a BERT sentence encoder from safetensors to ONNX (fp32) and a q8 copy.

Inputs input_ids, attention_mask, token_type_ids (int64, dynamic batch and length); output
last_hidden_state, the layout the Xenova exports have and transformers.js reads.
Usage: python export_onnx.py MODEL_DIR OUT_DIR
Writes OUT_DIR/model.onnx and OUT_DIR/model_quantized.onnx.
"""

import sys
from pathlib import Path

import torch
from onnxruntime.quantization import QuantType, quantize_dynamic
from transformers import BertModel


class LastHiddenState(torch.nn.Module):
    def __init__(self, bert: BertModel):
        super().__init__()
        self.bert = bert

    def forward(self, input_ids, attention_mask, token_type_ids):
        # By keyword: positional arguments land on `use_cache` in transformers 5.
        out = self.bert(
            input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
        )
        return out.last_hidden_state


def export(model_dir: Path, out_dir: Path) -> None:
    torch.manual_seed(0)
    bert = BertModel.from_pretrained(
        str(model_dir), add_pooling_layer=False, attn_implementation="eager"
    )
    wrapper = LastHiddenState(bert).eval()
    ids = torch.tensor([[101, 7592, 2088, 102], [101, 7592, 102, 0]], dtype=torch.int64)
    mask = (ids != 0).to(torch.int64)
    types = torch.zeros_like(ids)
    out_dir.mkdir(parents=True, exist_ok=True)
    fp32 = out_dir / "model.onnx"
    dynamic = {0: "batch_size", 1: "sequence_length"}
    with torch.no_grad():
        torch.onnx.export(
            wrapper,
            (ids, mask, types),
            str(fp32),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["last_hidden_state"],
            dynamic_axes={
                "input_ids": dynamic,
                "attention_mask": dynamic,
                "token_type_ids": dynamic,
                "last_hidden_state": dynamic,
            },
            opset_version=17,
            do_constant_folding=True,
            dynamo=False,
        )
    # Per-channel scales with reduced range: per-tensor int8 drops the median cosine to fp32
    # from 0.993 to 0.951 on LME-s turns (measured with this script's output).
    quantize_dynamic(
        str(fp32),
        str(out_dir / "model_quantized.onnx"),
        weight_type=QuantType.QInt8,
        per_channel=True,
        reduce_range=True,
    )


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: export_onnx.py MODEL_DIR OUT_DIR")
    export(Path(sys.argv[1]), Path(sys.argv[2]))
