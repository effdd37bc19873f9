// radix_tree.cl: the binary radix tree of n sorted Morton codes (Karras, "Maximizing parallelism
// in the construction of BVHs, octrees and k-d trees", HPG 2012), every internal node built
// independently. Equal codes (duplicate points, or points in one finest cell) are told apart by
// their positions, as the paper suggests: the key of position i is (code, i), so the tree is
// always binary with n leaves, and runs of ties split at the midpoints of their positions (a
// balanced subtree, never a deep chain).
// Node numbering: internal nodes 0 .. n-2 (root 0), leaves n-1 .. 2n-2 (leaf of position j is
// n - 1 + j). Per internal node i: left[i], right[i] (node numbers), prefix[i] (the length of
// the common prefix of its keys: code bits, then code_bits + the common bits of the positions),
// range_first[i] .. range_last[i] (its positions); parent[] of every node (-1 at the root).
// The prefix strictly grows from a node to its children, so the depth is at most code_bits + 32.
// Traffic: O(log n) code reads per node (binary searches), within a small window: cached.
// Argument code_bits (<= 63): the codes' length. n >= 2, n < 2^30.

// Common prefix length of the keys at positions i and j; -1 when j is outside 0 .. n-1.
int key_prefix(global const ulong* code, const int n, const int code_bits, const int i,
               const int j) {
  if (j < 0 || j >= n) return -1;
  const ulong x = code[i] ^ code[j];
  if (x != 0) return (int)clz(x) - (64 - code_bits);
  return code_bits + (int)clz((uint)(i ^ j));
}

kernel void radix_tree(const int n, const int code_bits, global const ulong* restrict code,
                       global int* restrict left, global int* restrict right,
                       global int* restrict parent, global int* restrict prefix,
                       global int* restrict range_first, global int* restrict range_last) {
  for (int i = get_global_id(0); i < n - 1; i += get_global_size(0)) {
    // The direction of the node's range: towards the neighbour with the longer common prefix.
    const int after = key_prefix(code, n, code_bits, i, i + 1);
    const int d = after > key_prefix(code, n, code_bits, i, i - 1) ? 1 : -1;
    const int shortest = key_prefix(code, n, code_bits, i, i - d);
    // Its other end: exponential search for a bound, then binary search.
    int bound = 2;
    while (key_prefix(code, n, code_bits, i, i + bound * d) > shortest) bound <<= 1;
    int length = 0;
    for (int t = bound >> 1; t >= 1; t >>= 1)
      if (key_prefix(code, n, code_bits, i, i + (length + t) * d) > shortest) length += t;
    const int j = i + length * d;
    const int node_prefix = key_prefix(code, n, code_bits, i, j);
    // The split: the last position (from i) that shares more than node_prefix bits with i.
    int split = 0;
    for (int div = 2;; div <<= 1) {
      const int t = (length + div - 1) / div;
      if (key_prefix(code, n, code_bits, i, i + (split + t) * d) > node_prefix) split += t;
      if (t <= 1) break;
    }
    const int gamma = i + split * d + min(d, 0);
    const int first = min(i, j), last = max(i, j);
    const int l = first == gamma ? n - 1 + gamma : gamma;
    const int r = last == gamma + 1 ? n - 1 + gamma + 1 : gamma + 1;
    left[i] = l;
    right[i] = r;
    parent[l] = i;
    parent[r] = i;
    prefix[i] = node_prefix;
    range_first[i] = first;
    range_last[i] = last;
    if (i == 0) parent[0] = -1;
  }
}
