// The accurate precision (the default for floating-point sums): every algorithm's result within
// 8·u·S of the exact sum, the Euler tour's correctly rounded, the same bits on every run and
// layout, and -0 sums. The exact sums of the oracle are
// computed here in a wide fixed-point integer, independently of the library.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include "fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/treefix.hpp"

using namespace treefix;

namespace {

// A two's-complement fixed-point integer of 72 words whose lowest bit weighs 2^-1120: every
// double, and any sum of fewer than 2^40 of them, is exact in it.
class Exact {
 public:
  static constexpr int kWords = 72, kLsb = -1120;
  Exact() { word_.fill(0); }
  explicit Exact(double x) : Exact() {
    if (x == 0) return;
    int exponent;
    const double m = std::frexp(std::fabs(x), &exponent);  // x = m·2^exponent, m in [0.5, 1)
    const auto mant = static_cast<std::uint64_t>(std::ldexp(m, 53));
    const int at = exponent - 53 - kLsb;  // bit position of mant's lowest bit
    for (int b = 0; b < 53; ++b)
      if (mant >> b & 1) set_bit(at + b);
    if (x < 0) *this = -*this;
  }
  Exact operator+(const Exact& o) const {
    Exact s;
    std::uint64_t carry = 0;
    for (int k = 0; k < kWords; ++k) {
      carry += std::uint64_t(word_[k]) + o.word_[k];
      s.word_[k] = static_cast<std::uint32_t>(carry);
      carry >>= 32;
    }
    return s;
  }
  Exact operator-() const {
    Exact s;
    std::uint64_t carry = 1;
    for (int k = 0; k < kWords; ++k) {
      carry += std::uint32_t(~word_[k]);
      s.word_[k] = static_cast<std::uint32_t>(carry);
      carry >>= 32;
    }
    return s;
  }
  Exact operator-(const Exact& o) const { return *this + -o; }
  bool negative() const { return word_[kWords - 1] >> 31; }
  bool zero() const {
    for (auto w : word_)
      if (w) return false;
    return true;
  }
  // The value, rounded (for comparing an error with its bound).
  double approx() const {
    const Exact m = negative() ? -*this : *this;
    long double x = 0;
    for (int k = kWords - 1; k >= 0; --k) x += std::ldexp((long double)m.word_[k], 32 * k + kLsb);
    return static_cast<double>(negative() ? -x : x);
  }
  // Exponent of the highest set bit of |this| (INT_MIN for zero).
  int top() const {
    const Exact m = negative() ? -*this : *this;
    for (int k = kWords - 1; k >= 0; --k)
      if (m.word_[k]) return 32 * k + 31 - __builtin_clz(m.word_[k]) + kLsb;
    return std::numeric_limits<int>::min();
  }

 private:
  void set_bit(int b) { word_[b / 32] |= std::uint32_t(1) << (b % 32); }
  std::array<std::uint32_t, kWords> word_;
};

// Whether r is a T nearest to the exact value x (correct rounding, either neighbour on a tie).
template <class T>
bool nearest(T r, const Exact& x) {
  using L = std::numeric_limits<T>;
  const Exact diff = x - Exact(double(r));
  if (diff.zero()) return true;
  // the spacing of T around r on the side of x
  int exponent = r == 0 ? L::min_exponent : std::ilogb(r) + 1;
  exponent = std::max(exponent, L::min_exponent);
  int spacing = exponent - L::digits;  // log2 of the ulp
  const bool toward_zero = diff.negative() != std::signbit(r);
  if (r != 0 && toward_zero && std::fabs(r) == std::ldexp(T(1), std::ilogb(r)) &&
      std::ilogb(r) > L::min_exponent - 1)
    --spacing;  // below a power of two, the spacing halves
  const Exact magnitude = diff.negative() ? -diff : diff;
  if (magnitude.top() < spacing - 1) return true;                   // below half the spacing
  return (magnitude - Exact(std::ldexp(1.0, spacing - 1))).zero();  // a tie
}

// Exact sums and S (the sum of |w| over the same terms) for every vertex.
struct Truth {
  std::vector<Exact> sum;
  std::vector<double> magnitude;
};

template <class T>
Truth rootfix_truth(const ParentArray& parent, const std::vector<T>& w, bool exclusive) {
  const auto order = top_down_order(parent);
  Truth inclusive{std::vector<Exact>(parent.size()), std::vector<double>(parent.size())};
  for (vertex_t v : order) {
    const vertex_t p = parent[v];
    inclusive.sum[v] = (p < 0 ? Exact() : inclusive.sum[p]) + Exact(double(w[v]));
    inclusive.magnitude[v] = (p < 0 ? 0.0 : inclusive.magnitude[p]) + std::fabs(double(w[v]));
  }
  if (!exclusive) return inclusive;
  Truth t{std::vector<Exact>(parent.size()), std::vector<double>(parent.size(), 0.0)};
  for (std::size_t v = 0; v < parent.size(); ++v)
    if (parent[v] >= 0) {
      t.sum[v] = inclusive.sum[parent[v]];
      t.magnitude[v] = inclusive.magnitude[parent[v]];
    }
  return t;
}

template <class T>
Truth leaffix_truth(const ParentArray& parent, const std::vector<T>& w, bool exclusive) {
  const auto order = top_down_order(parent);
  Truth below{std::vector<Exact>(parent.size()), std::vector<double>(parent.size(), 0.0)};
  Truth t = below;
  for (std::size_t i = order.size(); i-- > 0;) {
    const vertex_t v = order[i];
    const Exact total = below.sum[v] + Exact(double(w[v]));
    const double total_magnitude = below.magnitude[v] + std::fabs(double(w[v]));
    t.sum[v] = exclusive ? below.sum[v] : total;
    t.magnitude[v] = exclusive ? below.magnitude[v] : total_magnitude;
    if (parent[v] >= 0) {
      below.sum[parent[v]] = below.sum[parent[v]] + total;
      below.magnitude[parent[v]] += total_magnitude;
    }
  }
  return t;
}

// Weights spanning 10^-8..10^8 in magnitude, log-uniform; all positive or of random sign.
template <class T>
std::vector<T> spanning_weights(std::size_t n, std::uint64_t seed, bool mixed_sign) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> decade(-8.0, 8.0);
  std::vector<T> w(n);
  for (auto& x : w) {
    x = static_cast<T>(std::pow(10.0, decade(rng)));
    if (mixed_sign && (rng() & 1)) x = -x;
  }
  return w;
}

struct Forest {
  const char* name;
  ParentArray parent;
};

std::vector<Forest> forests() {
  return {{"bushy random", generate::random_recursive(30011, 5)},
          {"deep caterpillar", generate::caterpillar(20011, 15000)},
          {"path", generate::path(8009)},
          {"star", generate::star(10007)},
          {"shuffled forest", generate::random_forest(20011, 97, 7)}};
}

template <class T>
void check_algorithm(const Forest& forest, const std::vector<T>& w, Algorithm algorithm,
                     TourLayout layout) {
  auto& rt = test::runtime();
  const double u = std::ldexp(1.0, -std::numeric_limits<T>::digits);
  for (bool exclusive : {false, true}) {
    TreefixOptions options;
    options.algorithm = algorithm;
    options.exclusive = exclusive;
    options.layout = layout;
    for (bool root : {true, false}) {
      CAPTURE(forest.name);
      CAPTURE(exclusive);
      CAPTURE(root);
      CAPTURE(int(algorithm));
      CAPTURE(int(layout));
      const auto r =
          root ? rootfix(rt, forest.parent, w, options) : leaffix(rt, forest.parent, w, options);
      const Truth truth = root ? rootfix_truth(forest.parent, w, exclusive)
                               : leaffix_truth(forest.parent, w, exclusive);
      std::size_t outside = 0, not_nearest = 0;
      for (std::size_t v = 0; v < r.size(); ++v) {
        const double error = (truth.sum[v] - Exact(double(r[v]))).approx();
        if (std::fabs(error) > 8 * u * truth.magnitude[v] * (1 + 1e-9)) ++outside;
        if (algorithm == Algorithm::euler && !nearest(r[v], truth.sum[v])) ++not_nearest;
      }
      CHECK(outside == 0);
      CHECK(not_nearest == 0);
    }
  }
}

}  // namespace

TEST_CASE("accurate treefix: every algorithm within 8·u·S, the Euler tour correctly rounded") {
  for (const auto& forest : forests()) {
    for (bool mixed : {false, true}) {
      const auto wf = spanning_weights<float>(forest.parent.size(), 11 + mixed, mixed);
      const auto wd = spanning_weights<double>(forest.parent.size(), 13 + mixed, mixed);
      for (TourLayout layout : {TourLayout::vertex_ids, TourLayout::preorder}) {
        check_algorithm(forest, wf, Algorithm::euler, layout);
        check_algorithm(forest, wd, Algorithm::euler, layout);
      }
      check_algorithm(forest, wf, Algorithm::levels, TourLayout::automatic);
      check_algorithm(forest, wd, Algorithm::levels, TourLayout::automatic);
      check_algorithm(forest, wf, Algorithm::sequential, TourLayout::automatic);
      check_algorithm(forest, wd, Algorithm::sequential, TourLayout::automatic);
    }
  }
}

TEST_CASE("accurate treefix: leaves' leaffix and roots' rootfix are their own weights") {
  auto& rt = test::runtime();
  const ParentArray parent = generate::random_forest(50021, 211, 3);
  std::vector<int> children(parent.size(), 0);
  for (vertex_t p : parent)
    if (p >= 0) ++children[p];
  for (bool mixed : {false, true}) {
    const auto w = spanning_weights<float>(parent.size(), 5 + mixed, mixed);
    const auto wd = spanning_weights<double>(parent.size(), 7 + mixed, mixed);
    for (Algorithm algorithm :
         {Algorithm::automatic, Algorithm::euler, Algorithm::levels, Algorithm::sequential}) {
      TreefixOptions options;
      options.algorithm = algorithm;
      const auto leaf = leaffix(rt, parent, w, options), root = rootfix(rt, parent, w, options);
      const auto leaf_d = leaffix(rt, parent, wd, options),
                 root_d = rootfix(rt, parent, wd, options);
      std::size_t wrong = 0;
      for (std::size_t v = 0; v < parent.size(); ++v) {
        if (children[v] == 0) wrong += leaf[v] != w[v] || leaf_d[v] != wd[v];
        if (parent[v] < 0) wrong += root[v] != w[v] || root_d[v] != wd[v];
      }
      CAPTURE(int(algorithm));
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("accurate treefix: the same bits on twenty runs and on both layouts") {
  auto& rt = test::runtime();
  const ParentArray parent = generate::shuffle_labels(generate::random_recursive(100003, 9), 4);
  const auto w = spanning_weights<float>(parent.size(), 21, true);
  for (bool root : {true, false}) {
    std::vector<std::vector<float>> runs;
    for (TourLayout layout : {TourLayout::vertex_ids, TourLayout::preorder}) {
      TreefixOptions options;
      options.algorithm = Algorithm::euler;
      options.layout = layout;
      for (int run = 0; run < 10; ++run)
        runs.push_back(root ? rootfix(rt, parent, w, options) : leaffix(rt, parent, w, options));
    }
    CAPTURE(root);
    std::size_t differing = 0;
    for (const auto& r : runs)
      differing += std::memcmp(r.data(), runs[0].data(), r.size() * sizeof(float)) != 0;
    CHECK(differing == 0);
  }
}

TEST_CASE("accurate treefix: weights beyond the first format, and the widest double sums") {
  auto& rt = test::runtime();
  const ParentArray parent = generate::random_forest(3001, 7, 5);
  std::mt19937_64 rng(17);
  // float from 1e-38 to 1e38; double from 1e-300 to 1e300 (the carry-word form)
  std::vector<float> wf(parent.size());
  std::vector<double> wd(parent.size());
  std::uniform_real_distribution<double> decade(-1.0, 1.0);
  for (std::size_t v = 0; v < parent.size(); ++v) {
    wf[v] = static_cast<float>(std::pow(10.0, 38 * decade(rng))) * ((rng() & 1) ? 1 : -1);
    wd[v] = std::pow(10.0, 300 * decade(rng)) * ((rng() & 1) ? 1 : -1);
  }
  for (TourLayout layout : {TourLayout::vertex_ids, TourLayout::preorder})
    for (EulerKernels form : {EulerKernels::fused, EulerKernels::three}) {
      TreefixOptions options;
      options.algorithm = Algorithm::euler;
      options.layout = layout;
      options.euler_kernels = form;
      for (bool root : {true, false}) {
        const auto rf = root ? rootfix(rt, parent, wf, options) : leaffix(rt, parent, wf, options);
        const auto rd = root ? rootfix(rt, parent, wd, options) : leaffix(rt, parent, wd, options);
        const Truth tf = root ? rootfix_truth(parent, wf, false) : leaffix_truth(parent, wf, false);
        const Truth td = root ? rootfix_truth(parent, wd, false) : leaffix_truth(parent, wd, false);
        std::size_t wrong = 0;
        for (std::size_t v = 0; v < parent.size(); ++v)
          wrong += !nearest(rf[v], tf.sum[v]) + !nearest(rd[v], td.sum[v]);
        CAPTURE(root);
        CAPTURE(int(form));
        CHECK(wrong == 0);
      }
    }
}

TEST_CASE("accurate treefix: sums of -0 are -0, sums of nothing +0") {
  auto& rt = test::runtime();
  const ParentArray parent = {-1, 0, 0, 1, -1, 4};
  const std::vector<double> negative_zeros(parent.size(), -0.0);
  std::vector<double> mixed_zeros = negative_zeros;
  mixed_zeros[3] = 0.0;  // vertex 3: a leaf under 1 under 0
  for (Algorithm algorithm : {Algorithm::euler, Algorithm::levels, Algorithm::sequential}) {
    CAPTURE(int(algorithm));
    TreefixOptions options;
    options.algorithm = algorithm;
    for (double w : rootfix(rt, parent, negative_zeros, options)) CHECK(std::signbit(w));
    for (double w : leaffix(rt, parent, negative_zeros, options)) CHECK(std::signbit(w));
    const auto leaf = leaffix(rt, parent, mixed_zeros, options);
    CHECK(!std::signbit(leaf[0]));  // a +0 below
    CHECK(!std::signbit(leaf[1]));
    CHECK(std::signbit(leaf[2]));
    options.exclusive = true;
    const auto root_excl = rootfix(rt, parent, negative_zeros, options);
    CHECK(!std::signbit(root_excl[0]));  // a root combines no terms
    CHECK(std::signbit(root_excl[1]));
    const auto leaf_excl = leaffix(rt, parent, negative_zeros, options);
    CHECK(!std::signbit(leaf_excl[3]));  // a leaf combines no terms
    CHECK(std::signbit(leaf_excl[0]));
  }
  const std::vector<float> f = {-0.0f, -0.0f};
  TreefixOptions euler;
  euler.algorithm = Algorithm::euler;
  CHECK(std::signbit(rootfix(rt, ParentArray{-1, 0}, f, euler)[1]));
}
