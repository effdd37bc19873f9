// DevicePermutation (treefix/primitives/permutation.hpp): one gather and the two-pass plan give
// to[i] = from[index[i]] exactly, for 4- and 8-byte elements, at awkward sizes, with blocks and
// chunks small enough that every path of the plan runs (partial last chunk, runs of 0 and 1
// elements, a block count the work-group walks in several strides); and the tree's pre-order
// layout gives the same treefix results through either.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>

#include "fixture.hpp"
#include "treefix/core/device_array.hpp"
#include "treefix/core/environment.hpp"
#include "treefix/primitives/permutation.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/treefix.hpp"

using namespace treefix;

namespace {

std::vector<std::uint32_t> random_permutation(std::size_t n, std::uint64_t seed) {
  std::vector<std::uint32_t> p(n);
  std::iota(p.begin(), p.end(), 0u);
  std::shuffle(p.begin(), p.end(), std::mt19937_64(seed));
  return p;
}

// Applies `index` through a plan made under the current tuning; checks it against the host.
template <class T>
void check_permutation(const std::vector<std::uint32_t>& index, bool expect_two_pass) {
  auto& rt = test::runtime();
  const std::size_t n = index.size();
  auto from_host = test::random_values<T>(n, n + 11, T(0), T(1000000));
  auto device_index = DeviceArray<std::uint32_t>::upload(rt, index);
  DevicePermutation permutation(rt, device_index.buffer(), n);
  CHECK(permutation.size() == n);
  CHECK(permutation.two_pass() == expect_two_pass);
  auto from = DeviceArray<T>::upload(rt, from_host);
  DeviceArray<T> to(rt, n);
  std::vector<T> expected(n);
  for (std::size_t i = 0; i < n; ++i) expected[i] = from_host[index[i]];
  for (int repeat = 0; repeat < 2; ++repeat) {  // a plan is applied many times
    permutation.apply(rt, from.buffer(), to.buffer(), sizeof(T), {});
    CHECK(to.download(rt) == expected);
  }
}

}  // namespace

TEST_CASE("permutation: one gather and two passes give to[i] = from[index[i]] at awkward sizes") {
  std::vector<std::size_t> sizes = test::awkward_sizes();
  sizes.push_back(1000003);
  for (std::size_t n : sizes) {
    CAPTURE(n);
    const auto index = random_permutation(n, n);
    {
      test::ScopedTuning tuning;
      tuning->set("two_pass_permutation_from", 0);
      check_permutation<std::int32_t>(index, false);
      check_permutation<double>(index, false);
    }
    // Blocks of 2^3 .. 2^16 elements: many blocks (runs of 0 or 1 element in small chunks),
    // more blocks than a work-group has items (the strided clearing), a few large ones.
    for (unsigned block_log : {3u, 6u, 10u, 16u}) {
      CAPTURE(block_log);
      test::ScopedTuning tuning;
      tuning->set("two_pass_permutation_from", 1);
      tuning->set("permutation_block_log", block_log);
      const bool two_pass = (n + (std::size_t(1) << block_log) - 1) >> block_log >= 2;
      check_permutation<float>(index, two_pass);
      check_permutation<std::int64_t>(index, two_pass);
    }
  }
}

TEST_CASE("permutation: identity, reversal and a threshold above n keep one gather") {
  const std::size_t n = 70001;
  std::vector<std::uint32_t> identity(n), reversal(n);
  std::iota(identity.begin(), identity.end(), 0u);
  std::reverse_copy(identity.begin(), identity.end(), reversal.begin());
  test::ScopedTuning tuning;
  tuning->set("two_pass_permutation_from", 1);
  tuning->set("permutation_block_log", 8);
  check_permutation<std::uint32_t>(identity, true);
  check_permutation<std::uint32_t>(reversal, true);
  tuning->set("two_pass_permutation_from", n + 1);  // below the threshold: one gather
  check_permutation<std::uint32_t>(reversal, false);
}

TEST_CASE("permutation: the pre-order layout gives the same treefix through one or two passes") {
  auto& rt = test::runtime();
  for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(4099), std::size_t(100003),
                        std::size_t(300007)}) {
    CAPTURE(n);
    const ParentArray parent =
        generate::shuffle_labels(generate::random_recursive(n, n + 1), n + 2);
    auto w = test::random_values<float>(n, 5, -8.0f, 8.0f);
    auto wi = test::random_values<std::int32_t>(n, 6, -1000, 1000);
    std::vector<float> one_pass_result;
    for (bool two_pass : {false, true}) {
      CAPTURE(two_pass);
      test::ScopedTuning tuning;
      tuning->set("two_pass_permutation_from", two_pass ? 1 : 0);
      tuning->set("permutation_block_log", 7);
      DeviceTreeOptions options;
      options.layout = TourLayout::preorder;
      DeviceTree tree(rt, parent, options);
      CHECK(tree.euler_tour().to_preorder().two_pass() == (two_pass && n > 128));
      CHECK(tree.euler_tour().to_vertex_order().two_pass() == (two_pass && n > 128));
      auto dwi = DeviceArray<std::int32_t>::upload(rt, wi);
      DeviceArray<std::int32_t> result(rt, n);
      TreefixOptions euler{Op::sum, false, Algorithm::euler};
      rootfix(rt, tree, dwi, result, euler);
      CHECK(result.download(rt) == reference::rootfix(parent, wi, Op::sum, false));
      leaffix(rt, tree, dwi, result, euler);
      CHECK(result.download(rt) == reference::leaffix(parent, wi, Op::sum, false));
      // Floats: the scan's order is the layout's, so the pre-order scan must give the same bits
      // whichever way the weights reached it.
      auto dw = DeviceArray<float>::upload(rt, w);
      DeviceArray<float> fresult(rt, n);
      rootfix(rt, tree, dw, fresult, euler);
      if (!two_pass)
        one_pass_result = fresult.download(rt);
      else
        CHECK(fresult.download(rt) == one_pass_result);
    }
  }
}

TEST_CASE("permutation: TREEFIX_PERMUTATION is one-pass or two-pass, checked") {
  setenv("TREEFIX_PERMUTATION", "two-pass", 1);
  CHECK(Environment::read().tuning("two_pass_permutation_from") == std::optional<std::size_t>(1));
  setenv("TREEFIX_PERMUTATION", "one-pass", 1);
  CHECK(Environment::read().tuning("two_pass_permutation_from") == std::optional<std::size_t>(0));
  setenv("TREEFIX_PERMUTATION", "three", 1);
  CHECK_THROWS_WITH_AS(
      Environment::read(),
      doctest::Contains("TREEFIX_PERMUTATION='three': expected two-pass or one-pass"), InputError);
  unsetenv("TREEFIX_PERMUTATION");
  CHECK_FALSE(Environment::read().tuning("two_pass_permutation_from").has_value());
}

TEST_CASE(
    "permutation: warm_up builds what calls take, on a shuffled tree (pre-order) and a star") {
  // A fresh runtime, so that its count of built programs starts at what warm_up builds.
  Runtime rt;
  if (rt.tuning().value("automatic_on_host")) {  // a CPU device: `automatic` needs no program
    warm_up(rt, ValueType::float32, {});
    CHECK(rt.programs_built() == 0);
    rt.tuning().set("automatic_on_host", 0);
  }
  for (ValueType type : {ValueType::float32, ValueType::int64}) {
    CAPTURE(to_string(type));
    TreefixOptions options;  // automatic: the Euler tour for sums
    warm_up(rt, type, options);
    const std::size_t warmed = rt.programs_built();
    const ParentArray shuffled = generate::shuffle_labels(generate::random_recursive(20000, 8), 9);
    const ParentArray star = generate::star(20000);
    for (const ParentArray* parent : {&shuffled, &star}) {
      const std::size_t n = parent->size();
      DeviceTree tree(rt, *parent);
      CHECK(tree.euler_tour().preorder_layout() == (parent == &shuffled));
      visit_value_type(type, [&](auto zero) {
        using T = decltype(zero);
        const std::vector<T> ones(n, T(1));
        auto weights = DeviceArray<T>::upload(rt, ones);
        DeviceArray<T> result(rt, n);
        rootfix(rt, tree, weights, result, options);
        CHECK(result.download(rt) == reference::rootfix(*parent, ones, Op::sum, false));
        leaffix(rt, tree, weights, result, options);
        CHECK(result.download(rt) == reference::leaffix(*parent, ones, Op::sum, false));
      });
    }
    CHECK(rt.programs_built() == warmed);
  }
}
