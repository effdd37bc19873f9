#pragma once
// Between treefix.Tree (trees.cpp) and its phylogenetic methods (phylo.cpp): what the methods
// need of a tree, and how they make a new one. Kept apart so that each file's edits stay its own.
#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <vector>

#include "runtime.hpp"
#include "treefix/treefix/newick.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix::python {

struct PhyloCache;  // phylo.cpp: the lca index, path lengths and name index a Tree keeps

struct TreeView {
  RuntimeHandle runtime;
  DeviceTree* tree = nullptr;
  const std::vector<double>* lengths = nullptr;  // null: the tree has no branch lengths
  const NodeNames* names = nullptr;              // null: the tree has no names
  std::shared_ptr<PhyloCache>* cache = nullptr;  // made on first use, kept with the tree
};

// The view of a treefix.Tree object (TypeError for anything else).
TreeView tree_view(py::handle tree);

// A new treefix.Tree on `runtime`, with branch lengths and names when given.
py::object make_tree_object(RuntimeHandle runtime, ParentArray parent,
                            std::optional<std::vector<double>> lengths,
                            std::optional<NodeNames> names);

// Tree(..., lengths=, names=): n finite float64 lengths; n names (str, or None for unnamed).
// ValueError naming the element otherwise.
std::vector<double> lengths_argument(py::handle lengths, std::size_t n);
NodeNames names_argument(py::handle names, std::size_t n);

// Adds the phylogenetic methods (traversals, lca, distances, surgery, UniFrac, Newick) to the
// Tree class, and treefix.generate (the library's tree shapes) to the module.
void bind_phylo(py::module_& m, py::object tree_class);

}  // namespace treefix::python
