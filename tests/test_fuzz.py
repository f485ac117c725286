"""Mutants of the bundled examples through every tool (see `fuzzing.py`): a
diagnostic or success, never a traceback, an internal error or a hang.

The sample is the same every run (seed 20251201, 250 mutants, about 40 s here with
two processes at a time); `XDSL_SPATIAL_FUZZ_SEED` and `XDSL_SPATIAL_FUZZ_COUNT`
draw another, and `python tests/fuzzing.py --count 1000` runs a campaign.
"""

from __future__ import annotations

import os
import time

import fuzzing

SEED = int(os.environ.get("XDSL_SPATIAL_FUZZ_SEED", "20251201"))
COUNT = int(os.environ.get("XDSL_SPATIAL_FUZZ_COUNT", "250"))


def test_every_mutant_gets_a_diagnostic_or_succeeds():
    report = fuzzing.campaign(SEED, COUNT, jobs=2, timeout=120)
    assert not report.bad, (
        f"seed {SEED}\n{report.summary()}\n"
        + "\n".join(f"{n} x {s}" for s, n in report.signatures().most_common())
        + "\n"
        + report.describe_bad()
    )
    # The sample exercises both sides: mutants that run and mutants that are refused.
    for tool in fuzzing.TOOLS:
        codes = {o.code for r in report.results for o in r.outcomes if o.tool == tool}
        assert {0, 1} <= codes, (tool, codes)


def test_the_mutants_are_reproducible_and_varied():
    a, b = fuzzing.mutants(7, 60), fuzzing.mutants(7, 60)
    assert [m.text for m in a] == [m.text for m in b]
    kinds = {e.split()[0] for m in a for e in m.edits}
    assert {"int", "int-all", "type", "truncate"} <= kinds
    assert len({m.source for m in a}) > 5


def test_the_harness_sees_an_escape_and_a_hang(monkeypatch):
    """What the property rests on: a traceback, an internal error and a hang are
    each caught (the child process is forked, so it runs the patched tool)."""
    m = fuzzing.mutants(1, 1)[0]

    def escapes(tool, path, entry):
        return fuzzing.Outcome(tool, 1, "spatial-run: internal error: KeyError: 'x'\n", 0.0)

    monkeypatch.setattr(fuzzing, "run_tool", escapes)
    (r,) = fuzzing.run_mutants([m], jobs=1, timeout=60)
    assert r.bad and all(o.escaped for o in r.outcomes)

    def hangs(tool, path, entry):
        time.sleep(60)

    monkeypatch.setattr(fuzzing, "run_tool", hangs)
    (r,) = fuzzing.run_mutants([m], jobs=1, timeout=1)
    assert r.hung == "opt"
