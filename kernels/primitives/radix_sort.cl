// radix_sort.cl: one pass of a stable LSD radix sort of (uint key, int value) pairs by the digit
// (key >> shift) & (2^bits - 1), bits <= 8 (include/treefix/primitives/radix_sort.hpp). A tile
// is TILE = WG_SIZE * ITEMS consecutive pairs, one work-group each:
//   radix_count    counts[d * tiles + t] = pairs of tile t whose digit is d
//   (the host scans counts exclusively, digit-major: every tile's place in every digit's run)
//   radix_scatter  sorts its tile in local memory by `bits` stable one-bit splits (a work-group
//                  scan each), then writes every pair to its digit's run at
//                  counts[d * tiles + t] + its rank among the tile's pairs of digit d.
// Stable because the splits are stable and the runs are laid out in tile order. No atomics on
// global memory and no work-group waits for another. Traffic per pass: keys read twice, values
// read once, pairs written once; the writes of one digit's run from a tile are contiguous.
#include "primitives/workgroup.clh"

#ifndef ITEMS
#define ITEMS 8
#endif
#define TILE (WG_SIZE * ITEMS)
#define BUCKETS 256

kernel void radix_count(global const uint* key, const uint n, const uint shift, const uint bits,
                        global uint* counts) {
  local uint histogram[BUCKETS];
  const uint lid = get_local_id(0), tile = get_group_id(0), tiles = get_num_groups(0);
  const uint mask = (1u << bits) - 1;
  for (uint d = lid; d < BUCKETS; d += WG_SIZE) histogram[d] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint base = tile * TILE;
  for (uint i = 0; i < ITEMS; ++i) {
    const uint p = base + i * WG_SIZE + lid;
    if (p < n) atomic_inc(&histogram[(key[p] >> shift) & mask]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = lid; d <= mask; d += WG_SIZE) counts[d * tiles + tile] = histogram[d];
}

// identity_values: the values are the pairs' input positions (value_in is not read).
kernel void radix_scatter(global const uint* key_in, global const int* value_in,
                          const int identity_values, const uint n, const uint shift,
                          const uint bits, global const uint* offsets, global uint* key_out,
                          global int* value_out) {
  local uint keys[TILE];
  local ushort slots[TILE];  // each pair's position in the tile as loaded (TILE <= 65536)
  local uint scratch[WG_SIZE];
  local uint run_start[BUCKETS];
  const uint lid = get_local_id(0), tile = get_group_id(0), tiles = get_num_groups(0);
  const uint mask = (1u << bits) - 1;
  const uint base = tile * TILE;
  // Striped load (coalesced); past n a key of all ones, which sorts after every real pair.
  for (uint i = 0; i < ITEMS; ++i) {
    const uint q = i * WG_SIZE + lid;
    keys[q] = base + q < n ? key_in[base + q] : 0xffffffffu;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Blocked in registers: work-item lid holds tile positions lid * ITEMS .. + ITEMS - 1.
  uint key[ITEMS], slot[ITEMS];
  for (uint i = 0; i < ITEMS; ++i) {
    key[i] = keys[lid * ITEMS + i];
    slot[i] = lid * ITEMS + i;
  }
  for (uint b = 0; b < bits; ++b) {
    const uint bit = shift + b;
    uint zeros = 0;
    for (uint i = 0; i < ITEMS; ++i) zeros += ((key[i] >> bit) & 1u) == 0;
    uint all_zeros;
    uint zero_at = wg_sum_uint_exclusive(zeros, scratch, &all_zeros);
    uint one_at = all_zeros + lid * ITEMS - zero_at;
    barrier(CLK_LOCAL_MEM_FENCE);  // everyone has read keys[] before it is overwritten
    for (uint i = 0; i < ITEMS; ++i) {
      const uint to = ((key[i] >> bit) & 1u) ? one_at++ : zero_at++;
      keys[to] = key[i];
      slots[to] = (ushort)slot[i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = 0; i < ITEMS; ++i) {
      key[i] = keys[lid * ITEMS + i];
      slot[i] = slots[lid * ITEMS + i];
    }
  }
  // Where each digit's run starts in the sorted tile.
  for (uint q = lid; q < TILE; q += WG_SIZE) {
    const uint d = (keys[q] >> shift) & mask;
    if (q == 0 || ((keys[q - 1] >> shift) & mask) != d) run_start[d] = q;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Striped stores: neighbouring work-items write neighbouring places of a run.
  for (uint i = 0; i < ITEMS; ++i) {
    const uint q = i * WG_SIZE + lid;
    const uint from = base + slots[q];
    if (from >= n) continue;
    const uint d = (keys[q] >> shift) & mask;
    const uint to = offsets[d * tiles + tile] + (q - run_start[d]);
    key_out[to] = keys[q];
    value_out[to] = identity_values ? (int)from : value_in[from];
  }
}

// 64-bit keys (radix_sort_by_key64) are sorted as two stable passes over their 32-bit halves,
// the low half first; these kernels split the halves and apply the resulting permutation.
//   key_low_words   low[i] = (uint)key[i]
//   key_high_words  high[i] = key[order[i]] >> 32 (the high halves in the order of pass one)
//   gather_pairs    key_out[i] = key[order[i]]; value_out[i] = value[order[i]] (identity_values:
//                   the order itself)
kernel void key_low_words(const uint n, global const ulong* key, global uint* low) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) low[i] = (uint)key[i];
}

kernel void key_high_words(const uint n, global const int* order, global const ulong* key,
                           global uint* high) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    high[i] = (uint)(key[order[i]] >> 32);
}

kernel void gather_pairs(const uint n, global const int* order, global const ulong* key,
                         global const int* value, const int identity_values,
                         global ulong* key_out, global int* value_out) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    const int from = order[i];
    key_out[i] = key[from];
    value_out[i] = identity_values ? from : value[from];
  }
}
