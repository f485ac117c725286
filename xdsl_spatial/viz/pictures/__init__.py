"""
Pictures of spatial programs: the dataflow of a program or a function, the tiles each
work item owns, and the bytes a run moved. What `spatial-viz` draws.

Graphs are DOT, built with the `graphviz` package and laid out by Graphviz's `dot`
(the system's when it is on PATH, else the `graphviz-pure` program the `[viz]` extra
installs); tile maps and traffic charts are matplotlib figures. Every picture is SVG
or PNG, by the output's extension, and text in an SVG stays text (searchable, and
what the tests read).

```python
from xdsl_spatial.viz import pictures as viz
from xdsl_spatial.analysis.ownership import ownership

fold = viz.find_program(module, "fold")
svg = viz.render_graph(viz.program_graph(fold), "svg")
png = viz.figure_bytes(viz.tiles_figure(ownership(fold)), "png")
```

One module a kind of picture: `graphs` (dataflow, DOT), `tiles` (who owns which tile),
`traffic` (bytes a run moved); `find` picks what to draw from a module, and `render`
holds what they share (the `[viz]` extra, the font, SVG and PNG bytes). This package
names the ones a caller uses.
"""

from xdsl_spatial.viz.pictures.find import (
    Selection,
    find_program,
    functions,
    op_names,
    programs,
    select_functions,
)
from xdsl_spatial.viz.pictures.graphs import CARRY_COLOR, function_graph, program_graph
from xdsl_spatial.viz.pictures.render import (
    DOT_PROGRAMS,
    FONT,
    FORMATS,
    MissingExtra,
    VizError,
    check_extra,
    figure_bytes,
    find_dot,
    output_format,
    render_graph,
    require,
    text_inches,
)
from xdsl_spatial.viz.pictures.tiles import tiles_figure
from xdsl_spatial.viz.pictures.traffic import CATEGORIES, layer_of, traffic_figure

__all__ = [
    "CARRY_COLOR",
    "CATEGORIES",
    "DOT_PROGRAMS",
    "FONT",
    "FORMATS",
    "MissingExtra",
    "Selection",
    "VizError",
    "check_extra",
    "figure_bytes",
    "find_dot",
    "find_program",
    "function_graph",
    "functions",
    "layer_of",
    "op_names",
    "output_format",
    "program_graph",
    "programs",
    "render_graph",
    "require",
    "select_functions",
    "text_inches",
    "tiles_figure",
    "traffic_figure",
]
