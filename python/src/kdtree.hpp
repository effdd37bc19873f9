#pragma once
// treefix.KDTree: scipy.spatial.cKDTree's class on a kd-tree built and kept on the device, in
// float64 (treefix/spatial/kd_search.hpp). kdtree.cpp: construction, attributes, pickling, the
// node view; kdtree_queries.cpp: the queries; kdtree_results.cpp: their Python results.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "runtime.hpp"
#include "treefix/spatial/kd_search.hpp"

namespace treefix::python {

struct HostLists;  // kdtree_results.hpp

class KDTree {
 public:
  KDTree(RuntimeHandle box, py::handle data, py::ssize_t leafsize, bool compact_nodes,
         bool copy_data, bool balanced_tree, py::handle boxsize);

  // Attributes.
  py::array data() const { return data_; }
  py::ssize_t leafsize() const { return leafsize_; }
  py::ssize_t n() const { return static_cast<py::ssize_t>(n_); }
  py::ssize_t m() const { return m_; }
  py::ssize_t size() const;
  py::array maxes() const { return maxes_; }
  py::array mins() const { return mins_; }
  py::object boxsize() const { return boxsize_; }
  py::array indices();
  py::object tree();
  py::array build_weights(py::handle weights);

  // Queries (kdtree_queries.cpp), with cKDTree's names and defaults.
  py::tuple query(py::handle x, py::handle k, double eps, double p, double distance_upper_bound,
                  py::handle workers);
  py::object query_ball_point(py::handle x, py::handle r, double p, double eps, py::handle workers,
                              py::handle return_sorted, bool return_length);
  py::list query_ball_tree(KDTree& other, double r, double p, double eps);
  py::object query_pairs(double r, double p, double eps, const std::string& output_type);
  py::object count_neighbors(KDTree& other, py::handle r, double p, py::handle weights,
                             bool cumulative);
  py::object sparse_distance_matrix(KDTree& other, double max_distance, double p,
                                    const std::string& output_type);

  // Pickling: the data and build options; the tree is built again, on the default device.
  py::tuple state() const;
  static std::unique_ptr<KDTree> from_state(const py::tuple& state);

  // The Python ints 0 .. n-1, made once per tree when index lists are first asked for: lists
  // of neighbours then hold references to them instead of a new int per entry.
  PyObject* const* index_objects();

  RuntimeBox& device() { return *box_; }
  const DeviceKdTree64* device_tree() const { return tree_.get(); }
  // The tree's periodic box with the Minkowski p of a query.
  Metric metric_of(double p) const {
    Metric metric = metric_;
    metric.p = p;
    return metric;
  }

 private:
  // The pairs within request's radius as host lists, each row sorted: this tree's points against
  // `other`'s, or against its own (other null: query_pairs); empty rows when a tree is empty.
  HostLists sorted_pairs(const KDTree* other, const RadiusQuery& request);

  RuntimeHandle box_;
  py::array data_, maxes_, mins_;
  py::object boxsize_ = py::none();
  py::object indices_ = py::none(), tree_view_ = py::none();
  py::ssize_t leafsize_;
  std::size_t n_;
  py::ssize_t m_;
  bool compact_nodes_, balanced_tree_;
  Metric metric_;                         // the periodic box (p: per query, metric_of)
  std::unique_ptr<DeviceKdTree64> tree_;  // null for an empty tree
  std::vector<py::object> index_objects_;
  std::vector<PyObject*> index_pointers_;
};

// Binds KDTree and its node view (called by bind_points).
void bind_kdtree(py::module_& m);

}  // namespace treefix::python
