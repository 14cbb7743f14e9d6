"""`python -m tests.llama_server PORT`: the local GGUF server in its own process for tests.

A separate process because xllamacpp's Cython types clash with other Cython extensions already loaded in the test
process.
"""

import sys

from rag_serving.models.llm_server import serve

if __name__ == "__main__":
    serve(int(sys.argv[1]))
