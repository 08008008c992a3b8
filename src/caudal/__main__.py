"""``python -m caudal``: the command line, as the ``caudal`` script runs it."""

import sys

from caudal.cli import main

sys.exit(main())
