"""Entry point of ``python -m Util``."""

import sys

from .cli import main

sys.exit(main())
