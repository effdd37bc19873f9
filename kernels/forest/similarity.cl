// similarity.cl: tree similarity of one reference tree against many trees of a linear forest,
// one work-item per tree (definitions: include/treefix/forest/similarity.hpp, docs/forests.md).
//
// Two passes over the tree's breadth-first storage, no stack or recursion:
//   top-down  (storage order, parents first): match[v] = v's partner in the reference: the
//             reference child with v's arc label (weighted) or at v's position (thesis), when v's
//             parent is paired with an equal node label; -1 otherwise;
//   bottom-up (reverse order, children first): simp[v] = simplicity of v's subtree (S or P), and
//             for paired v the similarity sim[v] from the sums of its terms' gains and losses:
//             the gain while it is at most 1/2, else 1 - loss, clamped to [0, 1] (small relative
//             error at both ends; identical trees: every loss exactly 0, so exactly 1.0f).
// Reference children without a partner add precomputed gains and losses (ref_unpaired_* per
// child; ref_tail_* summed over a child and its later siblings, for the positional pairing).
// Memory: each node's links and payload read twice, three node-sized workspaces (match, sim,
// simp) written once each. The reference (a few nodes) stays in cache. Reads of neighbouring
// work-items are not coalesced (trees are contiguous ranges).
// Options: -DTHESIS=0|1 (the definition), -DDEGRADATION=<float> (D),
// -DSQRT_ADJUSTMENT=0|1 (A(s) = s or sqrt(s)).

#ifndef DEGRADATION
#define DEGRADATION 0.5f
#endif
#if SQRT_ADJUSTMENT
#define ADJUST(s) sqrt(s)
#else
#define ADJUST(s) (s)
#endif

kernel void similarity(const int trees, const int ref_root, global const int* bounds,
                       global const int* first_child, global const int* next_sibling,
                       global const int* label, global const int* arc, global const float* weight,
                       global const int* ref_first_child, global const int* ref_next_sibling,
                       global const int* ref_label, global const int* ref_arc,
                       global const float* ref_weight, global const float* ref_against_leaf,
                       global const float* ref_unpaired_gain, global const float* ref_unpaired_loss,
                       global const float* ref_tail_gain, global const float* ref_tail_loss,
                       global const int* ref_children, global int* match, global float* sim,
                       global float* simp, global float* result) {
  const int tree = get_global_id(0);
  if (tree >= trees) return;
  const int root = bounds[tree], end = bounds[tree + 1];  // bounds has trees + 1 entries
  if (label[root] != ref_label[ref_root]) {
    result[tree] = 0.0f;
    return;
  }
  match[root] = ref_root;
  // Parents come before children in storage order: each node hands its pairing to its children.
  for (int v = root; v < end; ++v) {
    const int mv = match[v];
    int partner = mv >= 0 && ref_label[mv] == label[v] ? ref_first_child[mv] : -1;
    for (int c = first_child[v]; c >= 0; c = next_sibling[c]) {
#if THESIS
      match[c] = partner;
      if (partner >= 0) partner = ref_next_sibling[partner];
#else
      int found = -1;
      for (int r = partner; r >= 0; r = ref_next_sibling[r])
        if (ref_arc[r] == arc[c]) {
          found = r;
          break;
        }
      match[c] = found;
#endif
    }
  }
  for (int v = end - 1; v >= root; --v) {
    const int m = match[v];
    const int first = first_child[v];
    const bool leaf = first < 0;
    float s = 0.0f;
#if THESIS
    if (leaf) {
      s = DEGRADATION * weight[v];
    } else {
      int k = 0;
      for (int c = first; c >= 0; c = next_sibling[c], ++k) s += simp[c];
      s /= (float)k;
    }
#else
    if (leaf) {
      s = 1.0f;
    } else {
      for (int c = first; c >= 0; c = next_sibling[c]) s += weight[c] * simp[c];
      s *= DEGRADATION;
    }
#endif
    simp[v] = s;
    if (m < 0) continue;
    const bool ref_leaf = ref_first_child[m] < 0;
    if (ref_label[m] != label[v]) {
      sim[v] = 0.0f;
      continue;
    }
    if (leaf || ref_leaf) {
#if THESIS
      sim[v] = leaf ? ref_against_leaf[m] : s;
#else
      sim[v] = leaf ? ref_against_leaf[m] : 0.5f * s;
#endif
      continue;
    }
    float gain = 0.0f, loss = 0.0f;
    int paired = 0, last_partner = -1;
    for (int c = first; c >= 0; c = next_sibling[c]) {
      const int mc = match[c];
      if (mc >= 0) {
        const float share = (weight[c] + ref_weight[mc]) * 0.5f, a = ADJUST(sim[c]);
        gain += share * a;
        loss += share * (1.0f - a);
        ++paired;
        last_partner = mc;
      } else {
#if THESIS
        const float q = first_child[c] < 0 ? DEGRADATION : simp[c];
        gain += weight[c] * q;
        loss += weight[c] * (0.5f - q);
#else
        gain += weight[c] * 0.5f * (DEGRADATION * simp[c]);
        loss += weight[c] * 0.5f * (1.0f - DEGRADATION * simp[c]);
#endif
      }
    }
#if THESIS
    // Pairs are a prefix: the reference children after the last partner have none.
    const int beyond = ref_next_sibling[last_partner];
    if (beyond >= 0) {
      gain += ref_tail_gain[beyond];
      loss += ref_tail_loss[beyond];
    }
#else
    if (paired < ref_children[m])
      for (int r = ref_first_child[m]; r >= 0; r = ref_next_sibling[r]) {
        bool found = false;
        for (int c = first; c >= 0 && !found; c = next_sibling[c]) found = match[c] == r;
        if (!found) {
          gain += ref_unpaired_gain[r];
          loss += ref_unpaired_loss[r];
        }
      }
#endif
    sim[v] = clamp(gain <= 0.5f ? gain : 1.0f - loss, 0.0f, 1.0f);
  }
  result[tree] = sim[root];
}
