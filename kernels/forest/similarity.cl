// similarity.cl: weighted tree similarity of one reference tree against many trees of a linear
// forest, one work-item per tree (formula: include/treefix/similarity.hpp, docs/forest.md).
//
// Two passes over the tree's breadth-first storage, no stack or recursion:
//   top-down  (storage order, parents first): match[v] = the reference node at the same arc-label
//             path, when v's parent is matched with an equal node label; -1 otherwise;
//   bottom-up (reverse order, children first): simp[v] = simplicity of v's subtree, and for matched
//             v the similarity sim[v], combining its children's results.
// Unmatched reference arcs contribute missing[m] (precomputed per reference node) minus the arcs
// that did match. Memory: each node's links and payload read twice, three node-sized workspaces
// (match, sim, simp) written once each. The reference (a few nodes) stays in cache.
// Options: -DDEGRADATION=<float> (D), -DSQRT_ADJUSTMENT=0|1 (A(s) = s or sqrt(s)).

#ifndef DEGRADATION
#define DEGRADATION 0.5f
#endif
#if SQRT_ADJUSTMENT
#define ADJUST(s) sqrt(s)
#else
#define ADJUST(s) (s)
#endif

kernel void similarity(const int trees, const int ref_root, global const int* head,
                       global const int* first_child, global const int* next_sibling,
                       global const int* label, global const int* arc, global const float* weight,
                       global const int* ref_first_child, global const int* ref_next_sibling,
                       global const int* ref_label, global const int* ref_arc,
                       global const float* ref_weight, global const float* ref_simplicity,
                       global const float* ref_missing, global int* match, global float* sim,
                       global float* simp, global float* result) {
  const int tree = get_global_id(0);
  if (tree >= trees) return;
  const int root = head[tree], end = head[tree + 1];  // head has trees + 1 entries
  if (label[root] != ref_label[ref_root]) {
    result[tree] = 0.0f;
    return;
  }
  match[root] = ref_root;
  // Parents come before children in storage order: each node hands its pairing to its children.
  for (int v = root; v < end; ++v) {
    const int mv = match[v];
    const bool paired = mv >= 0 && ref_label[mv] == label[v];
    for (int c = first_child[v]; c >= 0; c = next_sibling[c]) {
      int m = -1;
      if (paired) {
        const int a = arc[c];
        for (int r = ref_first_child[mv]; r >= 0; r = ref_next_sibling[r])
          if (ref_arc[r] == a) {
            m = r;
            break;
          }
      }
      match[c] = m;
    }
  }
  for (int v = end - 1; v >= root; --v) {
    const int m = match[v];
    const int first = first_child[v];
    if (first < 0) {
      simp[v] = 1.0f;
      if (m >= 0)
        sim[v] = ref_label[m] != label[v] ? 0.0f : ref_first_child[m] < 0 ? 1.0f : ref_missing[m];
      continue;
    }
    float simp_sum = 0.0f;
    for (int c = first; c >= 0; c = next_sibling[c]) simp_sum += weight[c] * simp[c];
    simp[v] = DEGRADATION * simp_sum;
    if (m < 0) continue;
    if (ref_label[m] != label[v]) {
      sim[v] = 0.0f;
      continue;
    }
    float sum = ref_missing[m];
    for (int c = first; c >= 0; c = next_sibling[c]) {
      const int mc = match[c];
      if (mc >= 0) {
        sum += (weight[c] + ref_weight[mc]) * 0.5f * ADJUST(sim[c]);
        sum -= ref_weight[mc] * 0.5f * DEGRADATION * ref_simplicity[mc];
      } else {
        sum += weight[c] * 0.5f * DEGRADATION * simp[c];
      }
    }
    sim[v] = sum;
  }
  result[tree] = sim[root];
}
