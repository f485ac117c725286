"""
Chat templates are code from the file (`frontends/chat_template.py`, docs/model.md):
rendered in a child process within a time and an output-size limit, so a hostile
template costs at most the limit, and every way a template fails is a diagnostic
naming it, never an internal error.
"""

from __future__ import annotations

import pytest
from tiny_llama import write_tiny_llama

from xdsl_spatial.frontends import chat_template
from xdsl_spatial.frontends.chat_template import TemplateRenderError, render
from xdsl_spatial.tools import spatial_generate

VARIABLES = {
    "messages": [{"role": "user", "content": "hi"}],
    "add_generation_prompt": True,
    "bos_token": "",
    "eos_token": "<|end|>",
}


def test_a_template_renders_as_jinja2_renders_it():
    template = (
        "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}{{ eos_token }}\n{% endfor %}"
        "{% if add_generation_prompt %}<|assistant|>{% endif %}"
    )
    assert render(template, VARIABLES, "m.gguf") == "<|user|>hi<|end|>\n<|assistant|>"


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("{{ 1/0 }}", "cannot render: ZeroDivisionError: division by zero"),
        (
            "{% for x in %}",
            "cannot be read: Expected an expression, got 'end of statement block' (line 1)",
        ),
        ("{{ raise_exception('roles must alternate') }}", "refuses: roles must alternate"),
        ("{{ foo.bar }}", "cannot render: UndefinedError: 'foo' is undefined"),
        (
            "{{ ().__class__.__bases__ }}",
            "cannot render: SecurityError: access to attribute '__class__'",
        ),
        ("{{ 'x' * 4000000000 }}", "cannot render: it ran out of memory"),
        (
            "{% for i in range(100000) %}{% for j in range(100) %}xxxxxxxxxx{% endfor %}{% endfor %}",
            "wrote more than 1,048,",
        ),
    ],
)
def test_every_failure_is_a_diagnostic_naming_the_template(template, message):
    with pytest.raises(TemplateRenderError) as e:
        render(template, VARIABLES, "m.gguf")
    assert str(e.value).startswith("m.gguf: the chat template (tokenizer.chat_template) ")
    assert message in str(e.value)


HANGS = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
"""Nested loops: ten billion iterations, which ran `--chat` at 100% CPU until interrupted."""


def test_a_hanging_template_is_stopped_at_the_limit(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(chat_template, "SECONDS", 2.0)
    path = write_tiny_llama(tmp_path / "hangs.gguf", chat_template=HANGS)
    assert spatial_generate.main([str(path), "--chat", "--prompt", "hi", "--steps", "1"]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"spatial-generate: error: {path}: the chat template (tokenizer.chat_template) took "
        "more than 2 s to render; stopped (a loop that does not end?)\n"
    )


def test_a_template_error_is_a_diagnostic_in_the_tool(tmp_path, capsys):
    path = write_tiny_llama(tmp_path / "divides.gguf", chat_template="{{ 1/0 }}")
    assert spatial_generate.main([str(path), "--chat", "--prompt", "hi", "--steps", "1"]) == 1
    err = capsys.readouterr().err
    assert "internal error" not in err and "this is a bug" not in err
    assert err.endswith(
        "the chat template (tokenizer.chat_template) cannot render: ZeroDivisionError: division by zero\n"
    )
