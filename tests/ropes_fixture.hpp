#pragma once
// Point sets for the rope-stack tests: uniform, clustered, coincident and lattice points (the last
// two make many exact distance ties).
#include <doctest/doctest.h>

#include <filesystem>
#include <random>
#include <string>

#include "treefix/spatial/neighbours.hpp"
#include "treefix/spatial/points_io.hpp"
#include "treefix/spatial/trees.hpp"
#include "treefix/spatial/ropes.hpp"

namespace treefix::test {

enum class Shape { uniform, clustered, coincident, lattice };

inline const char* shape_name(Shape s) {
  switch (s) {
    case Shape::uniform: return "uniform";
    case Shape::clustered: return "clustered";
    case Shape::coincident: return "coincident";
    default: return "lattice";
  }
}

inline PointSet make_points(std::size_t n, int dim, Shape shape, std::uint64_t seed) {
  PointSet p(n, dim);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::normal_distribution<float> g(0.0f, 0.02f);
  std::vector<float> centres(8 * dim);
  for (auto& c : centres) c = u(rng);
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < dim; ++k) {
      switch (shape) {
        case Shape::uniform: p.at(i, k) = u(rng); break;
        case Shape::clustered: p.at(i, k) = centres[(i % 8) * dim + k] + g(rng); break;
        case Shape::coincident: p.at(i, k) = float(i % 3) * 0.5f; break;
        case Shape::lattice: p.at(i, k) = float((i >> (3 * k)) % 8); break;
      }
    }
  return p;
}

inline const std::vector<Shape>& all_shapes() {
  static const std::vector<Shape> s = {Shape::uniform, Shape::clustered, Shape::coincident,
                                       Shape::lattice};
  return s;
}

inline const std::vector<Variant>& all_variants() {
  static const std::vector<Variant> v = {Variant::independent, Variant::lockstep,
                                         Variant::recursive};
  return v;
}

// The subsamples of real range scans under tests/data/ (real_scans.SOURCE.md): uneven surface
// samples (the dragon) and quantised depth full of ties (the Kinect office).
inline std::string test_data_path(const std::string& name) {
  return (std::filesystem::path(__FILE__).parent_path() / "data" / name).string();
}
inline PointSet real_scan(const std::string& name) { return read_points(test_data_path(name)); }
inline const std::vector<std::string>& real_scans() {
  static const std::vector<std::string> names = {"dragon_scan_2k.xyz", "kinect_office_2k.xyz"};
  return names;
}

// The same neighbours (indices and squared distances, ties included) as the reference.
inline void check_same(const Neighbours& got, const Neighbours& want) {
  REQUIRE(got.k == want.k);
  CHECK(got.index == want.index);
  CHECK(got.d2 == want.d2);
}

// f(variant, sort) for every variant, sorted and not; both are reported when a check fails.
template <class F>
void each_variant_and_sort(F f) {
  for (Variant v : all_variants())
    for (SortMode sort : {SortMode::on, SortMode::off}) {
      CAPTURE(std::string(to_string(v)));
      CAPTURE(std::string(to_string(sort)));
      f(v, sort);
    }
}

}  // namespace treefix::test
