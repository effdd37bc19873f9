// scc.cl: strongly connected components of a directed graph by signatures propagated both ways
// (the idea of ECL-SCC, Alabandi & Burtscher: every vertex learns the largest vertex that reaches
// it and the largest it reaches; a vertex whose two are equal, x, lies in x's component), with
// trimming (a vertex without a live in-arc or out-arc is a component of its own) and arcs dropped
// between vertices whose signatures differ (no component spans them), round after round
// (lib/graph/strong_components.cpp).
//
// The graph is an arc list (src[i] -> dst[i]) rebuilt each round with the arcs still live: both
// ends unassigned and in the same group (group[v]: a hash of v's signatures in the last round, -1
// once v is assigned; a collision only keeps an arc that could have gone). Per round:
//   scc_degrees    has_in/has_out of every vertex over the live arcs
//   scc_trim       vertices without one: assigned, each its own component; the others seeded
//                  with their own id both ways
//   scc_propagate  one sweep: along every live arc u -> v, vin[v] = max(vin[v], vin[u]) and
//                  vout[u] = max(vout[u], vout[v]); repeated until a sweep changes nothing
//   scc_settle     vin[v] == vout[v]: v is assigned to that vertex's component; else its group
//   scc_keep_live  the live arcs appended to the next list (one global atomic per work-group:
//                  kernels/primitives/append.clh, which also sums the counters)
// Each round assigns at least the component of every group's largest vertex (it reaches and is
// reached by nothing larger there), so the rounds end; a component never spans two groups (its
// vertices reach and are reached by the same vertices), so its vertices are assigned together.
// No work-item waits for another: the sweeps' atomic_max only raise values toward the same limit.
// Traffic per sweep: the live arcs once, their ends' signatures at random. Vertices and arc
// counts are int (the host refuses 2^31 arcs or more).
#include "primitives/append.clh"
#include "primitives/mix.clh"

bool scc_live(global const int* group, int u, int v) {
  const int g = group[u];
  return g >= 0 && g == group[v];
}

// A vertex's group from its two signatures (never negative: -1 marks the assigned).
int scc_group_of(int in, int out) {
  return (int)(mix64(((ulong)(uint)in << 32) | (uint)out) >> 33);
}

kernel void scc_degrees(global const int* src, global const int* dst, const int arcs,
                        global const int* group, global char* has_in, global char* has_out) {
  for (long i = get_global_id(0); i < arcs; i += get_global_size(0)) {
    const int u = src[i], v = dst[i];
    if (scc_live(group, u, v)) {
      has_out[u] = 1;
      has_in[v] = 1;
    }
  }
}

// counters[2]: components found.
kernel void scc_trim(global int* label, global int* group, global const char* has_in,
                     global const char* has_out, global int* vin, global int* vout, const uint n,
                     volatile global uint* counters) {
  local wg_append_tile tile;
  WG_TILES(i, n) {
    const int v = (int)i;
    int trimmed = 0;
    if (i < n && group[v] >= 0) {
      if (!has_in[v] || !has_out[v]) {
        label[v] = v;
        group[v] = -1;
        trimmed = 1;
      } else {
        vin[v] = v;
        vout[v] = v;
      }
    }
    wg_append(trimmed, &counters[2], &tile);  // a count: no list behind it
  }
}

// changed[sweep] = 1 when a signature rose (each sweep of a batch has its flag).
kernel void scc_propagate(global const int* src, global const int* dst, const int arcs,
                          global const int* group, global int* vin, global int* vout,
                          global int* changed, const int sweep) {
  for (long i = get_global_id(0); i < arcs; i += get_global_size(0)) {
    const int u = src[i], v = dst[i];
    if (!scc_live(group, u, v)) continue;
    const int reaching = vin[u];
    if (reaching > vin[v]) {
      atomic_max(&vin[v], reaching);
      changed[sweep] = 1;
    }
    const int reached = vout[v];
    if (reached > vout[u]) {
      atomic_max(&vout[u], reached);
      changed[sweep] = 1;
    }
  }
}

// counters[1]: set when a vertex is left unassigned (a flag: every writer stores 1);
// counters[2]: components found.
kernel void scc_settle(global int* label, global int* group, global const int* vin,
                       global const int* vout, const uint n, volatile global uint* counters) {
  local wg_append_tile tile;
  WG_TILES(i, n) {
    const int v = (int)i;
    int found = 0, left = 0;
    if (i < n && group[v] >= 0) {
      if (vin[v] == vout[v]) {
        label[v] = vin[v];
        group[v] = -1;
        found = vin[v] == v;
      } else {
        group[v] = scc_group_of(vin[v], vout[v]);
        left = 1;
      }
    }
    if (left) counters[1] = 1;
    wg_append(found, &counters[2], &tile);  // a count: no list behind it
  }
}

// counters[0]: the next list's length.
kernel void scc_keep_live(global const int* src, global const int* dst, const uint arcs,
                          global const int* group, global int* next_src, global int* next_dst,
                          volatile global uint* counters) {
  local wg_append_tile tile;
  WG_TILES(i, arcs) {
    const bool live = i < arcs && scc_live(group, src[i], dst[i]);
    const uint slot = wg_append(live, &counters[0], &tile);
    if (live) {
      next_src[slot] = src[i];
      next_dst[slot] = dst[i];
    }
  }
}
