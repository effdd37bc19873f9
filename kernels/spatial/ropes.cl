// Rope-stack traversal skeleton (autoropes, Goldfarb, Jo & Kulkarni). The library splices a
// traversal's pieces in front of this file (include/treefix/spatial/ropes.hpp); the pieces define:
//   ROPE_ARITY, ROPE_CALL_SETS (1 = unguided), ROPE_PARAMS / ROPE_ARGS (invariant kernel
//   arguments and their names), the type rope_state, and the functions
//   rope_init(s, item, ARGS)  rope_truncate(s, node, ARGS) -> bool  rope_visit(s, node, ARGS)
//   rope_call_set(s, node, ARGS) -> int   rope_child(node, call_set, i, ARGS) -> node or -1
//   rope_finish(s, item, ARGS)
// Optionally ROPE_ARG_T, a per-item argument that changes along the traversal and rides on the
// stack with the node (as a recursive call's argument): rope_state then has a field `arg`, set
// before the node's truncation test (0 at the root), and the pieces define
//   rope_child_arg(s, node, call_set, i, ARGS) -> the argument of child i, evaluated right after
//   the node's visit; it must depend on the node's state at that time only (its arg, the point).
// The recursive traversal they describe is visit(node): if truncate(node) return; visit-update;
// for i in 0..ARITY-1: visit(child(node, call_set, i)). Children are pushed in reverse call order,
// so pops follow the recursion's order exactly and no node is seen twice.
//
// Three kernels, one signature (the engine's 9 arguments, then ROPE_PARAMS):
//   rope_independent  one item per work-item, stack of nodes in global memory, interleaved
//                     (entry s of item g at stack[s*stride + g]) so that equal depths coalesce.
//   rope_lockstep     a work-group walks the tree together: one stack of (node, mask) entries in
//                     local memory; the mask (one bit per work-item) says who is still active;
//                     masks and guided-order votes are combined through local atomics, because
//                     OpenCL 1.2 has no portable sub-group functions. Guided: majority call set.
//   rope_recursive    baseline: per-item stack of full frames (node, next child, call set).
// Stack bounds come from the tree height (height*(arity-1)+1 nodes, height+1 frames); the guard
// below only records an overflow that the bound makes impossible, so the host can prove it.
// Statistics (want_stats): stats[item] = nodes whose truncation the item evaluated,
// stats[items + item] = nodes its group popped (lockstep) or the same count (other variants).

#ifndef WG_SIZE
#define WG_SIZE 64
#endif
#define MASK_WORDS ((WG_SIZE + 31) / 32)
#ifdef ROPE_ARG_T
#define ROPE_HAS_ARG 1
#else
#define ROPE_HAS_ARG 0
#define ROPE_ARG_T int
#endif

// An item's end: the pieces' finish, and its statistics when asked (nodes it tested; nodes its
// group carried it through, the same count outside lockstep).
void rope_end_item(rope_state* s, const uint item, const uint items, const uint visits,
                   const uint steps, global uint* restrict stats, const uint want_stats,
                   ROPE_PARAMS) {
  rope_finish(s, item, ROPE_ARGS);
  if (want_stats) {
    stats[item] = visits;
    stats[items + item] = steps;
  }
}

kernel void rope_independent(const uint items, const uint stack_cap, global int* restrict stack,
                             global ROPE_ARG_T* restrict arg_stack,
                             local int* stack_node, local uint* stack_mask,
                             global uint* restrict stats, const uint want_stats,
                             global int* restrict overflow, ROPE_PARAMS) {
  const uint stride = get_global_size(0);
  for (uint item = get_global_id(0); item < items; item += stride) {
    rope_state s;
    rope_init(&s, item, ROPE_ARGS);
    uint visits = 0;
    stack[get_global_id(0)] = 0;  // the root
    uint sp = 1;
    while (sp > 0) {
      --sp;
      const int node = stack[sp * stride + get_global_id(0)];
#if ROPE_HAS_ARG
      s.arg = node == 0 ? (ROPE_ARG_T)0 : arg_stack[sp * stride + get_global_id(0)];
#endif
      ++visits;
      if (rope_truncate(&s, node, ROPE_ARGS)) continue;
      rope_visit(&s, node, ROPE_ARGS);
      const int call_set = rope_call_set(&s, node, ROPE_ARGS);
      for (int i = ROPE_ARITY - 1; i >= 0; --i) {
        const int c = rope_child(node, call_set, i, ROPE_ARGS);
        if (c < 0) continue;
        if (sp >= stack_cap) {
          overflow[0] = 1;
          sp = 0;
          break;
        }
        stack[sp * stride + get_global_id(0)] = c;
#if ROPE_HAS_ARG
        arg_stack[sp * stride + get_global_id(0)] =
            rope_child_arg(&s, node, call_set, i, ROPE_ARGS);
#endif
        ++sp;
      }
    }
    rope_end_item(&s, item, items, visits, visits, stats, want_stats, ROPE_ARGS);
  }
}

kernel void rope_recursive(const uint items, const uint stack_cap, global int* restrict stack,
                           global ROPE_ARG_T* restrict arg_stack,
                           local int* stack_node, local uint* stack_mask,
                           global uint* restrict stats, const uint want_stats,
                           global int* restrict overflow, ROPE_PARAMS) {
  // A frame is three ints at stack[(3*f + field)*stride + g]: node, next child, call set.
  const uint stride = get_global_size(0);
  const uint g = get_global_id(0);
  for (uint item = g; item < items; item += stride) {
    rope_state s;
    rope_init(&s, item, ROPE_ARGS);
    uint visits = 1;
    uint sp = 0;
#if ROPE_HAS_ARG
    s.arg = (ROPE_ARG_T)0;
#endif
    if (!rope_truncate(&s, 0, ROPE_ARGS)) {
      rope_visit(&s, 0, ROPE_ARGS);
      const int call_set = rope_call_set(&s, 0, ROPE_ARGS);
      stack[0 * stride + g] = 0;
      stack[1 * stride + g] = 0;
      stack[2 * stride + g] = call_set;
#if ROPE_HAS_ARG
      for (int i = 0; i < ROPE_ARITY; ++i)  // the frame's locals: its children's arguments
        arg_stack[i * stride + g] = rope_child_arg(&s, 0, call_set, i, ROPE_ARGS);
#endif
      sp = 1;
    }
    while (sp > 0) {
      const uint f = sp - 1;
      const int node = stack[(3 * f) * stride + g];
      const int next = stack[(3 * f + 1) * stride + g];
      if (next >= ROPE_ARITY) {
        --sp;  // return from the call
        continue;
      }
      stack[(3 * f + 1) * stride + g] = next + 1;
      const int c = rope_child(node, stack[(3 * f + 2) * stride + g], next, ROPE_ARGS);
      if (c < 0) continue;
      ++visits;
#if ROPE_HAS_ARG
      s.arg = arg_stack[(f * ROPE_ARITY + next) * stride + g];
#endif
      if (rope_truncate(&s, c, ROPE_ARGS)) continue;
      rope_visit(&s, c, ROPE_ARGS);
      if (sp >= stack_cap) {
        overflow[0] = 1;
        break;
      }
      const int call_set = rope_call_set(&s, c, ROPE_ARGS);
      stack[(3 * sp) * stride + g] = c;
      stack[(3 * sp + 1) * stride + g] = 0;
      stack[(3 * sp + 2) * stride + g] = call_set;
#if ROPE_HAS_ARG
      for (int i = 0; i < ROPE_ARITY; ++i)
        arg_stack[(sp * ROPE_ARITY + i) * stride + g] =
            rope_child_arg(&s, c, call_set, i, ROPE_ARGS);
#endif
      ++sp;
    }
    rope_end_item(&s, item, items, visits, visits, stats, want_stats, ROPE_ARGS);
  }
}

kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void rope_lockstep(const uint items, const uint stack_cap, global int* restrict stack,
                   global ROPE_ARG_T* restrict arg_stack,
                   local int* stack_node, local uint* stack_mask,
                   global uint* restrict stats, const uint want_stats,
                   global int* restrict overflow, ROPE_PARAMS) {
  local uint new_mask[MASK_WORDS];
  local uint votes[ROPE_CALL_SETS];
  const uint lid = get_local_id(0);
  const uint my_word = lid >> 5;
  const uint my_bit = 1u << (lid & 31);
  // Every work-item runs the same loop: the base, sp and the pushes depend only on local memory
  // read after barriers, so barriers are reached uniformly.
  for (uint base = get_group_id(0) * WG_SIZE; base < items; base += get_num_groups(0) * WG_SIZE) {
    const uint item = base + lid;
    const bool valid = item < items;
    rope_state s;
    if (valid) rope_init(&s, item, ROPE_ARGS);
    uint visits = 0, steps = 0;
    barrier(CLK_LOCAL_MEM_FENCE);  // the previous round is done with the stack
    if (lid < MASK_WORDS) stack_mask[lid] = 0;
    if (lid == 0) stack_node[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (valid) atomic_or(&stack_mask[my_word], my_bit);
    barrier(CLK_LOCAL_MEM_FENCE);  // the root's mask is complete
    uint sp = 1;
    while (sp > 0) {
      // Entries pushed in the previous iteration are visible: it ended with a barrier. (A barrier
      // at the top of this loop instead was miscompiled by PoCL 3: the first pop missed it.)
      --sp;
      const int node = stack_node[sp];
      const bool active = (stack_mask[sp * MASK_WORDS + my_word] & my_bit) != 0;
      if (lid < MASK_WORDS) new_mask[lid] = 0;
      if (lid < ROPE_CALL_SETS) votes[lid] = 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      ++steps;
      if (active) {
        ++visits;
#if ROPE_HAS_ARG
        s.arg = node == 0 ? (ROPE_ARG_T)0 : arg_stack[sp * get_global_size(0) + get_global_id(0)];
#endif
        if (!rope_truncate(&s, node, ROPE_ARGS)) {
          rope_visit(&s, node, ROPE_ARGS);
          atomic_or(&new_mask[my_word], my_bit);
          atomic_inc(&votes[rope_call_set(&s, node, ROPE_ARGS)]);
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      uint any = 0;
      for (int w = 0; w < MASK_WORDS; ++w) any |= new_mask[w];
      if (any) {
        int best = 0;
        for (int c = 1; c < ROPE_CALL_SETS; ++c)
          if (votes[c] > votes[best]) best = c;
        for (int i = ROPE_ARITY - 1; i >= 0; --i) {
          const int c = rope_child(node, best, i, ROPE_ARGS);
          if (c < 0) continue;
          if (sp >= stack_cap) {
            if (lid == 0) overflow[0] = 1;
            sp = 0;
            break;
          }
          if (lid == 0) stack_node[sp] = c;
          if (lid < MASK_WORDS) stack_mask[sp * MASK_WORDS + lid] = new_mask[lid];
#if ROPE_HAS_ARG
          // per-item arguments stay in global memory, interleaved: entry sp of item g
          if (new_mask[my_word] & my_bit)
            arg_stack[sp * get_global_size(0) + get_global_id(0)] =
                rope_child_arg(&s, node, best, i, ROPE_ARGS);
#endif
          ++sp;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);  // pushes are visible; everyone has read new_mask and votes
    }
    if (valid) {
      rope_end_item(&s, item, items, visits, steps, stats, want_stats, ROPE_ARGS);
    }
  }
}
