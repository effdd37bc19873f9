// Points: Barnes-Hut gravity, treefix.accelerations and treefix.nbody (treefix/spatial/nbody.hpp),
// and treefix.KDTree (kdtree.cpp), bound from here.
#include <pybind11/stl.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "kdtree.hpp"
#include "runtime.hpp"
#include "treefix/spatial/device_build.hpp"
#include "treefix/spatial/nbody.hpp"

namespace treefix::python {
namespace {

constexpr int kMaxDimensions = 16;  // what the point readers and kernels take

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
  bind_kdtree(m);

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
