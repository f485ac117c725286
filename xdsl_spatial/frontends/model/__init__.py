"""
GGUF checkpoints as two MLIR functions in linalg on tensors, built op by op with
xDSL's builders: `config.py` (the numbers a graph is built from), `architectures.py`
(reading them from a file, per architecture), `ir.py` (building a function),
`layers.py` (the pieces of a step), `step.py` (a step of an architecture's layers,
`build_model`), `q8_file.py` (the weights as a Q8_0 file, for llama.cpp).
`xdsl_spatial.frontends.llama` is the public face of all of it.
"""
