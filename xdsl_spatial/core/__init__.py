"""The shared core: numbers and IR plumbing every layer above may import (memory
limits, GGML's Q8_0 arithmetic, tile geometry, parsing and diagnostics, files
written whole). It imports nothing of the package."""
