// Device-wide scan against std::inclusive_scan / exclusive_scan.
#include <doctest/doctest.h>

#include <limits>
#include <numeric>
#include <string>

#include "fixture.hpp"
#include "treefix/primitives/detail/scan_plan.hpp"
#include "treefix/primitives/scan.hpp"

using namespace treefix;

namespace {

template <class T>
T combine(Op op, T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    if (op == Op::bit_xor) return a ^ b;
    if (op == Op::min) return std::min(a, b);
    if (op == Op::max) return std::max(a, b);
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) +
                          static_cast<std::make_unsigned_t<T>>(b));
  } else {
    if (op == Op::min) return std::min(a, b);
    if (op == Op::max) return std::max(a, b);
    return a + b;
  }
}

template <class T>
T identity_of(Op op) {
  if constexpr (!std::is_integral_v<T>) {
    if (op == Op::min) return std::numeric_limits<T>::infinity();
    if (op == Op::max) return -std::numeric_limits<T>::infinity();
  }
  return op == Op::min   ? std::numeric_limits<T>::max()
         : op == Op::max ? std::numeric_limits<T>::lowest()
                         : T(0);
}

// The sequential scan of values; returns the reduction of all of them.
template <class T>
T reference_scan(const std::vector<T>& values, Op op, ScanKind kind, std::vector<T>& expected) {
  expected.resize(values.size());
  T run = identity_of<T>(op);
  for (std::size_t i = 0; i < values.size(); ++i) {
    T next = combine(op, run, values[i]);
    expected[i] = kind == ScanKind::inclusive ? next : run;
    run = next;
  }
  return run;
}

template <class T>
void check_scan(std::size_t n, Op op, ScanKind kind, bool in_place) {
  auto& rt = test::runtime();
  // integer-valued for every type, so that float sums below 2^24 are exact in any order
  auto ints = test::random_values<std::int64_t>(n, n * 7 + 1, -1000, 1000);
  std::vector<T> values(ints.begin(), ints.end());
  std::vector<T> expected;
  const T run = reference_scan(values, op, kind, expected);
  auto in = DeviceArray<T>::upload(rt, values);
  DeviceArray<T> separate(rt, n);
  DeviceArray<T>& out = in_place ? in : separate;
  DeviceArray<T> total(rt, 1);
  scan(rt, value_type_of<T>(), op, kind, in.buffer(), out.buffer(), n, nullptr, "scan",
       &total.buffer());
  auto got = out.download(rt);
  CHECK(got == expected);
  CHECK(total.download(rt)[0] == run);
}

// The single-pass scan built with extra look-back options (the window, and
// LOOKBACK_PREFIX_EVERY, which keeps most tiles' status an aggregate so that look-backs walk far
// whatever the timing), run as treefix::scan runs it, against the sequential scan.
template <class T>
void check_lookback(const std::vector<T>& values, Op op, ScanKind kind,
                    const std::string& lookback_options) {
  static_assert(sizeof(T) == 4, "the look-back carries 4-byte values");
  auto& rt = test::runtime();
  const std::size_t n = values.size();
  std::vector<T> expected;
  const T run = reference_scan(values, op, kind, expected);
  auto plan = detail::plan_scan(rt, "primitives/scan.cl",
                                value_op_options(value_type_of<T>(), op) + " " + lookback_options,
                                sizeof(T), n, std::is_integral_v<T> ? "as_int" : "as_float");
  REQUIRE(plan.single_pass);
  const std::size_t tile = plan.sized.wg_size * plan.items;
  CAPTURE(plan.groups);
  REQUIRE(plan.groups > 3 * 32);  // several full windows of the default width
  REQUIRE(n % tile != 0);         // the last tile is partial
  auto in = DeviceArray<T>::upload(rt, values);
  DeviceArray<T> out(rt, n);
  DeviceArray<T> total(rt, 1);
  detail::run_scan(
      rt, plan, n,
      [&](KernelArgs& args) {
        args(in.buffer(), out.buffer(), static_cast<cl_int>(kind == ScanKind::inclusive));
      },
      {nullptr, "scan"}, &total.buffer());
  CHECK(out.download(rt) == expected);
  CHECK(total.download(rt)[0] == run);
}

}  // namespace

TEST_CASE("scan of small integers is exact for every size, kind, operator and strategy") {
  for (std::size_t n : test::awkward_sizes()) {
    for (bool single_pass : {false, true}) {
      test::ScanStrategy strategy(single_pass);
      CAPTURE(n);
      CAPTURE(single_pass);
      check_scan<std::int32_t>(n, Op::sum, ScanKind::inclusive, false);
      check_scan<std::int32_t>(n, Op::sum, ScanKind::exclusive, true);
      check_scan<std::int64_t>(n, Op::bit_xor, ScanKind::inclusive, true);
      check_scan<std::int32_t>(n, Op::max, ScanKind::exclusive, false);
      check_scan<float>(n, Op::sum, ScanKind::exclusive, false);
    }
  }
}

TEST_CASE("scan of integer-valued floats is exact while sums stay below 2^24") {
  for (std::size_t n : {0ul, 1ul, 4099ul, 16381ul}) {
    CAPTURE(n);
    check_scan<float>(n, Op::sum, ScanKind::inclusive, true);
    check_scan<double>(n, Op::min, ScanKind::inclusive, false);
  }
}

TEST_CASE("scan of a few million elements spans many work-groups") {
  check_scan<std::int64_t>(3000017, Op::sum, ScanKind::inclusive, true);
  for (bool single_pass : {false, true}) {
    test::ScanStrategy strategy(single_pass);
    check_scan<std::int32_t>(3000017, Op::sum, ScanKind::inclusive, true);  // thousands of tiles
  }
}

TEST_CASE("integer sums wrap around like the host's") {
  auto& rt = test::runtime();
  std::vector<std::int32_t> values = {INT32_MAX, 1, INT32_MAX, 2};
  auto a = DeviceArray<std::int32_t>::upload(rt, values);
  inclusive_scan(rt, a, a);
  auto got = a.download(rt);
  CHECK(got[1] == INT32_MIN);
  CHECK(got[3] ==
        static_cast<std::int32_t>(static_cast<std::uint32_t>(INT32_MIN) + INT32_MAX + 2u));
}

TEST_CASE("single-pass look-back walks back over many windows of aggregates, in order") {
  // Only every 101st tile publishes its inclusive prefix: a look-back crosses up to 100
  // aggregates, more than three windows of 32 (the default) and twenty of 5 (polled 2 at a time
  // while the nearest is unpublished). Primes of elements: hundreds of
  // tiles, the last one partial. The sums are of integers (exact in any order), xor of full words,
  // max of a random walk (its running maximum is often set tiles back): a lost or repeated tile
  // shows.
  test::ScanStrategy strategy(true);
  for (std::size_t n : {3000017ul, 1299709ul}) {
    for (const char* window :
         {"", "-DLOOKBACK_WINDOW=5 -DLOOKBACK_SPIN_WINDOW=2"}) {
      CAPTURE(n);
      CAPTURE(window);
      const std::string options = std::string(window) + " -DLOOKBACK_PREFIX_EVERY=101";
      auto sums = test::random_values<std::int32_t>(n, n, -1000, 1000);
      check_lookback(sums, Op::sum, ScanKind::inclusive, options);
      check_lookback(sums, Op::sum, ScanKind::exclusive, options);
      check_lookback(test::random_values<std::int32_t>(n, n + 1, INT32_MIN, INT32_MAX), Op::bit_xor,
                     ScanKind::inclusive, options);
      auto walk = test::random_values<std::int32_t>(n, n + 2, -1000, 1000);
      std::partial_sum(walk.begin(), walk.end(), walk.begin());  // within +-2^31 for these n
      check_lookback(walk, Op::max, ScanKind::exclusive, options);
      auto small = test::random_values<std::int32_t>(n, n + 3, -8, 8);  // prefixes far below 2^24
      check_lookback(std::vector<float>(small.begin(), small.end()), Op::sum, ScanKind::inclusive,
                     options);
    }
  }
}
