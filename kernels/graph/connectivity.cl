// Connected components by hooking and pointer jumping (Shiloach–Vishkin style, min-label hooking),
// recording the hooking edges, which form a spanning forest.
//
// A round: (propose) for every edge whose endpoints have different labels, the larger label, if
// it is a root, asks to hook under the smaller with atomic_min; (record) the edges that proposed
// the winning pair keep the smallest edge id with atomic_min, so the spanning forest does not
// depend on timing; (apply) each root takes its winning target; then one pointer-jumping pass.
// When no edge has different labels, pointer jumping runs to full compression. Every pointer
// goes to a smaller id, so there are no cycles; a root hooks under a vertex of a tree whose root
// is smaller, so the hooking edges form a forest; a component's final label is its smallest
// vertex. Each launch reads what the previous launches wrote; nothing
// depends on ordering within a launch except monotone pointer jumping (labels only move up).
// Traffic per round: 2 reads of the edge arrays, 2 dependent label reads per edge; per jump,
// 2 label reads per vertex. Indices are int (fewer than 2^31 vertices and edges).

// Whether edge e (< edges) joins two labels; if so, the larger and the smaller.
bool cross_edge(int e, int edges, global const int* source, global const int* target,
                global const int* label, int* high, int* low) {
  if (e >= edges) return false;
  const int ru = label[source[e]], rv = label[target[e]];
  *high = max(ru, rv);
  *low = min(ru, rv);
  return ru != rv;
}

kernel void cc_init(global int* label, global int* hook_to, global int* hook_edge, const int n) {
  int v = get_global_id(0);
  if (v >= n) return;
  label[v] = v;
  hook_to[v] = v;
  hook_edge[v] = INT_MAX;
}

// One pass over the edges that join different labels (a round is a propose pass, then a record
// pass). Propose (record = 0): the larger label, if it is a root, asks to hook under the smaller
// with atomic_min, and `active` notes that labels still differ. Record (record = 1): the edges
// that proposed the winning pair keep the smallest edge id with atomic_min, so the spanning
// forest does not depend on timing.
kernel void cc_hook(global const int* source, global const int* target, global const int* label,
                    volatile global int* hook_to, volatile global int* hook_edge,
                    volatile global int* active, const int edges, const int record) {
  const int e = get_global_id(0);
  int high, low;
  if (!cross_edge(e, edges, source, target, label, &high, &low)) return;
  if (!record) {
    if (*active == 0) *active = 1;
    if (label[high] != high) return;  // only roots hook (labels may not be fully compressed yet)
    // Plain read first: hubs receive many proposals, and most lose (fewer contended atomics).
    if (low < hook_to[high]) atomic_min(&hook_to[high], low);
  } else if (label[high] == high && hook_to[high] == low && e < hook_edge[high]) {
    atomic_min(&hook_edge[high], e);
  }
}

kernel void cc_apply(global int* label, global const int* hook_to, const int n) {
  int v = get_global_id(0);
  if (v < n && label[v] == v) label[v] = hook_to[v];
}

kernel void cc_jump(global int* label, volatile global int* changed, const int n) {
  int v = get_global_id(0);
  if (v >= n) return;
  int up = label[v], upper = label[up];
  if (up != upper) {
    label[v] = upper;
    if (*changed == 0) *changed = 1;
  }
}

// The spanning forest as an edge list, in no particular order (an atomic counter packs it).
kernel void cc_forest(global const int* hook_edge, global const int* source,
                      global const int* target, global int* forest_source,
                      global int* forest_target, volatile global int* count, const int n) {
  int v = get_global_id(0);
  if (v >= n) return;
  int e = hook_edge[v];
  if (e == INT_MAX) return;
  int k = atomic_inc(count);
  forest_source[k] = source[e];
  forest_target[k] = target[e];
}

// For error messages: the smallest edge id that is not a hooking edge (it closes a cycle).
kernel void cc_mark_hooking(global const int* hook_edge, global char* used, const int n) {
  int v = get_global_id(0);
  if (v < n && hook_edge[v] != INT_MAX) used[hook_edge[v]] = 1;
}

kernel void cc_first_unused(global const char* used, volatile global int* first, const int edges) {
  int e = get_global_id(0);
  if (e < edges && !used[e]) atomic_min(first, e);
}

// Source vertex of every arc of a CSR graph: binary search in row_offset (once per graph).
kernel void cc_arc_sources(global const long* row_offset, global int* source, const int n,
                           const int arcs) {
  int a = get_global_id(0);
  if (a >= arcs) return;
  int low = 0, high = n - 1;  // the last v with row_offset[v] <= a
  while (low < high) {
    int mid = low + (high - low + 1) / 2;
    if (row_offset[mid] <= (long)a) low = mid;
    else high = mid - 1;
  }
  source[a] = low;
}
