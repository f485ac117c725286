"""The `xdsl.universe` entry point: what `xdsl-opt` learns from this package.

Only what is the package's own: the `q8` and `spatial` dialects and the passes. The
forms of upstream dialects that xDSL 0.75 does not read (a mixed-precision
`linalg.matmul`, `linalg.batch_matmul`, `x86.amx`, `memref.prefetch`) are the
universe's `read_as`, which only the project's own contexts read
(`core.ir_io.make_context`), so `xdsl-opt` behaves the same with the package
installed as without it.
"""

from collections.abc import Callable

from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import Universe


class SpatialUniverse(Universe):
    """A universe with the upstream dialects its package reads otherwise."""

    def __init__(
        self,
        *,
        read_as: dict[str, Callable[[], Dialect]],
        all_dialects: dict[str, Callable[[], Dialect]],
        all_passes: dict[str, Callable[[], type[ModulePass]]],
    ):
        super().__init__(all_dialects=all_dialects, all_passes=all_passes)
        self.read_as = read_as
        """Dialects the project's contexts read in place of xDSL's of the same name."""


def _read(name: str) -> Callable[[], Dialect]:
    def load() -> Dialect:
        from xdsl_spatial.dialects.extensions import EXTENSIONS

        return EXTENSIONS[name]()

    return load


def _q8():
    from xdsl_spatial.dialects.q8 import Q8

    return Q8


def _tm_tensor():
    from xdsl_spatial.dialects.tm_tensor import TMTensor

    return TMTensor


def _spatial():
    from xdsl_spatial.dialects.spatial import Spatial

    return Spatial


def _q8_lower():
    from xdsl_spatial.passes.q8_lower import Q8LowerPass

    return Q8LowerPass


def _lower_ops():
    from xdsl_spatial.passes.spatial_lower_ops import SpatialLowerOpsPass

    return SpatialLowerOpsPass


def _multicast():
    from xdsl_spatial.passes.spatial_multicast import MulticastPass

    return MulticastPass


def _merge_siblings():
    from xdsl_spatial.passes.spatial_siblings import MergeSiblingsPass

    return MergeSiblingsPass


def _sum_trips():
    from xdsl_spatial.passes.spatial_sum_trips import SumTripsPass

    return SumTripsPass


def _hoist():
    from xdsl_spatial.passes.spatial_hoist import HoistPass

    return HoistPass


def _convert_q8_to_linalg():
    from xdsl_spatial.passes.convert_q8_to_linalg import ConvertQ8ToLinalgPass

    return ConvertQ8ToLinalgPass


def _convert_spatial_to_linalg():
    from xdsl_spatial.passes.convert_spatial_to_linalg import ConvertSpatialToLinalgPass

    return ConvertSpatialToLinalgPass


def _native_kernels():
    from xdsl_spatial.passes.native_kernels import NativeKernelsPass

    return NativeKernelsPass


def _native_layout():
    from xdsl_spatial.passes.native_layout import NativeLayoutPass

    return NativeLayoutPass


def _outline_kernels():
    from xdsl_spatial.passes.outline_kernels import OutlineKernelsPass

    return OutlineKernelsPass


def _slices_as_copies():
    from xdsl_spatial.passes.slices_as_copies import SlicesAsCopiesPass

    return SlicesAsCopiesPass


def _contiguous_output():
    from xdsl_spatial.passes.contiguous_output import ContiguousOutputInnermostPass

    return ContiguousOutputInnermostPass


def _contraction_in_registers():
    from xdsl_spatial.passes.contraction_in_registers import ContractionInRegistersPass

    return ContractionInRegistersPass


def _masked_map():
    from xdsl_spatial.passes.masked_map import MaskedMapPass

    return MaskedMapPass


def _outline_parallel_items():
    from xdsl_spatial.passes.outline_parallel_items import OutlineParallelItemsPass

    return OutlineParallelItemsPass


def _exp_as_arith():
    from xdsl_spatial.passes.exp_as_arith import ExpAsArithPass

    return ExpAsArithPass


def _convert_tm_tensor():
    from xdsl_spatial.passes.convert_tm_tensor import ConvertTMTensorPass

    return ConvertTMTensorPass


def _q8_raise():
    from xdsl_spatial.passes.q8_raise import Q8RaisePass

    return Q8RaisePass


SPATIAL_UNIVERSE = SpatialUniverse(
    read_as={"linalg": _read("linalg"), "memref": _read("memref"), "x86": _read("x86")},
    all_dialects={"q8": _q8, "spatial": _spatial, "tm_tensor": _tm_tensor},
    all_passes={
        "q8-lower": _q8_lower,
        "q8-raise": _q8_raise,
        "spatial-lower-ops": _lower_ops,
        "spatial-merge-siblings": _merge_siblings,
        "spatial-sum-trips": _sum_trips,
        "spatial-hoist": _hoist,
        "spatial-multicast": _multicast,
        "convert-q8-to-linalg": _convert_q8_to_linalg,
        "convert-spatial-to-linalg": _convert_spatial_to_linalg,
        "convert-tm-tensor-to-linalg": _convert_tm_tensor,
        "spatial-native-kernels": _native_kernels,
        "spatial-native-layout": _native_layout,
        "outline-kernels": _outline_kernels,
        "tensor-slices-as-copies": _slices_as_copies,
        "linalg-contiguous-output-innermost": _contiguous_output,
        "linalg-contraction-in-registers": _contraction_in_registers,
        "linalg-masked-map": _masked_map,
        "math-exp-as-arith": _exp_as_arith,
        "outline-parallel-items": _outline_parallel_items,
    },
)
