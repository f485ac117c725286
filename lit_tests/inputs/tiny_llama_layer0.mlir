// Layer 0 of the tiny llama that tests/tiny_llama.py writes (one layer, seed 0) at a
// batch of 4 rows, as spatial-gguf emits it: each Q8_0 product of the layer a function
// of its activation, values and scales. Made with
//   python -c 'import sys; sys.path.insert(0, "tests"); from pathlib import Path;
//     from tiny_llama import write_tiny_llama; write_tiny_llama(Path("tiny_llama.gguf"), layers=1)'
//   spatial-gguf tiny_llama.gguf --emit --layer 0 --batch 4
// (lit_tests/run/xdsl_pipeline.mlir runs it; lit does not take it for a test.)
// spatial-gguf: Q8_0 matmuls of tiny_llama.gguf, batch 4, bf16 activations, f16 scales
builtin.module {
  func.func @blk_0_attn_q(%x: tensor<4x256xbf16>, %blk.0.attn_q.weight__q8: tensor<256x256xi8>, %blk.0.attn_q.weight__q8_scale: tensor<8x256xf16>) -> tensor<4x256xf32> {
    %w = q8.dequantize %blk.0.attn_q.weight__q8, %blk.0.attn_q.weight__q8_scale : tensor<256x256xi8>, tensor<8x256xf16> -> tensor<256x256xf32>
    %xf = arith.extf %x : tensor<4x256xbf16> to tensor<4x256xf32>
    %e = tensor.empty() : tensor<4x256xf32>
    %zero = arith.constant 0.000000e+00 : f32
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x256xf32>) -> tensor<4x256xf32>
    %y = linalg.matmul ins(%xf, %w : tensor<4x256xf32>, tensor<256x256xf32>) outs(%acc : tensor<4x256xf32>) -> tensor<4x256xf32>
    func.return %y : tensor<4x256xf32>
  }
  func.func @blk_0_attn_k(%x: tensor<4x256xbf16>, %blk.0.attn_k.weight__q8: tensor<256x128xi8>, %blk.0.attn_k.weight__q8_scale: tensor<8x128xf16>) -> tensor<4x128xf32> {
    %w = q8.dequantize %blk.0.attn_k.weight__q8, %blk.0.attn_k.weight__q8_scale : tensor<256x128xi8>, tensor<8x128xf16> -> tensor<256x128xf32>
    %xf = arith.extf %x : tensor<4x256xbf16> to tensor<4x256xf32>
    %e = tensor.empty() : tensor<4x128xf32>
    %zero = arith.constant 0.000000e+00 : f32
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128xf32>) -> tensor<4x128xf32>
    %y = linalg.matmul ins(%xf, %w : tensor<4x256xf32>, tensor<256x128xf32>) outs(%acc : tensor<4x128xf32>) -> tensor<4x128xf32>
    func.return %y : tensor<4x128xf32>
  }
  func.func @blk_0_attn_v(%x: tensor<4x256xbf16>, %blk.0.attn_v.weight__q8: tensor<256x128xi8>, %blk.0.attn_v.weight__q8_scale: tensor<8x128xf16>) -> tensor<4x128xf32> {
    %w = q8.dequantize %blk.0.attn_v.weight__q8, %blk.0.attn_v.weight__q8_scale : tensor<256x128xi8>, tensor<8x128xf16> -> tensor<256x128xf32>
    %xf = arith.extf %x : tensor<4x256xbf16> to tensor<4x256xf32>
    %e = tensor.empty() : tensor<4x128xf32>
    %zero = arith.constant 0.000000e+00 : f32
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128xf32>) -> tensor<4x128xf32>
    %y = linalg.matmul ins(%xf, %w : tensor<4x256xf32>, tensor<256x128xf32>) outs(%acc : tensor<4x128xf32>) -> tensor<4x128xf32>
    func.return %y : tensor<4x128xf32>
  }
  func.func @blk_0_attn_output(%x: tensor<4x256xbf16>, %blk.0.attn_output.weight__q8: tensor<256x256xi8>, %blk.0.attn_output.weight__q8_scale: tensor<8x256xf16>) -> tensor<4x256xf32> {
    %w = q8.dequantize %blk.0.attn_output.weight__q8, %blk.0.attn_output.weight__q8_scale : tensor<256x256xi8>, tensor<8x256xf16> -> tensor<256x256xf32>
    %xf = arith.extf %x : tensor<4x256xbf16> to tensor<4x256xf32>
    %e = tensor.empty() : tensor<4x256xf32>
    %zero = arith.constant 0.000000e+00 : f32
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x256xf32>) -> tensor<4x256xf32>
    %y = linalg.matmul ins(%xf, %w : tensor<4x256xf32>, tensor<256x256xf32>) outs(%acc : tensor<4x256xf32>) -> tensor<4x256xf32>
    func.return %y : tensor<4x256xf32>
  }
  func.func @blk_0_ffn_gate(%x: tensor<4x256xbf16>, %blk.0.ffn_gate.weight__q8: tensor<256x512xi8>, %blk.0.ffn_gate.weight__q8_scale: tensor<8x512xf16>) -> tensor<4x512xf32> {
    %w = q8.dequantize %blk.0.ffn_gate.weight__q8, %blk.0.ffn_gate.weight__q8_scale : tensor<256x512xi8>, tensor<8x512xf16> -> tensor<256x512xf32>
    %xf = arith.extf %x : tensor<4x256xbf16> to tensor<4x256xf32>
    %e = tensor.empty() : tensor<4x512xf32>
    %zero = arith.constant 0.000000e+00 : f32
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x512xf32>) -> tensor<4x512xf32>
    %y = linalg.matmul ins(%xf, %w : tensor<4x256xf32>, tensor<256x512xf32>) outs(%acc : tensor<4x512xf32>) -> tensor<4x512xf32>
    func.return %y : tensor<4x512xf32>
  }
  func.func @blk_0_ffn_up(%x: tensor<4x256xbf16>, %blk.0.ffn_up.weight__q8: tensor<256x512xi8>, %blk.0.ffn_up.weight__q8_scale: tensor<8x512xf16>) -> tensor<4x512xf32> {
    %w = q8.dequantize %blk.0.ffn_up.weight__q8, %blk.0.ffn_up.weight__q8_scale : tensor<256x512xi8>, tensor<8x512xf16> -> tensor<256x512xf32>
    %xf = arith.extf %x : tensor<4x256xbf16> to tensor<4x256xf32>
    %e = tensor.empty() : tensor<4x512xf32>
    %zero = arith.constant 0.000000e+00 : f32
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x512xf32>) -> tensor<4x512xf32>
    %y = linalg.matmul ins(%xf, %w : tensor<4x256xf32>, tensor<256x512xf32>) outs(%acc : tensor<4x512xf32>) -> tensor<4x512xf32>
    func.return %y : tensor<4x512xf32>
  }
  func.func @blk_0_ffn_down(%x: tensor<4x512xbf16>, %blk.0.ffn_down.weight__q8: tensor<512x256xi8>, %blk.0.ffn_down.weight__q8_scale: tensor<16x256xf16>) -> tensor<4x256xf32> {
    %w = q8.dequantize %blk.0.ffn_down.weight__q8, %blk.0.ffn_down.weight__q8_scale : tensor<512x256xi8>, tensor<16x256xf16> -> tensor<512x256xf32>
    %xf = arith.extf %x : tensor<4x512xbf16> to tensor<4x512xf32>
    %e = tensor.empty() : tensor<4x256xf32>
    %zero = arith.constant 0.000000e+00 : f32
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x256xf32>) -> tensor<4x256xf32>
    %y = linalg.matmul ins(%xf, %w : tensor<4x512xf32>, tensor<512x256xf32>) outs(%acc : tensor<4x256xf32>) -> tensor<4x256xf32>
    func.return %y : tensor<4x256xf32>
  }
}
