// RUN: spatial-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A value used before it is defined: xDSL 0.75 resolves the use silently; spatial-opt
// refuses it as MLIR's verifier does, at the user, naming the operand and where the
// definition is.

// CHECK: dominance.mlir:[[# @LINE + 2]]:3: error: 'arith.addf' op operand #0 (%b) does not dominate this use: it is defined after this use, at {{.*}}dominance.mlir:[[# @LINE + 3]]:3
func.func @later_in_the_block(%a: f32) -> f32 {
  %c = arith.addf %b, %a : f32
  %b = arith.addf %a, %a : f32
  func.return %c : f32
}

// -----

// CHECK: dominance.mlir:[[# @LINE + 7]]:3: error: 'arith.mulf' op operand #0 (%x) does not dominate this use: its block does not dominate this use's block
func.func @another_branch(%c: i1, %a: f32) -> f32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.addf %a, %a : f32
  cf.br ^bb3
^bb2:
  %y = arith.mulf %x, %a : f32
  cf.br ^bb3
^bb3:
  func.return %a : f32
}

// -----

// CHECK: dominance.mlir:[[# @LINE + 3]]:5: error: 'test.op' op operand #0 (%r) does not dominate this use: it is this op's own result
func.func @own_result() {
  "test.op"() ({
    %r = "test.op"(%r) : (f32) -> f32
    "test.op"() : () -> ()
  }) : () -> ()
  func.return
}
