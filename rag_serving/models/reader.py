"""The answer reader: a MiniLM cross-encoder, fine-tuned by `make train-reader`, that reads a question with one
sentence and gives the probability that the sentence answers it (int8 ONNX on onnxruntime, no torch)."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer

from rag_serving.models.artefacts import ArtefactError, shipped
from rag_serving.models.tokenization import default_tokenizer_path

ARTEFACT_FORMAT = "rag-answer-reader/1"
MAX_TOKENS = 128  # question and sentence together, special tokens included; a longer sentence is cut at the end
BATCH = 32


class AnswerReader:
    """P(sentence answers question) for many pairs at once. Safe to share between request threads: onnxruntime's
    run and the configured tokenizer's encode only read their objects."""

    stem = "answer_reader"

    @classmethod
    def default_path(cls) -> Path:
        return shipped(cls.stem)

    def __init__(self, *, path: Path | None = None, threads: int = 0, verify: bool = True):
        import onnxruntime as ort

        self.path = Path(path) if path else self.default_path()
        try:
            self.artefact = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ArtefactError(f"answer reader {self.path}: cannot read it: {exc}") from exc
        if self.artefact.get("format") != ARTEFACT_FORMAT:
            raise ArtefactError(f"answer reader {self.path}: format {self.artefact.get('format')!r}, "
                                f"expected {ARTEFACT_FORMAT!r}")
        model = self.path.with_suffix(".onnx")
        try:
            blob = model.read_bytes()
        except OSError as exc:
            raise ArtefactError(f"answer reader {model}: cannot read it: {exc}") from exc
        if verify and hashlib.sha256(blob).hexdigest() != self.artefact.get("model", {}).get("sha256"):
            raise ArtefactError(f"answer reader {model}: sha256 differs from the one recorded in {self.path.name}")
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or min(os.cpu_count() or 1, 4)
        options.inter_op_num_threads = 1
        options.enable_cpu_mem_arena = False  # bounded memory, as for the embedder (docs/operations.md)
        self._session = ort.InferenceSession(blob, options, providers=["CPUExecutionProvider"])
        # Its own tokenizer, configured once here: the shared one counts tokens and must never truncate.
        self._tokenizer = Tokenizer.from_file(str(default_tokenizer_path()))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS, strategy="only_second")
        self._tokenizer.no_padding()
        self.name = f"answer-reader/{self.artefact.get('digest', '')[:12]}"

    def scores_pairs(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """One probability per (question, sentence) pair, in order."""
        out = np.zeros(len(pairs), dtype=np.float64)
        order = sorted(range(len(pairs)), key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
        for start in range(0, len(order), BATCH):
            idx = order[start:start + BATCH]
            encodings = self._tokenizer.encode_batch([pairs[i] for i in idx])
            length = max(len(e.ids) for e in encodings)
            ids = np.zeros((len(idx), length), dtype=np.int64)
            types, mask = np.zeros_like(ids), np.zeros_like(ids)
            for row, e in enumerate(encodings):
                ids[row, :len(e.ids)], types[row, :len(e.ids)], mask[row, :len(e.ids)] = e.ids, e.type_ids, 1
            logits = self._session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": types})[0]
            out[idx] = 1.0 / (1.0 + np.exp(-logits.reshape(-1)))
        return out.tolist()

    def scores(self, question: str, sentences: Sequence[str]) -> list[float]:
        return self.scores_pairs([(question, s) for s in sentences])
