// Multi-threaded CPU treefix: the Euler-tour method with a blocked parallel scan, and the
// level-synchronous method over BFS positions (see cpu_parallel.hpp).
#include "treefix/treefix/cpu_parallel.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/treefix/fix.hpp"

namespace treefix::cpu_parallel {

namespace {

// Below this many elements a pass (or a level) runs on the calling thread: handing pieces to
// other threads costs microseconds, more than the pass itself.
constexpr std::size_t kMinPerThread = std::size_t(1) << 14;
// The euler method's scan blocks: a count set by the length alone, so that a floating-point scan
// adds in the same order (and gives the same bits) on any number of threads.
constexpr std::size_t kMaxScanBlocks = 64;

unsigned parts_for(std::size_t n, unsigned threads) {
  return static_cast<unsigned>(
      std::max<std::size_t>(1, std::min<std::size_t>(threads, n / kMinPerThread)));
}

unsigned scan_blocks(std::size_t n) {
  return static_cast<unsigned>(
      std::max<std::size_t>(1, std::min<std::size_t>(kMaxScanBlocks, n / kMinPerThread)));
}

// Runs body(part, begin, end) over `parts` contiguous ranges of [0, n) on up to `threads` threads
// of the host executor.
template <class Body>
void fork_join(std::size_t n, unsigned parts, unsigned threads, const Body& body) {
  if (parts <= 1) {
    body(0u, std::size_t(0), n);
    return;
  }
  const std::size_t chunk = (n + parts - 1) / parts;
  parallel_for(parts, threads, [&](std::size_t p) {
    body(static_cast<unsigned>(p), std::min(n, p * chunk), std::min(n, (p + 1) * chunk));
  });
}

// Calls f(combine, inverse, identity) with operator functors for T, so the hot loops inline them.
// Integer sums wrap around (as the device and the reference do).
template <class T, class F>
void with_operator(Op op, F&& f) {
  using U =
      std::conditional_t<std::is_integral_v<T>,
                         std::make_unsigned_t<std::conditional_t<std::is_integral_v<T>, T, int>>,
                         T>;
  auto no_inverse = [](T x) { return x; };  // never called: checked before
  switch (op) {
    case Op::sum:
      f([](T a, T b) { return static_cast<T>(static_cast<U>(a) + static_cast<U>(b)); },
        [](T a) { return static_cast<T>(U(0) - static_cast<U>(a)); }, T(0));
      return;
    case Op::bit_xor:
      if constexpr (std::is_integral_v<T>) {
        f([](T a, T b) { return static_cast<T>(a ^ b); }, [](T a) { return a; }, T(0));
        return;
      } else {
        throw InputError("xor needs an integer type");
      }
    case Op::min:
      f([](T a, T b) { return std::min(a, b); }, no_inverse,
        std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                             : std::numeric_limits<T>::max());
      return;
    case Op::max:
      f([](T a, T b) { return std::max(a, b); }, no_inverse,
        std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                             : std::numeric_limits<T>::lowest());
      return;
  }
}

Method resolve(Method method, Op op, const Plan& plan) {
  if (method == Method::automatic)
    return has_inverse(op) && plan.split_fraction() < 0.9 ? Method::euler : Method::levels;
  if (method == Method::euler && !has_inverse(op))
    throw InputError(
        std::string("the Euler-tour treefix needs an operator with an inverse (sum, xor); ") +
        to_string(op) + " has none: use the levels method");
  return method;
}

template <class T, class Combine, class Inverse>
std::vector<T> euler(const Plan& plan, const std::vector<T>& w, Fix fix, bool exclusive,
                     Combine combine, Inverse inverse, T identity) {
  const std::size_t n = plan.size(), length = 2 * n;
  const std::vector<vertex_t>& at = plan.tour_vertex();  // v at v's open, ~v at its close
  // The tour value at position p, made on the fly (Write fused into the scan's loads).
  auto value_at = [&](std::size_t p) -> T {
    const vertex_t x = at[p];
    if (x >= 0) return w[x];
    return fix == Fix::root ? inverse(w[~x]) : identity;
  };
  // Pass 1: reduce each block. Then scan the block totals.
  const unsigned parts = scan_blocks(length), threads = plan.threads();
  std::vector<T> block_total(parts, identity);
  fork_join(length, parts, threads, [&](unsigned p, std::size_t begin, std::size_t end) {
    T acc = identity;
    for (std::size_t i = begin; i < end; ++i) acc = combine(acc, value_at(i));
    block_total[p] = acc;
  });
  std::vector<T> block_offset(parts, identity);
  for (unsigned p = 1; p < parts; ++p)
    block_offset[p] = combine(block_offset[p - 1], block_total[p - 1]);
  // Pass 2: rescan each block from its offset; Read fused into it: rootfix stores the prefix at
  // each open; leaffix stores the prefix before each open (in the workspace) and at each close
  // (in r), since open and close may fall in blocks of different threads; a last pass subtracts.
  std::vector<T> r(n);
  std::unique_lock<std::mutex> lock;
  T* before = fix == Fix::leaf ? static_cast<T*>(plan.workspace(n * sizeof(T), lock)) : nullptr;
  fork_join(length, parts, threads, [&](unsigned p, std::size_t begin, std::size_t end) {
    T acc = block_offset[p];
    for (std::size_t i = begin; i < end; ++i) {
      const vertex_t x = at[i];
      if (x >= 0) {
        const T above = acc;
        acc = combine(acc, w[x]);
        if (fix == Fix::root)
          r[x] = exclusive ? above : acc;
        else
          before[x] = exclusive ? acc : above;
      } else if (fix == Fix::root) {
        acc = combine(acc, inverse(w[~x]));
      } else {
        r[~x] = acc;  // the prefix at the close: everything up to the end of the subtree
      }
    }
  });
  if (fix == Fix::leaf)
    fork_join(n, parts_for(n, threads), threads, [&](unsigned, std::size_t begin, std::size_t end) {
      for (std::size_t v = begin; v < end; ++v) r[v] = combine(r[v], inverse(before[v]));
    });
  return r;
}

template <class T, class Combine>
std::vector<T> levels(const Plan& plan, const std::vector<T>& w, Fix fix, bool exclusive,
                      Combine combine, T identity) {
  const std::size_t n = plan.size();
  const auto& order = plan.order();
  const auto& level = plan.level_offset();
  const auto& children = plan.child_offset();
  const auto& parent_pos = plan.parent_position();
  const unsigned threads = plan.threads();
  std::vector<T> inclusive(n);  // in BFS positions
  std::vector<T> r(n);
  const std::size_t levels_count = level.size() - 1;
  auto over_level = [&](std::size_t l, auto&& body) {
    const std::size_t a = level[l], b = level[l + 1];
    fork_join(b - a, parts_for(b - a, threads), threads,
              [&](unsigned, std::size_t begin, std::size_t end) {
                for (std::size_t i = a + begin; i < a + end; ++i) body(i);
              });
  };
  if (fix == Fix::root) {
    for (std::size_t l = 0; l < levels_count; ++l)
      over_level(l, [&](std::size_t i) {
        const T above = parent_pos[i] < 0 ? identity : inclusive[parent_pos[i]];
        inclusive[i] = combine(above, w[order[i]]);
        r[order[i]] = exclusive ? above : inclusive[i];
      });
  } else {
    for (std::size_t l = levels_count; l-- > 0;)
      over_level(l, [&](std::size_t i) {
        T below = identity;
        for (std::size_t k = children[i]; k < children[i + 1]; ++k)
          below = combine(below, inclusive[k]);
        inclusive[i] = combine(below, w[order[i]]);
        r[order[i]] = exclusive ? below : inclusive[i];
      });
  }
  return r;
}

template <class T>
std::vector<T> treefix(const Plan& plan, const std::vector<T>& w, Op op, bool exclusive,
                       Method method, Fix fix) {
  if (w.size() != plan.size())
    throw InputError(std::to_string(w.size()) + " weights for a tree of " +
                     std::to_string(plan.size()) + " vertices");
  if (op == Op::bit_xor && !std::is_integral_v<T>)
    throw InputError(std::string("xor needs an integer type, not ") +
                     to_string(value_type_of<T>()));
  method = resolve(method, op, plan);
  std::vector<T> r;
  with_operator<T>(op, [&](auto combine, auto inverse, T identity) {
    r = method == Method::levels ? levels(plan, w, fix, exclusive, combine, identity)
                                 : euler(plan, w, fix, exclusive, combine, inverse, identity);
  });
  return r;
}

}  // namespace

Plan::Plan(const ParentArray& parent, unsigned threads)
    : parent_(parent), threads_(threads ? threads : host_threads()) {
  const std::size_t n = parent.size();
  {
    const EulerTour tour = build_euler_tour(parent);  // validates
    tour_vertex_.resize(2 * n);
    for (std::size_t v = 0; v < n; ++v) {
      tour_vertex_[tour.open_pos[v]] = static_cast<vertex_t>(v);
      tour_vertex_[tour.close_pos[v]] = ~static_cast<vertex_t>(v);
    }
  }
  ChildLists lists = child_lists(parent);
  order_.reserve(n);
  parent_position_.assign(n, -1);
  child_offset_.assign(n + 1, 0);
  order_.assign(lists.roots.begin(), lists.roots.end());
  level_offset_.push_back(0);
  std::size_t level_begin = 0;
  while (level_begin < order_.size()) {
    const std::size_t level_end = order_.size();
    level_offset_.push_back(level_end);
    for (std::size_t i = level_begin; i < level_end; ++i) {
      const vertex_t v = order_[i];
      child_offset_[i] = order_.size();
      for (std::int64_t k = lists.child_offset[v]; k < lists.child_offset[v + 1]; ++k) {
        parent_position_[order_.size()] = static_cast<std::int64_t>(i);
        order_.push_back(lists.child[k]);
      }
    }
    level_begin = level_end;
  }
  child_offset_[n] = n;
  std::size_t in_split_levels = 0;
  for (std::size_t l = 0; l + 1 < level_offset_.size(); ++l) {
    const std::size_t size = level_offset_[l + 1] - level_offset_[l];
    if (parts_for(size, threads_) == threads_) in_split_levels += size;
  }
  split_fraction_ = n ? double(in_split_levels) / double(n) : 1.0;
}

void* Plan::workspace(std::size_t bytes, std::unique_lock<std::mutex>& lock) const {
  lock = std::unique_lock<std::mutex>(workspace_mutex_);
  const std::size_t words = (bytes + 7) / 8;
  if (workspace_words_ < words) {
    workspace_.reset();  // release before allocating the larger one
    workspace_.reset(new std::uint64_t[words]);
    workspace_words_ = words;
  }
  return workspace_.get();
}

template <class T>
std::vector<T> rootfix(const Plan& plan, const std::vector<T>& weights, Op op, bool exclusive,
                       Method method) {
  return treefix(plan, weights, op, exclusive, method, Fix::root);
}

template <class T>
std::vector<T> leaffix(const Plan& plan, const std::vector<T>& weights, Op op, bool exclusive,
                       Method method) {
  return treefix(plan, weights, op, exclusive, method, Fix::leaf);
}

#define TREEFIX_CPU_PARALLEL_INSTANTIATE(T)                                                 \
  template std::vector<T> rootfix<T>(const Plan&, const std::vector<T>&, Op, bool, Method); \
  template std::vector<T> leaffix<T>(const Plan&, const std::vector<T>&, Op, bool, Method);
TREEFIX_CPU_PARALLEL_INSTANTIATE(std::int32_t)
TREEFIX_CPU_PARALLEL_INSTANTIATE(std::int64_t)
TREEFIX_CPU_PARALLEL_INSTANTIATE(float)
TREEFIX_CPU_PARALLEL_INSTANTIATE(double)
#undef TREEFIX_CPU_PARALLEL_INSTANTIATE

}  // namespace treefix::cpu_parallel
