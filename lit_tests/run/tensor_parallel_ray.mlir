// The chips of a lowered module as Ray actors, each holding its weight shard: the same
// bits as the run on this host, and the same traffic. Needs the [ray] extra.
//
// REQUIRES: ray
// RUN: spatial-run %S/../../examples/tensor_parallel_n4.mlir --seed 0 --compare --stats --distributed ray | filecheck %s --check-prefix=N4
// RUN: spatial-run %S/../../examples/tensor_parallel_k2.mlir --seed 0 --compare --stats --distributed ray | filecheck %s --check-prefix=K2

// N4:      res0: 1x4096 float32
// N4:      on 4 Ray actors (chips 0, 1, 2, 3) vs on this host: the same bits
// N4:      0     chip 0                   total (2 programs, folds 1.1328 B/weight)  2,506,752  135,168
// N4:      3     chip 3                   total (2 programs, folds 1.1328 B/weight)  2,506,752  135,168

// K2:      on 2 Ray actors (chips 0, 1) vs on this host: the same bits
// K2:      0     chip 0                   total (2 programs, folds 1.1328 B/weight)  4,816,896  526,336
// K2-NEXT: 1     chip 1                   total (2 programs, folds 1.1328 B/weight)  4,816,896  526,336
