// permute.cl: moving values into and out of a tree's order (the builds, the query sort, the
// n-body state), for one value type -DVALUE_T (float, int, uint or ulong). order[i] is the
// source position of the i-th element in the new order (a permutation of 0 .. n-1).
//   gather_rows      dst[i*per + j] = src[order[i]*per + j]       (rows of `per` values)
//   scatter_rows     dst[order[i]*per + j] = src[i*per + j]       (the inverse)
//   gather_columns   dst[k*n + i] = src[k*n + order[i]], k < dim  (structure of arrays)
//   scatter_columns  dst[k*n + order[i]] = src[k*n + i]
//   iota             dst[i] = i
// Traffic: one read and one write per value, plus the order; the gathered side is random.
// Grid-stride loops: any launch size works.

kernel void gather_rows(const uint n, const uint per, global const int* restrict order,
                        global const VALUE_T* restrict src, global VALUE_T* restrict dst) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    const uint from = (uint)order[i];
    for (uint j = 0; j < per; ++j) dst[i * per + j] = src[from * per + j];
  }
}

kernel void scatter_rows(const uint n, const uint per, global const int* restrict order,
                         global const VALUE_T* restrict src, global VALUE_T* restrict dst) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    const uint to = (uint)order[i];
    for (uint j = 0; j < per; ++j) dst[to * per + j] = src[i * per + j];
  }
}

kernel void gather_columns(const uint n, const uint dim, global const int* restrict order,
                           global const VALUE_T* restrict src, global VALUE_T* restrict dst) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    const uint from = (uint)order[i];
    for (uint k = 0; k < dim; ++k) dst[k * n + i] = src[k * n + from];
  }
}

kernel void scatter_columns(const uint n, const uint dim, global const int* restrict order,
                            global const VALUE_T* restrict src, global VALUE_T* restrict dst) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    const uint to = (uint)order[i];
    for (uint k = 0; k < dim; ++k) dst[k * n + to] = src[k * n + i];
  }
}

kernel void iota(const uint n, global int* restrict dst) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) dst[i] = (int)i;
}
