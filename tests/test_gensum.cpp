// GenSum: the generated sums have the condition number asked for, measured independently.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "treefix/core/error.hpp"
#include "treefix/treefix/gensum.hpp"

namespace {

// Exact sum by an independent method: fixed point in many 64-bit limbs is overkill; the terms
// span < 2^-200..2^200 here, so a sorted-by-magnitude double-double (TwoSum) accumulation is
// exact to ~2^-106 relative, far below what the condition checks need.
template <class T>
long double double_double_sum(std::vector<T> v) {
  std::sort(v.begin(), v.end(), [](T a, T b) { return std::fabs(a) < std::fabs(b); });
  double high = 0, low = 0;
  for (T t : v) {
    const double x = static_cast<double>(t);
    const double s = high + x;
    const double bb = s - high;
    const double err = (high - (s - bb)) + (x - bb);  // TwoSum
    high = s;
    low += err;
  }
  return static_cast<long double>(high) + static_cast<long double>(low);
}

template <class T>
double independent_condition(const std::vector<T>& terms) {
  long double magnitude = 0;
  for (T t : terms) magnitude += std::fabs(static_cast<long double>(t));
  return static_cast<double>(magnitude / std::fabs(double_double_sum(terms)));
}

}  // namespace

TEST_CASE("gensum exact_sum is exact on catastrophic cancellation") {
  using treefix::gensum::exact_sum;
  CHECK(exact_sum({1e100, 1.0, -1e100}) == 1.0);
  CHECK(exact_sum({1.0, 1e-30, -1.0, 1e-30}) == 2e-30);
  CHECK(exact_sum({}) == 0.0);
  CHECK(exact_sum({0.1, 0.2, 0.3, -0.6}) ==
        double_double_sum(std::vector<double>{0.1, 0.2, 0.3, -0.6}));
}

TEST_CASE_TEMPLATE("gensum achieves the target condition number within a factor 10", T, float,
                   double) {
  for (double cond : {1e1, 1e2, 1e4, 1e6, 1e8, 1e10}) {
    for (std::size_t n : {2u, 3u, 101u, 10000u}) {
      if (n < 100 && cond > 1e4) continue;  // too few terms to make an extreme cancellation
      CAPTURE(cond);
      CAPTURE(n);
      auto sum = treefix::gensum::generate<T>(n, cond, 42 + n);
      REQUIRE(sum.terms.size() == n);
      const double measured = independent_condition(sum.terms);
      CHECK(measured == doctest::Approx(sum.condition).epsilon(1e-6));
      CHECK(measured >= cond / 10);
      CHECK(measured <= cond * 10);
      CHECK(static_cast<double>(double_double_sum(sum.terms)) ==
            doctest::Approx(sum.exact_sum).epsilon(1e-12));
    }
  }
}

TEST_CASE("gensum float sums really are ill-conditioned: naive float summation loses digits") {
  auto sum = treefix::gensum::generate<float>(10000, 1e8, 7);
  float naive = 0;
  for (float t : sum.terms) naive += t;
  const double relative = std::fabs(naive - sum.exact_sum) / std::fabs(sum.exact_sum);
  CHECK(relative > 1e-6);  // a well-conditioned float sum would be near 2^-24 ~ 6e-8
}

TEST_CASE("gensum is deterministic and rejects bad requests") {
  auto a = treefix::gensum::generate<double>(500, 1e5, 3);
  auto b = treefix::gensum::generate<double>(500, 1e5, 3);
  CHECK(a.terms == b.terms);
  CHECK_THROWS_AS(treefix::gensum::generate<float>(1, 10, 0), treefix::InputError);
  CHECK_THROWS_AS(treefix::gensum::generate<float>(100, 0.5, 0), treefix::InputError);
  CHECK_THROWS_AS(treefix::gensum::generate<float>(100, 1e20, 0), treefix::InputError);
  CHECK_THROWS_AS(treefix::gensum::generate<double>(100, std::nan(""), 0), treefix::InputError);
}
