// KDTree's queries (kdtree.hpp): cKDTree's arguments checked and converted as cKDTree does
// (kdtree_arguments.hpp), the search run on the device (treefix/spatial/kd_search.hpp), the
// results shaped as cKDTree's (kdtree_results.hpp).
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "kdtree.hpp"
#include "kdtree_arguments.hpp"
#include "kdtree_results.hpp"
#include "result_blocks.hpp"
#include "treefix/core/error.hpp"

namespace treefix::python {
namespace {


}  // namespace

py::tuple KDTree::query(py::handle x, py::handle k, double eps, double p,
                        double distance_upper_bound, py::handle workers) {
  worker_threads(workers);
  bool nearest_only = false;
  NearestQuery request;
  request.ranks = ranks_of(k, nearest_only);
  Queries q = queries_of(x, *this);
  check_p(p);
  check_eps(eps);
  request.eps = eps;
  request.distance_upper_bound = distance_upper_bound;
  request.metric = metric_of(p);
  const py::ssize_t per = static_cast<py::ssize_t>(request.ranks.size());
  // Large results reuse the pages of earlier ones (result_blocks.hpp).
  py::array distance = uninitialised_array(py::dtype::of<double>(), with_last(q.shape, per)).array;
  py::array index =
      uninitialised_array(py::dtype::of<py::ssize_t>(), with_last(q.shape, per)).array;
  auto* d = static_cast<double*>(distance.mutable_data());
  auto* i = static_cast<py::ssize_t*>(index.mutable_data());
  const std::size_t values = q.count * static_cast<std::size_t>(per);
  on_device(device(), [&](Runtime& runtime) {
    if (values == 0) return;
    if (!tree_) {  // cKDTree's answer for an empty tree: every neighbour missing
      std::fill(d, d + values, std::numeric_limits<double>::infinity());
      std::fill(i, i + values, py::ssize_t(0));
      return;
    }
    UploadedQueries u = upload(runtime, q, static_cast<int>(m_));
    auto out_index = DeviceArray<std::int64_t>::workspace(runtime, "python.kd.index", values);
    auto out_distance = DeviceArray<double>::workspace(runtime, "python.kd.distance", values);
    nearest(runtime, *tree_, u.source, request, out_index, out_distance);
    out_index.read_into(runtime, reinterpret_cast<std::int64_t*>(i), values);
    out_distance.read_into(runtime, d, values);
  });
  if (!nearest_only) return py::make_tuple(distance, index);
  py::object d0 = distance[py::make_tuple(py::ellipsis(), 0)];
  py::object i0 = index[py::make_tuple(py::ellipsis(), 0)];
  if (q.single)  // the only case where cKDTree returns Python scalars
    return py::make_tuple(py::float_(d0.cast<double>()), py::int_(i0.cast<py::ssize_t>()));
  return py::make_tuple(d0, i0);
}

py::object KDTree::query_ball_point(py::handle x, py::handle r, double p, double eps,
                                    py::handle workers, py::handle return_sorted,
                                    bool return_length) {
  const unsigned threads = worker_threads(workers);
  Queries q = queries_of(x, *this);
  check_p(p);
  check_eps(eps);
  RadiusQuery request;
  request.eps = eps;
  request.metric = metric_of(p);
  if (numpy().attr("ndim")(r).cast<int>() == 0) {
    request.radius = {py::reinterpret_borrow<py::object>(r).cast<double>()};
  } else {
    py::array_t<double> radii = numpy().attr("ascontiguousarray")(
        numpy().attr("broadcast_to")(r, py::tuple(py::cast(q.shape))),
        py::arg("dtype") = "float64");
    request.radius.assign(radii.data(), radii.data() + radii.size());
  }
  for (double radius : request.radius)
    if (!(radius >= 0)) throw py::value_error("r must be >= 0, not " + std::to_string(radius));
  const bool sorted = return_sorted.is_none() ? !q.single : py::cast<bool>(return_sorted);
  if (return_length) {
    py::array_t<py::ssize_t> counts(q.shape);
    auto* count = reinterpret_cast<std::int64_t*>(counts.mutable_data());
    on_device(device(), [&](Runtime& runtime) {
      if (q.count == 0) return;
      if (!tree_) {
        std::fill(count, count + q.count, std::int64_t(0));
        return;
      }
      UploadedQueries u = upload(runtime, q, static_cast<int>(m_));
      auto out = DeviceArray<std::int64_t>::workspace(runtime, "python.kd.counts", q.count);
      count_within(runtime, *tree_, u.source, request, out);
      out.read_into(runtime, count, q.count);
    });
    if (q.single) return counts[py::tuple()];
    return std::move(counts);
  }
  HostLists lists;
  on_device(device(), [&](Runtime& runtime) {
    if (!tree_ || q.count == 0) {
      lists.offset.assign(q.count + 1, 0);
      return;
    }
    UploadedQueries u = upload(runtime, q, static_cast<int>(m_));
    lists = fetch_lists(runtime, pairs_within(runtime, *tree_, u.source, request));
  });
  if (sorted) {
    py::gil_scoped_release release;
    sort_lists(lists, threads);
  }
  PyObject* const* ints = index_objects();
  py::array result = object_array_of_lists(lists, q.shape, ints);
  if (q.single) return result[py::tuple()];
  return std::move(result);
}

HostLists KDTree::sorted_pairs(const KDTree* other, const RadiusQuery& request) {
  HostLists lists;
  on_device(device(), [&](Runtime& runtime) {
    if (!tree_ || (other && !other->tree_)) {
      lists.offset.assign(n_ + 1, 0);
      return;
    }
    if (!other) {
      lists = fetch_lists(runtime, pairs_within(runtime, *tree_, QuerySource<double>{}, request));
      return;
    }
    QuerySource<double> mine;
    mine.tree = tree_.get();
    lists = fetch_lists(runtime, pairs_within(runtime, *other->tree_, mine, request));
  });
  py::gil_scoped_release release;
  sort_lists(lists, 0);
  return lists;
}

py::list KDTree::query_ball_tree(KDTree& other, double r, double p, double eps) {
  check_same_dimension(*this, other, "query_ball_tree");
  check_p(p);
  check_eps(eps);
  check_other_in_box(*this, other, "query_ball_tree");
  RadiusQuery request;
  request.radius = {r};
  request.eps = eps;
  request.metric = metric_of(p);
  if (!(r >= 0)) throw py::value_error("r must be >= 0, not " + std::to_string(r));
  HostLists lists = sorted_pairs(&other, request);
  return list_of_lists(lists, other.index_objects());
}

py::object KDTree::query_pairs(double r, double p, double eps, const std::string& output_type) {
  if (output_type != "set" && output_type != "ndarray")
    throw py::value_error("Invalid output type");
  check_p(p);
  check_eps(eps);
  if (!(r >= 0)) throw py::value_error("r must be >= 0, not " + std::to_string(r));
  RadiusQuery request;
  request.radius = {r};
  request.eps = eps;
  request.widen_by_eps = true;
  request.greater_only = true;
  request.metric = metric_of(p);
  HostLists lists = sorted_pairs(nullptr, request);
  if (output_type == "ndarray") return pair_array(lists, 0);
  return pair_set(lists, index_objects());
}

py::object KDTree::count_neighbors(KDTree& other, py::handle r, double p, py::handle weights,
                                   bool cumulative) {
  check_same_dimension(*this, other, "count_neighbors");
  check_p(p);
  check_other_in_box(*this, other, "count_neighbors");
  const int r_ndim = numpy().attr("ndim")(r).cast<int>();
  if (r_ndim > 1)
    throw py::value_error("r must be either a single value or a one-dimensional array of values");
  py::array_t<double> radii =
      numpy().attr("array")(r, py::arg("ndmin") = 1, py::arg("dtype") = "float64");
  const py::ssize_t count = radii.size();
  for (py::ssize_t i = 0; i < count; ++i)
    if (!(radii.data()[i] >= 0))
      throw py::value_error("r must be >= 0, not " + std::to_string(radii.data()[i]));
  if (!cumulative)
    for (py::ssize_t i = 0; i + 1 < count; ++i)
      if (radii.data()[i] > radii.data()[i + 1])
        throw py::value_error("r must be non-decreasing for non-cumulative counting.");
  py::tuple unique = numpy().attr("unique")(radii, py::arg("return_index") = true,
                                            py::arg("return_inverse") = true);
  auto edges = unique[0].cast<py::array_t<double>>();
  auto uind = unique[1].cast<py::array>();
  auto inverse = unique[2].cast<py::array>();
  PairCountQuery request;
  request.edges.assign(edges.data(), edges.data() + edges.size());
  request.metric = metric_of(p);
  py::object self_weights = py::none(), other_weights = py::none();
  if (py::isinstance<py::tuple>(weights)) {
    py::tuple both = weights.cast<py::tuple>();
    if (both.size() != 2) throw py::value_error("weights: a tuple of two (self's, other's)");
    self_weights = both[0];
    other_weights = both[1];
  } else if (!weights.is_none()) {
    self_weights = other_weights = py::reinterpret_borrow<py::object>(weights);
    if (&other != this)
      throw py::value_error("Two different trees are used. Specify weights for both in a tuple.");
  }
  auto weight_values = [&](py::object w, const KDTree& tree) {
    std::vector<double> values;
    if (w.is_none()) return values;
    py::array_t<double> array = numpy().attr("ascontiguousarray")(w, py::arg("dtype") = "float64");
    if (array.ndim() != 1 || array.size() != tree.n())
      throw py::value_error("Number of weights differ from the number of data points");
    values.assign(array.data(), array.data() + array.size());
    return values;
  };
  request.query_weights = weight_values(self_weights, *this);
  request.point_weights = weight_values(other_weights, other);
  const bool weighted = !self_weights.is_none() || !other_weights.is_none();
  std::vector<double> bins(request.edges.size(), 0.0);
  on_device(device(), [&](Runtime& runtime) {
    if (!tree_ || !other.tree_) return;
    QuerySource<double> mine;
    mine.tree = tree_.get();
    bins = pair_counts(runtime, *other.tree_, mine, request);
  });
  // cKDTree's results: per distinct radius (cumulative: sums of the bins up to it), then back to
  // the radii as given; without `cumulative` a repeated radius counts once, the others 0.
  const std::size_t distinct = bins.size();
  std::vector<double> per_radius(distinct);
  double running = 0;
  for (std::size_t b = 0; b < distinct; ++b) {
    running += bins[b];
    per_radius[b] = cumulative ? running : bins[b];
  }
  py::array values = py::array_t<double>(static_cast<py::ssize_t>(distinct), per_radius.data());
  if (!weighted) values = values.attr("astype")(numpy().attr("intp"));
  py::array result = numpy().attr("zeros")(inverse.attr("shape"), values.dtype());
  if (cumulative) {
    result[py::ellipsis()] = values[inverse];
  } else {
    result[uind] = values[inverse][uind];
  }
  if (r_ndim == 0) {
    py::object first = result[py::int_(0)];
    if (!weighted) return py::int_(first);
    return first;
  }
  return std::move(result);
}

py::object KDTree::sparse_distance_matrix(KDTree& other, double max_distance, double p,
                                          const std::string& output_type) {
  check_same_dimension(*this, other, "sparse_distance_matrix");
  check_p(p);
  check_other_in_box(*this, other, "sparse_distance_matrix");
  static const char* types[] = {"dok_matrix", "coo_matrix", "dok_array",
                                "coo_array",  "dict",       "ndarray"};
  if (std::find(std::begin(types), std::end(types), output_type) == std::end(types))
    throw py::value_error("Invalid output type");
  if (!(max_distance >= 0))
    throw py::value_error("max_distance must be >= 0, not " + std::to_string(max_distance));
  RadiusQuery request;
  request.radius = {max_distance};
  request.distances = true;
  request.metric = metric_of(p);
  HostLists lists = sorted_pairs(&other, request);
  return sparse_result(lists, n(), other.n(), output_type, index_objects(), other.index_objects(),
                       0);
}

void bind_kdtree_queries(py::class_<KDTree>& cls) {
  const double inf = std::numeric_limits<double>::infinity();
  cls.def("query", &KDTree::query, py::arg("x"), py::arg("k") = 1, py::arg("eps") = 0.0,
          py::arg("p") = 2.0, py::arg("distance_upper_bound") = inf, py::arg("workers") = 1,
          R"doc(
query(x, k=1, eps=0, p=2, distance_upper_bound=inf, workers=1) -> (d, i)

The k nearest points of each query point, as cKDTree.query: x of shape (..., m); k an integer
(ranks 1..k) or a list of ranks; d and i of shape (..., len(k)), the last axis dropped for k = 1
(Python float and int for a single point and k = 1); missing neighbours (fewer than k points, or
none closer than distance_upper_bound) are inf and n. Distances are float64, computed as cKDTree
computes them; among equal distances the smaller index comes first. eps > 0: the k-th result is
within (1 + eps) of the true k-th. workers: host threads of the host-side steps (the search itself
runs on the device).)doc")
      .def("query_ball_point", &KDTree::query_ball_point, py::arg("x"), py::arg("r"),
           py::arg("p") = 2.0, py::arg("eps") = 0.0, py::arg("workers") = 1,
           py::arg("return_sorted") = py::none(), py::arg("return_length") = false, R"doc(
query_ball_point(x, r, p=2, eps=0, workers=1, return_sorted=None, return_length=False)

The indices of the points within distance r (<= r) of each query point, as cKDTree: a list for a
single point, else an object array of lists shaped like x without its last axis; r a scalar or
an array broadcast to that shape. return_length: the counts instead (intp). return_sorted: sort
each list (None: sorted for several points, as cKDTree). eps is accepted; the result is the exact
one, which meets cKDTree's guarantee for any eps.)doc")
      .def("query_ball_tree", &KDTree::query_ball_tree, py::arg("other"), py::arg("r"),
           py::arg("p") = 2.0, py::arg("eps") = 0.0, R"doc(
query_ball_tree(other, r, p=2, eps=0) -> list of lists

For each point of this tree, the sorted indices of other's points within distance r.)doc")
      .def("query_pairs", &KDTree::query_pairs, py::arg("r"), py::arg("p") = 2.0,
           py::arg("eps") = 0.0, py::arg("output_type") = "set", R"doc(
query_pairs(r, p=2, eps=0, output_type='set')

The pairs (i, j), i < j, of points within distance r: a set of tuples, or ('ndarray') an
(pairs, 2) intp array in lexicographic order. eps > 0 takes the pairs within r (1 + eps), the
rule cKDTree applies to the pairs it checks.)doc")
      .def("count_neighbors", &KDTree::count_neighbors, py::arg("other"), py::arg("r"),
           py::arg("p") = 2.0, py::arg("weights") = py::none(), py::arg("cumulative") = true,
           R"doc(
count_neighbors(other, r, p=2, weights=None, cumulative=True)

The number of pairs (x1 of this tree, x2 of other) with distance(x1, x2) <= r, for a radius or a
1-D array of radii, as cKDTree: weights None, an array (other is this tree) or a tuple (self's,
other's; either None) count weight products; cumulative=False counts per bin (r[i-1], r[i]].
Integers without weights (int for a scalar r), float64 with.)doc")
      .def("sparse_distance_matrix", &KDTree::sparse_distance_matrix, py::arg("other"),
           py::arg("max_distance"), py::arg("p") = 2.0, py::arg("output_type") = "dok_matrix",
           R"doc(
sparse_distance_matrix(other, max_distance, p=2, output_type='dok_matrix')

The distances of the pairs (i of this tree, j of other) within max_distance, as cKDTree:
'dok_matrix', 'coo_matrix', 'dok_array', 'coo_array', 'dict' {(i, j): d} or 'ndarray' (records
i, j, v), entries in (i, j) order.)doc");
}

}  // namespace treefix::python
