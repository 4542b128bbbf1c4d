"""Check embedlab.count_params against the real architectures, parameter for parameter.

A maintainer's script, not part of the course or its tests: it needs PyTorch and
Hugging Face transformers, which the course does not install. Run it from a
throwaway environment that installs the course library, for example

    python -m venv /tmp/verify && /tmp/verify/bin/pip install torch transformers -e .
    /tmp/verify/bin/python tools/verify_params_against_transformers.py

Every model is built on PyTorch's "meta" device: shapes only, no memory for the
weights and nothing downloaded (the configs are the dicts shipped in
lib/embedlab/data). It checks

1. every shipped config: the total, the token embedding, the LM head, and the
   attention / MLP / norm parts of every block (layers with and without experts);
2. random small configs of every family with every switch embedlab reads
   (biases, tying, head_dim given or not, kv heads, OPT's projections and final
   norm, Phi's qk LayerNorm, experts and experts per token, MoE layer
   frequencies and dense layers, shared experts, latent attention with and
   without a query low-rank);
3. what a checkpoint stores beyond the parameters: the router buffers that
   embedlab.checkpoint_extras reports must be the model's own buffers.

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

from embedlab.params import FAMILIES, available_models, checkpoint_extras, count_params, load_config, model_shape

# config.json fields that describe how a checkpoint is stored or loaded, not the architecture
_STORAGE_FIELDS = ("auto_map", "quantization_config")


def build(config: dict):
    """The Hugging Face causal LM for a config.json dict, on the meta device."""
    fields = {k: v for k, v in config.items()
              if (not k.startswith("_") or k == "_remove_final_layer_norm") and k not in _STORAGE_FIELDS}
    model_type = fields.pop("model_type")
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        hf_config = AutoConfig.for_model(model_type, **fields)
        with torch.device("meta"):
            return AutoModelForCausalLM.from_config(hf_config)


def layer_parts(model) -> list[tuple[int, int, int]]:
    """(attention, MLP, norms) of every block, by parameter name."""
    blocks = next(m for m in model.modules() if isinstance(m, torch.nn.ModuleList))
    out = []
    for block in blocks:
        parts = {"attention": 0, "mlp": 0, "norms": 0}
        for name, p in block.named_parameters():
            top = name.split(".")[0]
            if "norm" in name or top.startswith("ln"):
                parts["norms"] += p.numel()
            elif top in ("self_attn", "attn", "attention"):
                parts["attention"] += p.numel()
            elif top in ("mlp", "fc1", "fc2", "block_sparse_moe"):
                parts["mlp"] += p.numel()
            else:
                parts["norms"] += p.numel()
        out.append((parts["attention"], parts["mlp"], parts["norms"]))
    return out


def expected_layer_parts(config: dict) -> list[tuple[int, int, int]]:
    """embedlab's (attention, MLP, norms) of every block, in layer order."""
    c, s = count_params(config), model_shape(config)
    moe = next((b for _, b in c.groups if b.experts), None)
    dense = next((b for _, b in c.groups if b is not moe), None)
    moe_layers = set(s.moe.moe_layers) if s.moe else set()
    return [((moe if i in moe_layers else dense).attention, (moe if i in moe_layers else dense).mlp,
             (moe if i in moe_layers else dense).norms) for i in range(s.num_layers)]


def compare(config: dict) -> tuple[bool, str]:
    model = build(config)
    total = sum(p.numel() for p in model.parameters())  # a tied tensor is yielded once
    embedding = model.get_input_embeddings().weight.numel()
    out = model.get_output_embeddings()
    head = 0 if out.weight is model.get_input_embeddings().weight else out.weight.numel()
    head += out.bias.numel() if getattr(out, "bias", None) is not None else 0
    c = count_params(config)
    want = (total, embedding, head, layer_parts(model))
    got = (c.total, c.token_embedding, c.lm_head, expected_layer_parts(config))
    problems = [n for n, w, g in zip(("total", "token embedding", "head", "blocks"), want, got) if w != g]
    buffers = sum(b.numel() for n, b in model.named_buffers() if "e_score_correction_bias" in n)
    # transformers builds no multi-token-prediction block: its router's biases are not among the buffers
    moe = model_shape(config).moe
    mtp_biases = config.get("num_nextn_predict_layers", 0) * (moe.num_experts if moe else 0)
    if buffers != checkpoint_extras(config).get("router score-correction biases (buffers)", 0) - mtp_biases:
        problems.append(f"router buffers: transformers {buffers:,}")
    return not problems, ", ".join(problems)


def check_shipped() -> int:
    bad = 0
    for name in available_models():
        config = load_config(name)
        ok, problems = compare(config)
        bad += not ok
        c = count_params(config)
        active = f" active {c.active:>16,}" if c.active != c.total else ""
        print(f"{'OK ' if ok else 'BAD'} {name:16} {c.total:>17,}{active}" + ("" if ok else f"  mismatch: {problems}"))
    return bad


def random_config(family: str, rng: random.Random) -> dict:
    h_kv = rng.choice([1, 2, 4])
    h = h_kv * rng.choice([1, 2, 3])
    hd = rng.choice([4, 8, 16])
    d, L, V, d_ff = h * hd, rng.randint(1, 4), rng.randint(10, 300), rng.randint(8, 100)
    tied = rng.random() < 0.5
    tokens = dict(bos_token_id=0, eos_token_id=0, pad_token_id=0)  # ids inside the small vocabulary
    common = dict(model_type=family, vocab_size=V, hidden_size=d, num_hidden_layers=L, num_attention_heads=h,
                  tie_word_embeddings=tied) | tokens
    if family == "gpt2":
        return dict(model_type="gpt2", vocab_size=V, n_embd=d, n_layer=L, n_head=h, n_positions=rng.randint(5, 64),
                    n_inner=rng.choice([None, d_ff]), tie_word_embeddings=tied) | tokens
    if family in ("llama", "mistral", "qwen2", "gemma", "gemma2", "gemma3_text", "qwen3", "olmo2", "phi3"):
        config = common | dict(num_key_value_heads=h_kv, intermediate_size=d_ff)
        if family in ("gemma", "gemma2", "gemma3_text", "qwen3"):  # head_dim required
            config["head_dim"] = rng.choice([hd, 2 * hd, 8])
        elif family != "qwen2" and rng.random() < 0.5:  # head_dim optional
            config["head_dim"] = rng.choice([hd, 2 * hd, 8])
        if family in ("llama", "gemma", "gemma2", "gemma3_text", "qwen3", "olmo2"):
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
    E = rng.randint(1, 6)
    k = rng.randint(1, E)
    if family == "mixtral":
        config = common | dict(num_key_value_heads=h_kv, intermediate_size=d_ff, num_local_experts=E,
                               num_experts_per_tok=k)
        if rng.random() < 0.5:
            config["head_dim"] = rng.choice([hd, 2 * hd, 8])
        return config
    if family == "qwen3_moe":
        step = rng.randint(1, L)
        dense = sorted(rng.sample(range(L), rng.randint(0, L - 1)))
        config = common | dict(num_key_value_heads=h_kv, intermediate_size=d_ff, head_dim=rng.choice([hd, 8]),
                               num_experts=E, num_experts_per_tok=k, moe_intermediate_size=rng.randint(4, 40),
                               decoder_sparse_step=step, mlp_only_layers=dense, attention_bias=rng.random() < 0.5)
        if not any(i not in dense and (i + 1) % step == 0 for i in range(L)):
            config["decoder_sparse_step"], config["mlp_only_layers"] = 1, []
        return config
    if family in ("deepseek_v2", "deepseek_v3"):
        config = common | dict(num_key_value_heads=h, intermediate_size=d_ff, n_routed_experts=E,
                               num_experts_per_tok=k, moe_intermediate_size=rng.randint(4, 40),
                               n_shared_experts=rng.choice([0, 1, 2]) if family == "deepseek_v2" else rng.choice([1, 2]),
                               first_k_dense_replace=rng.randint(0, L - 1), moe_layer_freq=1,
                               q_lora_rank=rng.choice([None, rng.randint(4, 24)]), kv_lora_rank=rng.randint(4, 24),
                               qk_nope_head_dim=rng.choice([4, 8]), qk_rope_head_dim=rng.choice([2, 4]),
                               v_head_dim=rng.choice([4, 8, 12]), attention_bias=rng.random() < 0.5,
                               n_group=1, topk_group=1)
        if family == "deepseek_v2":
            config["mlp_bias"] = rng.random() < 0.5
        return config
    raise ValueError(f"no random configs for family={family!r}")


def check_random(n: int = 340, seed: int = 0) -> int:
    rng = random.Random(seed)
    bad = 0
    for i in range(n):
        config = random_config(FAMILIES[i % len(FAMILIES)], rng)
        ok, problems = compare(config)
        if not ok:
            bad += 1
            print(f"BAD random {config}: {problems}")
    print(f"{n} random configs over {len(FAMILIES)} families, {bad} mismatches")
    return bad


if __name__ == "__main__":
    import transformers

    transformers.logging.set_verbosity_error()  # random configs trip warnings about token ids
    print(f"torch {torch.__version__}, transformers {transformers.__version__}")
    failures = check_shipped() + check_random()
    sys.exit(1 if failures else 0)
