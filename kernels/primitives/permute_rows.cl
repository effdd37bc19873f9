// permute_rows.cl: moving values into and out of a tree's order (the builds, the query sort, the
// n-body state), for one value type -DVALUE_T (float, int, uint or ulong). Element j of item i
// lies at i * item_stride + j * value_stride: rows of `width` values (strides width, 1) or a
// structure of arrays of `width` columns of n (strides 1, n). order[i] is the source position of
// the i-th item in the new order (a permutation of 0 .. n-1).
//   permute  gather: item i of dst = item order[i] of src; scatter: item order[i] of dst = item i
//   iota     dst[i] = i
// Traffic: one read and one write per value, plus the order; the permuted side is random.
// Grid-stride loops: any launch size works.

kernel void permute(const uint n, const uint width, const uint item_stride,
                    const uint value_stride, global const int* restrict order, const int scatter,
                    global const VALUE_T* restrict src, global VALUE_T* restrict dst) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    const ulong from = scatter ? i : (uint)order[i], to = scatter ? (uint)order[i] : i;
    for (uint j = 0; j < width; ++j)  // 64-bit offsets: n * k may pass 2^32 (kNN rows)
      dst[to * item_stride + (ulong)j * value_stride] =
          src[from * item_stride + (ulong)j * value_stride];
  }
}

kernel void iota(const uint n, global int* restrict dst) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) dst[i] = (int)i;
}
