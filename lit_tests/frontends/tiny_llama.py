"""Write the tests' tiny two-layer llama (tests/tiny_llama.py) to the path given."""

import os
import sys
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests"))

from tiny_llama import write_tiny_llama

write_tiny_llama(Path(sys.argv[1]))
