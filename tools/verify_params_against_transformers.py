"""Check embedlab.count_params against the real architectures, parameter for parameter.

A maintainer's script, not part of the course or its tests: it needs PyTorch and
Hugging Face transformers, which the course does not install. Run it from a
throwaway environment, for example

    python -m venv /tmp/verify && /tmp/verify/bin/pip install torch transformers -e .
    /tmp/verify/bin/python tools/verify_params_against_transformers.py

Every model is built on PyTorch's "meta" device: shapes only, no memory for the
weights and nothing downloaded (the configs are the dicts shipped in
lib/embedlab/data). It checks

1. every shipped config: total, token embedding, and the attention / MLP / norm
   parts of one block;
2. random small configs of every family with every switch embedlab reads
   (biases, tying, head_dim, kv heads, OPT's projections and final norm, Phi's
   qk LayerNorm).

It prints one line per shipped model and exits 1 on any mismatch.
"""

from __future__ import annotations

import contextlib
import io
import random
import sys
import warnings

import torch
from transformers import AutoConfig, AutoModelForCausalLM

from embedlab.params import FAMILIES, available_models, count_params, load_config


def build(config: dict):
    """The Hugging Face causal LM for a config.json dict, on the meta device."""
    fields = {k: v for k, v in config.items() if not k.startswith("_") or k == "_remove_final_layer_norm"}
    model_type = fields.pop("model_type")
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        hf_config = AutoConfig.for_model(model_type, **fields)
        with torch.device("meta"):
            return AutoModelForCausalLM.from_config(hf_config)


def block_parts(model) -> tuple[int, int, int, int]:
    """(number of blocks, attention, MLP, norms) of the first block, by parameter name."""
    blocks = next(m for m in model.modules() if isinstance(m, torch.nn.ModuleList))
    parts = {"attention": 0, "mlp": 0, "norms": 0}
    for name, p in blocks[0].named_parameters():
        top = name.split(".")[0]
        if top in ("self_attn", "attn", "attention") and "layernorm" not in name:
            parts["attention"] += p.numel()
        elif top in ("mlp", "fc1", "fc2"):
            parts["mlp"] += p.numel()
        else:
            parts["norms"] += p.numel()
    return len(blocks), parts["attention"], parts["mlp"], parts["norms"]


def check_shipped() -> int:
    bad = 0
    for name in available_models():
        config = load_config(name)
        model = build(config)
        total = sum(p.numel() for p in model.parameters())  # a tied tensor is yielded once
        embedding = model.get_input_embeddings().weight.numel()
        c = count_params(config)
        want = (total, embedding, *block_parts(model))
        got = (c.total, c.token_embedding, c.num_blocks, c.block.attention, c.block.mlp, c.block.norms)
        ok = want == got
        bad += not ok
        print(f"{'OK ' if ok else 'BAD'} {name:14} {total:>16,}" + ("" if ok else f"  transformers {want} embedlab {got}"))
    return bad


def random_config(family: str, rng: random.Random) -> dict:
    h_kv = rng.choice([1, 2, 4])
    h = h_kv * rng.choice([1, 2, 3])
    hd = rng.choice([4, 8, 16])
    d, L, V, d_ff = h * hd, rng.randint(1, 3), rng.randint(10, 300), rng.randint(8, 100)
    tied = rng.random() < 0.5
    common = dict(model_type=family, vocab_size=V, hidden_size=d, num_hidden_layers=L, num_attention_heads=h,
                  tie_word_embeddings=tied)
    if family == "gpt2":
        return dict(model_type="gpt2", vocab_size=V, n_embd=d, n_layer=L, n_head=h, n_positions=rng.randint(5, 64),
                    n_inner=rng.choice([None, d_ff]), tie_word_embeddings=tied)
    if family in ("llama", "mistral", "qwen2", "gemma"):
        config = common | dict(num_key_value_heads=h_kv, intermediate_size=d_ff)
        if family != "qwen2":
            config["head_dim"] = rng.choice([hd, 2 * hd, 8])
        if family in ("llama", "gemma"):
            config["attention_bias"] = rng.random() < 0.5
        if family == "llama":
            config["mlp_bias"] = rng.random() < 0.5
        return config
    if family == "gpt_neox":
        return common | dict(intermediate_size=d_ff, attention_bias=rng.random() < 0.5)
    if family == "opt":
        return common | dict(ffn_dim=d_ff, max_position_embeddings=rng.randint(5, 64),
                             word_embed_proj_dim=rng.choice([d, max(1, d // 2), 2 * d]),
                             do_layer_norm_before=rng.random() < 0.7, _remove_final_layer_norm=rng.random() < 0.2,
                             enable_bias=rng.random() < 0.7, layer_norm_elementwise_affine=rng.random() < 0.7)
    if family == "phi":
        return common | dict(num_key_value_heads=h_kv, intermediate_size=d_ff, qk_layernorm=rng.random() < 0.5)
    raise ValueError(f"no random configs for family={family!r}")


def check_random(n: int = 120, seed: int = 0) -> int:
    rng = random.Random(seed)
    bad = 0
    for i in range(n):
        config = random_config(FAMILIES[i % len(FAMILIES)], rng)
        total = sum(p.numel() for p in build(config).parameters())
        if total != count_params(config).total:
            bad += 1
            print(f"BAD random {config}: transformers {total:,}, embedlab {count_params(config).total:,}")
    print(f"{n} random configs over {len(FAMILIES)} families, {bad} mismatches")
    return bad


if __name__ == "__main__":
    import transformers

    print(f"torch {torch.__version__}, transformers {transformers.__version__}")
    failures = check_shipped() + check_random()
    sys.exit(1 if failures else 0)
