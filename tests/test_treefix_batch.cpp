// The one treefix entry: batches of (k, n) weights on the device and from host memory, the
// automatic choice made in one place (on the host on CPU devices: automatic_on_host), and a
// device tree that a host-run call never builds.
#include <doctest/doctest.h>

#include <vector>

#include "fixture.hpp"
#include "treefix/core/interrupt.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/treefix.hpp"

using namespace treefix;

namespace {
// Rows of random weights, and each row's reference result.
struct Batch {
  std::vector<std::int64_t> weights, want;
};
Batch batch_of(const ParentArray& parent, std::size_t rows, Fix fix, const TreefixOptions& o) {
  Batch b;
  for (std::size_t row = 0; row < rows; ++row) {
    const auto w = test::random_values<std::int64_t>(parent.size(), 40 + row, -1000, 1000);
    const auto r = fix == Fix::root ? reference::rootfix(parent, w, o.op, o.exclusive)
                                    : reference::leaffix(parent, w, o.op, o.exclusive);
    b.weights.insert(b.weights.end(), w.begin(), w.end());
    b.want.insert(b.want.end(), r.begin(), r.end());
  }
  return b;
}
}  // namespace

TEST_CASE("treefix: a batch of k rows equals k single calls, on the device and from the host") {
  auto& rt = test::runtime();
  const ParentArray parent = generate::shuffle_labels(generate::random_forest(1009, 5, 3), 4);
  const std::size_t n = parent.size(), rows = 3;
  DeviceTree tree(rt, parent);
  for (Algorithm algorithm : {Algorithm::euler, Algorithm::levels, Algorithm::sequential})
    for (Fix fix : {Fix::root, Fix::leaf}) {
      CAPTURE(to_string(algorithm));
      CAPTURE(to_string(fix));
      TreefixOptions options;
      options.algorithm = algorithm;
      options.exclusive = fix == Fix::leaf;
      const Batch b = batch_of(parent, rows, fix, options);
      auto w = DeviceArray<std::int64_t>::upload(rt, b.weights);
      DeviceArray<std::int64_t> r(rt, rows * n);
      treefix::treefix(rt, tree, w, r, fix, options);
      CHECK(r.download(rt) == b.want);
      std::vector<std::int64_t> out(rows * n);
      treefix::treefix(rt, tree, b.weights.data(), out.data(), rows, fix, options);
      CHECK(out == b.want);
      std::vector<std::int64_t> in_place = b.weights;  // result over the weights
      treefix::treefix(rt, tree, in_place.data(), in_place.data(), rows, fix, options);
      CHECK(in_place == b.want);
    }
  DeviceArray<std::int64_t> odd(rt, n + 1), result(rt, n + 1);
  CHECK_THROWS_WITH_AS(rootfix(rt, tree, odd, result),
                       doctest::Contains("1010 weights for a tree of 1009 vertices"), InputError);
}

TEST_CASE("automatic on the host: no device tree, the sequential pass, the same results") {
  auto& rt = test::runtime();
  test::ScopedTuning tuning;
  tuning->set("automatic_on_host", 1);
  const ParentArray parent = generate::caterpillar(3001, 1000);
  DeviceTree tree(rt, parent);
  CHECK(!tree.on_device());
  for (Op op : {Op::sum, Op::max})
    CHECK(choose_algorithm(tree, op, ValueType::int64) == Algorithm::sequential);
  const auto w = test::random_values<std::int64_t>(parent.size(), 9, -50, 50);
  std::vector<std::int64_t> out(parent.size());
  treefix::treefix(rt, tree, w.data(), out.data(), 1, Fix::leaf, {});
  CHECK(out == reference::leaffix(parent, w, Op::sum));
  CHECK(!tree.on_device());  // nothing was asked of the device
  TreefixOptions euler;
  euler.algorithm = Algorithm::euler;
  treefix::treefix(rt, tree, w.data(), out.data(), 1, Fix::root, euler);  // the device form, made now
  CHECK(tree.on_device());
  CHECK(out == reference::rootfix(parent, w, Op::sum));
  CHECK_THROWS_WITH_AS(DeviceTree(rt, ParentArray{-1, 2, 1}),
                       doctest::Contains("cycle through vertex"), InputError);
}

namespace {
struct Stop {};
int checks = 0;
void stop_at_third_check() {
  if (++checks == 3) throw Stop{};
}
}  // namespace

TEST_CASE("an interruption point's check stops a batch between rows; the runtime stays usable") {
  auto& rt = test::runtime();
  const ParentArray parent = generate::random_recursive(500, 8);
  DeviceTree tree(rt, parent);
  const std::size_t rows = 64;
  std::vector<std::int64_t> w(rows * parent.size(), 1), out(w.size());
  TreefixOptions options;
  options.algorithm = Algorithm::euler;
  checks = 0;
  set_interrupt_check(&stop_at_third_check);
  struct Uninstall {
    ~Uninstall() { set_interrupt_check(nullptr); }
  } uninstall;
  // The check runs at most every kInterruptCheckInterval: a long enough batch meets it thrice.
  bool stopped = false;
  try {
    for (int round = 0; round < 1000 && !stopped; ++round)
      treefix::treefix(rt, tree, w.data(), out.data(), rows, Fix::root, options);
  } catch (const Stop&) {
    stopped = true;
  }
  CHECK(stopped);
  set_interrupt_check(nullptr);
  treefix::treefix(rt, tree, w.data(), out.data(), 1, Fix::root, options);
  CHECK(std::vector<std::int64_t>(out.begin(), out.begin() + parent.size()) ==
        reference::rootfix(parent, std::vector<std::int64_t>(parent.size(), 1), Op::sum));
}
