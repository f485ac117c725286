"""Model frontends, the top layer: GGUF checkpoints, the llama architecture as IR,
the tokenizer, and generation."""
