"""``python -m storycore``: the command the distribution declares as its ``storycore`` console
script (docs/decisions.md#command-line).

The core names no module of ``storycore.contrib``: the packaging (``[project.scripts]``) says
which function the command is, and this looks it up, as the console script does.
"""

import sys
from importlib.metadata import entry_points

(command,) = entry_points(group="console_scripts", name="storycore")
sys.exit(command.load()())
