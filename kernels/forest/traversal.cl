// traversal.cl: traversals of a linear forest, one work-item per tree. Kernels are named
// forest_<traversal>; visit() is the user's (or the empty default).
//
// Each tree's nodes occupy head[t] .. head[t] + count[t] - 1 in breadth-first order. A work-item
// walks its tree without a stack: pre- and post-order move through first-child / next-sibling
// links and climb parent links, so any depth works in O(nodes) steps per tree (each link is
// followed at most twice). Breadth-first order is the storage order. In-order (binary forests)
// climbs parent links the same way. Each visit writes order[head + step] = node and calls the
// user's visit(&acc, tree, node, step, data).
//
// Options: -DBINARY=0|1 (links are first-child/next-sibling or left/right), -DVISIT_T=<type>,
// -DHAVE_VISIT=0|1 (a user visit function precedes this file in the source).
// Memory: every link read once or twice per node, one order write per node; trees of different
// work-items are contiguous ranges, so reads are not coalesced (the price of one item per tree).
// Assumptions: node indices fit in int; every tree has at least one node.

#ifndef VISIT_T
#define VISIT_T int
#endif
#ifndef BINARY
#define BINARY 0
#endif
#if !HAVE_VISIT
void visit(VISIT_T* acc, int tree, int node, int step, global VISIT_T* data) {}
#endif

#if BINARY
// Left is the first child when present; a left child's next sibling is its parent's right child.
#define FIRST_CHILD(n) (link_a[n] >= 0 ? link_a[n] : link_b[n])
#define NEXT_SIBLING(n) (parent[n] >= 0 && link_a[parent[n]] == (n) ? link_b[parent[n]] : -1)
#else
#define FIRST_CHILD(n) (link_a[n])
#define NEXT_SIBLING(n) (link_b[n])
#endif

#define FOREST_ARGS                                                                        \
  const int trees, global const int* head, global const int* count, global const int* link_a, \
      global const int* link_b, global const int* parent, global int* order,                \
      global VISIT_T* data, global VISIT_T* tree_result, const VISIT_T initial

// A work-item's tree, its root and its accumulator; nothing for items past the last tree.
#define BEGIN_TREE()                   \
  const int tree = get_global_id(0);   \
  if (tree >= trees) return;           \
  const int root = head[tree];         \
  VISIT_T acc = initial

#define EMIT(n)                            \
  do {                                     \
    const int emitted = (n);               \
    order[root + step] = emitted;          \
    visit(&acc, tree, emitted, step, data); \
    ++step;                                \
  } while (0)

#if HAVE_VISIT
#define FINISH() tree_result[tree] = acc
#else
#define FINISH() (void)acc
#endif

kernel void forest_preorder(FOREST_ARGS) {
  BEGIN_TREE();
  int step = 0, n = root;
  for (;;) {
    EMIT(n);
    const int child = FIRST_CHILD(n);
    if (child >= 0) {
      n = child;
      continue;
    }
    // A leaf: climb to the nearest ancestor-or-self with a next sibling.
    while (n != root && NEXT_SIBLING(n) < 0) n = parent[n];
    if (n == root) break;
    n = NEXT_SIBLING(n);
  }
  FINISH();
}

kernel void forest_postorder(FOREST_ARGS) {
  BEGIN_TREE();
  int step = 0, n = root;
  while (FIRST_CHILD(n) >= 0) n = FIRST_CHILD(n);
  for (;;) {
    EMIT(n);
    if (n == root) break;
    const int sibling = NEXT_SIBLING(n);
    if (sibling >= 0) {
      n = sibling;
      while (FIRST_CHILD(n) >= 0) n = FIRST_CHILD(n);
    } else {
      n = parent[n];
    }
  }
  FINISH();
}

kernel void forest_breadth_first(FOREST_ARGS) {
  BEGIN_TREE();
  const int nodes = count[tree];
  int step = 0;
  while (step < nodes) EMIT(root + step);
  FINISH();
}

#if BINARY
kernel void forest_inorder(FOREST_ARGS) {
  BEGIN_TREE();
  int step = 0, n = root;
  while (link_a[n] >= 0) n = link_a[n];
  for (;;) {
    EMIT(n);
    if (link_b[n] >= 0) {
      n = link_b[n];
      while (link_a[n] >= 0) n = link_a[n];
      continue;
    }
    // Climb while coming up from a right child; the first parent reached from a left child is next.
    while (n != root && link_b[parent[n]] == n) n = parent[n];
    if (n == root) break;
    n = parent[n];
  }
  FINISH();
}
#endif
