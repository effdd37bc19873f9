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
#include "treefix/core/result_memory.hpp"
#include "treefix/treefix/reference.hpp"
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

// Results of at least this many bytes have their pages mapped while the computation runs (a
// fresh 64 MiB array costs 16,384 page faults on its first write).
constexpr std::size_t kMapAheadBytes = std::size_t{1} << 20;

class Tree {
 public:
  // Validated once: on the device, or on the host where the device's form can wait (a CPU device:
  // DeviceTree) or there is no device at all (box null), where only host work is possible.
  Tree(RuntimeHandle box, ParentArray parent) : box_(std::move(box)) {
    auto shared = std::make_shared<const ParentArray>(std::move(parent));
    if (box_) {
      on_device(*box_, [&](Runtime& runtime) {
        tree_ = std::make_unique<DeviceTree>(runtime, std::move(shared));
      });
    } else {
      py::gil_scoped_release release;
      validate_parent_array(*shared);
      host_parent_ = std::move(shared);
    }
  }
  // A tree made on the device (its parent array uploaded there, or made there by tree surgery).
  Tree(RuntimeHandle box, std::unique_ptr<DeviceTree> tree)
      : box_(std::move(box)), tree_(std::move(tree)) {}
  Tree(Tree&&) = default;
  ~Tree() {
    // A forked child cannot release device memory (the driver stayed in the parent): left.
    if (forked_after_device_setup()) {
      static_cast<void>(tree_.release());
      static_cast<void>(lengths_.release());
    }
  }

  static Tree from_newick(NewickTree&& newick, RuntimeHandle box) {
    Tree tree(std::move(box), std::move(newick.parent));
    tree.lengths_ = std::make_unique<BranchLengths>(std::move(newick.length));
    tree.names_ = std::move(newick.names);
    tree.has_names_ = true;
    return tree;
  }

  std::size_t n() const { return tree_ ? tree_->size() : host_parent_->size(); }
  // The runtime, or RuntimeError saying why there is none (no OpenCL device).
  RuntimeHandle runtime() const { return box_ ? box_ : runtime_or_default(std::nullopt); }

  // --- what the phylogenetic methods see (tree_view.hpp, phylo.cpp) ---
  void set_labels(std::unique_ptr<BranchLengths> lengths, std::optional<NodeNames> names) {
    lengths_ = std::move(lengths);
    has_names_ = names.has_value();
    if (names) names_ = std::move(*names);
  }
  TreeView view() {
    if (!tree_) runtime_or_default(std::nullopt);  // no device: raises the reason
    TreeView view;
    view.runtime = box_;
    view.tree = tree_.get();
    view.lengths = lengths_.get();
    view.names = has_names_ ? &names_ : nullptr;
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
    const void* source = in.data();
    void* target = result.mutable_data();
    const std::size_t bytes = static_cast<std::size_t>(result.nbytes());
    const bool map_ahead = made.fresh_pages && bytes >= kMapAheadBytes;
    const auto compute = [&](Runtime* runtime) {
      visit_value_type(type, [&](auto zero) {
        using T = decltype(zero);
        std::optional<BackgroundMapping> mapping;  // waited for on every way out
        if (map_ahead) mapping.emplace(target, bytes);
        const T* w = static_cast<const T*>(source);
        T* r = static_cast<T*>(target);
        if (runtime)
          treefix::treefix(*runtime, *tree_, w, r, rows, fix, options);
        else
          host_fix(w, r, rows, fix, options);
      });
    };
    if (box_)
      on_device(*box_, [&](Runtime& runtime) { compute(&runtime); });
    else
      with_host(options, [&] { compute(nullptr); });
    return result;
  }

  py::array preorder() {
    py::array_t<std::int32_t> order(static_cast<py::ssize_t>(n()));
    std::int32_t* target = order.mutable_data();
    if (box_ && tree_->on_device()) {
      on_device(*box_, [&](Runtime& runtime) {
        if (n() == 0) return;
        detail::read_buffer(runtime, tree_->euler_tour().pre_order(), target,
                            n() * sizeof(std::int32_t), nullptr);
      });
    } else {
      const ParentArray& parent = host_parent();
      py::gil_scoped_release release;
      const std::vector<vertex_t> found = treefix::preorder(parent);
      std::copy(found.begin(), found.end(), target);
    }
    return std::move(order);
  }

  // A copy: from the host array where there is one, else straight from the device (no host copy
  // kept for a tree that was made there).
  py::array parents() {
    py::array_t<std::int32_t> out(static_cast<py::ssize_t>(n()));
    std::int32_t* target = out.mutable_data();
    if (!tree_) {
      std::copy(host_parent_->begin(), host_parent_->end(), target);
      return std::move(out);
    }
    on_device(*box_, [&](Runtime&) { tree_->copy_parent_to(target); });
    return std::move(out);
  }

  // A tuple, made once: it cannot be changed, so every read may share it (a list handed out
  // would let the caller change the tree's names).
  py::object names() {
    if (!has_names_) return py::none();
    if (names_tuple_) return names_tuple_;
    py::tuple names(names_.size());
    for (std::size_t v = 0; v < names_.size(); ++v) {
      const std::string_view name = names_[v];
      // Names are bytes of the file; anything that is not UTF-8 survives as surrogate escapes.
      names[v] = py::reinterpret_steal<py::str>(PyUnicode_DecodeUTF8(
          name.data(), static_cast<Py_ssize_t>(name.size()), "surrogateescape"));
    }
    names_tuple_ = std::move(names);
    return names_tuple_;
  }

  // A copy, from the host or straight from the device (no host copy kept).
  py::object lengths() {
    if (!lengths_) return py::none();
    py::array_t<double> out(static_cast<py::ssize_t>(lengths_->size()));
    double* target = out.mutable_data();
    if (box_)  // under the lock: another thread may be making the host copy
      on_device(*box_, [&](Runtime& runtime) { lengths_->read_into(&runtime, target); });
    else
      lengths_->read_into(nullptr, target);
    return std::move(out);
  }

  // Pickling: the host form (parents, and a Newick tree's names and lengths); a loaded tree is
  // validated and put on the default runtime afresh.
  py::tuple state() {
    return py::make_tuple(parents(), names(), lengths());
  }
  static Tree from_state(const py::tuple& state) {
    if (state.size() != 3) throw InputError("a pickled treefix.Tree holds 3 items");
    Tree tree(default_runtime_if_any(), int32_vector(state[0], "parents"));
    if (!state[1].is_none()) {
      for (py::handle name : state[1]) {
        const std::string bytes =
            py::reinterpret_borrow<py::str>(name).attr("encode")("utf-8", "surrogateescape")
                .cast<std::string>();
        tree.names_.add();
        tree.names_.append(tree.names_.size() - 1, bytes);
      }
      tree.has_names_ = true;
    }
    if (!state[2].is_none())
      tree.lengths_ = std::make_unique<BranchLengths>(
          contiguous_as<double>(state[2]).cast<std::vector<double>>());
    return tree;
  }

 private:
  // No device: the sequential pass, asked for by name or by `auto`; anything else says why no
  // device is there.
  template <class F>
  void with_host(const TreefixOptions& options, F&& run) {
    if (options.algorithm != Algorithm::sequential && options.algorithm != Algorithm::automatic)
      runtime_or_default(std::nullopt);  // throws the reason
    py::gil_scoped_release release;
    run();
  }
  template <class T>
  void host_fix(const T* weights, T* result, std::size_t rows, Fix fix,
                const TreefixOptions& options) {
    const ParentArray& parent = *host_parent_;
    const std::vector<vertex_t> order =
        fix == Fix::root ? parent_first_order(parent) : level_order(parent);
    std::vector<T> w(n());
    for (std::size_t row = 0; row < rows; ++row) {
      std::copy(weights + row * n(), weights + (row + 1) * n(), w.begin());
      const std::vector<T> r =
          fix == Fix::root
              ? reference::rootfix(parent, order, w, options.op, options.exclusive,
                                   options.precision)
              : reference::leaffix(parent, order, w, options.op, options.exclusive,
                                   options.precision);
      std::copy(r.begin(), r.end(), result + row * n());
    }
  }

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

  // The parent array on the host: the tree's own without a device, else the device tree's copy
  // (downloaded on first call for a tree made on the device, under the runtime's lock). With the
  // GIL held.
  const ParentArray& host_parent() {
    if (!tree_) return *host_parent_;
    return on_device(*box_, [&](Runtime&) -> const ParentArray& { return tree_->parent(); });
  }

  RuntimeHandle box_;  // null: no OpenCL device (host work only)
  std::shared_ptr<const ParentArray> host_parent_;  // without a device only
  std::unique_ptr<DeviceTree> tree_;                // null without a device
  std::unique_ptr<BranchLengths> lengths_;          // null: no branch lengths
  NodeNames names_;
  py::object names_tuple_;
  bool has_names_ = false;
  std::shared_ptr<PhyloCache> phylo_;
};

// The parents as an int32 array to send to the device as it lies: a 1-D NumPy int32 array
// (made C-contiguous), when the runtime validates on the device. Anything else (int64 values,
// lists, a CPU device that validates on the host) takes int32_vector's host copy.
std::optional<py::array_t<std::int32_t>> parents_to_upload(py::handle parents,
                                                           const RuntimeHandle& box) {
  if (!box || automatic_on_host(box->runtime) || !py::isinstance<py::array>(parents))
    return std::nullopt;
  const auto array = py::reinterpret_borrow<py::array>(parents);
  if (array.ndim() != 1 || array.dtype().kind() != 'i' || array.dtype().itemsize() != 4)
    return std::nullopt;
  return contiguous_as<std::int32_t>(array);
}

// Tree(parents, lengths=, names=): the arguments checked in the order the messages name them
// (the parents' type, the lengths, the names, then the forest). With a device, a NumPy int32
// parent array and the lengths go there straight from the caller's memory, and are checked there.
Tree make_labelled_tree(py::handle parents, py::handle lengths, py::handle names,
                        const std::optional<RuntimeHandle>& runtime) {
  RuntimeHandle box = runtime_or_any(runtime);
  const std::optional<py::array_t<std::int32_t>> ids = parents_to_upload(parents, box);
  ParentArray parent;
  if (!ids) parent = int32_vector(parents, "parents");
  const std::size_t n = ids ? static_cast<std::size_t>(ids->size()) : parent.size();
  std::optional<py::array_t<double>> length_values;
  std::unique_ptr<BranchLengths> given_lengths;
  if (!lengths.is_none() && box)
    length_values = lengths_values(lengths, n);
  else if (!lengths.is_none())
    given_lengths = std::make_unique<BranchLengths>(lengths_argument(lengths, n));
  DeviceArray<vertex_t> device_parent;
  if (box && (ids || length_values))
    on_device(*box, [&](Runtime& runtime) {
      if (ids) {
        device_parent = DeviceArray<vertex_t>(runtime, n, "parent array");
        device_parent.write_from(runtime, ids->data(), n);
      }
      if (length_values)
        given_lengths = std::make_unique<BranchLengths>(
            device_lengths_argument(runtime, length_values->data(), n));
    });
  std::optional<NodeNames> given_names;
  if (!names.is_none()) given_names = names_argument(names, n);
  std::optional<Tree> tree;
  if (ids) {
    std::unique_ptr<DeviceTree> made;
    on_device(*box, [&](Runtime& runtime) {
      made = std::make_unique<DeviceTree>(runtime, std::move(device_parent), ParentCheck::validate);
    });
    tree.emplace(std::move(box), std::move(made));
  } else {
    tree.emplace(std::move(box), std::move(parent));
  }
  tree->set_labels(std::move(given_lengths), std::move(given_names));
  return std::move(*tree);
}

Tree make_tree(py::handle parents, const std::optional<RuntimeHandle>& runtime) {
  return make_labelled_tree(parents, py::none(), py::none(), runtime);
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

py::object make_tree_object(RuntimeHandle runtime, std::unique_ptr<DeviceTree> device_tree,
                            std::unique_ptr<BranchLengths> lengths,
                            std::optional<NodeNames> names) {
  Tree tree(std::move(runtime), std::move(device_tree));
  tree.set_labels(std::move(lengths), std::move(names));
  return py::cast(std::move(tree));
}

void bind_trees(py::module_& m) {
  py::class_<Tree> tree_class(m, "Tree", R"doc(
A rooted forest on the device: validated once (ValueError naming the vertex for a parent out of
range or a cycle), with its Euler tour kept for every later call (on a CPU device, made when a call
first needs it). Without any OpenCL device (or in a process forked after the device was used) a
Tree still parses, validates, lists its preorder() and runs the sequential pass; device calls
raise RuntimeError. Trees pickle (re-validated, on the default runtime, when loaded).

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
            return Tree::from_newick(std::move(newick), runtime_or_any(runtime));
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
            return Tree::from_newick(std::move(newick), runtime_or_any(runtime));
          },
          py::arg("text"), py::kw_only(), runtime_arg(), "A tree from Newick text.")
      .def_property_readonly("n", &Tree::n, "Number of vertices.")
      .def("__len__", &Tree::n)
      .def(py::pickle([](Tree& tree) { return tree.state(); },
                      [](const py::tuple& state) { return Tree::from_state(state); }))
      .def_property_readonly("runtime", &Tree::runtime,
                             "The Runtime the tree lives on (RuntimeError when there is no "
                             "OpenCL device).")
      .def_property_readonly("parents", &Tree::parents,
                             "A copy of the parent array (int32, -1 at roots).")
      .def_property_readonly("names", &Tree::names,
                             "The node names of a Newick tree, as a tuple ('' where unnamed), "
                             "else None.")
      .def_property_readonly("lengths", &Tree::lengths,
                             "A copy of the branch lengths of a Newick tree (float64, 0 where "
                             "none is written), else None.")
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
