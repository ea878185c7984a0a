"""``python -m interpreter.cli``: the ``rules`` command."""

import sys

from .main import main

sys.exit(main())
