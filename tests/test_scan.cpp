// Device-wide scan against std::inclusive_scan / exclusive_scan.
#include <doctest/doctest.h>

#include <numeric>

#include "fixture.hpp"
#include "treefix/primitives/scan.hpp"

using namespace treefix;

namespace {

template <class T>
void check_scan(std::size_t n, Op op, ScanKind kind, bool in_place) {
  auto& rt = test::runtime();
  // integer-valued for every type, so that float sums below 2^24 are exact in any order
  auto ints = test::random_values<std::int64_t>(n, n * 7 + 1, -1000, 1000);
  std::vector<T> values(ints.begin(), ints.end());
  std::vector<T> expected(n);
  auto combine = [op](T a, T b) -> T {
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
  };
  T identity = op == Op::min   ? std::numeric_limits<T>::max()
               : op == Op::max ? std::numeric_limits<T>::lowest()
                               : T(0);
  if constexpr (!std::is_integral_v<T>) {
    if (op == Op::min) identity = std::numeric_limits<T>::infinity();
    if (op == Op::max) identity = -std::numeric_limits<T>::infinity();
  }
  T run = identity;
  for (std::size_t i = 0; i < n; ++i) {
    T next = combine(run, values[i]);
    expected[i] = kind == ScanKind::inclusive ? next : run;
    run = next;
  }
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
