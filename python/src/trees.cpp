// Trees: treefix.rootfix / leaffix on parent arrays, and treefix.Tree, a forest validated once and
// kept on the device (treefix/treefix/treefix.hpp), read from parent arrays or Newick files.
#include <pybind11/stl.h>

#include <algorithm>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "result_blocks.hpp"
#include "runtime.hpp"
#include "tree_view.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/treefix/fix.hpp"
#include "treefix/treefix/newick.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix::python {
namespace {

template <class T>
py::array_t<T> ones(std::size_t n) {
  py::array_t<T> values(static_cast<py::ssize_t>(n));
  std::fill(values.mutable_data(), values.mutable_data() + n, T(1));
  return values;
}

// Transfers of at least this many bytes map the result's pages while the device computes (a
// fresh 64 MiB array costs 16,384 page faults on its first write, and the kernel's zeroing of the
// pages, ~6 ms on one core, is the larger part): one background task spreads pieces of
// kPrefaultPieceBytes over the host pool.
constexpr std::size_t kPrefaultBytes = std::size_t{1} << 20;
constexpr std::size_t kPrefaultPieceBytes = std::size_t{8} << 20;  // whole 2 MiB large pages

// Maps [data, data + bytes) for writing on the host pool; the future ends when it is mapped.
std::future<void> prefault_concurrently(char* data, std::size_t bytes) {
  return std::async(std::launch::async, [=] {
    const std::size_t pieces = (bytes + kPrefaultPieceBytes - 1) / kPrefaultPieceBytes;
    parallel_for(pieces, [=](std::size_t piece) {
      const std::size_t begin = piece * kPrefaultPieceBytes;
      prefault_for_writing(data + begin, std::min(kPrefaultPieceBytes, bytes - begin));
    });
  });
}

class Tree {
 public:
  Tree(RuntimeHandle box, ParentArray parent) : box_(std::move(box)) {
    on_device(*box_, [&](Runtime& runtime) {
      tree_ = std::make_unique<DeviceTree>(runtime, std::move(parent));
    });
  }

  static Tree from_newick(NewickTree&& newick, RuntimeHandle box) {
    Tree tree(std::move(box), std::move(newick.parent));
    tree.lengths_ = std::move(newick.length);
    tree.names_ = std::move(newick.names);
    tree.newick_ = true;
    tree.has_lengths_ = tree.has_names_ = true;
    return tree;
  }

  std::size_t n() const { return tree_->size(); }
  const RuntimeHandle& runtime() const { return box_; }

  // --- what the phylogenetic methods see (tree_view.hpp, phylo.cpp) ---
  void set_labels(std::optional<std::vector<double>> lengths, std::optional<NodeNames> names) {
    if (lengths) lengths_ = std::move(*lengths);
    if (names) names_ = std::move(*names);
    newick_ = lengths.has_value() || names.has_value();
    has_lengths_ = lengths.has_value();
    has_names_ = names.has_value();
  }
  TreeView view() {
    TreeView view;
    view.runtime = box_;
    view.tree = tree_.get();
    view.lengths = newick_ && has_lengths_ ? &lengths_ : nullptr;
    view.names = newick_ && has_names_ ? &names_ : nullptr;
    view.cache = &phylo_;
    return view;
  }

  // rootfix / leaffix of weights (n,) or a batch (k, n); None: ones, as int64.
  py::array fix(Fix fix, py::object weights, const std::string& op, bool exclusive,
                const std::string& algorithm, py::object out) {
    TreefixOptions options;
    options.op = parse<Op>(op);
    options.exclusive = exclusive;
    options.algorithm = parse<Algorithm>(algorithm);
    if (weights.is_none()) weights = ones<std::int64_t>(n());
    py::array given = numeric_array(weights, "weights");
    const ValueType type = weight_type(given, "weights");
    py::array in = contiguous(given, dtype_of(type));
    if (in.ndim() < 1 || in.ndim() > 2 || static_cast<std::size_t>(in.shape(in.ndim() - 1)) != n())
      throw InputError("weights of " + shape_text(in) + " for a tree of " + std::to_string(n()) +
                       " vertices: expected (" + std::to_string(n()) + ",) or a batch (k, " +
                       std::to_string(n()) + ")");
    const std::size_t rows = in.ndim() == 2 ? static_cast<std::size_t>(in.shape(0)) : 1;
    const ResultArray made = output_like(in, out);
    py::array result = made.array;
    const char* source = static_cast<const char*>(in.data());
    char* target = static_cast<char*>(result.mutable_data());
    const bool fresh = made.fresh_pages;
    on_device(*box_, [&](Runtime& runtime) {
      visit_value_type(type, [&](auto zero) {
        using T = decltype(zero);
        const std::size_t n = this->n(), row_bytes = n * sizeof(T);
        std::future<void> mapped;
        if (fresh && rows * row_bytes >= kPrefaultBytes)
          mapped = prefault_concurrently(target, rows * row_bytes);
        const auto wait_mapped = [&] {
          if (mapped.valid()) mapped.get();
        };
        // Kept by the Runtime between calls: a repeated call allocates nothing on the device.
        auto w = DeviceArray<T>::workspace(runtime, "python.treefix.weights", n);
        auto r = DeviceArray<T>::workspace(runtime, "python.treefix.result", n);
        for (std::size_t row = 0; row < rows; ++row) {
          if (n == 0) break;
          w.write_from(runtime, reinterpret_cast<const T*>(source + row * row_bytes), n);
          if (fix == Fix::root)
            rootfix(runtime, *tree_, w, r, options);
          else
            leaffix(runtime, *tree_, w, r, options);
          wait_mapped();
          r.read_into(runtime, reinterpret_cast<T*>(target + row * row_bytes), n);
        }
        wait_mapped();
      });
    });
    return result;
  }

  py::array preorder() {
    py::array_t<std::int32_t> order(static_cast<py::ssize_t>(n()));
    std::int32_t* target = order.mutable_data();
    on_device(*box_, [&](Runtime& runtime) {
      if (n() == 0) return;
      detail::read_buffer(runtime, tree_->euler_tour().pre_order(), target,
                          n() * sizeof(std::int32_t), nullptr);
    });
    return std::move(order);
  }

  py::array parents() const {
    const ParentArray& parent = tree_->parent();
    return py::array_t<std::int32_t>(static_cast<py::ssize_t>(parent.size()), parent.data());
  }

  // Made once (a list of strings, shared by every read of the property).
  py::object names() {
    if (!newick_ || !has_names_) return py::none();
    if (names_list_) return names_list_;
    py::list list;
    for (std::size_t v = 0; v < names_.size(); ++v) {
      const std::string_view name = names_[v];
      // Names are bytes of the file; anything that is not UTF-8 survives as surrogate escapes.
      list.append(py::reinterpret_steal<py::str>(PyUnicode_DecodeUTF8(
          name.data(), static_cast<Py_ssize_t>(name.size()), "surrogateescape")));
    }
    names_list_ = std::move(list);
    return names_list_;
  }

  py::object lengths() const {
    if (!newick_ || !has_lengths_) return py::none();
    return py::array_t<double>(static_cast<py::ssize_t>(lengths_.size()), lengths_.data());
  }

 private:
  // A new array of in's shape and dtype (every element is written by the call), or `out` when it
  // is one the results can go into.
  static ResultArray output_like(const py::array& in, const py::object& out) {
    if (out.is_none())
      return uninitialised_array(in.dtype(),
                                 std::vector<py::ssize_t>(in.shape(), in.shape() + in.ndim()));
    if (!py::isinstance<py::array>(out)) throw py::type_error("out: expected a NumPy array");
    py::array target = py::reinterpret_borrow<py::array>(out);
    const bool same_shape = target.ndim() == in.ndim() &&
                            std::equal(in.shape(), in.shape() + in.ndim(), target.shape());
    if (!same_shape || !target.dtype().is(in.dtype()) || !(target.flags() & py::array::c_style) ||
        !target.writeable())
      throw InputError("out: expected a writeable C-contiguous array of " + shape_text(in) +
                       " and dtype " + dtype_text(in.dtype()) + ", got " + shape_text(target) +
                       " of dtype " + dtype_text(target.dtype()));
    return {target, false};
  }

  RuntimeHandle box_;
  std::unique_ptr<DeviceTree> tree_;
  bool newick_ = false;
  std::vector<double> lengths_;
  NodeNames names_;
  py::object names_list_;
  bool has_lengths_ = false, has_names_ = false;  // which labels a tree from parents was given
  std::shared_ptr<PhyloCache> phylo_;
};

Tree make_tree(py::handle parents, const std::optional<RuntimeHandle>& runtime) {
  ParentArray parent = int32_vector(parents, "parents");
  return Tree(runtime_or_default(runtime), std::move(parent));
}

Tree make_labelled_tree(py::handle parents, py::handle lengths, py::handle names,
                        const std::optional<RuntimeHandle>& runtime) {
  ParentArray parent = int32_vector(parents, "parents");
  const std::size_t n = parent.size();
  std::optional<std::vector<double>> given_lengths;
  std::optional<NodeNames> given_names;
  if (!lengths.is_none()) given_lengths = lengths_argument(lengths, n);
  if (!names.is_none()) given_names = names_argument(names, n);
  Tree tree(runtime_or_default(runtime), std::move(parent));
  tree.set_labels(std::move(given_lengths), std::move(given_names));
  return tree;
}

const char* const kFixDoc = R"doc(
{name}(weights=None, *, op="sum", exclusive=False, algorithm="auto", out=None)

{what}, for every vertex. weights: shape (n,) or a batch (k, n) (each row is one set of weights),
of dtype int32, int64, float32 or float64 (other integer widths are taken as int64, other float
widths as float32 or float64); None: all ones, as int64. The result has the weights' shape and
dtype. op: "sum", "xor" (integers), "min" or "max". exclusive: leave the vertex's own weight out
(the identity of op where nothing is left). algorithm: "auto", "euler" (sum and xor), "levels",
"bfs" (the seed paper's per-call breadth-first search), "sequential" (the CPU reference). out: an array of the result's shape and dtype to write into
(no allocation). Integer sums wrap around; floating-point sums are within the bound the library
states (docs/reference/accuracy.md).)doc";

std::string fix_doc(const char* name, const char* what) {
  std::string doc = kFixDoc;
  doc.replace(doc.find("{name}"), 6, name);
  doc.replace(doc.find("{what}"), 6, what);
  return doc;
}

}  // namespace

TreeView tree_view(py::handle tree) { return py::cast<Tree&>(tree).view(); }

py::object make_tree_object(RuntimeHandle runtime, ParentArray parent,
                            std::optional<std::vector<double>> lengths,
                            std::optional<NodeNames> names) {
  Tree tree(std::move(runtime), std::move(parent));
  tree.set_labels(std::move(lengths), std::move(names));
  return py::cast(std::move(tree));
}

void bind_trees(py::module_& m) {
  py::class_<Tree> tree_class(m, "Tree", R"doc(
A rooted forest on the device: validated once (ValueError naming the vertex for a parent out of
range or a cycle), with its Euler tour kept for every later call.

Tree(parents, *, lengths=None, names=None, runtime=None): parents is a 1-D int32 or int64 array,
-1 for a root (several roots make a forest); lengths, n branch lengths (vertex v's branch to its
parent), and names, n strings (None or '' for an unnamed vertex), label it as a Newick tree is.
Tree.from_newick(path) reads a Newick file: vertices are numbered in pre-order as the nodes
appear in the text (the root is 0); names and lengths come with it.)doc");
  tree_class
      .def(py::init(&make_labelled_tree), py::arg("parents"), py::kw_only(),
           py::arg("lengths") = py::none(), py::arg("names") = py::none(), runtime_arg())
      .def_static(
          "from_newick",
          [](py::handle path_like, const std::optional<RuntimeHandle>& runtime) {
            const std::string path = path_text(path_like);
            NewickTree newick;
            {
              py::gil_scoped_release release;
              newick = read_newick(path, true);
            }
            return Tree::from_newick(std::move(newick), runtime_or_default(runtime));
          },
          py::arg("path"), py::kw_only(), runtime_arg(),
          "A tree from a Newick file (several ';'-ended trees make a forest). Malformed text "
          "raises ValueError with the byte offset and line.")
      .def_static(
          "from_newick_string",
          [](const std::string& text, const std::optional<RuntimeHandle>& runtime) {
            NewickTree newick;
            {
              py::gil_scoped_release release;
              newick = parse_newick(text, "newick text", true);
            }
            return Tree::from_newick(std::move(newick), runtime_or_default(runtime));
          },
          py::arg("text"), py::kw_only(), runtime_arg(), "A tree from Newick text.")
      .def_property_readonly("n", &Tree::n, "Number of vertices.")
      .def("__len__", &Tree::n)
      .def_property_readonly("runtime", &Tree::runtime, "The Runtime the tree lives on.")
      .def_property_readonly("parents", &Tree::parents, "The parent array (int32, -1 at roots).")
      .def_property_readonly("names", &Tree::names,
                             "Node names of a Newick tree ('' where unnamed), else None.")
      .def_property_readonly(
          "lengths", &Tree::lengths,
          "Branch lengths of a Newick tree (float64, 0 where none is written), else None.")
      .def(
          "depths",
          [](Tree& tree) {
            return tree.fix(Fix::root, ones<std::int32_t>(tree.n()), "sum", true, "auto",
                            py::none());
          },
          "Depth of every vertex (roots 0), int32.")
      .def(
          "subtree_sizes",
          [](Tree& tree) {
            return tree.fix(Fix::leaf, ones<std::int32_t>(tree.n()), "sum", false, "auto",
                            py::none());
          },
          "Vertices in the subtree of every vertex (itself included), int32.")
      .def("preorder", &Tree::preorder,
           "The vertices in depth-first pre-order (int32): trees in increasing root id, "
           "children in increasing id.")
      .def("__repr__",
           [](const Tree& tree) { return "treefix.Tree(n=" + std::to_string(tree.n()) + ")"; });

  // rootfix / leaffix, as Tree methods and as one-call functions.
  const std::pair<Fix, const char*> fixes[] = {
      {Fix::root, "The weight of each vertex combined with those of all its ancestors"},
      {Fix::leaf, "The weight of each vertex combined with those of all its descendants"}};
  for (const auto& [which, summary] : fixes) {
    const char* name = to_string(which);
    tree_class.def(
        name,
        [which = which](Tree& tree, py::object weights, const std::string& op, bool exclusive,
                        const std::string& algorithm, py::object out) {
          return tree.fix(which, std::move(weights), op, exclusive, algorithm, out);
        },
        py::arg("weights") = py::none(), py::kw_only(), py::arg("op") = "sum",
        py::arg("exclusive") = false, py::arg("algorithm") = "auto", py::arg("out") = py::none(),
        fix_doc(name, summary).c_str());
    m.def(
        name,
        [which = which](py::handle parents, py::object weights, const std::string& op,
                        bool exclusive, const std::string& algorithm,
                        const std::optional<RuntimeHandle>& runtime) {
          Tree tree = make_tree(parents, runtime);
          return tree.fix(which, std::move(weights), op, exclusive, algorithm, py::none());
        },
        py::arg("parents"), py::arg("weights") = py::none(), py::kw_only(), py::arg("op") = "sum",
        py::arg("exclusive") = false, py::arg("algorithm") = "auto", runtime_arg(),
        (std::string(name) +
         "(parents, weights=None, *, op=\"sum\", exclusive=False, algorithm=\"auto\", "
         "runtime=None)\n\nThe same as Tree(parents, runtime=runtime)." +
         name + "(weights, ...): one call, the tree validated and prepared for it alone.")
            .c_str());
  }
  bind_phylo(m, tree_class);
}

}  // namespace treefix::python
