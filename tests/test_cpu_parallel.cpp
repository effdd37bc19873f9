// Multi-threaded CPU treefix against the sequential reference, for every method, operator, type,
// direction, on awkward sizes and degenerate shapes, with thread counts that split and do not.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/spatial/ropes.hpp"
#include "treefix/treefix/cpu_parallel.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/reference.hpp"

namespace {

using treefix::Op;
using treefix::ParentArray;
namespace cpu = treefix::cpu_parallel;
namespace generate = treefix::generate;

std::vector<std::pair<const char*, ParentArray>> shapes(std::size_t n, std::uint64_t seed) {
  return {
      {"star", generate::star(n)},
      {"path", generate::path(n)},
      {"caterpillar", generate::caterpillar(n, n / 2)},
      {"shuffled random", generate::shuffle_labels(generate::random_recursive(n, seed), seed + 1)},
      {"forest", n ? generate::random_forest(n, 1 + n / 100, seed) : ParentArray{}},
      {"binary", generate::kary(n, 2)}};
}

template <class T>
void check_equal(const std::vector<T>& got, const std::vector<T>& want, double tolerance) {
  REQUIRE(got.size() == want.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if constexpr (std::is_integral_v<T>) {
      if (got[i] != want[i]) ++bad;
    } else {
      if (std::fabs(double(got[i]) - double(want[i])) >
          tolerance * (1 + std::fabs(double(want[i]))))
        ++bad;
    }
  }
  CHECK(bad == 0);
}

template <class T>
void check_all(Op op, std::size_t n, unsigned threads, double tolerance) {
  for (auto& [shape, parent] : shapes(n, 1000 + n)) {
    const char* name = shape;  // C++17: a lambda (CAPTURE) cannot capture a binding
    CAPTURE(name);
    CAPTURE(n);
    CAPTURE(threads);
    const bool wide_range = op == Op::sum && !std::is_integral_v<T>;
    auto w = wide_range ? treefix::test::random_values<T>(n, n + 5, T(-1), T(1))
                        : treefix::test::random_values<T>(n, n + 5, T(-1000), T(1000));
    cpu::Plan plan(parent, threads);
    for (auto method : {cpu::Method::automatic, cpu::Method::euler, cpu::Method::levels}) {
      if (method == cpu::Method::euler && !treefix::has_inverse(op)) continue;
      CAPTURE(cpu::to_string(method));
      for (bool exclusive : {false, true}) {
        CAPTURE(exclusive);
        check_equal(cpu::rootfix(plan, w, op, exclusive, method),
                    treefix::reference::rootfix(parent, w, op, exclusive), tolerance);
        check_equal(cpu::leaffix(plan, w, op, exclusive, method),
                    treefix::reference::leaffix(parent, w, op, exclusive), tolerance);
      }
    }
  }
}

}  // namespace

TEST_CASE("cpu_parallel matches the reference for integer sum and xor on awkward sizes") {
  for (std::size_t n : treefix::test::awkward_sizes()) {
    check_all<std::int32_t>(Op::sum, n, 4, 0);
    check_all<std::int64_t>(Op::bit_xor, n, 3, 0);
  }
}

TEST_CASE("cpu_parallel matches the reference for min and max (levels only)") {
  for (std::size_t n : {0u, 1u, 97u, 65537u}) {
    check_all<std::int32_t>(Op::min, n, 4, 0);
    check_all<float>(Op::max, n, 2, 0);
    check_all<double>(Op::min, n, 3, 0);
  }
}

TEST_CASE("cpu_parallel float and double sums agree with the reference to rounding") {
  for (std::size_t n : {1u, 31u, 4099u, 100003u}) {
    check_all<double>(Op::sum, n, 4, 1e-9);
    check_all<float>(Op::sum, n, 4, 2e-3);  // euler adds/subtracts whole subtrees in float
  }
}

TEST_CASE("cpu_parallel splits large passes and levels across threads (10^6 vertices)") {
  const std::size_t n = 1000003;
  for (auto& parent : {generate::star(n), generate::caterpillar(n, 1000),
                       generate::shuffle_labels(generate::random_recursive(n, 9), 10)}) {
    auto w = treefix::test::random_values<std::int64_t>(n, 11, -1000000, 1000000);
    cpu::Plan plan(parent, 8);
    auto want_root = treefix::reference::rootfix(parent, w, Op::sum);
    auto want_leaf = treefix::reference::leaffix(parent, w, Op::sum);
    for (auto method : {cpu::Method::euler, cpu::Method::levels}) {
      CHECK(cpu::rootfix(plan, w, Op::sum, false, method) == want_root);
      CHECK(cpu::leaffix(plan, w, Op::sum, false, method) == want_leaf);
    }
  }
}

TEST_CASE("cpu_parallel rejects bad input with InputError") {
  CHECK_THROWS_AS(cpu::Plan(ParentArray{1, 0}), treefix::InputError);   // cycle
  CHECK_THROWS_AS(cpu::Plan(ParentArray{-1, 5}), treefix::InputError);  // out of range
  cpu::Plan plan(generate::star(10));
  CHECK_THROWS_AS(cpu::rootfix(plan, std::vector<float>(9), Op::sum), treefix::InputError);
  CHECK_THROWS_AS(cpu::leaffix(plan, std::vector<float>(10), Op::bit_xor), treefix::InputError);
  CHECK_THROWS_AS(cpu::rootfix(plan, std::vector<int>(10), Op::min, false, cpu::Method::euler),
                  treefix::InputError);
}

TEST_CASE("cpu_parallel automatic: levels for bushy trees, euler for deep ones") {
  const std::size_t n = 300007;
  CHECK(cpu::Plan(generate::star(n), 4).split_fraction() > 0.99);
  CHECK(cpu::Plan(generate::caterpillar(n, n / 2), 4).split_fraction() < 0.01);
  CHECK(cpu::Plan(generate::path(n), 1).split_fraction() == 1.0);  // one thread: nothing to gain
  CHECK(cpu::Plan(ParentArray{}, 4).split_fraction() == 1.0);
}

TEST_CASE("cpu_parallel and the host rope traversals take the host thread count by default") {
  // host_threads() is --threads, $TREEFIX_THREADS or $OMP_NUM_THREADS where set, so both follow it.
  const cpu::Plan plan(generate::random_recursive(1000, 3));
  CHECK(plan.threads() == treefix::host_threads());
  CHECK(cpu::Plan(generate::random_recursive(10, 3), 3).threads() == 3);
  std::mutex mutex;
  std::set<std::thread::id> seen;
  std::vector<int> covered(100000, 0);
  treefix::parallel_for_ranges(covered.size(), treefix::kRopeItemsPerPiece, 0,
                               [&](std::size_t begin, std::size_t end) {
                                 for (std::size_t i = begin; i < end; ++i) ++covered[i];
                                 std::lock_guard<std::mutex> lock(mutex);
                                 seen.insert(std::this_thread::get_id());
                               });
  CHECK(std::count(covered.begin(), covered.end(), 1) == static_cast<long>(covered.size()));
  CHECK(seen.size() >= 1);
  CHECK(seen.size() <= treefix::host_threads());
}
