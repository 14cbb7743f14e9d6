"""Runs the sample corpus generator: ``python -m rag_assets.samples OUT_DIR``."""

import sys

from rag_assets.samples import main

sys.exit(main())
