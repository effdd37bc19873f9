// Sequential CPU treefix (the reference).
#include "treefix/treefix/reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"

namespace treefix::reference {

namespace {

template <class T>
T identity(Op op) {
  switch (op) {
    case Op::sum:
    case Op::bit_xor:
      return T(0);
    case Op::min:
      return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                  : std::numeric_limits<T>::max();
    case Op::max:
      return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                  : std::numeric_limits<T>::lowest();
  }
  return T(0);
}

template <class T>
T apply(Op op, T a, T b) {
  switch (op) {
    case Op::sum:
      if constexpr (std::is_integral_v<T>)  // wrap-around, as the device does (no UB)
        return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) +
                              static_cast<std::make_unsigned_t<T>>(b));
      else
        return a + b;
    case Op::bit_xor:
      if constexpr (std::is_integral_v<T>)
        return a ^ b;
      else
        throw InputError("xor needs an integer type");
    case Op::min:
    case Op::max:
      // NaN propagates, as numpy.minimum and numpy.maximum do (precision.hpp's non-finite rule);
      // std::min alone would keep or drop a NaN by its place in the order.
      if constexpr (std::is_floating_point_v<T>) {
        if (a != a) return a;
        if (b != b) return b;
      }
      return op == Op::min ? std::min(a, b) : std::max(a, b);
  }
  return a;
}

// The passes read and write values at the random places of a vertex and of its parent. Asking
// now for those of the vertex kAhead places on keeps many cache misses in flight, where the
// accurate sums' long chains of dependent additions leave room for few (2-3x faster on a
// shuffled 2^20-vertex tree). Prefetches change no result. A macro, because GCC 12 drops the
// prefetches of a helper function once it is inlined.
constexpr std::size_t kAhead = 16;
#if defined(__GNUC__)
#define TREEFIX_PREFETCH_AHEAD(at, values, weights)                  \
  do {                                                               \
    const std::size_t ahead = (at);                                  \
    if (ahead < order.size()) {                                      \
      const vertex_t u = order[ahead];                               \
      __builtin_prefetch(&(weights)[u]);                             \
      __builtin_prefetch(&(values)[u]);                              \
      if (parent[u] != -1) __builtin_prefetch(&(values)[parent[u]]); \
    }                                                                \
  } while (false)
#else
#define TREEFIX_PREFETCH_AHEAD(at, values, weights) \
  do {                                              \
  } while (false)
#endif

// The accurate precision's accumulator (precision.hpp): float sums in double, double sums in
// double-word pairs (the kernels' dw_add of common.clh). Folds start at -0, IEEE's additive
// identity, so that -0 terms sum to -0; a sum of no terms is +0.
struct DoubleWord {
  double hi, lo;
};
DoubleWord two_sum(double a, double b) {
  const double s = a + b, bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
DoubleWord fast_two_sum(double a, double b) {  // |a| >= |b|
  const double s = a + b;
  return {s, b - (s - a)};
}
DoubleWord operator+(DoubleWord a, DoubleWord b) {
  if (a.hi == 0 && b.hi == 0) return {a.hi + b.hi, 0.0};  // zeros: IEEE's sign
  // An infinite or NaN sum is IEEE's (inf + 1 = inf, inf - inf = NaN): the error terms of
  // TwoSum would turn it into NaN.
  if (const double sum = a.hi + b.hi; !std::isfinite(sum)) return {sum, 0.0};
  const DoubleWord s = two_sum(a.hi, b.hi), t = two_sum(a.lo, b.lo);
  const DoubleWord v = fast_two_sum(s.hi, s.lo + t.hi);
  return fast_two_sum(v.hi, t.lo + v.lo);
}

template <class T>
struct Wide;
template <>
struct Wide<float> {
  using type = double;
  static double of(float w) { return w; }
  static float narrow(double x) { return static_cast<float>(x); }
};
template <>
struct Wide<double> {
  using type = DoubleWord;
  static DoubleWord of(double w) { return {w, 0.0}; }
  static double narrow(DoubleWord x) { return x.lo == 0 ? x.hi : x.hi + x.lo; }
};

template <class T>
std::vector<T> accurate_rootfix(const ParentArray& parent, const std::vector<vertex_t>& order,
                                const std::vector<T>& w, bool exclusive) {
  using W = Wide<T>;
  auto wide = prefaulted_vector<typename W::type>(parent.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    TREEFIX_PREFETCH_AHEAD(i + kAhead, wide, w);
    const vertex_t v = order[i];
    wide[v] = parent[v] == -1 ? W::of(w[v]) : wide[parent[v]] + W::of(w[v]);
  }
  auto r =
      prefaulted_vector<T>(parent.size());  // every value is final: in increasing id, streaming
  for (std::size_t v = 0; v < r.size(); ++v)
    r[v] = !exclusive ? W::narrow(wide[v]) : parent[v] == -1 ? T(0) : W::narrow(wide[parent[v]]);
  return r;
}

template <class T>
std::vector<T> accurate_leaffix(const ParentArray& parent, const std::vector<vertex_t>& order,
                                const std::vector<T>& w, bool exclusive) {
  using W = Wide<T>;
  auto below = prefaulted_vector<typename W::type>(parent.size(), W::of(-T(0)));
  std::vector<char> has_children(parent.size(), 0);
  auto r = prefaulted_vector<T>(parent.size());
  for (std::size_t i = order.size(); i-- > 0;) {
    TREEFIX_PREFETCH_AHEAD(i - kAhead, below, w);  // below 0 wraps past the end
    const vertex_t v = order[i];
    const typename W::type total = below[v] + W::of(w[v]);
    r[v] = !exclusive ? W::narrow(total) : has_children[v] ? W::narrow(below[v]) : T(0);
    if (parent[v] != -1) {
      below[parent[v]] = below[parent[v]] + total;
      has_children[parent[v]] = 1;
    }
  }
  return r;
}

void check_lengths(const ParentArray& parent, std::size_t weights) {
  if (weights != parent.size())
    throw InputError(std::to_string(weights) + " weights for a tree of " +
                     std::to_string(parent.size()) + " vertices");
}

// Top-down: a parent is final before its children read it.
template <class T>
std::vector<T> down_pass(const ParentArray& parent, const std::vector<vertex_t>& order,
                         const std::vector<T>& w, Op op, bool exclusive) {
  auto r = prefaulted_vector<T>(parent.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    TREEFIX_PREFETCH_AHEAD(i + kAhead, r, w);
    const vertex_t v = order[i];
    T above = parent[v] == -1 ? identity<T>(op) : r[parent[v]];
    r[v] = apply(op, above, w[v]);
  }
  if (!exclusive) return r;
  auto proper = prefaulted_vector<T>(
      parent.size());  // separate array: parents must keep their inclusive value
  for (std::size_t v = 0; v < r.size(); ++v)  // every value is final: in increasing id
    proper[v] = parent[v] == -1 ? identity<T>(op) : r[parent[v]];
  return proper;
}

// Bottom-up: r[v] holds the descendants' total when v is reached in reverse order.
template <class T>
std::vector<T> up_pass(const ParentArray& parent, const std::vector<vertex_t>& order,
                       const std::vector<T>& w, Op op, bool exclusive) {
  auto r = prefaulted_vector<T>(parent.size(), identity<T>(op));
  for (std::size_t i = order.size(); i-- > 0;) {
    TREEFIX_PREFETCH_AHEAD(i - kAhead, r, w);  // below 0 wraps past the end
    vertex_t v = order[i];
    T below = r[v];
    T total = apply(op, below, w[v]);
    r[v] = exclusive ? below : total;
    if (parent[v] != -1) r[parent[v]] = apply(op, r[parent[v]], total);
  }
  return r;
}

// Either direction, the accurate sum's own passes where a floating-point sum asks for them.
template <class T>
std::vector<T> fix_in_order(const ParentArray& parent, const std::vector<vertex_t>& order,
                            const std::vector<T>& w, Op op, bool exclusive, Precision precision,
                            bool root) {
  check_lengths(parent, w.size());
  if constexpr (std::is_floating_point_v<T>)
    if (op == Op::sum && precision == Precision::accurate)
      return root ? accurate_rootfix(parent, order, w, exclusive)
                  : accurate_leaffix(parent, order, w, exclusive);
  return root ? down_pass(parent, order, w, op, exclusive)
              : up_pass(parent, order, w, op, exclusive);
}

}  // namespace

template <class T>
std::vector<T> rootfix(const ParentArray& parent, const std::vector<vertex_t>& order,
                       const std::vector<T>& w, Op op, bool exclusive, Precision precision) {
  return fix_in_order(parent, order, w, op, exclusive, precision, true);
}

template <class T>
std::vector<T> leaffix(const ParentArray& parent, const std::vector<vertex_t>& order,
                       const std::vector<T>& w, Op op, bool exclusive, Precision precision) {
  return fix_in_order(parent, order, w, op, exclusive, precision, false);
}

template <class T>
std::vector<T> rootfix(const ParentArray& parent, const std::vector<T>& w, Op op, bool exclusive,
                       Precision precision) {
  check_lengths(parent, w.size());
  return rootfix(parent, parent_first_order(parent), w, op, exclusive, precision);
}

template <class T>
std::vector<T> leaffix(const ParentArray& parent, const std::vector<T>& w, Op op, bool exclusive,
                       Precision precision) {
  check_lengths(parent, w.size());
  // Children folded in decreasing id, as along the breadth-first order (tree.hpp).
  return leaffix(parent, level_order(parent), w, op, exclusive, precision);
}

#undef TREEFIX_PREFETCH_AHEAD

#define TREEFIX_INSTANTIATE(T)                                                            \
  template std::vector<T> rootfix<T>(const ParentArray&, const std::vector<T>&, Op, bool, \
                                     Precision);                                          \
  template std::vector<T> leaffix<T>(const ParentArray&, const std::vector<T>&, Op, bool, \
                                     Precision);                                          \
  template std::vector<T> rootfix<T>(const ParentArray&, const std::vector<vertex_t>&,    \
                                     const std::vector<T>&, Op, bool, Precision);         \
  template std::vector<T> leaffix<T>(const ParentArray&, const std::vector<vertex_t>&,    \
                                     const std::vector<T>&, Op, bool, Precision);
TREEFIX_INSTANTIATE(std::int32_t)
TREEFIX_INSTANTIATE(std::int64_t)
TREEFIX_INSTANTIATE(float)
TREEFIX_INSTANTIATE(double)
#undef TREEFIX_INSTANTIATE

}  // namespace treefix::reference
