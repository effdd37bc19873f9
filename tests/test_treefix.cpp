// Euler-tour treefix against the sequential CPU reference: every shape, operator, type and kind.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>

#include "fixture.hpp"
#include "treefix/error.hpp"
#include "treefix/generate.hpp"
#include "treefix/reference.hpp"
#include "treefix/treefix.hpp"

using namespace treefix;

namespace {

struct Shape {
  const char* name;
  std::function<ParentArray(std::size_t)> make;
};

const std::vector<Shape>& shapes() {
  static const std::vector<Shape> all = {
      {"star", [](std::size_t n) { return generate::star(n); }},
      {"path", [](std::size_t n) { return generate::path(n); }},
      {"caterpillar", [](std::size_t n) { return generate::caterpillar(n, n / 4 + 1); }},
      {"binary", [](std::size_t n) { return generate::kary(n, 2); }},
      {"random recursive", [](std::size_t n) { return generate::random_recursive(n, n + 11); }},
      {"shuffled forest", [](std::size_t n) { return generate::random_forest(n, n / 50 + 1, n + 3); }},
  };
  return all;
}

template <class T>
void check_exact(const ParentArray& parent, Op op, T low, T high, std::uint64_t seed) {
  auto& rt = test::runtime();
  auto w = test::random_values<T>(parent.size(), seed, low, high);
  for (bool exclusive : {false, true}) {
    CAPTURE(exclusive);
    TreefixOptions options{op, exclusive, Algorithm::euler};
    CHECK(rootfix(rt, parent, w, options) == reference::rootfix(parent, w, op, exclusive));
    CHECK(leaffix(rt, parent, w, options) == reference::leaffix(parent, w, op, exclusive));
  }
}

}  // namespace

TEST_CASE("euler treefix is exact for integers on every shape and awkward size") {
  for (const auto& shape : shapes()) {
    for (std::size_t n : test::awkward_sizes()) {
      CAPTURE(shape.name);
      CAPTURE(n);
      auto parent = shape.make(n);
      check_exact<std::int32_t>(parent, Op::sum, -1000, 1000, n);
      check_exact<std::int64_t>(parent, Op::sum, -(1ll << 40), 1ll << 40, n + 1);
      check_exact<std::int32_t>(parent, Op::bit_xor, INT32_MIN, INT32_MAX, n + 2);
      check_exact<std::int64_t>(parent, Op::bit_xor, INT64_MIN, INT64_MAX, n + 3);
    }
  }
}

TEST_CASE("euler treefix of integer-valued floats is exact (all partial sums below 2^24)") {
  // |weights| <= 8 and n <= 100003 keep every prefix of the tour below 2^24 in magnitude, so each
  // float operation is exact and the device must match the reference bit for bit.
  for (const auto& shape : shapes()) {
    for (std::size_t n : {1ul, 257ul, 100003ul}) {
      CAPTURE(shape.name);
      CAPTURE(n);
      auto parent = shape.make(n);
      auto wi = test::random_values<std::int32_t>(n, n, -8, 8);
      std::vector<float> wf(wi.begin(), wi.end());
      std::vector<double> wd(wi.begin(), wi.end());
      auto& rt = test::runtime();
      for (bool exclusive : {false, true}) {
        TreefixOptions options{Op::sum, exclusive, Algorithm::euler};
        CHECK(rootfix(rt, parent, wf, options) == reference::rootfix(parent, wf, Op::sum, exclusive));
        CHECK(leaffix(rt, parent, wf, options) == reference::leaffix(parent, wf, Op::sum, exclusive));
        CHECK(rootfix(rt, parent, wd, options) == reference::rootfix(parent, wd, Op::sum, exclusive));
        CHECK(leaffix(rt, parent, wd, options) == reference::leaffix(parent, wd, Op::sum, exclusive));
      }
    }
  }
}

TEST_CASE("euler treefix of random floats stays within the summation error bound") {
  // Bound (Higham, any summation order): a prefix of m tour terms x_i computed in precision u
  // differs from the exact prefix by at most gamma_m * sum |x_i|, gamma_m = m u / (1 - m u).
  // rootfix reads one prefix (m = open + 1 terms); leaffix subtracts two, so its error is at most
  // the sum of both prefixes' bounds plus one rounding u |result|. The exact values come from the
  // double reference (its own error is ~1e-16 relative, far below float's bound).
  auto& rt = test::runtime();
  const double u = std::ldexp(1.0, -24);
  for (const auto& shape : shapes()) {
    for (std::size_t n : {2ul, 999ul, 4099ul}) {
      CAPTURE(shape.name);
      CAPTURE(n);
      auto parent = shape.make(n);
      auto wd = test::random_values<double>(n, n + 5, -1.0, 1.0);
      std::vector<float> wf(wd.begin(), wd.end());
      std::vector<double> wexact(wf.begin(), wf.end());
      auto tour = build_euler_tour(parent);
      std::vector<double> magnitude(2 * n, 0.0);  // |tour term| at each position
      for (std::size_t v = 0; v < n; ++v) {
        magnitude[tour.open_pos[v]] = std::fabs(wexact[v]);
        magnitude[tour.close_pos[v]] = std::fabs(wexact[v]);  // rootfix writes -w, leaffix 0
      }
      std::vector<double> prefix(2 * n + 1, 0.0);  // prefix[k] = sum of magnitudes of terms < k
      for (std::size_t i = 0; i < 2 * n; ++i) prefix[i + 1] = prefix[i] + magnitude[i];
      auto gamma = [&](double m) { return m * u / (1 - m * u); };
      auto bound = [&](std::int64_t last) { return gamma(last + 1) * prefix[last + 1]; };

      auto root = rootfix(rt, parent, wf, {Op::sum, false, Algorithm::euler});
      auto root_ref = reference::rootfix(parent, wexact, Op::sum, false);
      auto leaf = leaffix(rt, parent, wf, {Op::sum, false, Algorithm::euler});
      auto leaf_ref = reference::leaffix(parent, wexact, Op::sum, false);
      for (std::size_t v = 0; v < n; ++v) {
        CHECK(std::fabs(root[v] - root_ref[v]) <= bound(tour.open_pos[v]) + 1e-12);
        double leaf_bound = bound(tour.close_pos[v]) +
                            (tour.open_pos[v] > 0 ? bound(tour.open_pos[v] - 1) : 0.0) +
                            u * std::fabs(leaf_ref[v]);
        CHECK(std::fabs(leaf[v] - leaf_ref[v]) <= leaf_bound + 1e-12);
      }
    }
  }
}

TEST_CASE("euler treefix on a few million vertices") {
  auto& rt = test::runtime();
  for (auto parent : {generate::random_recursive(3000017, 1), generate::path(2000003)}) {
    auto w = test::random_values<std::int64_t>(parent.size(), 9, -100000, 100000);
    TreefixOptions options{Op::sum, false, Algorithm::euler};
    CHECK(rootfix(rt, parent, w, options) == reference::rootfix(parent, w, Op::sum, false));
    CHECK(leaffix(rt, parent, w, options) == reference::leaffix(parent, w, Op::sum, false));
  }
}

TEST_CASE("data stays on the device across repeated calls") {
  auto& rt = test::runtime();
  auto parent = generate::random_recursive(5003, 4);
  DeviceTree tree(rt, parent);
  auto w = test::random_values<std::int32_t>(parent.size(), 2, -50, 50);
  auto weights = DeviceArray<std::int32_t>::upload(rt, w);
  DeviceArray<std::int32_t> a(rt, parent.size()), b(rt, parent.size());
  Profile profile;
  TreefixOptions options{Op::sum, false, Algorithm::euler, &profile};
  rootfix(rt, tree, weights, a, options);  // first call uploads the tour
  profile.clear();
  leaffix(rt, tree, a, b, options);        // leaffix of the rootfix, no transfer at all
  CHECK(profile.launches("upload") == 0);
  CHECK(profile.launches("download") == 0);
  CHECK(profile.launches("write") == 1);
  CHECK(profile.launches("read") == 1);
  CHECK(profile.milliseconds("scan") >= 0.0);
  auto expected = reference::leaffix(parent, reference::rootfix(parent, w, Op::sum, false), Op::sum, false);
  CHECK(b.download(rt) == expected);
}

TEST_CASE("sequential algorithm runs the reference, for every operator") {
  auto& rt = test::runtime();
  auto parent = generate::random_forest(1000, 7, 5);
  auto w = test::random_values<float>(parent.size(), 3, -5.0f, 5.0f);
  for (Op op : {Op::sum, Op::min, Op::max}) {
    TreefixOptions options{op, false, Algorithm::sequential};
    CHECK(rootfix(rt, parent, w, options) == reference::rootfix(parent, w, op, false));
    CHECK(leaffix(rt, parent, w, options) == reference::leaffix(parent, w, op, false));
  }
}

TEST_CASE("bad treefix requests are refused before anything runs") {
  auto& rt = test::runtime();
  ParentArray parent = {-1, 0, 0};
  CHECK_THROWS_WITH_AS(rootfix<std::int32_t>(rt, parent, {1, 2}), doctest::Contains("2 weights for a tree of 3"), InputError);
  CHECK_THROWS_WITH_AS(rootfix<std::int32_t>(rt, ParentArray{-1, 2, 1}, {1, 2, 3}), doctest::Contains("cycle"), InputError);
  CHECK_THROWS_WITH_AS(rootfix<std::int32_t>(rt, ParentArray{-1, 9}, {1, 2}), doctest::Contains("parent 9"), InputError);
  CHECK_THROWS_WITH_AS(rootfix<float>(rt, parent, {1, 2, 3}, {Op::bit_xor}), doctest::Contains("xor needs an integer"), InputError);
  CHECK_THROWS_WITH_AS(leaffix<std::int32_t>(rt, parent, {1, 2, 3}, {Op::min, false, Algorithm::euler}), doctest::Contains("no"), InputError);
  CHECK(rootfix<std::int32_t>(rt, ParentArray{}, {}).empty());
}
