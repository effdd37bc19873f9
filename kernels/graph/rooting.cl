// Euler tours on the device.
//
// (1) Rooting an unrooted forest (Tarjan–Vishkin). Every edge {u, v} becomes the arcs u->v and
// v->u, sorted by (source, target) on the host side's request (a device radix sort), so the arcs
// leaving v are a contiguous run. The tour successor of arc u->v is the arc after v->u in v's run,
// wrapping to v's first arc; the tour of a tree is cut where it would wrap back to its root's
// first arc. After list ranking, the arc of each pair that comes first goes from parent to child.
// (2) The vector tree representation of a rooted forest (open/close positions, exactly those of
// the host's build_euler_tour): vertex v contributes the events open(v) = 2v and close(v) = 2v+1;
// children are sorted by (parent, id) with the roots as children of a virtual vertex n; then
// succ(open v) = open(first child) or close(v), succ(close v) = open(next sibling) or
// close(parent), and the ranks of the single list of 2n events are the positions.
// Indices are int (2m arcs and 2n events below 2^31). Every kernel is one pass, no atomics.

kernel void eu_fill(global int* values, const int value, const int n) {
  int i = get_global_id(0);
  if (i < n) values[i] = value;
}

kernel void eu_make_arcs(global const int* source, global const int* target, global ulong* key,
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
kernel void eu_arc_index(global const ulong* key, global const int* arc, global int* position,
                         global int* first_arc, volatile global int* duplicate, const int arcs) {
  int i = get_global_id(0);
  if (i >= arcs) return;
  position[arc[i]] = i;
  uint source = (uint)(key[i] >> 32);
  if (i == 0 || (uint)(key[i - 1] >> 32) != source) first_arc[source] = i;
  if (i > 0 && key[i - 1] == key[i]) atomic_min(duplicate, i);
}

kernel void eu_successor(global const ulong* key, global const int* arc,
                         global const int* position, global const int* first_arc,
                         global const int* label, global const int* root_of, global int* succ,
                         const int arcs) {
  int i = get_global_id(0);
  if (i >= arcs) return;
  int back = position[arc[i] ^ 1];  // v->u, in v's run
  int v = (int)(uint)(key[i] & 0xffffffffUL);
  int first = first_arc[v];
  int next = (back + 1 < arcs && (int)(uint)(key[back + 1] >> 32) == v) ? back + 1 : first;
  if (next == first && root_of[label[v]] == v) next = -1;
  succ[i] = next;
}

kernel void eu_parent(global const ulong* key, global const int* arc, global const int* position,
                      global const int* rank, global int* parent, const int arcs) {
  int i = get_global_id(0);
  if (i >= arcs) return;
  if (rank[i] < rank[position[arc[i] ^ 1]])
    parent[(int)(uint)(key[i] & 0xffffffffUL)] = (int)(uint)(key[i] >> 32);
}

kernel void et_keys(global const int* parent, global uint* key, global int* child, const int n) {
  int v = get_global_id(0);
  if (v >= n) return;
  key[v] = parent[v] < 0 ? (uint)n : (uint)parent[v];
  child[v] = v;
}

kernel void et_links(global const uint* key, global const int* child, global int* first_child,
                     global int* next_sibling, const int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  uint p = key[i];
  next_sibling[child[i]] = (i + 1 < n && key[i + 1] == p) ? child[i + 1] : -1;
  if (i == 0 || key[i - 1] != p) first_child[p] = child[i];
}

kernel void et_successor(global const int* parent, global const int* first_child,
                         global const int* next_sibling, global int* succ, const int n) {
  int v = get_global_id(0);
  if (v >= n) return;
  int child = first_child[v], sibling = next_sibling[v], up = parent[v];
  succ[2 * v] = child >= 0 ? 2 * child : 2 * v + 1;
  succ[2 * v + 1] = sibling >= 0 ? 2 * sibling : (up >= 0 ? 2 * up + 1 : -1);
}

kernel void et_positions(global const int* rank, global int* open_pos, global int* close_pos,
                         const int n) {
  int v = get_global_id(0);
  if (v >= n) return;
  open_pos[v] = rank[2 * v];
  close_pos[v] = rank[2 * v + 1];
}

kernel void eu_identity(global int* values, const int n) {
  int i = get_global_id(0);
  if (i < n) values[i] = i;
}

// The first edge (smallest index) with an id outside 0..n-1 or with equal ends.
kernel void eu_check_edges(global const int* source, global const int* target,
                           volatile global int* first_bad, const int n, const int edges) {
  int e = get_global_id(0);
  if (e >= edges) return;
  int u = source[e], v = target[e];
  if (u < 0 || u >= n || v < 0 || v >= n || u == v) atomic_min(first_bad, e);
}
