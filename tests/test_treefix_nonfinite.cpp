// Infinities and NaNs among the weights: one IEEE answer on every path (precision.hpp). Every
// algorithm, floating-point type, operator, precision, fix and exclusivity, with +inf, -inf and
// NaN at every vertex of a small forest, and both infinities together, against the rule applied
// to each vertex's terms. The finite weights are small integers, so every finite sum is exact.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "fixture.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/treefix.hpp"

using namespace treefix;

namespace {

// The terms of v's result: v and its ancestors (rootfix) or its subtree (leaffix), without v
// when exclusive.
std::vector<vertex_t> terms_of(const ParentArray& parent, vertex_t v, Fix fix, bool exclusive) {
  std::vector<vertex_t> terms;
  for (vertex_t u = 0; u < static_cast<vertex_t>(parent.size()); ++u) {
    if (u == v && exclusive) continue;
    vertex_t from = fix == Fix::root ? v : u, to = fix == Fix::root ? u : v;
    for (vertex_t a = from; a != -1; a = parent[a])
      if (a == to) {
        terms.push_back(u);
        break;
      }
  }
  return terms;
}

// IEEE's sum, numpy.minimum or numpy.maximum over the terms, in any order (the finite terms are
// small integers: exact).
template <class T>
T expected(const std::vector<T>& w, const std::vector<vertex_t>& terms, Op op) {
  const T inf = std::numeric_limits<T>::infinity();
  T value = op == Op::sum ? T(0) : op == Op::min ? inf : -inf;
  bool nan = false, positive = false, negative = false;
  for (vertex_t u : terms) {
    const T x = w[u];
    nan |= std::isnan(x);
    positive |= x == inf;
    negative |= x == -inf;
    if (std::isfinite(x)) value = op == Op::sum ? value + x : op == Op::min ? std::fmin(value, x)
                                                                          : std::fmax(value, x);
  }
  if (nan) return std::numeric_limits<T>::quiet_NaN();
  if (op == Op::sum) {
    if (positive && negative) return std::numeric_limits<T>::quiet_NaN();
    if (positive || negative) return positive ? inf : -inf;
    return value;
  }
  if (op == Op::min) return negative ? -inf : value;
  return positive ? inf : value;
}

template <class T>
bool same(T got, T want) {
  return std::isnan(want) ? std::isnan(got) : got == want;
}

template <class T>
void check_every_path(const ParentArray& parent, const std::vector<std::vector<T>>& weightings) {
  auto& rt = test::runtime();
  DeviceTree tree(rt, parent);
  const std::size_t n = parent.size(), rows = weightings.size();
  std::vector<T> all;  // every weighting, as the rows of one batch
  for (const std::vector<T>& weights : weightings) all.insert(all.end(), weights.begin(), weights.end());
  const auto w = DeviceArray<T>::upload(rt, all);
  DeviceArray<T> r(rt, rows * n);
  struct Path {
    Algorithm algorithm;
    Precision precision;
  };
  const Path paths[] = {{Algorithm::euler, Precision::accurate},
                        {Algorithm::euler, Precision::fast},
                        {Algorithm::levels, Precision::accurate},
                        {Algorithm::levels, Precision::fast},
                        {Algorithm::sequential, Precision::accurate},
                        {Algorithm::sequential, Precision::fast},
                        {Algorithm::automatic, Precision::accurate}};
  for (Op op : {Op::sum, Op::min, Op::max})
    for (Fix fix : {Fix::root, Fix::leaf})
      for (bool exclusive : {false, true}) {
        std::vector<std::vector<vertex_t>> terms(n);
        for (vertex_t v = 0; v < static_cast<vertex_t>(n); ++v)
          terms[v] = terms_of(parent, v, fix, exclusive);
        for (const Path& path : paths) {
          if (path.algorithm == Algorithm::euler && op != Op::sum) continue;
          if (path.precision == Precision::fast && op != Op::sum) continue;
          TreefixOptions options;
          options.op = op;
          options.exclusive = exclusive;
          options.algorithm = path.algorithm;
          options.precision = path.precision;
          treefix::treefix(rt, tree, w, r, fix, options);
          const std::vector<T> got = r.download(rt);
          for (std::size_t row = 0; row < rows; ++row) {
            for (std::size_t v = 0; v < n; ++v) {
              const T want = expected(weightings[row], terms[v], op);
              if (!same(got[row * n + v], want)) {
                CAPTURE(to_string(op));
                CAPTURE(to_string(fix));
                CAPTURE(exclusive);
                CAPTURE(to_string(path.algorithm));
                CAPTURE(to_string(path.precision));
                CAPTURE(row);
                CAPTURE(v);
                CHECK(got[row * n + v] == want);
              }
            }
          }
        }
      }
}

template <class T>
std::vector<std::vector<T>> special_weightings(std::size_t n) {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> finite(n);
  for (std::size_t v = 0; v < n; ++v) finite[v] = T(static_cast<int>(v % 7) - 3);
  std::vector<std::vector<T>> all;
  for (T special : {inf, -inf, nan})
    for (std::size_t at = 0; at < n; ++at) {
      all.push_back(finite);
      all.back()[at] = special;
    }
  for (std::size_t at = 0; at + 1 < n; ++at) {  // both infinities, on a path and apart
    all.push_back(finite);
    all.back()[at] = inf;
    all.back()[n - 1 - at] = -inf;
  }
  all.push_back(std::vector<T>(n, inf));
  return all;
}

}  // namespace

TEST_CASE("non-finite weights: one IEEE answer on every algorithm, type, operator and position") {
  // A forest of three trees with a path, a fan and a deeper branch (11 vertices).
  const ParentArray parent = {-1, 0, 1, 2, 0, 0, -1, 6, 6, 7, -1};
  check_every_path<float>(parent, special_weightings<float>(parent.size()));
  if (test::runtime().description().fp64)
    check_every_path<double>(parent, special_weightings<double>(parent.size()));
}

TEST_CASE("non-finite weights: a batch and the host convenience calls follow the same rule") {
  auto& rt = test::runtime();
  const ParentArray parent = {-1, 0, 0, 1, 1, 2};
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> w = {1, inf, 3, 4, 5, 6};
  const std::vector<float> want = {1, inf, 4, inf, inf, 10};
  for (Algorithm algorithm : {Algorithm::automatic, Algorithm::euler, Algorithm::levels,
                              Algorithm::sequential}) {
    TreefixOptions options;
    options.algorithm = algorithm;
    CAPTURE(to_string(algorithm));
    for (int call = 0; call < 4; ++call) CHECK(rootfix(rt, parent, w, options) == want);
    DeviceTree tree(rt, parent);
    std::vector<float> rows(3 * w.size());
    for (int row = 0; row < 3; ++row) std::copy(w.begin(), w.end(), rows.begin() + row * 6);
    std::vector<float> out(rows.size());
    treefix::treefix(rt, tree, rows.data(), out.data(), 3, Fix::root, options);
    for (int row = 0; row < 3; ++row)
      CHECK(std::vector<float>(out.begin() + row * 6, out.begin() + row * 6 + 6) == want);
  }
}
