"""``python -m rules.gcg``: the command line of ``rules.gcg.cli``.

Usage::

    python -m rules.gcg check FILE...
"""

from __future__ import annotations

import sys

from rules.gcg.cli import main

# Guarded: a walk over the rules' modules (the snapshots' pickling table) imports
# this module too, and must not run the command.
if __name__ == "__main__":
    sys.exit(main())
