"""Write the tests' tiny six-layer gemma3 (tests/tiny_llama.py) to the path given."""

import os
import sys
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests"))

from tiny_llama import write_tiny_gemma3

write_tiny_gemma3(Path(sys.argv[1]), softcap=30.0)
