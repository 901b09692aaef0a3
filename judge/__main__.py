"""Run the judge: `python -m judge`."""

import sys

from judge.cli import main

sys.exit(main())
