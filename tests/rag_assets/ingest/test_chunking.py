"""Chunker: the seed's hand-worked examples and the edge rules."""

import pytest
from tokenizers import Tokenizer
from tokenizers.models import WordLevel
from tokenizers.pre_tokenizers import WhitespaceSplit

from rag_assets.ingest.chunking import ChunkerConfig, ChunkingConfigError, chunk_document, windows
from rag_assets.ingest.doctext import DocText
from rag_assets.ingest.sections import Heading, build_sections
from rag_serving.models.tokenization import load_tokenizer, split_to_limit


def word_tokenizer() -> Tokenizer:
    """One whitespace-separated word = one token, so expected values can be worked by hand."""
    tok = Tokenizer(WordLevel({"[UNK]": 0}, unk_token="[UNK]"))
    tok.pre_tokenizer = WhitespaceSplit()
    return tok


def test_seed_example_size5_overlap2_gives_three_chunks_with_page_spans():
    doc = DocText(["a1 a2 a3 a4 a5 a6", "a7 a8 a9 a10"])
    chunks = chunk_document(doc, word_tokenizer(), ChunkerConfig(size=5, overlap=2, snap=0))
    assert [c.body for c in chunks] == ["a1 a2 a3 a4 a5", "a4 a5 a6\na7 a8", "a7 a8 a9 a10"]
    assert [(c.page_start, c.page_end) for c in chunks] == [(1, 1), (1, 2), (2, 2)]


def test_seed_example_character_offsets_point_into_page_text():
    doc = DocText(["a1 a2 a3 a4 a5 a6", "a7 a8 a9 a10"])
    middle = chunk_document(doc, word_tokenizer(), ChunkerConfig(size=5, overlap=2, snap=0))[1]
    # "a4" starts at offset 9 of page 1; "a8" ends at offset 5 of page 2.
    assert (middle.char_start, middle.char_end) == (9, 5)


def test_100000_token_document_at_500_50_gives_223_chunks():
    assert len(windows(100_000, ChunkerConfig(size=500, overlap=50, snap=0))) == 223


def test_overlap_equal_to_size_is_rejected():
    with pytest.raises(ChunkingConfigError, match="overlap"):
        ChunkerConfig(size=100, overlap=100)


def test_overlap_larger_than_size_is_rejected():
    with pytest.raises(ChunkingConfigError):
        ChunkerConfig(size=100, overlap=150)


def test_window_end_snaps_to_nearest_paragraph_break_within_distance():
    # 10 words, blank line before w7 (token index 6); size 5 would end at 5, the break is 1 away.
    doc = DocText(["w1 w2 w3 w4 w5 w6\n\nw7 w8 w9 w10"])
    chunks = chunk_document(doc, word_tokenizer(), ChunkerConfig(size=5, overlap=1, snap=2))
    assert chunks[0].body.split() == ["w1", "w2", "w3", "w4", "w5", "w6"]
    assert chunks[1].body.split()[0] == "w6"


def test_window_does_not_snap_to_break_beyond_distance():
    doc = DocText(["w1 w2 w3 w4 w5 w6 w7 w8\n\nw9 w10 w11 w12"])
    chunks = chunk_document(doc, word_tokenizer(), ChunkerConfig(size=5, overlap=1, snap=2))
    assert chunks[0].body.split() == ["w1", "w2", "w3", "w4", "w5"]


def test_chunks_never_cross_top_level_sections():
    text = "1 Intro\n\nx1 x2 x3\n\n2 Rules\n\ny1 y2 y3"
    doc = DocText([text])
    headings = [Heading("1 Intro", 1, 0, "heading"), Heading("2 Rules", 1, text.index("2 Rules"), "heading")]
    sections = build_sections(doc, headings)
    chunks = chunk_document(doc, word_tokenizer(), ChunkerConfig(size=50, overlap=5, snap=0), sections)
    assert [c.body.split() for c in chunks] == [["1", "Intro", "x1", "x2", "x3"], ["2", "Rules", "y1", "y2", "y3"]]
    assert [c.section for c in chunks] == [0, 1]


def test_chunk_spanning_two_subsections_belongs_to_their_parent():
    text = "1 Top\n\n1.1 A\n\na a a\n\n1.2 B\n\nb b b"
    doc = DocText([text])
    headings = [
        Heading("1 Top", 1, 0, "heading"),
        Heading("1.1 A", 2, text.index("1.1 A"), "heading"),
        Heading("1.2 B", 2, text.index("1.2 B"), "heading"),
    ]
    sections = build_sections(doc, headings)
    chunks = chunk_document(doc, word_tokenizer(), ChunkerConfig(size=50, overlap=0, snap=0), sections)
    assert len(chunks) == 1 and chunks[0].section == 0
    assert sections[2].heading_path == "1 Top › 1.2 B"


def test_token_count_uses_model_word_pieces_not_words():
    tok = load_tokenizer()
    doc = DocText(["Unbelievably, photosynthesis occurs."])
    (chunk,) = chunk_document(doc, tok, ChunkerConfig(size=500, overlap=50, snap=50))
    assert chunk.token_count == len(tok.encode("Unbelievably, photosynthesis occurs.", add_special_tokens=False).ids)
    assert chunk.token_count > 4  # word pieces, not whitespace words


def test_shipped_tokenizer_does_not_truncate_long_text():
    tok = load_tokenizer()
    text = " ".join(["word"] * 1000)
    assert len(tok.encode(text, add_special_tokens=False).ids) == 1000


def test_window_longer_than_model_limit_is_split_into_parts_not_truncated():
    tok = load_tokenizer()
    text = " ".join(["cat"] * 600)  # "cat" is one word piece
    parts = split_to_limit(tok, text, 254)
    assert [len(p.split()) for p in parts] == [254, 254, 92]


def test_split_for_embedding_does_not_cut_inside_a_word():
    tok = load_tokenizer()
    text = " ".join(f"w{i}" for i in range(300))  # words of several word pieces each
    parts = split_to_limit(tok, text, 100)
    assert " ".join(parts).split() == text.split()
    assert all(len(tok.encode(p, add_special_tokens=False).ids) <= 100 for p in parts)


def test_window_edges_never_split_a_word_into_word_pieces():
    tok = load_tokenizer()
    words = ["photosynthesis"] * 40  # each word is several word pieces
    doc = DocText([" ".join(words)])
    chunks = chunk_document(doc, tok, ChunkerConfig(size=7, overlap=2, snap=0))
    assert len(chunks) > 3
    assert all(set(c.body.split()) == {"photosynthesis"} for c in chunks)


def test_a_long_run_without_word_breaks_is_cut_not_duplicated():
    # 3,000 tokens; tokens 1001..1599 continue one "word" (text extracted without spaces).
    n = 3000
    word_starts = [True] * n
    for i in range(1001, 1600):
        word_starts[i] = False
    got = windows(n, ChunkerConfig(size=256, overlap=25, snap=50), [False] * n, word_starts)
    # Worked by hand: every edge that lands in the run cannot reach a word start within 16 tokens, so the
    # windows keep the plain stride of 256 - 25 = 231: starts 0, 231, ..., 2772 (13 windows).
    assert got == [(i * 231, min(i * 231 + 256, n)) for i in range(13)]


def test_an_edge_inside_a_short_word_still_moves_to_the_word_start():
    word_starts = [True] * 20
    word_starts[10] = word_starts[11] = False  # tokens 9, 10, 11 are one word
    got = windows(20, ChunkerConfig(size=10, overlap=2, snap=0), None, word_starts)
    # end 10 moves forward to 12; next start 12 - 2 = 10 moves back to 9; its end 19 stays
    assert got == [(0, 12), (9, 19), (17, 20)]
