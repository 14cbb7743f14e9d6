"""`python -m rag_assets.cli`: the same as the `rag` command."""

import sys

from rag_assets.cli import main

sys.exit(main())
