// Barnes-Hut accelerations against the direct O(n^2) sum, leapfrog steps, Plummer generator.
#include <doctest/doctest.h>

#include <cmath>

#include "fixture.hpp"
#include "ropes_fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/spatial/nbody.hpp"

using namespace treefix;

namespace {
// Relative RMS error of float accelerations against the double direct sum.
double relative_rms(const std::vector<float>& got, const std::vector<double>& want) {
  double err = 0, norm = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    err += (got[i] - want[i]) * (got[i] - want[i]);
    norm += want[i] * want[i];
  }
  return norm > 0 ? std::sqrt(err / norm) : std::sqrt(err);
}
}  // namespace

TEST_CASE("ropes: plummer spheres have unit mass, zero momentum and a bound core") {
  auto b = generate::plummer(20000, 3);
  double m = 0, p[3] = {0, 0, 0}, inside = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    m += b.mass[i];
    for (int k = 0; k < 3; ++k) p[k] += b.mass[i] * b.velocity.at(i, k);
    double r2 = 0;
    for (int k = 0; k < 3; ++k) r2 += double(b.position.at(i, k)) * b.position.at(i, k);
    // half-mass radius of the Plummer model in standard units is ~0.77
    if (r2 < 0.77 * 0.77) inside += b.mass[i];
  }
  CHECK(m == doctest::Approx(1.0).epsilon(1e-4));
  for (double c : p) CHECK(std::abs(c) < 1e-6);
  CHECK(inside == doctest::Approx(0.5).epsilon(0.05));
}

TEST_CASE("ropes: barnes-hut accelerations match the direct sum within the opening angle's error") {
  auto& rt = test::runtime();
  for (std::size_t n : {0, 1, 2, 3, 31, 257, 4099}) {
    auto bodies = generate::plummer(n, n + 9);
    auto exact = reference::accelerations_direct(bodies, 0.01);
    for (double theta : {0.0, 0.3, 0.7}) {
      // theta = 0 opens every cell: the direct sum in float
      double bound = theta == 0 ? 1e-5 : theta < 0.5 ? 5e-3 : 3e-2;
      auto tree = build_octree(bodies.position, bodies.mass, 8);
      auto cpu = reference::accelerations_tree(tree, theta, 0.01, 2);
      CHECK(relative_rms(cpu, exact) < bound);
      // accelerations() builds its octree on the device: the host runs the same traversal on it
      auto device_tree = build_octree(rt, DevicePoints::upload(rt, bodies.position),
                                      DeviceArray<float>::upload(rt, bodies.mass), {8});
      auto same_tree = reference::accelerations_tree(device_tree.download(rt), theta, 0.01, 2);
      for (Variant v : test::all_variants())
        for (SortMode sort : {SortMode::on, SortMode::off}) {
          CAPTURE(n);
          CAPTURE(theta);
          CAPTURE(std::string(to_string(v)));
          CAPTURE(int(sort));
          GravityOptions o;
          o.theta = theta;
          o.eps = 0.01;
          o.variant = v;
          o.sort = sort;
          auto acc = accelerations(rt, bodies, o);
          REQUIRE(acc.size() == 3 * n);
          CHECK(relative_rms(acc, exact) < bound);
          // the same traversal as the host's: equal up to float rounding of sqrt and division
          CHECK(relative_rms(acc, std::vector<double>(same_tree.begin(), same_tree.end())) < 1e-5);
          // and on the host-built tree, uploaded
          auto uploaded = accelerations(rt, tree, o);
          CHECK(relative_rms(uploaded, std::vector<double>(cpu.begin(), cpu.end())) < 1e-5);
        }
    }
  }
}

TEST_CASE("ropes: coincident bodies (a deep octree) and eps = 0 give finite accelerations") {
  auto& rt = test::runtime();
  Bodies b(300);
  for (std::size_t i = 0; i < b.size(); ++i) {
    b.mass[i] = 1.0f;
    for (int k = 0; k < 3; ++k) b.position.at(i, k) = i < 200 ? 0.25f : float(i) * 1e-3f;
  }
  GravityOptions o;
  o.eps = 0;
  o.leaf_size = 1;
  auto exact = reference::accelerations_direct(b, 0);
  for (Variant v : test::all_variants()) {
    o.variant = v;
    auto acc = accelerations(rt, b, o);
    for (float a : acc) CHECK(std::isfinite(a));
    CHECK(relative_rms(acc, exact) < 3e-2);
  }
}

TEST_CASE("ropes: leapfrog conserves momentum and nearly conserves energy") {
  auto& rt = test::runtime();
  auto b = generate::plummer(2000, 17);
  auto energy = [](const Bodies& s) {
    double kinetic = 0, potential = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      double v2 = 0;
      for (int k = 0; k < 3; ++k) v2 += double(s.velocity.at(i, k)) * s.velocity.at(i, k);
      kinetic += 0.5 * s.mass[i] * v2;
      for (std::size_t j = i + 1; j < s.size(); ++j) {
        double r2 = 0.01 * 0.01;
        for (int k = 0; k < 3; ++k) {
          double d = double(s.position.at(i, k)) - s.position.at(j, k);
          r2 += d * d;
        }
        potential -= s.mass[i] * s.mass[j] / std::sqrt(r2);
      }
    }
    return kinetic + potential;
  };
  double e0 = energy(b);
  CHECK(e0 == doctest::Approx(-0.25).epsilon(0.05));
  GravityOptions o;
  o.theta = 0.5;
  leapfrog(rt, b, 10, 0.01, o);
  double e1 = energy(b);
  CHECK(std::abs(e1 - e0) < 2e-3 * std::abs(e0));
  double p[3] = {0, 0, 0};
  for (std::size_t i = 0; i < b.size(); ++i)
    for (int k = 0; k < 3; ++k) p[k] += b.mass[i] * b.velocity.at(i, k);
  for (double c : p) CHECK(std::abs(c) < 1e-3);
  CHECK_THROWS_AS(leapfrog(rt, b, -1, 0.01, o), InputError);
  o.theta = -1;
  CHECK_THROWS_AS(accelerations(rt, b, o), InputError);
}

namespace {
// Kick-drift-kick with the direct sum in double: the reference trajectory.
Bodies direct_leapfrog(Bodies b, int steps, double dt, double eps) {
  const std::size_t n = b.size();
  std::vector<double> x(3 * n), v(3 * n);
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k)
      x[3 * i + k] = b.position.at(i, k), v[3 * i + k] = b.velocity.at(i, k);
  auto acc = [&] {
    Bodies s = b;
    for (std::size_t i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) s.position.at(i, k) = float(x[3 * i + k]);
    return reference::accelerations_direct(s, eps, 2);
  };
  auto a = acc();
  for (int step = 0; step < steps; ++step) {
    for (std::size_t j = 0; j < 3 * n; ++j) v[j] += 0.5 * dt * a[j], x[j] += dt * v[j];
    a = acc();
    for (std::size_t j = 0; j < 3 * n; ++j) v[j] += 0.5 * dt * a[j];
  }
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k)
      b.position.at(i, k) = float(x[3 * i + k]), b.velocity.at(i, k) = float(v[3 * i + k]);
  return b;
}

double relative_rms(const PointSet& got, const PointSet& want) {
  std::vector<float> g(got.coord.begin(), got.coord.end());
  return relative_rms(g, std::vector<double>(want.coord.begin(), want.coord.end()));
}
}  // namespace

TEST_CASE("ropes: device time steps follow the direct-sum leapfrog, sorted or not, any variant") {
  auto& rt = test::runtime();
  for (std::size_t n : {0, 1, 2, 3, 31, 257, 1000}) {
    auto start = generate::plummer(n, n + 3);
    auto want = direct_leapfrog(start, 20, 0.01, 0.01);
    for (double theta : {0.0, 0.5}) {
      CAPTURE(n);
      CAPTURE(theta);
      test::each_variant_and_sort([&](Variant v, SortMode sort) {
        Bodies got = start;
        GravityOptions o;
        o.theta = theta;
        o.variant = v;
        o.sort = sort;
        leapfrog(rt, got, 20, 0.01, o);
        const double bound = theta == 0 ? 1e-5 : 2e-3;
        CHECK(relative_rms(got.position, want.position) < bound);
        CHECK(relative_rms(got.velocity, want.velocity) < (theta == 0 ? 1e-4 : 1e-2));
        CHECK(got.mass == start.mass);
      });
    }
  }
}

TEST_CASE("ropes: device time steps hand out snapshots in input order") {
  auto& rt = test::runtime();
  auto start = generate::plummer(500, 8);
  std::vector<int> seen;
  Bodies at6;
  auto device = DeviceBodies::upload(rt, start);
  StepOptions steps{10, 0.01, 3, [&](int step, const Bodies& b) {
                      seen.push_back(step);
                      if (step == 6) at6 = b;
                    }};
  leapfrog(rt, device, steps);
  CHECK(seen == std::vector<int>{3, 6, 9});
  Bodies six = start;
  leapfrog(rt, six, 6, 0.01);
  CHECK(at6.position.coord == six.position.coord);
  CHECK(at6.velocity.coord == six.velocity.coord);
}

TEST_CASE("ropes: coordinates near the float limit give finite accelerations, not NaN") {
  auto& rt = test::runtime();
  Bodies b(4);
  const float big[4][3] = {
      {3e38f, 3e38f, -3e38f}, {-3e38f, 3e38f, 3e38f}, {3e38f, -3e38f, 0}, {-3e38f, -3e38f, -3e38f}};
  for (int i = 0; i < 4; ++i) {
    b.mass[i] = 1.0f;
    for (int k = 0; k < 3; ++k) b.position.at(i, k) = big[i][k];
  }
  for (Variant v : test::all_variants()) {
    GravityOptions o;
    o.variant = v;
    auto acc = accelerations(rt, b, o);
    for (float a : acc) {
      CHECK(std::isfinite(a));
      CHECK(std::abs(a) < 1e-30f);  // the true values are about 1e-77
    }
  }
  Bodies stepped = b;
  leapfrog(rt, stepped, 3, 0.01);
  for (float x : stepped.position.coord) CHECK(std::isfinite(x));
  // two heavy bodies 1e20 apart: 1e40 overflows a float square, yet a = 1e30 / 1e40 = 1e-10
  Bodies pair(2);
  pair.mass = {1e30f, 1e30f};
  pair.position.at(0, 0) = -5e19f;
  pair.position.at(1, 0) = 5e19f;
  GravityOptions o;
  o.eps = 0;
  auto acc = accelerations(rt, pair, o);
  CHECK(acc[0] == doctest::Approx(1e-10).epsilon(1e-5));
  CHECK(acc[3] == doctest::Approx(-1e-10).epsilon(1e-5));
}

TEST_CASE("ropes: overflowing steps and masses are refused with a message") {
  auto& rt = test::runtime();
  Bodies close(2);  // 1e-19 apart with eps = 0: the acceleration overflows float
  close.mass = {1.0f, 1.0f};
  close.position.at(1, 0) = 1e-19f;
  GravityOptions o;
  o.eps = 0;
  try {
    leapfrog(rt, close, 2, 0.01, o);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("step 1") != std::string::npos);
    CHECK(std::string(e.what()).find("eps") != std::string::npos);
  }
  Bodies heavy(2);
  heavy.mass = {3e38f, 3e38f};
  heavy.position.at(1, 0) = 1.0f;
  CHECK_THROWS_AS(leapfrog(rt, heavy, 1, 0.01), InputError);
}
