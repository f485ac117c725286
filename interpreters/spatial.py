"""Interpreter functions for the `spatial` dialect: each program runs whole, in numpy."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from xdsl_spatial.dialects.spatial import FoldOp, ProgramOp, ViewOp
from xdsl_spatial.interpreters.engine import ProgramRunner, Traffic


@register_impls
class SpatialFunctions(InterpreterFunctions):
    """Runs `spatial.view` and `spatial.fold`, recording the bytes every tensor moves."""

    def __init__(self, traffic: Traffic | None = None, memory_budget: int = 8 << 20):
        self.traffic = traffic if traffic is not None else Traffic()
        self.memory_budget = memory_budget

    def run_program(self, op: ProgramOp, args: Sequence[Any]) -> tuple[Any, ...]:
        return ProgramRunner(op, self.traffic, self.memory_budget).run(args)

    @impl(ViewOp)
    def run_view(self, interpreter: Interpreter, op: ViewOp, args: tuple[Any, ...]):
        return self.run_program(op, args)

    @impl(FoldOp)
    def run_fold(self, interpreter: Interpreter, op: FoldOp, args: tuple[Any, ...]):
        return self.run_program(op, args)
