#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "fixture.hpp"
#include "treefix/primitives/listrank.hpp"

using namespace treefix;

namespace {

// `lists` lists over a random permutation of n elements: succ links and the expected ranks.
struct Lists {
  std::vector<std::int32_t> succ, rank;
};

Lists random_lists(std::size_t n, std::size_t lists, std::uint64_t seed, bool shuffled = true) {
  std::vector<std::int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(seed);
  if (shuffled) std::shuffle(order.begin(), order.end(), rng);
  // cut points: list boundaries at random positions of the order
  std::vector<char> starts(n, 0);
  if (n) starts[0] = 1;
  for (std::size_t l = 1; l < lists && n > 1; ++l) starts[rng() % n] = 1;
  Lists out{std::vector<std::int32_t>(n, -1), std::vector<std::int32_t>(n, 0)};
  std::int32_t position = 0;
  for (std::size_t k = 0; k < n; ++k) {
    if (starts[k]) position = 0;
    out.rank[order[k]] = position++;
    if (k + 1 < n && !starts[k + 1]) out.succ[order[k]] = order[k + 1];
  }
  return out;
}

std::vector<std::int32_t> device_ranks(const std::vector<std::int32_t>& succ, ListRankMethod method,
                                       std::size_t stride = 0) {
  auto& rt = test::runtime();
  auto device_succ = DeviceArray<std::int32_t>::upload(rt, succ);
  ListRankOptions options;
  options.method = method;
  options.stride = stride;
  return list_rank(rt, device_succ, options).download(rt);
}

}  // namespace

TEST_CASE("listrank: both methods rank random lists of awkward sizes like the CPU") {
  for (auto method : {ListRankMethod::wyllie, ListRankMethod::ruling_set}) {
    for (std::size_t n : test::awkward_sizes()) {
      for (std::size_t lists : {std::size_t{1}, std::size_t{7}, n / 3 + 1}) {
        std::string method_name = to_string(method);
        CAPTURE(method_name);
        CAPTURE(n);
        CAPTURE(lists);
        auto expected = random_lists(n, lists, n * 31 + lists);
        CHECK(device_ranks(expected.succ, method) == expected.rank);
      }
    }
  }
}

TEST_CASE("listrank: ruling set with tiny and huge strides, one long list in memory order") {
  for (std::size_t stride : {1, 2, 3, 1000000}) {
    for (bool shuffled : {false, true}) {
      CAPTURE(stride);
      CAPTURE(shuffled);
      auto expected = random_lists(100003, 1, stride, shuffled);
      CHECK(device_ranks(expected.succ, ListRankMethod::ruling_set, stride) == expected.rank);
    }
  }
}

TEST_CASE("listrank: a list of 2^20 + 3 elements (ruling set) and singletons only (both)") {
  auto expected = random_lists((1 << 20) + 3, 5, 99);
  CHECK(device_ranks(expected.succ, ListRankMethod::ruling_set) == expected.rank);
  std::vector<std::int32_t> singletons(4099, -1);
  for (auto method : {ListRankMethod::wyllie, ListRankMethod::ruling_set})
    CHECK(device_ranks(singletons, method) == std::vector<std::int32_t>(4099, 0));
}

TEST_CASE("listrank: a cycle next to a list leaves the list's ranks intact (no hang, no crash)") {
  std::vector<std::int32_t> succ = {1, 2, 0, 4, -1};  // 0->1->2->0 cycle, then the list 3->4
  for (std::size_t stride : {1, 2, 1000000}) {
    auto ranks = device_ranks(succ, ListRankMethod::ruling_set, stride);
    CHECK(ranks[3] == 0);
    CHECK(ranks[4] == 1);
  }
}

TEST_CASE("listrank: method names parse and unknown names are input errors") {
  CHECK(parse<ListRankMethod>("wyllie") == ListRankMethod::wyllie);
  CHECK(parse<ListRankMethod>("ruling-set") == ListRankMethod::ruling_set);
  CHECK_THROWS_AS(parse<ListRankMethod>("jump"), InputError);
}
