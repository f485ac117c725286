"""The `xdsl.universe` entry point: what `xdsl-opt` learns from this package."""

from xdsl.universe import XDSL_UNIVERSE, Universe

from xdsl_spatial.dialects import linalg_extra, linalg_mixed, x86_amx


def _q8():
    from xdsl_spatial.dialects.q8 import Q8

    return Q8


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


def _q8_raise():
    from xdsl_spatial.passes.q8_raise import Q8RaisePass

    return Q8RaisePass


# Loading the universe is what every xdsl-opt run does first, so the mixed-precision
# `linalg.matmul` and the named ops torch-mlir prints (`linalg.batch_matmul`) are
# understood even by modules that never mention q8 or spatial.
linalg_mixed.install()
linalg_extra.install()
# The AMX tile ops the native engine emits, in the `x86` dialect as upstream MLIR has
# them; the dialect is still made only when a context loads it.
if "x86" in XDSL_UNIVERSE.all_dialects:
    XDSL_UNIVERSE.all_dialects["x86"] = x86_amx.with_tiles(XDSL_UNIVERSE.all_dialects["x86"])

SPATIAL_UNIVERSE = Universe(
    all_dialects={"q8": _q8, "spatial": _spatial},
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
    },
)
