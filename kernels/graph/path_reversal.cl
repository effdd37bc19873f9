// path_reversal.cl: PR-RST, the path-reversal rooted spanning tree (Sahu & Donur, "Beyond BFS",
// 2026, after the PRAM path-reversal algorithm), in rounds of graft, re-root and shortcut.
//
// The forest is kept rooted throughout: parent[v] (v itself at a root) and rep[v], the root of
// v's tree. A round:
//   graft     pr_winner: every edge {u, v} whose ends lie in different trees offers itself to the
//             tree that hooks — the one with the larger root in odd rounds, the smaller in even
//             rounds, so hooks only go one way and cannot close a cycle; atomic_min keeps the
//             smallest edge id per hooking root (the result does not depend on timing).
//             pr_mark: each hooking root r marks the winner's end c inside its tree (on_path = 2)
//             and remembers the other end p (link_to[c] = p): c will become r's tree's root, then
//             hang from p.
//   re-root   pr_broadcast: the path from c up to r is marked by pointer jumping over the jump
//             table of the previous shortcut (jump[k][v] = v's 2^k-th ancestor, saturating at the
//             root): level k = K-1 .. 0, every marked vertex marks its 2^k-th ancestor, so after
//             level 0 every ancestor of c at distance < 2^K is marked (one launch per level; a
//             vertex marked during a launch may mark further, which only marks more ancestors).
//             pr_reverse: on the marked path every pointer is turned round
//             (new_parent[parent[x]] = x) and c takes link_to[c]: its tree is now rooted at c and
//             hangs from p. Double-buffered, so reads see the old pointers.
//   shortcut  pr_jump: jump[0] = parent, jump[k] = jump[k-1] o jump[k-1] (one launch per level,
//             pointer jumping), rep = the last level, which has reached every root; a level after
//             one that changed nothing returns at once (changed[k] records it), and the broadcast
//             skips the levels that were not computed.
// The rounds end when no edge joins two trees (one flag read per round). Then every tree is
// re-rooted once more, at its smallest vertex or at the chosen root, by the same broadcast and
// reversal (pr_mark_roots), and roots become -1 (pr_output).
// Traffic per round: two passes over the arcs (graft), K + 1 passes over n pointers (re-root)
// and K passes over the jump table (shortcut), K = ceil(log2 n) at most.
// Indices are int; no work-item waits for another.

#define NO_ARC INT_MAX

kernel void pr_init(global int* parent, global int* rep, const int n) {
  for (int v = get_global_id(0); v < n; v += get_global_size(0)) {
    parent[v] = v;
    rep[v] = v;
  }
}

// Graft, part 1: the smallest crossing edge id per hooking root; flag[0] = 1 if any crossing.
kernel void pr_winner(global const int* source, global const int* target, global const int* rep,
                      volatile global int* winner, volatile global int* flag, const int arcs,
                      const int hook_larger) {
  for (int a = get_global_id(0); a < arcs; a += get_global_size(0)) {
    const int u = source[a], v = target[a];
    if (u >= v) continue;  // each edge once (both arcs are stored); self loops never cross
    const int ru = rep[u], rv = rep[v];
    if (ru == rv) continue;
    if (*flag == 0) *flag = 1;
    const int hooking = hook_larger ? max(ru, rv) : min(ru, rv);
    if (a < winner[hooking]) atomic_min(&winner[hooking], a);
  }
}

// Graft, part 2: the winner's end inside the hooking tree starts its path (on_path = 2).
kernel void pr_mark(global const int* source, global const int* target, global const int* rep,
                    global const int* winner, global int* on_path, global int* link_to,
                    const int n) {
  for (int r = get_global_id(0); r < n; r += get_global_size(0)) {
    const int a = winner[r];
    if (a == NO_ARC) continue;
    const int u = source[a], v = target[a];
    const int c = rep[u] == r ? u : v;
    on_path[c] = 2;
    link_to[c] = c == u ? v : u;
  }
}

// The final re-rooting: the tree of root r is re-rooted at want[r] (its smallest vertex or the
// chosen root), which then points to itself.
kernel void pr_mark_roots(global const int* parent, global const int* want, global int* on_path,
                          global int* link_to, const int n) {
  for (int r = get_global_id(0); r < n; r += get_global_size(0)) {
    if (parent[r] != r) continue;
    const int c = want[r];
    if (c == r) continue;
    on_path[c] = 2;
    link_to[c] = c;
  }
}

// want[rep[v]] = the smallest vertex of v's tree (want filled with INT_MAX).
kernel void pr_smallest(global const int* rep, volatile global int* want, const int n) {
  for (int v = get_global_id(0); v < n; v += get_global_size(0)) atomic_min(&want[rep[v]], v);
}

// Re-root, broadcast levels k, k-1, ..., k-count+1 in one launch: every vertex marked when the
// launch starts marks its ancestors at 1, 2, ..., 2^count - 1 times 2^(k-count+1) (every sum of
// those levels' jumps), walking level k-count+1 of the table. Marks that other work-items set
// during the launch are read or not: both are right, since every ancestor of a marked vertex is
// on the path (it runs from the path's start up to its tree's root). Level j of the table exists
// when j == 0 or the shortcut's level j - 1 changed something; a level that does not exist equals
// the one below it, so the walk reads the lowest level of the launch, which always exists when
// any of its levels changed.
kernel void pr_broadcast(global const int* jump, global const int* changed, global int* on_path,
                         const int n, const int k, const int count) {
  const int low = k - count + 1;
  if (low > 0 && !changed[low - 1]) return;
  global const int* up = jump + (size_t)low * n;
  const int steps = (1 << count) - 1;
  for (int x = get_global_id(0); x < n; x += get_global_size(0)) {
    if (!on_path[x]) continue;
    int y = x;
    for (int s = 0; s < steps; ++s) {
      const int next = up[y];
      if (next == y) break;  // the tree's root: every further jump stays there
      y = next;
      on_path[y] = 1;  // never the path's start: it is below every marked vertex
    }
  }
}

// Re-root, reversal: new_parent starts as a copy of parent.
kernel void pr_reverse(global const int* parent, global int* new_parent, global const int* on_path,
                       global const int* link_to, const int n) {
  for (int x = get_global_id(0); x < n; x += get_global_size(0)) {
    const int mark = on_path[x];
    if (!mark) continue;
    if (mark == 2) new_parent[x] = link_to[x];
    const int up = parent[x];
    if (up != x) new_parent[up] = x;
  }
}

// Shortcut, levels k .. k+count-1 (k >= 1) in one launch: level k+i = level k-1 applied 2^(i+1)
// times, so a work-item follows level k-1's pointers 2^count times from its vertex and writes a
// level at every power of two; rep = the newest level; changed[j] = 1 when level j differs from
// level j-1 somewhere. Returns at once when level k-1 changed nothing (every pointer of it already
// reaches its root). Level 0 is a copy of parent (the host copies it), with changed[0] = 1.
kernel void pr_jump(global int* jump, global int* rep, volatile global int* changed, const int n,
                    const int k, const int count) {
  if (!changed[k - 1]) return;
  global const int* below = jump + (size_t)(k - 1) * n;
  for (int v = get_global_id(0); v < n; v += get_global_size(0)) {
    int previous = below[v], at = previous, hops = 1;
    for (int i = 0; i < count; ++i) {
      for (; hops < (2 << i); ++hops) {
        const int next = below[at];
        if (next == at) break;  // the root: every further hop stays there
        at = next;
      }
      hops = 2 << i;
      jump[(size_t)(k + i) * n + v] = at;
      if (at != previous && !changed[k + i]) changed[k + i] = 1;
      previous = at;
    }
    rep[v] = at;
  }
}

kernel void pr_output(global const int* parent, global int* out, const int n) {
  for (int v = get_global_id(0); v < n; v += get_global_size(0))
    out[v] = parent[v] == v ? -1 : parent[v];
}
