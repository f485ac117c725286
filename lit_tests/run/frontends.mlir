// The frontend forms run before and after q8-lower on the same integer-exact
// inputs (small integer activations and values, power-of-two scales: every product
// and every fp32 sum is exact), and both give the fp64 reference bit for bit.
//
// RUN: %python %S/frontends_inputs.py %t
// RUN: spatial-run %S/../../examples/frontends/nk_linear.mlir --inputs %t.nk.npz --outputs %t.nk.before.npz
// RUN: spatial-run %S/../../examples/frontends/nk_linear.mlir --inputs %t.nk.npz -p q8-lower --stats --outputs %t.nk.after.npz | filecheck %s --check-prefix=NK
// RUN: %python %S/frontends_inputs.py %t --check nk
// RUN: spatial-run %S/../../examples/frontends/grouped_iree.mlir --inputs %t.grouped.npz --outputs %t.grouped.before.npz
// RUN: spatial-run %S/../../examples/frontends/grouped_iree.mlir --inputs %t.grouped.npz -p q8-lower --stats --outputs %t.grouped.after.npz | filecheck %s --check-prefix=GROUPED
// RUN: %python %S/frontends_inputs.py %t --check grouped
// RUN: spatial-run %S/../../examples/frontends/kn_floordiv.mlir --inputs %t.kn.npz --outputs %t.kn.before.npz
// RUN: spatial-run %S/../../examples/frontends/kn_floordiv.mlir --inputs %t.kn.npz -p q8-lower --outputs %t.kn.after.npz
// RUN: %python %S/frontends_inputs.py %t --check kn

// The fold streams the weight from the transposed parameters, named after the
// frontend's values tensor.
// NK:      q8_gemm_4x256x128_w4  W__q8
// NK-NEXT: q8_gemm_4x256x128_w4  W__q8_scale
// GROUPED:      q8_gemv_256x128_w4    arg0__q8
// GROUPED-NEXT: q8_gemv_256x128_w4    arg0__q8_scale
