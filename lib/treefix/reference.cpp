// Sequential CPU treefix (the reference).
#include "treefix/treefix/reference.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "treefix/core/error.hpp"

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
      return std::min(a, b);
    case Op::max:
      return std::max(a, b);
  }
  return a;
}

void check_lengths(const ParentArray& parent, std::size_t weights) {
  if (weights != parent.size())
    throw InputError(std::to_string(weights) + " weights for a tree of " +
                     std::to_string(parent.size()) + " vertices");
}

}  // namespace

template <class T>
std::vector<T> rootfix(const ParentArray& parent, const std::vector<vertex_t>& order,
                       const std::vector<T>& w, Op op, bool exclusive) {
  check_lengths(parent, w.size());
  std::vector<T> r(parent.size());
  // top-down: a parent is final before its children read it
  for (vertex_t v : order) {
    T above = parent[v] == -1 ? identity<T>(op) : r[parent[v]];
    r[v] = apply(op, above, w[v]);
  }
  if (!exclusive) return r;
  std::vector<T> proper(parent.size());  // separate array: parents must keep their inclusive value
  for (vertex_t v : order) proper[v] = parent[v] == -1 ? identity<T>(op) : r[parent[v]];
  return proper;
}

template <class T>
std::vector<T> leaffix(const ParentArray& parent, const std::vector<vertex_t>& order,
                       const std::vector<T>& w, Op op, bool exclusive) {
  check_lengths(parent, w.size());
  std::vector<T> r(parent.size(), identity<T>(op));
  // bottom-up: r[v] holds the descendants' total when v is reached in reverse order
  for (std::size_t i = order.size(); i-- > 0;) {
    vertex_t v = order[i];
    T below = r[v];
    T total = apply(op, below, w[v]);
    r[v] = exclusive ? below : total;
    if (parent[v] != -1) r[parent[v]] = apply(op, r[parent[v]], total);
  }
  return r;
}

template <class T>
std::vector<T> rootfix(const ParentArray& parent, const std::vector<T>& w, Op op, bool exclusive) {
  check_lengths(parent, w.size());
  return rootfix(parent, top_down_order(parent), w, op, exclusive);
}

template <class T>
std::vector<T> leaffix(const ParentArray& parent, const std::vector<T>& w, Op op, bool exclusive) {
  check_lengths(parent, w.size());
  return leaffix(parent, top_down_order(parent), w, op, exclusive);
}

#define TREEFIX_INSTANTIATE(T)                                                             \
  template std::vector<T> rootfix<T>(const ParentArray&, const std::vector<T>&, Op, bool); \
  template std::vector<T> leaffix<T>(const ParentArray&, const std::vector<T>&, Op, bool); \
  template std::vector<T> rootfix<T>(const ParentArray&, const std::vector<vertex_t>&,     \
                                     const std::vector<T>&, Op, bool);                     \
  template std::vector<T> leaffix<T>(const ParentArray&, const std::vector<vertex_t>&,     \
                                     const std::vector<T>&, Op, bool);
TREEFIX_INSTANTIATE(std::int32_t)
TREEFIX_INSTANTIATE(std::int64_t)
TREEFIX_INSTANTIATE(float)
TREEFIX_INSTANTIATE(double)
#undef TREEFIX_INSTANTIATE

}  // namespace treefix::reference
