"""The bundle's entry script (PyInstaller runs this as __main__); see explorer/frozen.py."""

import sys

from explorer.frozen import main

if __name__ == "__main__":
    sys.exit(main())
