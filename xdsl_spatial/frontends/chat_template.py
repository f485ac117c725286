"""
A GGUF file's chat template rendered as Hugging Face renders it, within a time and an
output-size limit: the template is code from the file, and code may not end.

jinja2's sandbox keeps a template from reaching Python's internals, not from looping:
two nested `range(100000)` loops ran for minutes at 100% CPU, and one big-integer
power (`10 ** 10 ** 8`) is a single C call no in-process deadline can interrupt. So
the template is rendered in a child Python process (this module, `python -m
xdsl_spatial.frontends.chat_template`, which imports jinja2 and nothing else of the
package's weight): the parent hands it the template and the variables as JSON on its
stdin and kills it when `SECONDS` pass; the child stops the output at its size limit
(`MAX_CHARS`, or more for long messages) and caps its own memory (`MAX_MEMORY`). Every
failure is a `TemplateRenderError` naming the template and the reason: a syntax error
(with its line), the template's own `raise_exception`, an error while rendering (`{{ 1/0
}}`), the time or size limit. Starting the child costs ~0.1 s, once a run.

```python
text = render(template, {"messages": [...], "add_generation_prompt": True}, "model.gguf")
```
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

SECONDS = 10.0
"""The most a render may take (the child's start included: a real template renders in
milliseconds, a Python process starts in a fraction of a second even on a loaded
machine)."""

MAX_CHARS = 1 << 20
"""The most characters a render may write besides 4 for each character of the
messages (a template quotes each message a few times at most)."""

MAX_MEMORY = 1 << 30
"""The child's address-space limit (RLIMIT_AS): a template that builds a huge string
fails with MemoryError there, not in the tool."""

NAME = "the chat template (tokenizer.chat_template)"


class TemplateRenderError(ValueError):
    """The template cannot be rendered; the message names it and says why."""


def render(
    template: str, variables: dict[str, Any], source: str, seconds: float | None = None
) -> str:
    """`template` (from the file `source`) rendered with `variables` in a child process
    within `seconds` (default `SECONDS`) and the output-size limit; a
    `TemplateRenderError` otherwise."""
    seconds = SECONDS if seconds is None else seconds
    size = sum(len(json.dumps(m)) for m in variables.get("messages", ()))
    request = json.dumps(
        {"template": template, "variables": variables, "max_chars": MAX_CHARS + 4 * size}
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", __name__],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=Path(__file__).resolve().parents[2],  # the package's own folder on sys.path[0]
    )
    try:
        out, _ = proc.communicate(request.encode(), timeout=seconds)
    except subprocess.TimeoutExpired:
        raise TemplateRenderError(
            f"{source}: {NAME} took more than {seconds:g} s to render; stopped (a loop "
            "that does not end?)"
        ) from None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    try:
        reply = json.loads(out)
    except ValueError:
        reply = {"error": f"the renderer stopped (exit code {proc.returncode})"}
    if "text" in reply:
        return reply["text"]
    raise TemplateRenderError(f"{source}: {NAME} {reply['error']}")


def _child() -> None:
    """Read a request on stdin, render it, write `{"text": ...}` or `{"error": ...}`."""
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = MAX_MEMORY if hard == resource.RLIM_INFINITY else min(MAX_MEMORY, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    request = json.load(sys.stdin)
    print(json.dumps(_render(request["template"], request["variables"], request["max_chars"])))


def _render(template: str, variables: dict[str, Any], max_chars: int) -> dict[str, str]:
    try:
        from jinja2 import TemplateSyntaxError
        from jinja2.sandbox import ImmutableSandboxedEnvironment
    except ImportError:
        return {"error": "needs the jinja2 package: pip install -e '.[chat]'"}

    class Refused(Exception):
        pass

    def raise_exception(message: str) -> None:
        raise Refused(message)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    env.globals["raise_exception"] = raise_exception
    try:
        compiled = env.from_string(template)
    except TemplateSyntaxError as e:
        return {"error": f"cannot be read: {e.message} (line {e.lineno})"}
    except (RecursionError, MemoryError) as e:
        return {"error": f"cannot be read: {type(e).__name__}"}
    chunks: list[str] = []
    n = 0
    try:
        for chunk in compiled.generate(**variables):
            chunks.append(chunk)
            n += len(chunk)
            if n > max_chars:
                return {"error": f"wrote more than {max_chars:,} characters; stopped"}
    except Refused as e:
        return {"error": f"refuses: {e}"}
    except MemoryError:
        return {"error": "cannot render: it ran out of memory"}
    except Exception as e:  # whatever the template's code raises is the template's error
        return {"error": f"cannot render: {type(e).__name__}: {e}"}
    return {"text": "".join(chunks)}


if __name__ == "__main__":
    _child()
