"""``python -m hydro CASE.yaml ...`` is ``python -m hydro.run CASE.yaml ...``."""
import sys

from .run import main

sys.exit(main())
