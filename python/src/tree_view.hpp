#pragma once
// Between treefix.Tree (trees.cpp) and its phylogenetic methods (phylo.cpp): what the methods
// need of a tree, and how they make a new one. Kept apart so that each file's edits stay its own.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <vector>

#include "runtime.hpp"
#include "treefix/treefix/newick.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix::python {

struct PhyloCache;  // phylo.cpp: the lca index, path lengths and name index a Tree keeps

// A tree's branch lengths, kept where they were made: on the device (Tree(lengths=) with a
// device, tree surgery) or on the host (without a device, a Newick file, a pickle). The other form
// is made from it when first asked for and kept; read_into copies out without keeping one.
// Device work runs under the runtime's lock (on_device, on_tree).
class BranchLengths {
 public:
  explicit BranchLengths(std::vector<double> values);
  explicit BranchLengths(DeviceArray<double> values);
  std::size_t size() const { return size_; }
  bool on_host() const { return on_host_; }
  const std::vector<double>& host(Runtime& runtime);    // a download on first call
  const std::vector<double>& host() const;              // on_host() only
  const DeviceArray<double>& device(Runtime& runtime);  // an upload on first call
  void read_into(Runtime* runtime, double* out) const;  // runtime: null when on_host()

 private:
  std::size_t size_ = 0;
  bool on_host_ = false, on_device_ = false;
  std::vector<double> host_;
  DeviceArray<double> device_;
};

struct TreeView {
  RuntimeHandle runtime;
  DeviceTree* tree = nullptr;
  BranchLengths* lengths = nullptr;              // null: the tree has no branch lengths
  const NodeNames* names = nullptr;              // null: the tree has no names
  std::shared_ptr<PhyloCache>* cache = nullptr;  // made on first use, kept with the tree
};

// The view of a treefix.Tree object (TypeError for anything else).
TreeView tree_view(py::handle tree);

// A new treefix.Tree on `runtime` from a tree already on the device (tree surgery's: its parent
// array, lengths and the new tree stay there), with branch lengths and names when given.
py::object make_tree_object(RuntimeHandle runtime, std::unique_ptr<DeviceTree> tree,
                            std::unique_ptr<BranchLengths> lengths, std::optional<NodeNames> names);

// Tree(..., lengths=, names=): n finite float64 lengths; n names (str, or None for unnamed).
// ValueError naming the element otherwise. With a runtime the lengths go straight from the
// array to the device and are checked there (device_lengths_argument, under the runtime's lock:
// `values` is what lengths_values made of the argument, with the GIL held).
std::vector<double> lengths_argument(py::handle lengths, std::size_t n);
py::array_t<double> lengths_values(py::handle lengths, std::size_t n);
DeviceArray<double> device_lengths_argument(Runtime& runtime, const double* values, std::size_t n);
NodeNames names_argument(py::handle names, std::size_t n);

// Adds the phylogenetic methods (traversals, lca, distances, surgery, UniFrac, Newick) to the
// Tree class, and treefix.generate (the library's tree shapes) to the module.
void bind_phylo(py::module_& m, py::object tree_class);

}  // namespace treefix::python
