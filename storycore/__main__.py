"""``python -m storycore``: the ``storycore`` command (decisions section 21).

The one module of the core's folder that reaches outward. Running the package is composing
it, which is ``storycore.contrib``'s work; this module only hands over to it, and nothing
imports it (``tests/test_architecture.py`` holds it to that).
"""

import sys

from storycore.contrib.cli import main

sys.exit(main())
