"""``python -m nx_gpumine``: the ``nx-gpumine`` command line."""

import sys

from .interfaces.cli import main

if __name__ == "__main__":
    sys.exit(main())
