"""Embedding Lab's course library: the calculators, models and checks the lessons share.

Names are loaded on first use, so `import embedlab` stays fast and a lesson only
pays for what it touches.
"""

import importlib

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS = {
    "cosine_similarity": "vectors",
    "Exercise": "exercise",
    "one_hot": "lookup",
    "lookup_index": "lookup",
    "lookup_matmul": "lookup",
    "embedding_backward": "lookup",
    "matmul_flops": "lookup",
    "lookup_bytes": "lookup",
    "one_hot_bytes": "lookup",
    "best_time": "timing",
    "best_times": "timing",
    "blas_threads": "timing",
    "count_params": "params",
    "n_tokens": "params",
    "share_rises": "params",
    "estimate_params": "params",
    "model_shape": "params",
    "ModelShape": "params",
    "ParamCount": "params",
    "load_config": "params",
    "available_models": "params",
    "param_calculator": "calculator",
    "calculator_report": "calculator",
    "train_bpe": "bpe",
    "BPE": "bpe",
    "word_counts": "bpe",
    "add_counts": "bpe",
    "Flops": "compute",
    "token_costs": "compute",
    "forward_flops": "compute",
    "decode_step_flops": "compute",
    "training_flops": "compute",
    "rule_of_thumb_flops": "compute",
    "break_even_ratio": "compute",
    "GB": "memory",
    "GiB": "memory",
    "BYTES_PER_PARAM": "memory",
    "ADAM_RECIPES": "memory",
    "bytes_per_param": "memory",
    "weight_bytes": "memory",
    "adam_training_memory": "memory",
    "kv_cache_bytes_per_token": "memory",
    "kv_cache_bytes": "memory",
    "serving_memory": "memory",
    "Budget": "sizing",
    "Figures": "sizing",
    "design_figures": "sizing",
    "headroom": "sizing",
    "over_budget": "sizing",
    "llama_config": "sizing",
    "deepest_fit": "sizing",
    "DepthSearch": "sizing",
    "memory_report": "memory_widget",
    "memory_calculator": "memory_widget",
    "Corpus": "corpus",
    "make_corpus": "corpus",
    "TinyLM": "tinylm",
    "SGD": "tinylm",
    "Adam": "tinylm",
    "TrainRun": "tinylm",
    "train": "tinylm",
    "train_tinylm": "tinylm",
    "unused_scores": "undertrained",
    "rank_candidates": "undertrained",
    "precision_at_k": "undertrained",
    "first_principal_component": "undertrained",
    "without_first_pc": "undertrained",
    "load_tokenizer": "tokenizers",
    "prose_sample": "tokenizers",
    "licence_text": "tokenizers",
    "new_rows": "resize",
    "add_rows": "resize",
    "resize_tinylm": "resize",
    "kl_divergence": "resize",
    "padded_size": "resize",
    "pad_rows": "resize",
    "trim_rows": "resize",
    "remap_ids": "resize",
}


def __getattr__(name):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'embedlab' has no attribute {name!r}")
    return getattr(importlib.import_module(f"embedlab.{module}"), name)


def __dir__():
    return sorted(list(globals()) + list(_EXPORTS))


__all__ = sorted(_EXPORTS)
