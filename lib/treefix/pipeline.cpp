// From files to files (treefix/treefix/pipeline.hpp).
#include "treefix/treefix/pipeline.hpp"

#include <atomic>
#include <cmath>
#include <type_traits>

#include "treefix/core/parallel.hpp"

#include "treefix/treefix/reference.hpp"

namespace treefix {

namespace {

// Validation and the treefix itself: on the device, or the sequential pass in its own order.
template <class T>
std::vector<T> compute_files(const FileTreefix& request, const ParentArray& parent,
                             std::vector<T>& weights, const TreefixOptions& options,
                             const std::function<Runtime&()>& device, PhaseTimes& phases) {
  std::vector<T> result;
  // On a CPU device `auto` takes the host's sequential pass: with no uploads and no device tree to
  // build, it is 2-6x faster end to end on PoCL for 2^20-vertex trees, deep or bushy (README,
  // "auto on CPU devices"). The device is set up anyway, beside the reading, to learn its type.
  Runtime* runtime = nullptr;
  bool host = options.algorithm == Algorithm::sequential;
  if (!host) {
    runtime = &phases.measure("device setup", [&]() -> Runtime& { return device(); });
    host = options.algorithm == Algorithm::automatic && !options.accurate &&
           runtime->description().is_cpu;
  }
  if (host) {
    const auto order = phases.measure("validate", [&] { return top_down_order(parent); });
    result = phases.measure("compute", [&] {
      return request.leaffix
                 ? reference::leaffix(parent, order, weights, options.op, options.exclusive)
                 : reference::rootfix(parent, order, weights, options.op, options.exclusive);
    });
  } else {
    // The weights are read for this call alone: their memory takes the result.
    result = request.leaffix ? leaffix(*runtime, parent, std::move(weights), options)
                             : rootfix(*runtime, parent, std::move(weights), options);
  }
  return result;
}

// For a floating-point sum whose weights hold a -0: per vertex, 1 where its weight is anything
// but -0 (else nothing: the pass below is paid only then).
template <class T>
std::vector<std::int64_t> not_negative_zero(const FileTreefix& request,
                                            const std::vector<T>& weights) {
  if constexpr (std::is_floating_point_v<T>) {
    if (request.options.op != Op::sum) return {};
    auto negative_zero = [&](std::size_t v) { return weights[v] == 0 && std::signbit(weights[v]); };
    std::atomic<bool> any{false};
    parallel_for(weights.size(), [&](std::size_t v) {
      if (negative_zero(v)) any = true;
    });
    if (!any) return {};
    std::vector<std::int64_t> other(weights.size());
    parallel_for(weights.size(), [&](std::size_t v) { other[v] = !negative_zero(v); });
    return other;
  }
  return {};
}

// The sign of a zero sum as a sequential IEEE sum gives it: -0 when every term is -0, +0 when
// any term is +0 or nonzero (x + (-x) is +0), whatever the order of the terms. The Euler-tour
// and the parallel sums add and subtract other subtrees' weights, which turns -0 into +0, so
// zero results get the sign that counts of their terms say. An empty set of terms (exclusive, at
// a root or a leaf) stays +0.
template <class T>
void sign_zero_sums(const FileTreefix& request, const ParentArray& parent,
                    const std::vector<std::int64_t>& other, std::vector<T>& result) {
  const auto order = top_down_order(parent);
  const std::vector<std::int64_t> term(parent.size(), 1);
  const bool exclusive = request.options.exclusive;
  auto fix = [&](const std::vector<std::int64_t>& x) {
    return request.leaffix ? reference::leaffix(parent, order, x, Op::sum, exclusive)
                           : reference::rootfix(parent, order, x, Op::sum, exclusive);
  };
  const std::vector<std::int64_t> others = fix(other), terms = fix(term);
  parallel_for(result.size(), [&](std::size_t v) {
    if (result[v] == 0) result[v] = others[v] == 0 && terms[v] > 0 ? T(-0.0) : T(0);
  });
}

}  // namespace

template <class T>
void treefix_files(const FileTreefix& request, const std::function<Runtime&()>& device,
                   PhaseTimes& phases) {
  TreeReadOptions read;
  read.format = request.tree_format;
  read.validate = false;  // once, on the device (DeviceTree) or by the CPU pass's own order
  read.names = request.named_output;
  TreeInput tree = phases.measure("read", [&] { return read_tree_input(request.tree, read); });
  const ParentArray& parent = tree.parent;
  std::vector<T> weights = phases.measure("read", [&] {
    if (!request.weights.empty()) return read_weights<T>(request.weights, parent.size());
    if (tree.has_lengths) return lengths_as<T>(tree.lengths, request.tree);
    return prefaulted_vector<T>(parent.size(), T(1));
  });
  TreefixOptions options = request.options;
  options.phases = &phases;
  const std::vector<std::int64_t> other = not_negative_zero(request, weights);
  std::vector<T> result;
  try {
    result = compute_files<T>(request, parent, weights, options, device, phases);
  } catch (const NotAForestError& e) {  // found by the validation, after the reading
    throw NotAForestError(request.tree + ": " + e.what());
  }
  if (!other.empty()) sign_zero_sums(request, parent, other, result);
  if (request.device_done) request.device_done();
  phases.measure("write", [&] {
    if (request.named_output)
      write_named_values_file(request.output, tree.names, result);
    else
      write_values_file(request.output, result);
  });
}

template void treefix_files<std::int32_t>(const FileTreefix&, const std::function<Runtime&()>&,
                                          PhaseTimes&);
template void treefix_files<std::int64_t>(const FileTreefix&, const std::function<Runtime&()>&,
                                          PhaseTimes&);
template void treefix_files<float>(const FileTreefix&, const std::function<Runtime&()>&,
                                   PhaseTimes&);
template void treefix_files<double>(const FileTreefix&, const std::function<Runtime&()>&,
                                    PhaseTimes&);

}  // namespace treefix
