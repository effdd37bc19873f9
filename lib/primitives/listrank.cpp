// List ranking: Wyllie's pointer jumping (reference) and a sparse ruling set (work-efficient).
#include "treefix/primitives/listrank.hpp"

#include <climits>
#include <utility>

#include "primitives/primitives_tuning.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"

namespace treefix {

namespace {

constexpr const char* kPhase = "listrank";

int rounds_for(std::size_t n) {
  int rounds = 0;
  while ((std::size_t{1} << rounds) < n) ++rounds;
  return rounds;
}

// Pointer jumping along pred (clobbered) into rank; `weight` (may be null) makes the ranks
// exclusive prefix sums of the weights instead of counts.
void wyllie_from_pred(Kernels& k, cl::Buffer pred, const cl::Buffer* weight, const cl::Buffer& rank,
                      std::size_t n, const char* slot, Phase phase) {
  const cl_int count = static_cast<cl_int>(n);
  if (weight)
    k.run("lr_wyllie_init_weighted", k.items(n), pred, *weight, rank, count);
  else
    k.run("lr_wyllie_init", k.items(n), pred, rank, count);
  int rounds = rounds_for(n);
  if (rounds == 0) return;
  Runtime& rt = k.runtime();
  std::string base = std::string("listrank.jump.") + slot;
  cl::Buffer pred_other = rt.scratch(base + ".pred", n * sizeof(cl_int));
  cl::Buffer rank_other = rt.scratch(base + ".rank", n * sizeof(cl_int));
  cl::Buffer pred_in = pred, rank_in = rank, pred_out = pred_other, rank_out = rank_other;
  for (int r = 0; r < rounds; ++r) {
    k.run("lr_wyllie_step", k.items(n), pred_in, rank_in, pred_out, rank_out, count);
    std::swap(pred_in, pred_out);
    std::swap(rank_in, rank_out);
  }
  if (rank_in() != rank()) {
    cl::Event copied;
    rt.queue().enqueueCopyBuffer(rank_in, rank, 0, 0, n * sizeof(cl_int), nullptr, &copied);
    phase.record(copied);
  }
}

void predecessors(Kernels& k, const cl::Buffer& succ, const cl::Buffer& pred, std::size_t n,
                  Phase phase) {
  fill(k.runtime(), pred, cl_int(-1), n, phase);
  k.run("lr_predecessors", k.items(n), succ, pred, static_cast<cl_int>(n));
}

void ruling_set(Kernels& k, const cl::Buffer& succ, const cl::Buffer& rank, std::size_t n,
                std::size_t stride, Phase phase) {
  Runtime& rt = k.runtime();
  const cl_int count = static_cast<cl_int>(n);
  cl::Buffer pred = rt.scratch("listrank.rs.pred", n * sizeof(cl_int));
  predecessors(k, succ, pred, n, phase);

  cl::Buffer ruler_id = rt.scratch("listrank.rs.ruler_id", n * sizeof(cl_int));
  cl::Buffer counter = rt.scratch("listrank.rs.counter", sizeof(cl_int));
  fill(rt, counter, cl_int(0), 1, phase);
  k.run("lr_ruler_select", k.items(n), pred, ruler_id, counter, static_cast<cl_uint>(stride),
        count);
  cl_int rulers = 0;
  translate_device_errors("list ranking", [&] {
    rt.queue().enqueueReadBuffer(counter, CL_TRUE, 0, sizeof(cl_int), &rulers);
  });

  cl::Buffer ruler_element = rt.scratch("listrank.rs.element", rulers * sizeof(cl_int));
  cl::Buffer ruler_next = rt.scratch("listrank.rs.next", rulers * sizeof(cl_int));
  cl::Buffer ruler_length = rt.scratch("listrank.rs.length", rulers * sizeof(cl_int));
  cl::Buffer ruler_rank = rt.scratch("listrank.rs.rank", rulers * sizeof(cl_int));
  // pred is free again: it holds the owners (-1 for elements no ruler reaches: a headless cycle).
  cl::Buffer& owner = pred;
  k.run("lr_ruler_gather", k.items(n), ruler_id, ruler_element, count);
  fill(rt, owner, cl_int(-1), n, phase);
  k.run("lr_ruler_walk", k.items(rulers), succ, ruler_id, ruler_element, owner, rank, ruler_next,
        ruler_length, rulers);
  // The rulers form lists of their own (next ruler links); rank them by weighted Wyllie.
  cl::Buffer ruler_pred = ruler_element;  // the elements are no longer needed
  predecessors(k, ruler_next, ruler_pred, rulers, phase);
  wyllie_from_pred(k, ruler_pred, &ruler_length, ruler_rank, rulers, "rulers", phase);
  k.run("lr_ruler_finish", k.items(n), owner, rank, ruler_rank, rank, count);
}

}  // namespace

void list_rank(Runtime& runtime, const cl::Buffer& succ, const cl::Buffer& rank, std::size_t n,
               const ListRankOptions& options) {
  if (n == 0) return;
  if (n > static_cast<std::size_t>(INT_MAX))
    throw CapacityError("list ranking of " + std::to_string(n) +
                        " elements: lists are limited to 2^31-1 elements (32-bit indices)");
  translate_device_errors("list ranking", [&] {
    const Phase phase{options.profile, kPhase};
    Kernels k(runtime, "primitives/listrank.cl", "", phase);
    if (options.method == ListRankMethod::wyllie) {
      cl::Buffer pred = runtime.scratch("listrank.wyllie.pred", n * sizeof(cl_int));
      predecessors(k, succ, pred, n, phase);
      wyllie_from_pred(k, pred, nullptr, rank, n, "wyllie", phase);
    } else {
      std::size_t stride =
          options.stride ? options.stride : runtime.tuning()[knobs::list_rank_stride];
      ruling_set(k, succ, rank, n, stride, phase);
    }
  });
}

}  // namespace treefix
