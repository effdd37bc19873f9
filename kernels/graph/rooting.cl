// rooting.cl: rooting an unrooted forest on the device (Tarjan–Vishkin). Every edge {u, v}
// becomes the arcs u->v and v->u, sorted by (source, target) on the host side's request (a device
// radix sort), so the arcs leaving v are a contiguous run. The tour successor of arc u->v is the
// arc after v->u in v's run, wrapping to v's first arc; the tour of a tree is cut where it would
// wrap back to its root's first arc. After list ranking, the arc of each pair that comes first
// goes from parent to child.
// Indices are int (2m arcs below 2^31). Every kernel is one pass; atomics only pick minima.

kernel void root_make_arcs(global const int* source, global const int* target, global ulong* key,
                         global int* arc, const int edges) {
  int e = get_global_id(0);
  if (e >= edges) return;
  ulong u = (ulong)(uint)source[e], v = (ulong)(uint)target[e];
  key[2 * e] = (u << 32) | v;
  arc[2 * e] = 2 * e;
  key[2 * e + 1] = (v << 32) | u;
  arc[2 * e + 1] = 2 * e + 1;
}

// After the sort: where each arc landed, each vertex's first arc, and the first repeated arc.
kernel void root_arc_index(global const ulong* key, global const int* arc, global int* position,
                         global int* first_arc, volatile global int* duplicate, const int arcs) {
  int i = get_global_id(0);
  if (i >= arcs) return;
  position[arc[i]] = i;
  uint source = (uint)(key[i] >> 32);
  if (i == 0 || (uint)(key[i - 1] >> 32) != source) first_arc[source] = i;
  if (i > 0 && key[i - 1] == key[i]) atomic_min(duplicate, i);
}

kernel void root_successor(global const ulong* key, global const int* arc,
                         global const int* position, global const int* first_arc,
                         global const int* label, global const int* root_of, global int* succ,
                         const int arcs) {
  int i = get_global_id(0);
  if (i >= arcs) return;
  int back = position[arc[i] ^ 1];  // v->u, in v's run
  int v = (int)(uint)(key[i] & 0xffffffffUL);
  int first = first_arc[v];
  int next = (back + 1 < arcs && (int)(uint)(key[back + 1] >> 32) == v) ? back + 1 : first;
  const int tree = label[v], chosen = root_of[tree];  // -1: the tree's label (smallest vertex)
  if (next == first && (chosen < 0 ? tree : chosen) == v) next = -1;
  succ[i] = next;
}

kernel void root_parent(global const ulong* key, global const int* arc, global const int* position,
                      global const int* rank, global int* parent, const int arcs) {
  int i = get_global_id(0);
  if (i >= arcs) return;
  if (rank[i] < rank[position[arc[i] ^ 1]])
    parent[(int)(uint)(key[i] & 0xffffffffUL)] = (int)(uint)(key[i] >> 32);
}

// The first edge (smallest index) with an id outside 0..n-1 or with equal ends.
kernel void root_check_edges(global const int* source, global const int* target,
                           volatile global int* first_bad, const int n, const int edges) {
  int e = get_global_id(0);
  if (e >= edges) return;
  int u = source[e], v = target[e];
  if (u < 0 || u >= n || v < 0 || v >= n || u == v) atomic_min(first_bad, e);
}
