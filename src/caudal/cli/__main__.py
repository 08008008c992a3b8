import sys

from caudal.cli import main

sys.exit(main())
