"""
`spatial-opt`: `xdsl-opt` with this package's dialects and passes, reporting a
diagnostic (a verifier error, a failed pass, a parse error) as its message on stderr
with exit code 1 instead of a Python traceback. Everything else is xdsl-opt's.

    spatial-opt -p 'q8-lower{report=true}' examples/gemv_q8.mlir
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from xdsl_spatial.ir_io import diagnostic_text


def main(argv: Sequence[str] | None = None) -> int:
    try:
        xDSLOptMain(args=list(argv) if argv is not None else None).run()
    except (DiagnosticException, ParseError) as e:
        print(f"spatial-opt: error: {diagnostic_text(e)}", file=sys.stderr)
        return 1
    except ValueError as e:  # an unknown pass or a malformed pass option
        print(f"spatial-opt: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
