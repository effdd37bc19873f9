// treefix.KDTree (kdtree.hpp): construction, attributes, pickling and the node view, and the
// bindings of the class with cKDTree's names, defaults and docstrings.
#include "kdtree.hpp"

#include <pybind11/stl.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "arrays.hpp"
#include "treefix/core/error.hpp"

namespace treefix::python {
namespace {

constexpr int kMaxDimensions = 16;  // what the kernels take


// numpy.asarray(obj), refusing complex numbers as scipy.spatial.KDTree does.
py::array real_array(py::handle obj) {
  py::array array = numpy().attr("asarray")(obj);
  if (array.dtype().kind() == 'c') throw py::type_error("KDTree does not work with complex data");
  return array;
}

py::array read_only(py::array array) {
  array.attr("flags").attr("writeable") = false;
  return array;
}

// One node of the view; its children are made with it (the whole view at once, as cKDTree).
struct KDTreeNode {
  py::ssize_t level = 0, split_dim = -1, children = 0, start_idx = 0, end_idx = 0;
  double split = 0;
  py::object lesser = py::none(), greater = py::none();
  py::array data, order;  // the tree's data and indices
  py::array indices() const { return order[py::slice(start_idx, end_idx, 1)].cast<py::array>(); }
  py::array data_points() const { return data[py::make_tuple(indices(), py::ellipsis())]; }
};

}  // namespace

KDTree::KDTree(RuntimeHandle box, py::handle data, py::ssize_t leafsize, bool compact_nodes,
               bool copy_data, bool balanced_tree, py::handle boxsize)
    : box_(std::move(box)),
      leafsize_(leafsize),
      compact_nodes_(compact_nodes),
      balanced_tree_(balanced_tree) {
  py::array given = real_array(data);
  // As cKDTree: no copy of C-ordered float64 data unless copy_data.
  py::array rows =
      copy_data ? numpy().attr("array")(given, py::arg("dtype") = "float64", py::arg("order") = "C")
                : numpy().attr("ascontiguousarray")(given, py::arg("dtype") = "float64");
  if (rows.ndim() != 2)
    throw py::value_error(
        "data must be of shape (n, m), where there are n points of dimension m; got " +
        shape_text(rows));
  if (leafsize < 1) throw py::value_error("leafsize must be at least 1");
  n_ = static_cast<std::size_t>(rows.shape(0));
  m_ = rows.shape(1);
  if (m_ < 1 || m_ > kMaxDimensions)
    throw py::value_error("data: points of " + std::to_string(m_) +
                          " coordinates; treefix.KDTree takes 1 to " +
                          std::to_string(kMaxDimensions));
  data_ = read_only(rows.attr("view")(numpy().attr("ndarray")));
  if (!boxsize.is_none()) {
    py::array sizes =
        numpy().attr("array")(numpy().attr("broadcast_to")(real_array(boxsize), py::make_tuple(m_)),
                              py::arg("dtype") = "float64");
    auto values = sizes.unchecked<double, 1>();
    metric_.box.assign(values.data(0), values.data(0) + m_);
    for (double full : metric_.box)
      if (!(full >= 0) || !std::isfinite(full))
        throw py::value_error("boxsize must be finite and >= 0 (0: not periodic), not " +
                              std::to_string(full));
    boxsize_ = read_only(sizes);
  }
  std::vector<double> lo(m_, 0.0), hi(m_, 0.0);
  if (n_ > 0) {
    const double* values = static_cast<const double*>(data_.data());
    const int dim = static_cast<int>(m_);
    const int leaf = static_cast<int>(std::min<py::ssize_t>(leafsize, 1 << 30));
    on_device(*box_, [&](Runtime& runtime) {
      auto points = DevicePoints64::upload_rows(runtime, values, n_, dim, "data");
      BuildOptions options;
      options.leaf_size = leaf;
      options.equal_points_together = true;
      tree_ = std::make_unique<DeviceKdTree64>(build_kd_tree(runtime, points, options));
      tree_->root_box(runtime, lo, hi);
      check_periodic_box(runtime, *tree_, metric_.box);
    });
    double spread = 0;  // squared distances must not overflow (differences beyond ~1e154)
    for (py::ssize_t k = 0; k < m_; ++k) spread += (hi[k] - lo[k]) * (hi[k] - lo[k]);
    if (std::isinf(spread))
      throw py::value_error(
          "data: the points spread so far apart that their squared distances overflow float64 "
          "(coordinate differences beyond about 1e154); scale the data");
  }
  maxes_ = read_only(py::array_t<double>(m_, hi.data()));
  mins_ = read_only(py::array_t<double>(m_, lo.data()));
}

py::ssize_t KDTree::size() const {
  return tree_ ? static_cast<py::ssize_t>(tree_->shape.nodes) : 1;
}

py::array KDTree::indices() {
  if (indices_.is_none()) {
    py::array_t<py::ssize_t> order(static_cast<py::ssize_t>(n_));
    if (tree_) {
      std::vector<std::int32_t> positions(n_);
      on_device(*box_, [&](Runtime& runtime) {
        tree_->point_index.read_into(runtime, positions.data(), n_);
      });
      std::copy(positions.begin(), positions.end(), order.mutable_data());
    }
    indices_ = read_only(order);
  }
  return indices_.cast<py::array>();
}

py::object KDTree::tree() {
  if (!tree_view_.is_none()) return tree_view_;
  py::array order = indices();
  auto make = [&](py::ssize_t level, py::ssize_t split_dim, double split, py::ssize_t start,
                  py::ssize_t end) {
    KDTreeNode node;
    node.level = level;
    node.split_dim = split_dim;
    node.split = split;
    node.start_idx = start;
    node.end_idx = end;
    node.children = end - start;
    node.data = data_;
    node.order = order;
    return node;
  };
  if (!tree_) {
    tree_view_ = py::cast(make(0, -1, 0.0, 0, 0));
    return tree_view_;
  }
  KdTreeNodes<double> nodes;
  on_device(*box_, [&](Runtime& runtime) { nodes = download_nodes(runtime, *tree_); });
  const std::size_t count = nodes.first.size();
  // Ranges of tree positions, children before parents (the points of a node are contiguous).
  std::vector<std::int32_t> begin(count), end(count), order_of_visit, stack{0};
  std::vector<py::ssize_t> level(count, 0);
  while (!stack.empty()) {
    const std::int32_t v = stack.back();
    stack.pop_back();
    order_of_visit.push_back(v);
    for (int c = 0; c < 2; ++c) {
      const std::int32_t child = nodes.child[2 * v + c];
      if (child < 0) continue;
      level[child] = level[v] + 1;
      stack.push_back(child);
    }
  }
  std::vector<py::object> made(count);
  const double* values = static_cast<const double*>(data_.data());
  const auto* positions = static_cast<const py::ssize_t*>(order.data());
  for (auto it = order_of_visit.rbegin(); it != order_of_visit.rend(); ++it) {
    const std::int32_t v = *it;
    const std::int32_t a = nodes.child[2 * v], b = nodes.child[2 * v + 1];
    if (a < 0) {
      begin[v] = nodes.first[v];
      end[v] = nodes.first[v] + nodes.count[v];
      made[v] = py::cast(make(level[v], -1, 0.0, begin[v], end[v]));
      continue;
    }
    begin[v] = std::min(begin[a], begin[b]);
    end[v] = std::max(end[a], end[b]);
    py::ssize_t split_dim = nodes.split_dim[v];
    double split = nodes.split_value[v];
    if (split_dim < 0) {  // halves of one Morton cell: name the widest coordinate, nominally
      double widest = -1;
      for (py::ssize_t k = 0; k < m_; ++k) {
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (std::int32_t j = begin[v]; j < end[v]; ++j) {
          const double x = values[positions[j] * m_ + k];
          lo = std::min(lo, x);
          hi = std::max(hi, x);
        }
        if (hi - lo > widest) {
          widest = hi - lo;
          split_dim = k;
          split = 0.5 * lo + 0.5 * hi;
        }
      }
    }
    KDTreeNode node = make(level[v], split_dim, split, begin[v], end[v]);
    node.lesser = made[a];
    node.greater = made[b];
    made[v] = py::cast(std::move(node));
  }
  tree_view_ = made[0];
  return tree_view_;
}

py::array KDTree::build_weights(py::handle weights) {
  py::array_t<double> w = numpy().attr("ascontiguousarray")(weights, py::arg("dtype") = "float64");
  if (w.ndim() != 1 || static_cast<std::size_t>(w.shape(0)) != n_)
    throw py::value_error("Number of weights differ from the number of data points");
  py::array_t<double> node_weights(size());
  double* out = node_weights.mutable_data();
  if (!tree_) {
    out[0] = 0;
    return std::move(node_weights);
  }
  KdTreeNodes<double> nodes;
  on_device(*box_, [&](Runtime& runtime) { nodes = download_nodes(runtime, *tree_); });
  const double* point_weight = w.data();
  std::vector<std::int32_t> order_of_visit, stack{0};
  while (!stack.empty()) {
    const std::int32_t v = stack.back();
    stack.pop_back();
    order_of_visit.push_back(v);
    for (int c = 0; c < 2; ++c)
      if (nodes.child[2 * v + c] >= 0) stack.push_back(nodes.child[2 * v + c]);
  }
  for (auto it = order_of_visit.rbegin(); it != order_of_visit.rend(); ++it) {
    const std::int32_t v = *it, a = nodes.child[2 * v], b = nodes.child[2 * v + 1];
    double sum = 0;
    if (a < 0) {
      for (std::int32_t j = nodes.first[v]; j < nodes.first[v] + nodes.count[v]; ++j)
        sum += point_weight[nodes.point_index[j]];
    } else {
      sum = out[a] + out[b];
    }
    out[v] = sum;
  }
  return std::move(node_weights);
}

PyObject* const* KDTree::index_objects() {
  if (index_pointers_.size() != n_) {
    index_objects_.reserve(n_);
    index_pointers_.reserve(n_);
    for (std::size_t i = 0; i < n_; ++i) {
      index_objects_.push_back(py::int_(i));
      index_pointers_.push_back(index_objects_.back().ptr());
    }
  }
  return index_pointers_.data();
}

py::tuple KDTree::state() const {
  return py::make_tuple(1, data_.attr("copy")(), leafsize_, boxsize_, compact_nodes_,
                        balanced_tree_);
}

std::unique_ptr<KDTree> KDTree::from_state(const py::tuple& state) {
  if (state.size() != 6 || state[0].cast<int>() != 1)
    throw py::value_error("KDTree: not a pickled treefix.KDTree of this version");
  return std::make_unique<KDTree>(runtime_or_default(std::nullopt), state[1],
                                  state[2].cast<py::ssize_t>(), state[4].cast<bool>(), false,
                                  state[5].cast<bool>(), state[3]);
}

void bind_kdtree_queries(py::class_<KDTree>& cls);  // kdtree_queries.cpp

void bind_kdtree(py::module_& m) {
  py::class_<KDTreeNode>(m, "KDTreeNode", R"doc(
A node of a KDTree's structure (KDTree.tree), as scipy.spatial.cKDTreeNode: level, split_dim
(-1 at a leaf), split, children (points below), start_idx and end_idx (their range in
KDTree.indices), indices, data_points, lesser and greater (None at a leaf).)doc")
      .def_readonly("level", &KDTreeNode::level)
      .def_readonly("split_dim", &KDTreeNode::split_dim)
      .def_readonly("split", &KDTreeNode::split)
      .def_readonly("children", &KDTreeNode::children)
      .def_readonly("start_idx", &KDTreeNode::start_idx)
      .def_readonly("end_idx", &KDTreeNode::end_idx)
      .def_readonly("lesser", &KDTreeNode::lesser)
      .def_readonly("greater", &KDTreeNode::greater)
      .def_property_readonly("indices", &KDTreeNode::indices)
      .def_property_readonly("data_points", &KDTreeNode::data_points);

  py::class_<KDTree> cls(m, "KDTree", R"doc(
KDTree(data, leafsize=16, compact_nodes=True, copy_data=False, balanced_tree=True, boxsize=None,
       *, runtime=None)

scipy.spatial.cKDTree on an OpenCL device: the kd-tree is built on the device and kept there, and
every query runs there in float64, with cKDTree's arithmetic, so that the answers are cKDTree's
(docs/python.md says where they may differ: the order of equal distances, general p).

data is (n, m), 1 <= m <= 16, any real dtype (converted to float64, copied only when it is not
already C-ordered float64 or copy_data=True), finite. leafsize is the leaves' size; compact_nodes
and balanced_tree are accepted and change nothing (the device builds one kind of tree).
boxsize: a periodic box (a scalar or one size per coordinate; 0: not periodic); the data must lie
in [0, boxsize). Attributes: data, leafsize, m, n, maxes, mins, size, indices, boxsize, tree.
Pickling stores the data and options; loading builds the tree again on the default device.)doc");
  cls.def(py::init([](py::handle data, py::ssize_t leafsize, bool compact_nodes, bool copy_data,
                      bool balanced_tree, py::handle boxsize,
                      const std::optional<RuntimeHandle>& runtime) {
            return std::make_unique<KDTree>(runtime_or_default(runtime), data, leafsize,
                                            compact_nodes, copy_data, balanced_tree, boxsize);
          }),
          py::arg("data"), py::arg("leafsize") = 16, py::arg("compact_nodes") = true,
          py::arg("copy_data") = false, py::arg("balanced_tree") = true,
          py::arg("boxsize") = py::none(), py::kw_only(), runtime_arg())
      .def_property_readonly("data", &KDTree::data, "The points, (n, m) float64 (read-only).")
      .def_property_readonly("leafsize", &KDTree::leafsize, "The leaves' size.")
      .def_property_readonly("n", &KDTree::n, "Number of points.")
      .def_property_readonly("m", &KDTree::m, "Coordinates per point.")
      .def_property_readonly("size", &KDTree::size, "Number of nodes.")
      .def_property_readonly("maxes", &KDTree::maxes, "Largest value of each coordinate.")
      .def_property_readonly("mins", &KDTree::mins, "Smallest value of each coordinate.")
      .def_property_readonly("boxsize", &KDTree::boxsize, "The periodic box, or None.")
      .def_property_readonly("indices", &KDTree::indices,
                             "The points in the tree's order (indices into data).")
      .def_property_readonly("tree", &KDTree::tree, "The root of the structure (KDTreeNode).")
      .def("_build_weights", &KDTree::build_weights, py::arg("weights"),
           "The sum of the weights of the points below each node.")
      .def(py::pickle([](const KDTree& t) { return t.state(); },
                      [](const py::tuple& state) { return KDTree::from_state(state); }));
  bind_kdtree_queries(cls);
}

}  // namespace treefix::python
