"""Small modules of each kind of op `spatial-lower-ops` lowers, written as a llama
decode step writes them (`xdsl_spatial/frontends/llama.py`), for the tests: an RMSNorm,
a masked softmax, attention's grouped-query contractions, RoPE through reshapes, the
KV cache writes at a run-time position, an embedding gather, and ops on tensors."""

from __future__ import annotations

M1 = "affine_map<(d0, d1) -> (d0, d1)>"
ID4 = "affine_map<(r, b, i, j) -> (r, b, i, j)>"


def norm(m: int, k: int) -> str:
    """RMSNorm of m rows of k: the sum of squares (a reduction into a zero fill),
    then the scaling by it and a weight, rounded to bf16."""
    return f"""
func.func @norm(%x: tensor<{m}x{k}xf32>, %w: tensor<{k}xf32>) -> (tensor<{m}x{k}xbf16>, tensor<{m}xf32>) {{
  %c0 = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<{m}xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<{m}xf32>) -> tensor<{m}xf32>
  %ss = linalg.generic {{indexing_maps = [{M1}, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}} ins(%x : tensor<{m}x{k}xf32>) outs(%z : tensor<{m}xf32>) {{
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  }} -> tensor<{m}xf32>
  %e2 = tensor.empty() : tensor<{m}x{k}xbf16>
  %y = linalg.generic {{indexing_maps = [{M1}, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, {M1}], iterator_types = ["parallel", "parallel"]}} ins(%x, %ss, %w : tensor<{m}x{k}xf32>, tensor<{m}xf32>, tensor<{k}xf32>) outs(%e2 : tensor<{m}x{k}xbf16>) {{
  ^bb0(%a: f32, %s: f32, %wv: f32, %o: bf16):
    %n = arith.constant {float(k)} : f32
    %eps = arith.constant 1.000000e-05 : f32
    %mean = arith.divf %s, %n : f32
    %v = arith.addf %mean, %eps : f32
    %r = math.rsqrt %v : f32
    %xr = arith.mulf %a, %r : f32
    %xw = arith.mulf %xr, %wv : f32
    %b = arith.truncf %xw : f32 to bf16
    linalg.yield %b : bf16
  }} -> tensor<{m}x{k}xbf16>
  func.return %y, %ss : tensor<{m}x{k}xbf16>, tensor<{m}xf32>
}}
"""


def softmax(kv: int, g: int, m: int, c: int) -> str:
    """A causal softmax's max, exps and sum over `c` cache positions of `kv x g` heads
    and `m` rows, positions past `pos + row` masked."""
    s = f"{kv}x{g}x{m}x{c}xf32"
    r = f"{kv}x{g}x{m}xf32"
    m4 = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    m3 = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>"
    m0 = "affine_map<(d0, d1, d2, d3) -> (0)>"
    return f"""
func.func @softmax(%scores: tensor<{s}>, %pos: tensor<1xi32>) -> (tensor<{r}>, tensor<{s}>, tensor<{r}>) {{
  %lo = arith.constant -3.40282347e+38 : f32
  %c0 = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<{r}>
  %lowest = linalg.fill ins(%lo : f32) outs(%e : tensor<{r}>) -> tensor<{r}>
  %max = linalg.generic {{indexing_maps = [{m4}, {m0}, {m3}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}} ins(%scores, %pos : tensor<{s}>, tensor<1xi32>) outs(%lowest : tensor<{r}>) {{
  ^bb0(%a: f32, %p: i32, %acc: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %pi = arith.index_cast %p : i32 to index
    %lim = arith.addi %pi, %i : index
    %ok = arith.cmpi ule, %j, %lim : index
    %l = arith.constant -3.40282347e+38 : f32
    %v = arith.select %ok, %a, %l : f32
    %mx = arith.maximumf %acc, %v : f32
    linalg.yield %mx : f32
  }} -> tensor<{r}>
  %e2 = tensor.empty() : tensor<{s}>
  %exp = linalg.generic {{indexing_maps = [{m4}, {m3}, {m0}, {m4}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%scores, %max, %pos : tensor<{s}>, tensor<{r}>, tensor<1xi32>) outs(%e2 : tensor<{s}>) {{
  ^bb0(%a: f32, %mx: f32, %p: i32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %pi = arith.index_cast %p : i32 to index
    %lim = arith.addi %pi, %i : index
    %ok = arith.cmpi ule, %j, %lim : index
    %d = arith.subf %a, %mx : f32
    %x = math.exp %d : f32
    %z = arith.constant 0.000000e+00 : f32
    %v = arith.select %ok, %x, %z : f32
    linalg.yield %v : f32
  }} -> tensor<{s}>
  %zero = linalg.fill ins(%c0 : f32) outs(%e : tensor<{r}>) -> tensor<{r}>
  %sum = linalg.generic {{indexing_maps = [{m4}, {m3}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}} ins(%exp : tensor<{s}>) outs(%zero : tensor<{r}>) {{
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %acc, %a : f32
    linalg.yield %t : f32
  }} -> tensor<{r}>
  func.return %max, %exp, %sum : tensor<{r}>, tensor<{s}>, tensor<{r}>
}}
"""


def attention(kv: int, g: int, m: int, hd: int, c: int) -> str:
    """Grouped-query attention's two contractions: `q . k` against the keys cached
    transposed (`kv x hd x c`), and `p . v` against the values (`kv x c x hd`)."""
    q = f"{kv}x{g}x{m}x{hd}xf32"
    s = f"{kv}x{g}x{m}x{c}xf32"
    m5 = "affine_map<(d0, d1, d2, d3, d4) -> ({})>"
    return f"""
func.func @attention(%q: tensor<{q}>, %kc: tensor<{kv}x{hd}x{c}xf32>, %p: tensor<{s}>, %vc: tensor<{kv}x{c}x{hd}xf32>) -> (tensor<{s}>, tensor<{q}>) {{
  %c0 = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<{s}>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<{s}>) -> tensor<{s}>
  %scores = linalg.generic {{indexing_maps = [{m5.format("d0, d1, d2, d4")}, {m5.format("d0, d4, d3")}, {m5.format("d0, d1, d2, d3")}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}} ins(%q, %kc : tensor<{q}>, tensor<{kv}x{hd}x{c}xf32>) outs(%z : tensor<{s}>) {{
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %t = arith.mulf %a, %b : f32
    %u = arith.addf %acc, %t : f32
    linalg.yield %u : f32
  }} -> tensor<{s}>
  %e2 = tensor.empty() : tensor<{q}>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<{q}>) -> tensor<{q}>
  %pv = linalg.generic {{indexing_maps = [{m5.format("d0, d1, d2, d4")}, {m5.format("d0, d4, d3")}, {m5.format("d0, d1, d2, d3")}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}} ins(%p, %vc : tensor<{s}>, tensor<{kv}x{c}x{hd}xf32>) outs(%z2 : tensor<{q}>) {{
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %t = arith.mulf %a, %b : f32
    %u = arith.addf %acc, %t : f32
    linalg.yield %u : f32
  }} -> tensor<{q}>
  func.return %scores, %pv : tensor<{s}>, tensor<{q}>
}}
"""


def rope(m: int, heads: int, hd: int) -> str:
    """RoPE of `heads` heads of `hd` of m rows, read through an expand to pairs,
    written in the heads-first layout and collapsed back (as the keys are)."""
    half = hd // 2
    d = heads * hd
    pairs = f"{m}x{heads}x{half}x2xf32"
    out = f"{heads}x{half}x2x{m}xf32"
    m4 = "affine_map<(d0, d1, d2, d3) -> ({})>"
    return f"""
func.func @rope(%x: tensor<{m}x{d}xf32>, %cos: tensor<{m}x{half}xf32>, %sin: tensor<{m}x{half}xf32>) -> tensor<{heads}x{hd}x{m}xf32> {{
  %pairs = tensor.expand_shape %x [[0], [1, 2, 3]] output_shape [{m}, {heads}, {half}, 2] : tensor<{m}x{d}xf32> into tensor<{pairs}>
  %e = tensor.empty() : tensor<{out}>
  %r = linalg.generic {{indexing_maps = [{m4.format("d0, d1, d2, 0")}, {m4.format("d0, d1, d2, 1")}, {m4.format("d0, d2")}, {m4.format("d0, d2")}, {m4.format("d1, d2, d3, d0")}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%pairs, %pairs, %cos, %sin : tensor<{pairs}>, tensor<{pairs}>, tensor<{m}x{half}xf32>, tensor<{m}x{half}xf32>) outs(%e : tensor<{out}>) {{
  ^bb0(%a: f32, %b: f32, %c: f32, %s: f32, %o: f32):
    %ac = arith.mulf %a, %c : f32
    %bs = arith.mulf %b, %s : f32
    %re = arith.subf %ac, %bs : f32
    %as = arith.mulf %a, %s : f32
    %bc = arith.mulf %b, %c : f32
    %im = arith.addf %as, %bc : f32
    %j = linalg.index 3 : index
    %z = arith.constant 0 : index
    %first = arith.cmpi eq, %j, %z : index
    %v = arith.select %first, %re, %im : f32
    linalg.yield %v : f32
  }} -> tensor<{out}>
  %t = tensor.collapse_shape %r [[0], [1, 2], [3]] : tensor<{out}> into tensor<{heads}x{hd}x{m}xf32>
  func.return %t : tensor<{heads}x{hd}x{m}xf32>
}}
"""


def cache_write(kv: int, hd: int, m: int, c: int) -> str:
    """The keys (`kv x hd x m`, cached transposed: the positions are columns) and the
    values (`m x kv*hd`, transposed to heads first: the positions are rows) written
    into their caches at `pos`."""
    return f"""
func.func @cache(%k: tensor<{kv}x{hd}x{m}xf32>, %v: tensor<{m}x{kv * hd}xf32>, %kc: tensor<{kv}x{hd}x{c}xf32>, %vc: tensor<{kv}x{c}x{hd}xf32>, %pos: tensor<1xi32>) -> (tensor<{kv}x{hd}x{c}xf32>, tensor<{kv}x{c}x{hd}xf32>) {{
  %c0 = arith.constant 0 : index
  %p0 = tensor.extract %pos[%c0] : tensor<1xi32>
  %off = arith.index_cast %p0 : i32 to index
  %rows = tensor.expand_shape %v [[0], [1, 2]] output_shape [{m}, {kv}, {hd}] : tensor<{m}x{kv * hd}xf32> into tensor<{m}x{kv}x{hd}xf32>
  %e = tensor.empty() : tensor<{kv}x{m}x{hd}xf32>
  %heads = linalg.transpose ins(%rows : tensor<{m}x{kv}x{hd}xf32>) outs(%e : tensor<{kv}x{m}x{hd}xf32>) permutation = [1, 0, 2]
  %k2 = tensor.insert_slice %k into %kc[0, 0, %off] [{kv}, {hd}, {m}] [1, 1, 1] : tensor<{kv}x{hd}x{m}xf32> into tensor<{kv}x{hd}x{c}xf32>
  %v2 = tensor.insert_slice %heads into %vc[0, %off, 0] [{kv}, {m}, {hd}] [1, 1, 1] : tensor<{kv}x{m}x{hd}xf32> into tensor<{kv}x{c}x{hd}xf32>
  func.return %k2, %v2 : tensor<{kv}x{hd}x{c}xf32>, tensor<{kv}x{c}x{hd}xf32>
}}
"""


def row_write(n: int, kv: int, hd: int, c: int) -> str:
    """A batched step's KV cache writes as `@decode_batch` makes them: one map a
    cache for the `n` sequences, row `r` of each cache written with row `r`'s key
    (column `r` of `%k`, `kv x hd x n`) or value (row `r` of `%v`, read through the
    transpose to heads) at its own position `pos[r]`, the old cache elsewhere."""
    row = f"{n}x{kv}x{hd}x{c}"
    vrow = f"{n}x{kv}x{c}x{hd}"

    def write(new: str, new_t: str, new_map: str, pos_dim: int, cache: str, t: str, e: str) -> str:
        return f"""linalg.generic {{indexing_maps = [{new_map}, affine_map<(r, b, i, j) -> (r)>, {ID4}, {ID4}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins({new}, %pos, {cache} : {new_t}, tensor<{n}xi32>, tensor<{t}xf32>) outs({e} : tensor<{t}xf32>) {{
  ^bb0(%new: f32, %p: i32, %old: f32, %acc: f32):
    %at = arith.index_cast %p : i32 to index
    %j = linalg.index {pos_dim} : index
    %here = arith.cmpi eq, %j, %at : index
    %w = arith.select %here, %new, %old : f32
    linalg.yield %w : f32
  }} -> tensor<{t}xf32>"""

    k_map = "affine_map<(r, b, d, j) -> (b, d, r)>"
    v_map = "affine_map<(r, b, j, d) -> (b, r, d)>"
    return f"""
func.func @rows(%k: tensor<{kv}x{hd}x{n}xf32>, %v: tensor<{n}x{kv * hd}xf32>, %kc: tensor<{row}xf32>, %vc: tensor<{vrow}xf32>, %pos: tensor<{n}xi32>) -> (tensor<{row}xf32>, tensor<{vrow}xf32>) {{
  %ek = tensor.empty() : tensor<{row}xf32>
  %ev = tensor.empty() : tensor<{vrow}xf32>
  %k2 = {write("%k", f"tensor<{kv}x{hd}x{n}xf32>", k_map, 3, "%kc", row, "%ek")}
  %rows = tensor.expand_shape %v [[0], [1, 2]] output_shape [{n}, {kv}, {hd}] : tensor<{n}x{kv * hd}xf32> into tensor<{n}x{kv}x{hd}xf32>
  %eh = tensor.empty() : tensor<{kv}x{n}x{hd}xf32>
  %heads = linalg.transpose ins(%rows : tensor<{n}x{kv}x{hd}xf32>) outs(%eh : tensor<{kv}x{n}x{hd}xf32>) permutation = [1, 0, 2]
  %v2 = {write("%heads", f"tensor<{kv}x{n}x{hd}xf32>", v_map, 2, "%vc", vrow, "%ev")}
  func.return %k2, %v2 : tensor<{row}xf32>, tensor<{vrow}xf32>
}}
"""


def gather(m: int, k: int, n: int) -> str:
    """The embedding: each token's column of a Q8_0 weight (k x n int8 values and
    k/32 x n f16 scales), dequantised."""
    return f"""
func.func @gather(%tokens: tensor<{m}xi32>, %w: tensor<{k}x{n}xi8>, %s: tensor<{k // 32}x{n}xf16>) -> tensor<{m}x{k}xf32> {{
  %e = tensor.empty() : tensor<{m}x{k}xf32>
  %y = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0)>, {M1}], iterator_types = ["parallel", "parallel"]}} ins(%tokens : tensor<{m}xi32>) outs(%e : tensor<{m}x{k}xf32>) {{
  ^bb0(%t: i32, %o: f32):
    %col = arith.index_cast %t : i32 to index
    %kk = linalg.index 1 : index
    %c32 = arith.constant 32 : index
    %b = arith.divui %kk, %c32 : index
    %q = tensor.extract %w[%kk, %col] : tensor<{k}x{n}xi8>
    %sc = tensor.extract %s[%b, %col] : tensor<{k // 32}x{n}xf16>
    %qf = arith.sitofp %q : i8 to f32
    %sf = arith.extf %sc : f16 to f32
    %v = arith.mulf %qf, %sf : f32
    linalg.yield %v : f32
  }} -> tensor<{m}x{k}xf32>
  func.return %y : tensor<{m}x{k}xf32>
}}
"""


def tensor_ops(m: int, k: int) -> str:
    """Ops on whole tensors: a residual add, an exp, a cast to bf16."""
    return f"""
func.func @ops(%a: tensor<{m}x{k}xf32>, %b: tensor<{m}x{k}xf32>) -> (tensor<{m}x{k}xf32>, tensor<{m}x{k}xbf16>) {{
  %s = arith.addf %a, %b : tensor<{m}x{k}xf32>
  %e = math.exp %s : tensor<{m}x{k}xf32>
  %h = arith.truncf %s : tensor<{m}x{k}xf32> to tensor<{m}x{k}xbf16>
  func.return %e, %h : tensor<{m}x{k}xf32>, tensor<{m}x{k}xbf16>
}}
"""
