// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ALL

// One verifier error a case, in order: each CHECK is the message xdsl-opt reports.
// The programs are a two-item copy of a 32x64 f32 tensor, one tile per item, broken
// in one place. A case that verified would print its module in the custom form:
// ALL-NOT: {{^}}builtin.module

// ====================================================================================
// Attributes and types verify themselves
// ====================================================================================

// CHECK: tile must have at least one row and column, got 0x32
"test.op"() {a = #spatial.target<tile = 0x32, act = bf16, acc = f32, local_mem = 1024, acc_tiles = 1>} : () -> ()

// -----

// CHECK: activation precision must be bf16 or f32, got f16
"test.op"() {a = #spatial.target<tile = 32x32, act = f16, acc = f32, local_mem = 1024, acc_tiles = 1>} : () -> ()

// -----

// CHECK: accumulator precision must be f32, got bf16
"test.op"() {a = #spatial.target<tile = 32x32, act = bf16, acc = bf16, local_mem = 1024, acc_tiles = 1>} : () -> ()

// -----

// CHECK: local memory must be at least 1 byte, got 0
"test.op"() {a = #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 0, acc_tiles = 1>} : () -> ()

// -----

// CHECK: a site must hold at least 1 accumulator tile, got 0
"test.op"() {a = #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1024, acc_tiles = 0>} : () -> ()

// -----

// CHECK: the target's clock_mhz must be positive, got 0
"test.op"() {a = #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1024, acc_tiles = 1, clock_mhz = 0>} : () -> ()

// -----

// CHECK: plan grid must be two positive integers, got [16]
"test.op"() {a = #spatial.plan<grid = [16], k_blocks = 1, site = [1, 1]>} : () -> ()

// -----

// CHECK: plan site must be two positive integers, got [0, 8]
"test.op"() {a = #spatial.plan<grid = [1, 16], k_blocks = 1, site = [0, 8]>} : () -> ()

// -----

// CHECK: plan k_blocks must be at least 1, got 0
"test.op"() {a = #spatial.plan<grid = [1, 16], k_blocks = 0, site = [1, 8]>} : () -> ()

// -----

// CHECK: an 'approx' numerics claim must give its reason
"test.op"() {a = #spatial.numerics<approx "">} : () -> ()

// -----

// CHECK: a spatial tensor is 2-d with positive sizes, got [0, 64]
%v = "test.op"() : () -> !spatial.tensor<0x64xf32, input>

// -----

// CHECK: a spatial tensor is 2-d with positive sizes, got [2, 32, 64]
%v = "test.op"() : () -> !spatial.tensor<2x32x64xf32, input>

// -----

// CHECK: a spatial tensor holds ints or floats, got index
%v = "test.op"() : () -> !spatial.tensor<32x64xindex, input>

// -----

// CHECK: a buffer holds at least 1 tile, got 0
%v = "test.op"() : () -> !spatial.buffer<0xf32, depth 2>

// -----

// CHECK: buffer depth must be at least 1, got 0
%v = "test.op"() : () -> !spatial.buffer<1xf32, depth 0>

// -----

// CHECK: a buffer holds ints or floats, got index
%v = "test.op"() : () -> !spatial.buffer<1xindex, depth 2>

// -----

// CHECK: a page holds at least 1 tile, got 0
%v = "test.op"() : () -> !spatial.page<0xf32>

// -----

// CHECK: a page holds ints or floats, got index
%v = "test.op"() : () -> !spatial.page<1xindex>

// ====================================================================================
// Programs: the body's arguments, tensors and results
// ====================================================================================

// -----

// CHECK: Operation does not verify: item grid must have positive extents, got [0]
// No item at all: the load through a table, which verifies first, must not trip over it.
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [0] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %perm = spatial.tensor "perm" values dense<[[1, 0]]> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%perm[%i]] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: item grid must have positive extents, got [-9223372036854775808]
// An extent past i64 (it wraps): the load, verified first, asks for the items and is told.
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [9223372036854775808] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: program body takes 1 item coordinates and 1 inputs, got 1 block arguments
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index):
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: item coordinates are index, got i32
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: i32, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: program input #0 is tensor<32x64xf32> but the body takes tensor<32x32xf32>
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x32xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x32xf32>) : !spatial.tensor<32x32xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: tensor 'y' is declared twice
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %y2 = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// Buffer names are unique within a program (`cse` could otherwise merge two buffers of
// one name and type, and two pages would share one slot while both are read): the
// second is refused.
// CHECK: Operation does not verify: buffer 'in' is allocated twice in program 'copy'; a program's buffers have distinct names
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "in" : !spatial.buffer<1xf32, depth 1>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  %b2 = spatial.buffer "in" : !spatial.buffer<1xf32, depth 1>
  %p2 = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b2 : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: a program body must end with spatial.return
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  "test.termop"() : () -> ()
}

// -----

// CHECK: Operation does not verify: spatial.return takes tensors declared by spatial.tensor
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = "test.op"() : () -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: output tensor 'y' must be returned once, got 2
%x = "test.op"() : () -> tensor<32x64xf32>
%y:2 = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt, %yt : !spatial.tensor<32x64xf32, output>, !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: state tensor 'acc' must be returned once, got 0
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %acc = spatial.tensor "acc" zero : !spatial.tensor<32x64xf32, state>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: input tensor 'x' is not a result of the program
%x = "test.op"() : () -> tensor<32x64xf32>
%y:2 = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt, %xt : !spatial.tensor<32x64xf32, output>, !spatial.tensor<32x64xf32, input>
}

// -----

// CHECK: Operation does not verify: program has 2 results but returns 1 tensors
%x = "test.op"() : () -> tensor<32x64xf32>
%y:2 = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: result tensor<32x64xbf16> does not match the returned tensor 'y'
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xbf16> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// ====================================================================================
// Programs: local memory and the block plan
// ====================================================================================

// -----

// CHECK: Operation does not verify: buffers need 8192 bytes of local memory but a site has 4096 (b 8192)
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 4096, acc_tiles = 8> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
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

// CHECK: Operation does not verify: plan grid [1, 1] holds 1 items, the program has 2
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
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

// CHECK: Operation does not verify: plan k_blocks is 1 but the K loop runs 2 trips
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  spatial.k_loop %kb = 0 to 2 {
    spatial.k_yield
  }
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: plan k_blocks must be 1 with no K loop, got 2
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 2, site = [1, 1]> numerics exact
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

// CHECK: Operation does not verify: plan site [1, 2] must be the tiles an item owns, [1, 1]
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 2]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// ====================================================================================
// Programs: what items own and write
// ====================================================================================

// -----

// CHECK: Operation does not verify: an item owns at least 1x1 tiles, got 0x1
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [0, 1]
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

// CHECK: Operation does not verify: owns must map the 1 item coordinates to (tile row, tile column), got (d0, d1) -> (d1, d0)
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0, d1) -> (d1, d0) size [1, 1]
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

// CHECK: Operation does not verify: owns must map the 1 item coordinates to (tile row, tile column), got (d0) -> (d0)
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (d0) size [1, 1]
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

// CHECK: Operation does not verify: owns must map the 1 item coordinates to (tile row, tile column), got (d0)[s0] -> (s0, d0)
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0)[s0] -> (s0, d0) size [1, 1]
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

// CHECK: Operation does not verify: owns must be linear, got (d0) -> (0, (d0 mod 2))
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0 mod 2) size [1, 1]
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

// CHECK: Operation does not verify: item 1 owns tiles (0, 2) size 1x1, outside 'y' (1x2 tiles)
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0 + 1) size [1, 1]
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

// CHECK: Operation does not verify: items 0 and 1 both own tile (0, 0) of 'y'
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, 0) size [1, 1]
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

// CHECK: Operation does not verify: no store writes 'y'
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: items 0 and 1 both write tile (0, 1) of 'y'
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[1] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: tile (0, 1) of output 'y' is written by no item (1 of 2 tiles unwritten)
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [1] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 1]> numerics exact
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

// CHECK: Operation does not verify: item 0 writes tile (0, 0) of 'y' outside what it owns
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, 1 - d0) size [1, 1]
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

// CHECK: Operation does not verify: item 0 owns but never writes tile (0, 1) of 'y'
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [1] owns (d0) -> (0, d0) size [1, 2]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 2]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, state>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, state>
  spatial.return %yt : !spatial.tensor<32x64xf32, state>
}

// ====================================================================================
// spatial.tensor
// ====================================================================================

// -----

// CHECK: Operation does not verify: tensor 'y' needs exactly one init (external, zero or values), got none
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: tensor 'y' needs exactly one init (external, zero or values), got zero and values
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero values dense<0.0> : tensor<32x64xf32> : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: a tensor needs a name
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: tensor 'x' is 32x32xf32 but is bound to tensor<32x64xf32>
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x32xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x32xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: tensor 'x' must be bound to an input of its program (a block argument of the program's body)
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %t = "test.op"() : () -> tensor<32x64xf32>
  %xt = spatial.tensor "x" external(%t : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: tensor 'perm' is 1x3xi32 but its values are tensor<1x2xi32>
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %perm = spatial.tensor "perm" values dense<[[1, 0]]> : tensor<1x2xi32> : !spatial.tensor<1x3xi32, param>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: input tensor 'x' must be external, got zero
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" zero : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: output tensor 'y' starts as zero or values; a tensor the program also reads is a state
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %yt = spatial.tensor "y" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: a repack's shard needs 0 <= start < stop, got [64:32, 0:8]
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) repack <q8_0.values [64:32, 0:8]> : !spatial.tensor<32x64xf32, param>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: only a param has a host repack, 'y' is output
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero repack <q8_0.values> : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// ====================================================================================
// spatial.load and spatial.store
// ====================================================================================

// -----

// CHECK: Operation does not verify: load block must be at least 1x1 tiles, got 0x1
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 0x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: load stride must be non-negative, got -1
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = "spatial.load"(%xt, %b, %i) <{origin = affine_map<()[s0] -> (s0)>, block = array<i64: 1, 1>, stride = #builtin.int<-1>, repeat = #builtin.int<1>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (!spatial.tensor<32x64xf32, input>, !spatial.buffer<1xf32, depth 2>, index) -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: load block must be rows x columns, got [1, 1, 1]
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = "spatial.load"(%xt, %b, %i) <{origin = affine_map<()[s0] -> (s0)>, block = array<i64: 1, 1, 1>, stride = #builtin.int<2>, repeat = #builtin.int<1>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (!spatial.tensor<32x64xf32, input>, !spatial.buffer<1xf32, depth 2>, index) -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: load block 1x2 moves 2 tiles but the page holds 1
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x2 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: load of f32 tensor needs a f32 page, got bf16
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xbf16, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xbf16>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xbf16> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: load into buffer <2xf32> must give a page of the same tiles, got <1xf32>
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<2xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: store block 1x1 moves 1 tiles but the page holds 2
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<2xf32, depth 2>
  %p = spatial.load %xt[0] block 1x2 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<2xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<2xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: a store writes an output or a state, not an input
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %xt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, input>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: a store writes an output or a state, not a param
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %w = spatial.tensor "w" zero : !spatial.tensor<32x64xf32, param>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %w[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, param>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: load origin must have one symbol per loop variable (1), got ()[s0, s1] -> (s0)
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = "spatial.load"(%xt, %b, %i) <{origin = affine_map<()[s0, s1] -> (s0)>, block = array<i64: 1, 1>, stride = #builtin.int<2>, repeat = #builtin.int<1>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (!spatial.tensor<32x64xf32, input>, !spatial.buffer<1xf32, depth 2>, index) -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: load origin must have one result, got 2
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = "spatial.load"(%xt, %b, %i) <{origin = affine_map<()[s0] -> (s0, 0)>, block = array<i64: 1, 1>, stride = #builtin.int<2>, repeat = #builtin.int<1>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (!spatial.tensor<32x64xf32, input>, !spatial.buffer<1xf32, depth 2>, index) -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: load origin must be linear (sums of variables times constants), got (s0 mod 2)
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = "spatial.load"(%xt, %b, %i) <{origin = affine_map<()[s0] -> (s0 mod 2)>, block = array<i64: 1, 1>, stride = #builtin.int<2>, repeat = #builtin.int<1>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (!spatial.tensor<32x64xf32, input>, !spatial.buffer<1xf32, depth 2>, index) -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: load origin may only use item coordinates and the enclosing K loop's index, got %c1
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %c1 = arith.constant 1 : index
  %p = spatial.load %xt[%c1] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: load repeat must be 1 outside a K loop, 1, got 2
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 2 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: load origin may only use item coordinates and the enclosing K loop's index, got %c1
// A K loop with no induction variable (generic form): the load inside must not trip over it.
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 2, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %c1 = arith.constant 1 : index
  "spatial.k_loop"() <{trips = #builtin.int<2>}> ({
  ^bb0:
    %p = spatial.load %xt[%c1] block 1x1 stride 2 repeat 2 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
    "spatial.k_yield"() : () -> ()
  }) : () -> ()
  %p1 = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p1 to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: store repeat must be its K loop's trip count, 2, got 1
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 2, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  spatial.k_loop %kb = 0 to 2 {
    %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 2 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
    spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
    spatial.k_yield
  }
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: load block 1x1 at tile 2 (row 0 starts at tile 2) runs outside tensor 'x' (1x2 tiles) for item 1
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i * 2] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: load block 1x2 at tile 1 (row 0 starts at tile 1) runs outside tensor 'x' (1x2 tiles) for item 1
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<2xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x2 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<2xf32>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: load block 1x1 at tile 2 (row 0 starts at tile 2) runs outside tensor 'x' (1x2 tiles) for item 1 at K block 1
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 2, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  spatial.k_loop %kb = 0 to 2 {
    %p = spatial.load %xt[%kb + %i] block 1x1 stride 2 repeat 2 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
    spatial.k_yield
  }
  %p1 = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p1 to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: store block 2x1 at tile 0 (row 1 starts at tile 2) runs outside tensor 'y' (1x2 tiles) for item 0
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<2xf32, depth 2>
  %p = spatial.load %xt[0] block 1x2 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<2xf32>
  spatial.store %p to %yt[%i * 0] block 2x1 stride 2 repeat 1 : !spatial.page<2xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// ====================================================================================
// Indirect tables
// ====================================================================================

// -----

// CHECK: Operation does not verify: load indirect table must hold integers, got f32
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %perm = spatial.tensor "perm" values dense<[[1.0, 0.0]]> : tensor<1x2xf32> : !spatial.tensor<1x2xf32, param>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%perm[%i]] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: load reads its table at element 2, outside its 2 elements
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %perm = spatial.tensor "perm" values dense<[[1, 0]]> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%perm[%i + 1]] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: load block 1x1 at tile 2 (row 0 starts at tile 2) runs outside tensor 'x' (1x2 tiles) for item 0
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %perm = spatial.tensor "perm" values dense<[[1, 0]]> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i + 1 + %perm[%i]] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: load with an indirect table needs both the table and where it is read
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %perm = spatial.tensor "perm" values dense<[[1, 0]]> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = "spatial.load"(%xt, %b, %i, %perm) <{origin = affine_map<()[s0] -> (s0)>, block = array<i64: 1, 1>, stride = #builtin.int<2>, repeat = #builtin.int<1>, operandSegmentSizes = array<i32: 1, 1, 1, 1>}> : (!spatial.tensor<32x64xf32, input>, !spatial.buffer<1xf32, depth 2>, index, !spatial.tensor<1x2xi32, param>) -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: a multicast load reads one address for every item, but its address depends on the item through %i
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 multicast into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// A multicast's table position may not depend on the item either.
// CHECK: Operation does not verify: a multicast load reads one address for every item, but its address depends on the item through %i
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %perm = spatial.tensor "perm" values dense<[[1, 0]]> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%perm[%i]] block 1x1 stride 2 repeat 1 multicast into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// A store through a table bound when the program runs is checked then (the engines
// refuse a tile two items write, or one outside what its item owns); its table must
// still hold integers.
// CHECK: Operation does not verify: store indirect table must hold integers, got f32
%x = "test.op"() : () -> tensor<32x64xf32>
%t = "test.op"() : () -> tensor<1x2xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x, %t : tensor<32x64xf32>, tensor<1x2xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>, %t_in: tensor<1x2xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %perm = spatial.tensor "perm" external(%t_in : tensor<1x2xf32>) : !spatial.tensor<1x2xf32, input>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%perm[%i]] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// ====================================================================================
// spatial.stage
// ====================================================================================

// -----

// CHECK: Operation does not verify: stage 's' both sums and takes the largest along its axes; a stage reduces one way
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
  %s = spatial.stage "s" iters(sum 32, max 32) ins(%p[d0 * 32 + d1]) into %o[0] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
  ^bb0(%v: f32):
    spatial.yield %v : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' needs one extent per iterator, got 0 iterators and 0 extents
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
  %s = spatial.stage "s" iters() ins(%p[0]) into %o[0] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' extents must be positive, got [0, 32]
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
  %s = spatial.stage "s" iters(par 0, par 32) ins(%p[d0 * 32 + d1]) into %o[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' needs one extent per iterator, got 2 iterators and 1 extents
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
  %s = "spatial.stage"(%p, %o) <{stage_name = "s", iterators = [#spatial.iter_kind<par>, #spatial.iter_kind<par>], extents = array<i64: 32>, maps = [affine_map<(d0, d1) -> (((d0 * 32) + d1))>, affine_map<(d0, d1) -> (((d0 * 32) + d1))>], indirect = array<i64: -1>}> ({
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }) : (!spatial.page<1xf32>, !spatial.buffer<1xf32, depth 2>) -> !spatial.page<1xf32>
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' needs one map per input and one for the output (2), got 1
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
  %s = "spatial.stage"(%p, %o) <{stage_name = "s", iterators = [#spatial.iter_kind<par>, #spatial.iter_kind<par>], extents = array<i64: 32, 32>, maps = [affine_map<(d0, d1) -> (((d0 * 32) + d1))>], indirect = array<i64: -1>}> ({
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }) : (!spatial.page<1xf32>, !spatial.buffer<1xf32, depth 2>) -> !spatial.page<1xf32>
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' needs one indirect entry per input, got 0
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
  %s = "spatial.stage"(%p, %o) <{stage_name = "s", iterators = [#spatial.iter_kind<par>, #spatial.iter_kind<par>], extents = array<i64: 32, 32>, maps = [affine_map<(d0, d1) -> (((d0 * 32) + d1))>, affine_map<(d0, d1) -> (((d0 * 32) + d1))>], indirect = array<i64>}> ({
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }) : (!spatial.page<1xf32>, !spatial.buffer<1xf32, depth 2>) -> !spatial.page<1xf32>
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' map #0 has 1 dims but the stage has 2 iterators
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
  %s = "spatial.stage"(%p, %o) <{stage_name = "s", iterators = [#spatial.iter_kind<par>, #spatial.iter_kind<par>], extents = array<i64: 32, 32>, maps = [affine_map<(d0) -> (d0)>, affine_map<(d0, d1) -> (((d0 * 32) + d1))>], indirect = array<i64: -1>}> ({
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }) : (!spatial.page<1xf32>, !spatial.buffer<1xf32, depth 2>) -> !spatial.page<1xf32>
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' output map must have one result, got 2
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
  %s = "spatial.stage"(%p, %o) <{stage_name = "s", iterators = [#spatial.iter_kind<par>, #spatial.iter_kind<par>], extents = array<i64: 32, 32>, maps = [affine_map<(d0, d1) -> (((d0 * 32) + d1))>, affine_map<(d0, d1) -> (d0, d1)>], indirect = array<i64: -1>}> ({
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }) : (!spatial.page<1xf32>, !spatial.buffer<1xf32, depth 2>) -> !spatial.page<1xf32>
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' map #0: a map has symbol s0 exactly when an input gives it
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
  %s = "spatial.stage"(%p, %o) <{stage_name = "s", iterators = [#spatial.iter_kind<par>, #spatial.iter_kind<par>], extents = array<i64: 32, 32>, maps = [affine_map<(d0, d1)[s0] -> (s0)>, affine_map<(d0, d1) -> (((d0 * 32) + d1))>], indirect = array<i64: -1>}> ({
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }) : (!spatial.page<1xf32>, !spatial.buffer<1xf32, depth 2>) -> !spatial.page<1xf32>
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' output map cannot be indirect
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
  %s = "spatial.stage"(%p, %o) <{stage_name = "s", iterators = [#spatial.iter_kind<par>, #spatial.iter_kind<par>], extents = array<i64: 32, 32>, maps = [affine_map<(d0, d1) -> (((d0 * 32) + d1))>, affine_map<(d0, d1)[s0] -> (s0)>], indirect = array<i64: -1>}> ({
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }) : (!spatial.page<1xf32>, !spatial.buffer<1xf32, depth 2>) -> !spatial.page<1xf32>
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' writes buffer <1xf32> but gives page <2xf32>
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
  %s = spatial.stage "s" iters(par 32, par 32) ins(%p[d0 * 32 + d1]) into %o[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<2xf32> {
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<2xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' map #0 must be linear (sums of variables times constants), got (d0 mod 2)
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
  // The custom syntax spells only linear maps (a parse error otherwise); the generic
  // form carries any map, and the verifier refuses it.
  %s = "spatial.stage"(%p, %o) <{stage_name = "s", iterators = [#spatial.iter_kind<par>, #spatial.iter_kind<par>], extents = array<i64: 32, 32>, maps = [affine_map<(d0, d1) -> (d0 mod 2)>, affine_map<(d0, d1) -> (d0 * 32 + d1)>], indirect = array<i64: -1>}> ({
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }) : (!spatial.page<1xf32>, !spatial.buffer<1xf32, depth 2>) -> !spatial.page<1xf32>
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' map #0 reads s0 from input 0, which must be another, direct input
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
  %s = spatial.stage "s" iters(par 32, par 32) ins(%p[s0 | s0 = in0]) into %o[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' map #0 reads s0 from input 1, which holds f32, not integers
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
  %s = spatial.stage "s" iters(par 32, par 32) ins(%p[s0 | s0 = in1], %p[d0 * 32 + d1]) into %o[d0 * 32 + d1] : (!spatial.page<1xf32>, !spatial.page<1xf32>) -> !spatial.page<1xf32> {
  ^bb0(%e: f32, %f: f32):
    spatial.yield %e : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' output map uses d0, a reduced axis; the reduction has one value per parallel point
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
  %s = spatial.stage "s" iters(sum 32, par 32) ins(%p[d0 * 32 + d1]) into %o[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' output map (d0 + d1) writes some element twice
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
  %s = spatial.stage "s" iters(par 32, par 32) ins(%p[d0 * 32 + d1]) into %o[d0 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' input #0 reaches elements 1..1024 of a 1-tile page (1024 elements)
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
  %s = spatial.stage "s" iters(par 32, par 32) ins(%p[d0 * 32 + d1 + 1]) into %o[d0 * 32 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' output reaches elements 0..2015 of a 1-tile page (1024 elements)
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
  %s = spatial.stage "s" iters(par 32, par 32) ins(%p[d0 * 32 + d1]) into %o[d0 * 64 + d1] : (!spatial.page<1xf32>) -> !spatial.page<1xf32> {
  ^bb0(%e: f32):
    spatial.yield %e : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' body takes one element per input (f32), got (f16)
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
  ^bb0(%e: f16):
    %f = arith.extf %e : f16 to f32
    spatial.yield %f : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' body cannot run math.atan on the chip; a body holds arith and math ops on scalars, spatial.index and spatial.yield
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
    %r = math.atan %e : f32
    spatial.yield %r : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' body must end with spatial.yield
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
    "test.termop"() : () -> ()
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: stage 's' yields f16 into a f32 buffer
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
    %h = arith.truncf %e : f32 to f16
    spatial.yield %h : f16
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: index 2 is not an axis of stage 's', which has 2
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
    %d = spatial.index 2 : index
    spatial.yield %e : f32
  }
  spatial.store %s to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// ====================================================================================
// spatial.k_loop and spatial.k_yield
// ====================================================================================

// -----

// CHECK: Operation does not verify: the K loop must run at least once, got 0
// No trip at all: the load inside, which verifies first, must not trip over it.
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %perm = spatial.tensor "perm" values dense<[[1, 0]]> : tensor<1x2xi32> : !spatial.tensor<1x2xi32, param>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  spatial.k_loop %kb = 0 to 0 {
    %p = spatial.load %xt[%perm[%kb]] block 1x1 stride 2 repeat 0 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
    spatial.k_yield
  }
  %p1 = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p1 to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: K loop body arguments must be (index, carried pages) = (index, !spatial.page<1xf32>), got (index)
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 2, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  %r = "spatial.k_loop"(%p) <{trips = #builtin.int<2>}> ({
  ^bb0(%kb: index):
    "spatial.k_yield"(%p) : (!spatial.page<1xf32>) -> ()
  }) : (!spatial.page<1xf32>) -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: the K loop body must end with spatial.k_yield
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 2, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  %r = spatial.k_loop %kb = 0 to 2 iter_args(%acc = %p) -> (!spatial.page<1xf32>) {
    "test.termop"() : () -> ()
  }
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: spatial.k_yield must carry the loop's pages (!spatial.page<1xf32>), got ()
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 2, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  %r = spatial.k_loop %kb = 0 to 2 iter_args(%acc = %p) -> (!spatial.page<1xf32>) {
    spatial.k_yield
  }
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: K loops do not nest
%x = "test.op"() : () -> tensor<32x64xf32>
%y = spatial.view "copy" grid [2] owns (d0) -> (0, d0) size [1, 1]
    target #spatial.target<"tensix"> plan #spatial.plan<grid = [1, 2], k_blocks = 2, site = [1, 1]> numerics exact
    ins(%x : tensor<32x64xf32>) -> tensor<32x64xf32> {
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  spatial.k_loop %kb = 0 to 2 {
    spatial.k_loop %kc = 0 to 2 {
      spatial.k_yield
    }
    spatial.k_yield
  }
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}

// -----

// CHECK: Operation does not verify: a program's chip is an index from 0, got -1
%x = "test.op"() : () -> tensor<32x64xf32>
%y = "spatial.view"(%x) <{program_name = "copy_c-1", grid = array<i64: 2>, owns = affine_map<(d0) -> (0, d0)>, owns_size = array<i64: 1, 1>, target = #spatial.target<"tensix">, plan = #spatial.plan<grid = [1, 2], k_blocks = 1, site = [1, 1]>, numerics = #spatial.numerics<exact>, chip = -1 : i64}> ({
^bb0(%i: index, %x_in: tensor<32x64xf32>):
  %xt = spatial.tensor "x" external(%x_in : tensor<32x64xf32>) : !spatial.tensor<32x64xf32, input>
  %yt = spatial.tensor "y" zero : !spatial.tensor<32x64xf32, output>
  %b = spatial.buffer "b" : !spatial.buffer<1xf32, depth 2>
  %p = spatial.load %xt[%i] block 1x1 stride 2 repeat 1 into %b : !spatial.tensor<32x64xf32, input> -> !spatial.page<1xf32>
  spatial.store %p to %yt[%i] block 1x1 stride 2 repeat 1 : !spatial.page<1xf32> -> !spatial.tensor<32x64xf32, output>
  spatial.return %yt : !spatial.tensor<32x64xf32, output>
}) : (tensor<32x64xf32>) -> tensor<32x64xf32>
