"""xdsl-spatial: Q8_0 matmuls lowered onto a spatial dataflow accelerator."""
