// scan.cl: device-wide prefix scan of value_t under OP (common.clh), reduce-then-scan.
//
//   scan_reduce    group g reduces its run of tiles [g*tiles_per_group, ...) -> partial[g]
//   scan_partials  one group scans partial[0..groups) in place (exclusive) and writes the total
//   scan_tiles     group g rescans its run, seeded with partial[g], and stores the result
//
// A tile is TILE = WG_SIZE * ITEMS consecutive elements. Loads and stores are striped (item i of
// work-item l touches tile[i * WG_SIZE + l]) so that neighbouring work-items touch neighbouring
// addresses; scan_tiles transposes through local memory so that each work-item then scans ITEMS
// consecutive elements in registers (CUB's "block load transpose"). Traffic: 2 reads, 1 write.
// No group waits for another: correct without inter-group forward progress.
#include "common.clh"
#include "workgroup.clh"

#ifndef ITEMS
#define ITEMS 8
#endif
#define TILE (WG_SIZE * ITEMS)
// One padding slot every 32 elements breaks the bank conflicts of the blocked (strided) reads.
#define PADDED(i) ((i) + ((i) >> 5))
#define TILE_LOCAL (TILE + (TILE >> 5))

WG_DEFINE_SCAN(wg_value, value_t, OP, IDENTITY)

kernel void scan_reduce(global const value_t* in, const idx_t n, const idx_t tiles_per_group,
                        global value_t* partial) {
  local value_t scratch[WG_SIZE];
  const uint lid = get_local_id(0);
  const idx_t first_tile = (idx_t)get_group_id(0) * tiles_per_group;
  value_t acc = IDENTITY;
  for (idx_t t = 0; t < tiles_per_group; ++t) {
    const idx_t base = (first_tile + t) * TILE;
    if (base >= n) break;
    for (uint i = 0; i < ITEMS; ++i) {
      const idx_t at = base + (idx_t)i * WG_SIZE + lid;
      if (at < n) acc = OP(acc, in[at]);
    }
  }
  value_t total = wg_value_reduce(acc, scratch);
  if (lid == 0) partial[get_group_id(0)] = total;
}

kernel void scan_partials(global value_t* partial, const uint groups, global value_t* total) {
  local value_t scratch[WG_SIZE];
  value_t carry = IDENTITY;
  for (uint base = 0; base < groups; base += WG_SIZE) {
    const uint at = base + get_local_id(0);
    value_t x = at < groups ? partial[at] : IDENTITY;
    value_t chunk_total;
    value_t prefix = wg_value_exclusive(x, scratch, &chunk_total);
    if (at < groups) partial[at] = OP(carry, prefix);
    carry = OP(carry, chunk_total);
  }
  if (get_local_id(0) == 0) total[0] = carry;
}

kernel void scan_tiles(global const value_t* in, global value_t* out, const idx_t n,
                       const idx_t tiles_per_group, global const value_t* partial,
                       const int inclusive) {
  local value_t tile[TILE_LOCAL];
  local value_t scratch[WG_SIZE];
  const uint lid = get_local_id(0);
  const idx_t first_tile = (idx_t)get_group_id(0) * tiles_per_group;
  value_t carry = partial[get_group_id(0)];
  for (idx_t t = 0; t < tiles_per_group; ++t) {
    const idx_t base = (first_tile + t) * TILE;
    if (base >= n) break;  // uniform across the group
    for (uint i = 0; i < ITEMS; ++i) {
      const uint slot = i * WG_SIZE + lid;
      const idx_t at = base + slot;
      tile[PADDED(slot)] = at < n ? in[at] : IDENTITY;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // each work-item: ITEMS consecutive elements, sequential inclusive scan in registers
    value_t items[ITEMS];
    value_t run = IDENTITY;
    for (uint i = 0; i < ITEMS; ++i) {
      run = OP(run, tile[PADDED(lid * ITEMS + i)]);
      items[i] = run;
    }
    value_t tile_total;
    value_t before = OP(carry, wg_value_exclusive(run, scratch, &tile_total));
    // the exclusive form shifts by one element: element k gets the inclusive value of k - 1
    value_t previous = before;
    for (uint i = 0; i < ITEMS; ++i) {
      value_t inclusive_value = OP(before, items[i]);
      tile[PADDED(lid * ITEMS + i)] = inclusive ? inclusive_value : previous;
      previous = inclusive_value;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = 0; i < ITEMS; ++i) {
      const uint slot = i * WG_SIZE + lid;
      const idx_t at = base + slot;
      if (at < n) out[at] = tile[PADDED(slot)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // the tile is overwritten by the next iteration
    carry = OP(carry, tile_total);
  }
}
