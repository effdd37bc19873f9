// Euler-tour treefix against the sequential CPU reference: every shape, operator, type and kind.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <random>

#include "fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/treefix.hpp"

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
      {"shuffled forest",
       [](std::size_t n) { return generate::random_forest(n, n / 50 + 1, n + 3); }},
  };
  return all;
}

const EulerKernels kBothForms[] = {EulerKernels::fused, EulerKernels::three};

TreefixOptions euler(Op op, bool exclusive, EulerKernels form,
                     Precision precision = Precision::accurate) {
  TreefixOptions options{op, exclusive, Algorithm::euler};
  options.euler_kernels = form;
  options.precision = precision;
  return options;
}

template <class T>
void check_exact(const ParentArray& parent, Op op, T low, T high, std::uint64_t seed) {
  auto& rt = test::runtime();
  auto w = test::random_values<T>(parent.size(), seed, low, high);
  for (bool exclusive : {false, true}) {
    for (EulerKernels form : kBothForms) {
      CAPTURE(exclusive);
      CAPTURE(int(form));
      auto options = euler(op, exclusive, form);
      CHECK(rootfix(rt, parent, w, options) == reference::rootfix(parent, w, op, exclusive));
      CHECK(leaffix(rt, parent, w, options) == reference::leaffix(parent, w, op, exclusive));
    }
  }
}

}  // namespace

TEST_CASE("euler treefix is exact for integers on every shape and awkward size") {
  for (const auto& shape : shapes()) {
    for (std::size_t n : test::awkward_sizes()) {
      for (bool single_pass : {false, true}) {
        test::ScanStrategy strategy(single_pass);
        CAPTURE(single_pass);
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
        for (EulerKernels form : kBothForms) {
          for (Precision precision : {Precision::fast, Precision::accurate}) {
            auto options = euler(Op::sum, exclusive, form, precision);
            CHECK(rootfix(rt, parent, wf, options) ==
                  reference::rootfix(parent, wf, Op::sum, exclusive, precision));
            CHECK(leaffix(rt, parent, wf, options) ==
                  reference::leaffix(parent, wf, Op::sum, exclusive, precision));
            CHECK(rootfix(rt, parent, wd, options) ==
                  reference::rootfix(parent, wd, Op::sum, exclusive, precision));
            CHECK(leaffix(rt, parent, wd, options) ==
                  reference::leaffix(parent, wd, Op::sum, exclusive, precision));
          }
        }
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

      auto root_ref = reference::rootfix(parent, wexact, Op::sum, false);
      auto leaf_ref = reference::leaffix(parent, wexact, Op::sum, false);
      for (EulerKernels form : kBothForms) {
        auto root = rootfix(rt, parent, wf, euler(Op::sum, false, form));
        auto leaf = leaffix(rt, parent, wf, euler(Op::sum, false, form));
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
}

TEST_CASE("euler treefix on a few million vertices") {
  auto& rt = test::runtime();
  for (auto parent : {generate::random_recursive(3000017, 1), generate::path(2000003)}) {
    auto w = test::random_values<std::int64_t>(parent.size(), 9, -100000, 100000);
    auto w32 = test::random_values<std::int32_t>(parent.size(), 10, -100, 100);
    for (bool single_pass : {false, true}) {  // int32: the single-pass scan where enabled
      test::ScanStrategy strategy(single_pass);
      CHECK(leaffix(rt, parent, w32, euler(Op::sum, false, EulerKernels::fused)) ==
            reference::leaffix(parent, w32, Op::sum, false));
    }
    for (EulerKernels form : kBothForms) {
      auto options = euler(Op::sum, false, form);
      CHECK(rootfix(rt, parent, w, options) == reference::rootfix(parent, w, Op::sum, false));
      CHECK(leaffix(rt, parent, w, options) == reference::leaffix(parent, w, Op::sum, false));
    }
    // weights moved in: the result comes back in their storage
    std::vector<std::int64_t> moved = w;
    const std::int64_t* storage = moved.data();
    const std::vector<std::int64_t> rooted = rootfix(rt, parent, std::move(moved));
    CHECK(rooted == reference::rootfix(parent, w, Op::sum, false));
    CHECK(rooted.data() == storage);
    CHECK(leaffix(rt, parent, std::vector<std::int64_t>(w)) ==
          reference::leaffix(parent, w, Op::sum, false));
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
  options.euler_kernels = EulerKernels::three;
  rootfix(rt, tree, weights, a, options);  // first call uploads the tour
  profile.clear();
  leaffix(rt, tree, a, b, options);  // leaffix of the rootfix, no transfer at all
  CHECK(profile.launches("upload") == 0);
  CHECK(profile.launches("download") == 0);
  CHECK(profile.launches("write") == 1);
  CHECK(profile.launches("read") == 1);
  CHECK(profile.milliseconds("scan") >= 0.0);
  auto expected =
      reference::leaffix(parent, reference::rootfix(parent, w, Op::sum, false), Op::sum, false);
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

TEST_CASE("levels and auto through the treefix API match the reference for every operator") {
  auto& rt = test::runtime();
  for (auto parent :
       {generate::star(3001), generate::path(2000), generate::random_forest(5003, 4, 2)}) {
    auto w = test::random_values<std::int32_t>(parent.size(), 5, -1000, 1000);
    for (Op op : {Op::sum, Op::bit_xor, Op::min, Op::max}) {
      for (Algorithm a : {Algorithm::levels, Algorithm::automatic}) {
        for (bool exclusive : {false, true}) {
          TreefixOptions options{op, exclusive, a};
          CHECK(rootfix(rt, parent, w, options) == reference::rootfix(parent, w, op, exclusive));
          CHECK(leaffix(rt, parent, w, options) == reference::leaffix(parent, w, op, exclusive));
        }
      }
    }
  }
  DeviceTree star(rt, generate::star(100000));
  CHECK(choose_algorithm(star, Op::max, ValueType::float32) == Algorithm::levels);
}

TEST_CASE("bad treefix requests are refused before anything runs") {
  auto& rt = test::runtime();
  ParentArray parent = {-1, 0, 0};
  CHECK_THROWS_WITH_AS(rootfix<std::int32_t>(rt, parent, {1, 2}),
                       doctest::Contains("2 weights for a tree of 3"), InputError);
  CHECK_THROWS_WITH_AS(rootfix<std::int32_t>(rt, ParentArray{-1, 2, 1}, {1, 2, 3}),
                       doctest::Contains("cycle"), InputError);
  CHECK_THROWS_WITH_AS(rootfix<std::int32_t>(rt, ParentArray{-1, 9}, {1, 2}),
                       doctest::Contains("parent 9"), InputError);
  CHECK_THROWS_WITH_AS(rootfix<float>(rt, parent, {1, 2, 3}, {Op::bit_xor}),
                       doctest::Contains("xor needs an integer"), InputError);
  CHECK_THROWS_WITH_AS(
      leaffix<std::int32_t>(rt, parent, {1, 2, 3}, {Op::min, false, Algorithm::euler}),
      doctest::Contains("no"), InputError);
  CHECK(rootfix<std::int32_t>(rt, ParentArray{}, {}).empty());
}

namespace {
// Ill-conditioned sums with an exact reference: every weight is m * 2^e with |m| < 2^24 and
// 0 <= e < 24, so it is exact in float, and every sum is exact in int64 (in units of 1). Large
// terms of opposite signs cancel, leaving a small result: condition numbers up to ~1e9.
std::vector<std::int64_t> ill_conditioned(std::size_t n, std::uint64_t seed) {
  // Triples (big, -big, small): the bigs (up to 2^46) cancel exactly, the smalls (|.| < 2^10)
  // are the sum, so the prefixes are ~1e9 times larger than the result.
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> w(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 3 == 0) {
      std::int64_t m = std::uniform_int_distribution<std::int64_t>(-(1 << 23), (1 << 23))(rng);
      w[i] = m << std::uniform_int_distribution<int>(10, 23)(rng);
    } else if (i % 3 == 1) {
      w[i] = -w[i - 1];
    } else {
      w[i] = std::uniform_int_distribution<std::int64_t>(-1023, 1023)(rng);
    }
  }
  return w;
}

// The accurate Euler-tour treefix carries integer-valued sums exactly and rounds once: each
// result is the exact integer sum rounded to T, bit for bit, however the terms cancel.
template <class T>
void check_accurate(const ParentArray& parent) {
  auto& rt = test::runtime();
  const std::size_t n = parent.size();
  auto exact_w = ill_conditioned(n, n + 17);
  std::vector<T> w(exact_w.begin(), exact_w.end());
  for (std::size_t i = 0; i < n; ++i)
    exact_w[i] = static_cast<std::int64_t>(w[i]);  // integers: exact
  for (bool exclusive : {false, true}) {
    auto exact_root = reference::rootfix(parent, exact_w, Op::sum, exclusive);
    auto exact_leaf = reference::leaffix(parent, exact_w, Op::sum, exclusive);
    for (EulerKernels form : kBothForms) {
      auto options = euler(Op::sum, exclusive, form);
      auto root = rootfix(rt, parent, w, options);
      auto leaf = leaffix(rt, parent, w, options);
      for (std::size_t v = 0; v < n; ++v) {
        CHECK(root[v] == static_cast<T>(exact_root[v]));
        CHECK(leaf[v] == static_cast<T>(exact_leaf[v]));
      }
    }
  }
}
}  // namespace

TEST_CASE("accurate euler treefix rounds ill-conditioned sums once, exactly") {
  for (auto parent : {generate::star(10000), generate::path(10000),
                      generate::random_recursive(4099, 3), generate::random_forest(3001, 5, 8)}) {
    check_accurate<float>(parent);
    check_accurate<double>(parent);
  }
}

TEST_CASE("accurate treefix beats the fast one where cancellation is catastrophic") {
  // A star whose root sums 10,000 terms that cancel to a small value: the fast float scan loses
  // the result to rounding of the large prefixes; the accurate one rounds the exact sum once.
  auto& rt = test::runtime();
  auto parent = generate::star(10000);
  auto exact_w = ill_conditioned(parent.size(), 99);
  std::vector<float> w(exact_w.begin(), exact_w.end());
  for (std::size_t i = 0; i < w.size(); ++i) exact_w[i] = static_cast<std::int64_t>(w[i]);
  double exact = double(reference::leaffix(parent, exact_w, Op::sum, false)[0]);
  REQUIRE(exact != 0.0);
  auto plain =
      leaffix(rt, parent, w, euler(Op::sum, false, EulerKernels::fused, Precision::fast))[0];
  auto accurate = leaffix(rt, parent, w, euler(Op::sum, false, EulerKernels::fused))[0];
  double plain_error = std::fabs(plain - exact) / std::fabs(exact);
  double accurate_error = std::fabs(accurate - exact) / std::fabs(exact);
  CHECK(accurate_error <= std::ldexp(1.0, -23));
  CHECK(accurate_error <= plain_error);
}
