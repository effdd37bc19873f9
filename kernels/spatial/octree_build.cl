// octree_build.cl: the Barnes-Hut octree from the binary radix tree of sorted 63-bit Morton codes
// (kernels/spatial/radix_tree.cl, 21 bits a coordinate in one cube: morton.cl with -DCUBE).
// A radix-tree node whose prefix is p lies in the octree cell of level floor(p / 3) (capped at
// 21, the finest cell; a single point is at level 21). A node is "kept" when its level exceeds
// its parent's: it is the smallest cell holding its points, and the first node of that cell on
// the way down. Kept nodes, with chains of one-child cells collapsed, form the octree: the
// octree parent of a kept node is its nearest kept ancestor (at most 3 steps up: the prefix
// grows at every step and a level spans 3 prefix values), and it sits in the parent's child slot
// given by the 3 code bits below the parent's level. As in the host build, a cell of LEAF
// points or fewer (or at level 21) is a leaf bucket and the cells below it are dropped.
//   oct_flags    per radix-tree node: 1 when it is a node of the octree, and its octree parent
//   (the host scans the flags: octree node numbers, root 0)
//   oct_write    the nodes: point ranges (leaves only count their points), level, cell side,
//                and the link from the parent's child slot (children are filled with -1 first)
//   oct_summary  one level per launch, finest first: mass and centre of mass, from the bodies
//                of a leaf or from the (at most 8) children; a level-synchronous leaffix.
// Centres are running weighted means in units of the frame's scale s (positions * s), so no sum
// of m * x can overflow; a cell of zero mass is centred on its first body.
// Traffic: flags and write read O(1) radix-tree entries per node; each summary launch reads the
// level of every node (4 bytes) and its own children or bodies.
// Options: -DLEAF, -DCODE_BITS=63. Nodes: internal 0 .. n-2, leaves n-1 .. 2n-2 (radix_tree.cl).
#define MAX_LEVEL 21
#define SIZE(v) ((v) < n - 1 ? range_last[v] - range_first[v] + 1 : 1)
#define LEVEL(v) ((v) < n - 1 ? min(prefix[v] / 3, MAX_LEVEL) : MAX_LEVEL)
#define KEPT(v) ((v) == 0 || LEVEL(v) > LEVEL(parent[v]))

kernel void oct_flags(const int n, global const int* restrict parent,
                      global const int* restrict prefix, global const int* restrict range_first,
                      global const int* restrict range_last, global int* restrict flag,
                      global int* restrict octree_parent) {
  for (int v = get_global_id(0); v < 2 * n - 1; v += get_global_size(0)) {
    int in_octree = 0, op = -1;
    if (v == 0) {
      in_octree = 1;
    } else if (KEPT(v)) {
      op = parent[v];
      while (!KEPT(op)) op = parent[op];
      in_octree = SIZE(op) > LEAF;
    }
    flag[v] = in_octree;
    octree_parent[v] = op;
  }
}

kernel void oct_write(const int n, global const int* restrict prefix,
                      global const int* restrict range_first, global const int* restrict range_last,
                      global const ulong* restrict code, global const int* restrict flag,
                      global const int* restrict offsets, global const int* restrict octree_parent,
                      global const float* restrict frame, global int* restrict child,
                      global int* restrict first, global int* restrict count,
                      global int* restrict level, global float* restrict side) {
  for (int v = get_global_id(0); v < 2 * n - 1; v += get_global_size(0)) {
    if (!flag[v]) continue;
    const int node = offsets[v];
    const int l = LEVEL(v);
    const int f = v < n - 1 ? range_first[v] : v - (n - 1);
    const int size = SIZE(v);
    first[node] = f;
    count[node] = size <= LEAF || l == MAX_LEVEL ? size : 0;
    level[node] = l;
    side[node] = ldexp(frame[1], -l);
    if (v == 0) continue;
    const int op = octree_parent[v];
    const int octant = (int)((code[f] >> (CODE_BITS - 3 * (LEVEL(op) + 1))) & 7);
    child[8 * offsets[op] + octant] = node;
  }
}

// Adds weight w at point x to the running weighted mean (c, m).
void add_mass(float4* cm, const float x, const float y, const float z, const float w) {
  if (!(w > 0.0f)) return;
  cm->w += w;
  const float f = w / cm->w;
  cm->x += (x - cm->x) * f;
  cm->y += (y - cm->y) * f;
  cm->z += (z - cm->z) * f;
}

kernel void oct_summary(const int summary_level, global const int* restrict nodes,
                        global const int* restrict level, global const int* restrict child,
                        global const int* restrict first, global const int* restrict count,
                        const int n, global const float* restrict pos,
                        global const float* restrict mass, global const float* restrict frame,
                        global float4* restrict centre_mass) {
  const float s = frame[0];
  for (int v = get_global_id(0); v < nodes[0]; v += get_global_size(0)) {
    if (level[v] != summary_level) continue;
    float4 cm = (float4)(0.0f);
    const int begin = first[v], end = begin + count[v];
    if (end > begin) {
      for (int j = begin; j < end; ++j)
        add_mass(&cm, pos[j] * s, pos[n + j] * s, pos[2 * n + j] * s, mass[j]);
      if (cm.w == 0.0f) cm.xyz = (float3)(pos[begin], pos[n + begin], pos[2 * n + begin]) * s;
    } else {
      float3 fallback = (float3)(0.0f);
      for (int o = 7; o >= 0; --o) {
        const int c = child[8 * v + o];
        if (c < 0) continue;
        const float4 part = centre_mass[c];
        fallback = part.xyz;
        add_mass(&cm, part.x, part.y, part.z, part.w);
      }
      if (cm.w == 0.0f) cm.xyz = fallback;
    }
    centre_mass[v] = cm;
  }
}
