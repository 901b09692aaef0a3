"""`python -m reference`: play MENACE."""

import sys

from reference.cli import main

sys.exit(main())
