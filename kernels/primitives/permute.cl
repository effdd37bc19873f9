// permute.cl: to[i] = from[index[i]] for a permutation applied many times
// (include/treefix/primitives/permutation.hpp). Elements are moved as bits: ELEM_T is uint or
// ulong (-DELEM_T), whatever the user's type.
//
// One pass (permute_gather) reads `from` at random: on a GPU every 4-byte element costs a
// 32-byte sector, and once `from` outgrows the L2 cache a DRAM burst. Two passes keep every
// random read inside a small window:
//   pass 1 (permute_in_chunks)  tmp[j] = from[chunk(j) + offset[j]]: within each chunk of CHUNK
//                               consecutive elements (2^chunk_log), the elements are regrouped by
//                               the block of `to` they go to; reads stay inside the chunk.
//   pass 2 (permute_gather)     to[i] = tmp[second[i]]: the elements of one block of `to` come
//                               from one run of every chunk, so a block's reads stay within
//                               BLOCK elements' worth of runs, which the L2 cache holds.
// permutation_plan builds offset and second from the inverse of index, one work-group a chunk:
// it counts the chunk's elements per destination block in local memory, turns the counts into
// run starts, and places each element in its block's run (local atomics: the order inside a run
// may differ from run to run, the permutation does not).
#ifndef ELEM_T
#define ELEM_T uint
#endif

kernel void permute_gather(global const ELEM_T* from, global const uint* index, const uint n,
                           global ELEM_T* to) {
  const uint i = get_global_id(0);
  if (i < n) to[i] = from[index[i]];
}

kernel void permute_in_chunks(global const ELEM_T* from, global const ushort* offset,
                              const uint n, const uint chunk_log, global ELEM_T* to) {
  const uint j = get_global_id(0);
  if (j < n) to[j] = from[((j >> chunk_log) << chunk_log) + offset[j]];
}

// inverse[index[i]] = i: where each element of `from` goes.
kernel void permutation_invert(global const uint* index, const uint n, global uint* inverse) {
  const uint i = get_global_id(0);
  if (i < n) inverse[index[i]] = i;
}

// One work-group per chunk; run_start holds `blocks` counters (local memory).
kernel void permutation_plan(global const uint* inverse, const uint n, const uint chunk_log,
                             const uint block_log, const uint blocks, global ushort* offset,
                             global uint* second, local uint* run_start) {
  const uint lid = get_local_id(0);
  const uint base = get_group_id(0) << chunk_log;
  const uint end = min(n, base + (1u << chunk_log));
  for (uint b = lid; b < blocks; b += WG_SIZE) run_start[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = base + lid; s < end; s += WG_SIZE) atomic_inc(&run_start[inverse[s] >> block_log]);
  barrier(CLK_LOCAL_MEM_FENCE);
  // Counts to run starts. One work-item walks them: at most a few thousand blocks, once per plan.
  if (lid == 0) {
    uint start = base;
    for (uint b = 0; b < blocks; ++b) {
      const uint count = run_start[b];
      run_start[b] = start;
      start += count;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = base + lid; s < end; s += WG_SIZE) {
    const uint destination = inverse[s];
    const uint j = atomic_inc(&run_start[destination >> block_log]);
    offset[j] = (ushort)(s - base);
    second[destination] = j;
  }
}
