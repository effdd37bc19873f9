// Points: treefix.KDTree (scipy.spatial.cKDTree's query and query_ball_point on a kd-tree built
// and kept on the device), and Barnes-Hut gravity: treefix.accelerations and treefix.nbody
// (treefix/spatial/).
#include <pybind11/stl.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "runtime.hpp"
#include "treefix/spatial/device_build.hpp"
#include "treefix/spatial/nbody.hpp"
#include "treefix/spatial/neighbours.hpp"

namespace treefix::python {
namespace {

constexpr int kMaxDimensions = 16;  // what the point readers and kernels take

PointSet point_set(PointColumns&& columns) {
  PointSet points;
  points.n = columns.n;
  points.dim = columns.dim;
  points.coord = std::move(columns.coord);
  return points;
}

std::vector<py::ssize_t> result_shape(bool single, std::size_t m, int k) {
  std::vector<py::ssize_t> shape;
  if (!single) shape.push_back(static_cast<py::ssize_t>(m));
  if (k > 1) shape.push_back(k);
  return shape;
}

class KDTree {
 public:
  KDTree(RuntimeHandle box, const py::array_t<float>& rows, int leaf_size)
      : box_(std::move(box)),
        n_(static_cast<std::size_t>(rows.shape(0))),
        dim_(static_cast<int>(rows.shape(1))),
        rows_(rows.data(), rows.data() + rows.size()) {
    if (leaf_size < 1)
      throw InputError("leaf_size = " + std::to_string(leaf_size) + ": must be at least 1");
    if (n_ == 0) throw InputError("data: a kd-tree needs at least one point");
    PointSet points = point_set(columns_of(rows, "data"));
    on_device(*box_, [&](Runtime& runtime) {
      DevicePoints uploaded = DevicePoints::upload(runtime, points);
      tree_ = std::make_unique<DeviceKdTree>(build_kd_tree(runtime, uploaded, {leaf_size}));
    });
  }

  py::tuple query(py::handle x, int k) {
    auto [queries, single, own] = query_points(x);
    const std::size_t m = own ? n_ : queries.n;
    if (k < 1 || static_cast<std::size_t>(k) > n_)
      throw InputError("k = " + std::to_string(k) + ": must be in 1.." +
                       std::to_string(std::min<std::size_t>(n_, max_knn_k)) + " (the tree has " +
                       std::to_string(n_) + " points; at most " + std::to_string(max_knn_k) +
                       " neighbours per query)");
    const std::vector<py::ssize_t> shape = result_shape(single, m, k);
    py::array_t<float> distance(shape);
    py::array_t<std::int32_t> index(shape);
    float* d = distance.mutable_data();
    std::int32_t* i = index.mutable_data();
    if (m > 0) {
      on_device(*box_, [&](Runtime& runtime) {
        const std::size_t values = m * static_cast<std::size_t>(k);
        // The tree's own points are on the device already, in its order (no sort needed).
        DevicePoints asked;
        if (!own) asked = DevicePoints::upload(runtime, queries);
        auto index_out = DeviceArray<std::int32_t>::workspace(runtime, "python.knn.index", values);
        auto d2_out = DeviceArray<float>::workspace(runtime, "python.knn.d2", values);
        knn(runtime, *tree_, own ? nullptr : &asked, k, index_out, d2_out);
        index_out.read_into(runtime, i, values);
        d2_out.read_into(runtime, d, values);
        for_slices(values, [&](std::size_t begin, std::size_t end) {
          for (std::size_t j = begin; j < end; ++j) d[j] = std::sqrt(d[j]);
        });
      });
    }
    return py::make_tuple(distance, index);
  }

  py::object query_ball_point(py::handle x, double r, bool return_length) {
    if (!return_length)
      throw InputError(
          "query_ball_point: only return_length=True is available (the device counts the "
          "neighbours within r; it does not list them)");
    if (!(r >= 0) || !std::isfinite(r))
      throw InputError("r = " + std::to_string(r) + ": must be a finite radius >= 0");
    auto [queries, single, own] = query_points(x);
    const std::size_t m = own ? n_ : queries.n;
    py::array_t<std::int64_t> counts(result_shape(single, m, 1));
    std::int64_t* count = counts.mutable_data();
    if (m > 0) {
      on_device(*box_, [&](Runtime& runtime) {
        DevicePoints asked;
        if (!own) asked = DevicePoints::upload(runtime, queries);
        auto found = DeviceArray<std::uint32_t>::workspace(runtime, "python.ball.counts", m);
        correlation_counts(runtime, *tree_, own ? nullptr : &asked, r, found);
        std::vector<std::uint32_t> host(m);
        found.read_into(runtime, host.data(), m);
        std::copy(host.begin(), host.end(), count);
      });
    }
    return std::move(counts);
  }

  std::size_t n() const { return n_; }
  int m() const { return dim_; }

 private:
  // (m, d) queries, or one query (d,) (`single`: results without the query axis). `own`: the
  // queries are the tree's points, exactly (the usual kNN graph of a point set), whose upload
  // and Morton sort the query can skip.
  struct Queries {
    PointSet points;
    bool single = false, own = false;
  };
  Queries query_points(py::handle x) {
    py::array given = numeric_array(x, "x");
    const bool single = given.ndim() == 1;
    if (single) given = given.attr("reshape")(1, -1);
    py::array_t<float> rows = point_rows(given, "x", kMaxDimensions);
    if (rows.shape(1) != dim_)
      throw InputError("x: queries have " + std::to_string(rows.shape(1)) +
                       " coordinates, the tree's points " + std::to_string(dim_));
    if (static_cast<std::size_t>(rows.shape(0)) == n_ &&
        std::memcmp(rows.data(), rows_.data(), rows_.size() * sizeof(float)) == 0)
      return {PointSet(), single, true};
    return {point_set(columns_of(rows, "x")), single, false};
  }

  RuntimeHandle box_;
  std::size_t n_;
  int dim_;
  std::vector<float> rows_;  // the points as given (float32 rows): what `own` compares with
  std::unique_ptr<DeviceKdTree> tree_;
};

Bodies bodies_of(PointColumns&& positions, py::handle masses_in) {
  py::array masses = numeric_array(masses_in, "masses");
  if (masses.ndim() != 1 || static_cast<std::size_t>(masses.shape(0)) != positions.n)
    throw InputError("masses of " + shape_text(masses) + " for " + std::to_string(positions.n) +
                     " positions: expected (" + std::to_string(positions.n) + ",)");
  auto mass = contiguous_as<float>(masses);
  Bodies bodies(positions.n);
  bodies.mass.assign(mass.data(), mass.data() + positions.n);
  bodies.position.coord = std::move(positions.coord);
  return bodies;
}

GravityOptions gravity_options(double theta, double eps, int leaf_size) {
  if (!(theta >= 0) || !std::isfinite(theta))
    throw InputError("theta = " + std::to_string(theta) + ": must be >= 0");
  if (!(eps >= 0) || !std::isfinite(eps))
    throw InputError("eps = " + std::to_string(eps) + ": must be >= 0");
  if (leaf_size < 1) throw InputError("leaf_size must be at least 1");
  GravityOptions options;
  options.theta = theta;
  options.eps = eps;
  options.leaf_size = leaf_size;
  return options;
}

py::array accelerations_of(py::handle positions, py::handle masses, double theta, double eps,
                           int leaf_size, const std::optional<RuntimeHandle>& runtime) {
  PointColumns columns = point_columns(positions, "positions", kMaxDimensions);
  if (columns.dim != 3)
    throw InputError("positions: expected shape (n, 3), got (" + std::to_string(columns.n) + ", " +
                     std::to_string(columns.dim) + ")");
  const GravityOptions options = gravity_options(theta, eps, leaf_size);
  Bodies bodies = bodies_of(std::move(columns), masses);
  const std::size_t n = bodies.size();
  py::array_t<float> result(std::vector<py::ssize_t>{static_cast<py::ssize_t>(n), 3});
  float* acc = result.mutable_data();
  if (n == 0) return std::move(result);
  RuntimeHandle box = runtime_or_default(runtime);
  on_device(*box, [&](Runtime& rt) {
    DeviceBodies device = DeviceBodies::upload(rt, bodies);
    DeviceOctree tree =
        build_octree(rt, DevicePoints{n, 3, device.position}, device.mass, {leaf_size});
    DeviceArray<float> out(rt, 3 * n, "accelerations");
    accelerations(rt, tree, out, options);
    out.read_into(rt, acc, 3 * n);
  });
  return std::move(result);
}

py::array nbody_of(py::handle bodies_in, int steps, double dt, double theta, double eps,
                   int leaf_size, const std::optional<RuntimeHandle>& runtime) {
  PointColumns table = point_columns(bodies_in, "bodies", kMaxDimensions);
  if (table.dim != 7)
    throw InputError("bodies: expected shape (n, 7) (mass x y z vx vy vz), got (" +
                     std::to_string(table.n) + ", " + std::to_string(table.dim) + ")");
  if (steps < 0) throw InputError("steps = " + std::to_string(steps) + ": must be >= 0");
  if (!std::isfinite(dt)) throw InputError("dt must be finite");
  const GravityOptions options = gravity_options(theta, eps, leaf_size);
  const std::size_t n = table.n;
  Bodies bodies(n);
  auto column = [&](int c) { return table.coord.begin() + static_cast<std::ptrdiff_t>(c * n); };
  std::copy(column(0), column(1), bodies.mass.begin());
  std::copy(column(1), column(4), bodies.position.coord.begin());
  std::copy(column(4), column(7), bodies.velocity.coord.begin());
  if (n > 0 && steps > 0) {
    RuntimeHandle box = runtime_or_default(runtime);
    on_device(*box, [&](Runtime& rt) {
      DeviceBodies device = DeviceBodies::upload(rt, bodies);
      StepOptions stepping;
      stepping.steps = steps;
      stepping.dt = dt;
      leapfrog(rt, device, stepping, options);
      bodies = device.download(rt);
    });
  }
  py::array_t<float> result(std::vector<py::ssize_t>{static_cast<py::ssize_t>(n), 7});
  float* row = result.mutable_data();
  for (std::size_t i = 0; i < n; ++i) {
    row[7 * i] = bodies.mass[i];
    for (int k = 0; k < 3; ++k) {
      row[7 * i + 1 + k] = bodies.position.at(i, k);
      row[7 * i + 4 + k] = bodies.velocity.at(i, k);
    }
  }
  return std::move(result);
}

}  // namespace

void bind_points(py::module_& m) {
  py::class_<KDTree>(m, "KDTree", R"doc(
A kd-tree built on the device and kept there, queried like scipy.spatial.cKDTree.

KDTree(data, leaf_size=8, *, runtime=None): data is (n, d), 1 <= d <= 16, any real dtype (the
device computes in float32: coordinates are rounded to float32, distances are float32 sums of
squares in coordinate order, so results equal a brute-force float32 search exactly).)doc")
      .def(
          py::init([](py::handle data, int leaf_size, const std::optional<RuntimeHandle>& runtime) {
            return std::make_unique<KDTree>(runtime_or_default(runtime),
                                            point_rows(data, "data", kMaxDimensions), leaf_size);
          }),
          py::arg("data"), py::arg("leaf_size") = 8, py::kw_only(), runtime_arg())
      .def_property_readonly("n", &KDTree::n, "Number of points.")
      .def_property_readonly("m", &KDTree::m, "Dimensions.")
      .def("query", &KDTree::query, py::arg("x"), py::arg("k") = 1, R"doc(
The k nearest points of each query (1 <= k <= min(n, 64)): (d, i), shaped (m,) for k = 1 and
(m, k) otherwise (without the first axis for a single query of shape (d,)), nearest first, ties
by the smaller index. d: Euclidean distances, float32; i: indices into data, int32.)doc")
      .def("query_ball_point", &KDTree::query_ball_point, py::arg("x"), py::arg("r"),
           py::arg("return_length") = true, R"doc(
The number of points within distance r (|p - x| <= r) of each query, int64, shaped (m,).
Only return_length=True is available.)doc");

  m.def("accelerations", &accelerations_of, py::arg("positions"), py::arg("masses"),
        py::arg("theta") = 0.5, py::arg("eps") = 0.01, py::arg("leaf_size") = 8, py::kw_only(),
        runtime_arg(), R"doc(
Barnes-Hut gravitational accelerations (G = 1) of n bodies: positions (n, 3), masses (n,) >= 0;
returns (n, 3) float32. A cell of side s at distance d is replaced by its mass when s < theta * d
(theta = 0: the exact direct sum); eps softens the force: a_i = sum m_j (x_j - x_i) /
(|x_j - x_i|^2 + eps^2)^(3/2). ValueError for non-finite values or negative masses.)doc");

  m.def("nbody", &nbody_of, py::arg("bodies"), py::arg("steps"), py::arg("dt"),
        py::arg("theta") = 0.5, py::arg("eps") = 0.01, py::arg("leaf_size") = 8, py::kw_only(),
        runtime_arg(), R"doc(
Leapfrog (kick-drift-kick) steps of Barnes-Hut gravity, every step on the device. bodies: (n, 7)
in the command line's column order (mass x y z vx vy vz); returns the state after `steps` steps
of `dt` as a new (n, 7) float32 array.)doc");
}

}  // namespace treefix::python
