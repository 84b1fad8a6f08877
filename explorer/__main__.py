"""``python -m explorer`` is the same as the ``warp-explorer`` command."""

import sys

from explorer.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
