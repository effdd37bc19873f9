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
          CHECK(relative_rms(acc, std::vector<double>(cpu.begin(), cpu.end())) < 1e-5);
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
