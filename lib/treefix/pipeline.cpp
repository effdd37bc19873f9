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
  if (options.algorithm == Algorithm::sequential) {
    // Asked for by name: no device at all. The orders of the reference's own calls
    // (reference.cpp): the same results, the cheapest.
    const auto order = phases.measure("validate", [&] {
      return request.leaffix ? level_order(parent) : parent_first_order(parent);
    });
    result = phases.measure("compute", [&] {
      return request.leaffix ? reference::leaffix(parent, order, weights, options.op,
                                                  options.exclusive, options.precision)
                             : reference::rootfix(parent, order, weights, options.op,
                                                  options.exclusive, options.precision);
    });
    return result;
  }
  // `automatic` is the library's to resolve (choose_algorithm): on a CPU device it runs the same
  // host pass, touching nothing on the device. The weights are read for this call alone: their
  // memory takes the result.
  Runtime& runtime = phases.measure("device setup", [&]() -> Runtime& { return device(); });
  result = request.leaffix ? leaffix(runtime, parent, std::move(weights), options)
                           : rootfix(runtime, parent, std::move(weights), options);
  return result;
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
  // Zero sums get IEEE's sign (-0 when every term is -0) from the library's accurate sums.
  std::vector<T> result;
  try {
    result = compute_files<T>(request, parent, weights, options, device, phases);
  } catch (const NotAForestError& e) {  // found by the validation, after the reading
    throw NotAForestError(request.tree + ": " + e.what());
  }
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
