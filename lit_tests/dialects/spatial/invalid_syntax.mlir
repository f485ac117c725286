// RUN: xdsl-opt %s --split-input-file --parsing-diagnostics | filecheck %s
// RUN: xdsl-opt %s --split-input-file --parsing-diagnostics | filecheck %s --check-prefix=ALL

// Malformed custom syntax: parse errors, not verifier errors. One a case, in order;
// a case that parsed would print its module:
// ALL-NOT: builtin.module

// CHECK: unknown target preset 'wormhole', expected one of blackhole_p150, reference, tensix, wormhole_n150
"test.op"() {a = #spatial.target<"wormhole">} : () -> ()

// -----

// CHECK: expected one of the chip's figures sites, clock_mhz, dram_gb_s, noc_b_cycle, bf16_macs, bfp8_macs, bfp4_macs, f32_macs, launch_cycles, min_rows
"test.op"() {a = #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1024, acc_tiles = 1, dram_bw = 288>} : () -> ()

// -----

// CHECK: 'sites' is given twice
"test.op"() {a = #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1024, acc_tiles = 1, sites = 72, sites = 140>} : () -> ()

// -----

// CHECK: expected 2 static dimensions, got [32, 32, 32]
"test.op"() {a = #spatial.target<tile = 32x32x32, act = bf16, acc = f32, local_mem = 1024, acc_tiles = 1>} : () -> ()

// -----

// CHECK: a buffer is one row of tiles: <N x type, depth D>
%v = "test.op"() : () -> !spatial.buffer<2x3xf32, depth 2>

// -----

// CHECK: a page is one row of tiles: <N x type>
%v = "test.op"() : () -> !spatial.page<2x3xf32>

// -----

// CHECK: Expected one of 'input', 'output', 'param', 'state' (tensor role)
%v = "test.op"() : () -> !spatial.tensor<2x3xf32, scratch>

// -----

// CHECK: expected a #spatial.target, got #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]>
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: expected a #spatial.plan, got #spatial.numerics<exact>
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.numerics<exact> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: owns size must be [rows, cols], got [1, 1, 1]
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: block must be rows x columns, got [2]
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 2 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: expected static dimensions like 32x8, got ?x1
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block ?x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: use of undefined value %nope
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %nope : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: an origin has at most one indirect table
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %perm = spatial.tensor "perm" values dense<[[1, 0]]> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%perm[%i] + %perm[0]] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: an indirect table cannot be read indirectly
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %perm = spatial.tensor "perm" values dense<[[1, 0]]> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%perm[%perm[%i]]] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: expected `inN`, got p
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  %o = spatial.buffer "o" : !spatial.buffer<1xf32, depth 2>
  %s = spatial.stage "s" iters(par 32, par 32) ins(%p[d0 * 32 + s0 | s0 = p]) into %o[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: s0 is used but no `| s0 = inN` says which input gives it
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  %o = spatial.buffer "o" : !spatial.buffer<1xf32, depth 2>
  %s = spatial.stage "s" iters(par 32, par 32) ins(%p[d0 * 32 + s0]) into %o[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: stage has 1 inputs but 2 input types
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  %o = spatial.buffer "o" : !spatial.buffer<1xf32, depth 2>
  %s = spatial.stage "s" iters(par 32, par 32) ins(%p[d0 * 32 + d1]) into %o[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Expected one of 'max', 'par', 'sum' (iterator kind)
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  %o = spatial.buffer "o" : !spatial.buffer<1xf32, depth 2>
  %s = spatial.stage "s" iters(red 32, par 32) ins(%p[d0 * 32 + d1]) into %o[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Expected integer literal (the stage axis)
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  %o = spatial.buffer "o" : !spatial.buffer<1xf32, depth 2>
  %s = spatial.stage "s" iters(par 32, par 32) ins(%p[d0 * 32 + d1]) into %o[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
  ^bb0(%e: f32):
    %d = spatial.index : index
    spatial.yield %e : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: the K loop starts at 0, got 1
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  spatial.k_loop %kb = 1 to 2 {
    spatial.k_yield
  }
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: 1 carried values but 2 result types
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  %r = spatial.k_loop %kb = 0 to 2 iter_args(%acc = %p) -> (!spatial.page<1xf32>, !spatial.page<1xf32>) {
    spatial.k_yield %acc : !spatial.page<1xf32>
  }
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Expected one of 'approx', 'exact' for the numerics claim
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics maybe
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Expected integer literal
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" chip c1 grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// The custom syntax spells linear forms only (the generic form carries any map, and
// the verifier refuses what is not linear: see invalid.mlir).
// CHECK: Expected ']' after a linear form (a sum of integers times variables)
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %perm = spatial.tensor "perm" values dense<[[1, 0]]> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %o = spatial.buffer "o" : !spatial.buffer<1xf32, depth 2>
  %l = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  %p = spatial.stage "s" iters(par 32, par 32) ins(%l[d0 mod 2]) into %o[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Expected ']' after a linear form (a sum of integers times variables)
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %perm = spatial.tensor "perm" values dense<[[1, 0]]> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %o = spatial.buffer "o" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i floordiv 2] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: expected one of d0, d1, s0, got d2
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %perm = spatial.tensor "perm" values dense<[[1, 0]]> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %o = spatial.buffer "o" : !spatial.buffer<1xf32, depth 2>
  %l = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  %p = spatial.stage "s" iters(par 32, par 32) ins(%l[d2 * 32]) into %o[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: expected an integer or a variable (a linear form)
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %perm = spatial.tensor "perm" values dense<[[1, 0]]> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %o = spatial.buffer "o" : !spatial.buffer<1xf32, depth 2>
  %l = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  %p = spatial.stage "s" iters(par 32, par 32) ins(%l[(d0 + 1) * 32]) into %o[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: an indirect table's element is added as it is, not scaled
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %perm = spatial.tensor "perm" values dense<[[1, 0]]> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %o = spatial.buffer "o" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%perm[%i] * 2] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: an indirect table's element is added, not subtracted
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %perm = spatial.tensor "perm" values dense<[[1, 0]]> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %o = spatial.buffer "o" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i - %perm[%i]] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// A repack is one part of a Q8_0 weight, structured (not a string).
// CHECK: Expected `q8_0.values`, or `q8_0.scales`.
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) repack <q8_0.bias> : !spatial.tensor<32x64xf32, param>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: source must be one of "KxN", "NxK", "NxGx32", got "MxK"
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) repack <q8_0.values [0:32, 0:64] from "MxK"> : !spatial.tensor<32x64xf32, param>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}
