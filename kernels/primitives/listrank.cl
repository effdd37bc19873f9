// List ranking: rank[i] = number of elements before i in its list, from successor links
// (succ[i] = next element or -1). See include/treefix/primitives/listrank.hpp for the two methods.
// Indices are int (lists of fewer than 2^31 elements). No kernel relies on ordering between
// work-items or work-groups: every dependent step is a separate launch, and pointer jumping reads
// one buffer and writes the other. Every kernel is named lr_*; buffers are filled by the host's
// clEnqueueFillBuffer.
// Traffic: Wyllie, per round, 2 reads + 2 dependent reads + 2 writes per element; the ruling set,
// about 10 accesses per element in all, plus Wyllie on n/stride rulers.

// pred[succ[i]] = i (pred filled with -1 first): heads keep -1.
kernel void lr_predecessors(global const int* succ, global int* pred, const int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  int s = succ[i];
  if (s >= 0) pred[s] = i;
}

// Wyllie: rank = 1 per predecessor (0 for a head), then jump.
kernel void lr_wyllie_init(global const int* pred, global int* rank, const int n) {
  int i = get_global_id(0);
  if (i < n) rank[i] = pred[i] < 0 ? 0 : 1;
}

// Weighted start: rank = weight of the predecessor, so the ranks end as exclusive prefix sums of
// the weights along each list (the rulers' offsets).
kernel void lr_wyllie_init_weighted(global const int* pred, global const int* weight,
                                 global int* rank, const int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  int p = pred[i];
  rank[i] = p < 0 ? 0 : weight[p];
}

kernel void lr_wyllie_step(global const int* pred_in, global const int* rank_in,
                        global int* pred_out, global int* rank_out, const int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  int p = pred_in[i];
  if (p < 0) {
    pred_out[i] = -1;
    rank_out[i] = rank_in[i];
  } else {
    pred_out[i] = pred_in[p];
    rank_out[i] = rank_in[i] + rank_in[p];
  }
}

// Ruling set: heads and a hashed sample become rulers, numbered by an atomic counter (their order
// does not matter, only that the numbers are dense).
uint ruler_hash(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

kernel void lr_ruler_select(global const int* pred, global int* ruler_id, volatile global int* rulers,
                      const uint stride, const int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  bool ruler = pred[i] < 0 || ruler_hash((uint)i) % stride == 0;
  ruler_id[i] = ruler ? atomic_inc(rulers) : -1;
}

kernel void lr_ruler_gather(global const int* ruler_id, global int* ruler_element, const int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  int r = ruler_id[i];
  if (r >= 0) ruler_element[r] = i;
}

// Each ruler follows its sublist until the next ruler or the end of the list.
kernel void lr_ruler_walk(global const int* succ, global const int* ruler_id,
                    global const int* ruler_element, global int* owner, global int* local_rank,
                    global int* ruler_next, global int* ruler_length, const int rulers) {
  int r = get_global_id(0);
  if (r >= rulers) return;
  int i = ruler_element[r];
  owner[i] = r;
  local_rank[i] = 0;
  int count = 1;
  int j = succ[i];
  while (j >= 0 && ruler_id[j] < 0) {
    owner[j] = r;
    local_rank[j] = count++;
    j = succ[j];
  }
  ruler_length[r] = count;
  ruler_next[r] = j < 0 ? -1 : ruler_id[j];
}

// rank[i] = offset of i's ruler + offset of i in the sublist (local_rank may alias rank).
kernel void lr_ruler_finish(global const int* owner, global const int* local_rank,
                      global const int* ruler_rank, global int* rank, const int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  int r = owner[i];
  rank[i] = r < 0 ? -1 : ruler_rank[r] + local_rank[i];
}
