// vertex_results.cl: per-vertex results in their callers' form (lib/graph/vertex_results.cpp).
//   component_minimum   minimum[r] = the smallest vertex labelled r (atomic_min; minimum starts
//                       at INT_MAX)
//   first_in_component  first[v] = 1 when v is the smallest vertex of its component
//   relabel             label[v] = number[smallest vertex of v's component], number being the
//                       exclusive scan of first[]
//   missing_parents     parent[v] < 0 becomes `none`
//   take_minimum        label[v] = minimum[label[v]]
// with_minimum = 0: the labels are their components' smallest vertices already, and `minimum`
// is not read (it may be any buffer). One read and one write per vertex each (the labels'
// representatives are read at random).

int smallest_of(global const int* label, global const int* minimum, int with_minimum, int v) {
  return with_minimum ? minimum[label[v]] : label[v];
}

kernel void component_minimum(global const int* label, global int* minimum, const int n) {
  const int v = get_global_id(0);
  if (v < n) atomic_min(&minimum[label[v]], v);
}

kernel void first_in_component(global const int* label, global const int* minimum,
                               const int with_minimum, global int* first, const int n) {
  const int v = get_global_id(0);
  if (v < n) first[v] = smallest_of(label, minimum, with_minimum, v) == v;
}

// Each work-item reads only its own label (and the other arrays), so the rewrite races nothing.
kernel void relabel(global int* label, global const int* minimum, const int with_minimum,
                    global const int* number, const int n) {
  const int v = get_global_id(0);
  if (v < n) label[v] = number[smallest_of(label, minimum, with_minimum, v)];
}

kernel void missing_parents(global int* parent, const int none, const int n) {
  const int v = get_global_id(0);
  if (v < n && parent[v] < 0) parent[v] = none;
}

// label[v] = minimum[label[v]]: every label becomes its component's smallest vertex.
kernel void take_minimum(global int* label, global const int* minimum, const int n) {
  const int v = get_global_id(0);
  if (v < n) label[v] = minimum[label[v]];
}
