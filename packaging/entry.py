"""The bundle's entry script (PyInstaller runs this as __main__); see explorer/startup/frozen.py."""

import sys

from explorer.startup.frozen import main

if __name__ == "__main__":
    sys.exit(main())
