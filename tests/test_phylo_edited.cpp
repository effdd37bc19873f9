// Trees that start on the device: a DeviceTree from a device parent array (validated as a host
// array is, or taken as a known forest), and the results of tree surgery used as new trees
// without a round trip through the host, against the same trees built from host arrays.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <random>

#include "fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/phylo/lca.hpp"
#include "treefix/phylo/path_lengths.hpp"
#include "treefix/phylo/surgery.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/reference.hpp"

using namespace treefix;

namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Both ways the module may prepare a tree: on the device (a GPU), or on the host first (a CPU
// device: automatic_on_host).
const bool kOnHost[] = {false, true};

// What a query sees of a tree: pre-order, lca and distances of some pairs, rootfix of the
// lengths (the sequential pass or the device's), each compared between two trees of one forest.
void check_same_queries(Runtime& rt, DeviceTree& a, DeviceTree& b, const DeviceArray<double>& w,
                        std::uint64_t seed) {
  const std::size_t n = a.size();
  REQUIRE(b.size() == n);
  const auto order_of = [&](DeviceTree& t) {
    std::vector<vertex_t> order(n);
    if (n) detail::read_buffer(rt, t.euler_tour().pre_order(), order.data(), n * 4, nullptr);
    return order;
  };
  CHECK(order_of(a) == order_of(b));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<vertex_t> any(0, vertex_t(n) - 1);
  std::vector<vertex_t> u(64), v(64), la(64), lb(64);
  for (std::size_t i = 0; i < u.size(); ++i) u[i] = any(rng), v[i] = any(rng);
  const LcaIndex ia(rt, a), ib(rt, b);
  ia.lca(rt, u.data(), v.data(), u.size(), la.data());
  ib.lca(rt, u.data(), v.data(), u.size(), lb.data());
  CHECK(la == lb);
  std::vector<double> da(u.size()), db(u.size());
  PathLengths(rt, a, w).distances(rt, ia, u.data(), v.data(), u.size(), da.data());
  PathLengths(rt, b, w).distances(rt, ib, u.data(), v.data(), u.size(), db.data());
  CHECK(da == db);
  const std::vector<double> lengths = w.download(rt);
  std::vector<double> ra(n), rb(n);
  treefix::treefix(rt, a, lengths.data(), ra.data(), 1, Fix::root, {});
  treefix::treefix(rt, b, lengths.data(), rb.data(), 1, Fix::root, {});
  CHECK(ra == rb);
}

}  // namespace

TEST_CASE("device tree from a device parent array: validated as a host array, or taken as is") {
  Runtime& rt = test::runtime();
  for (bool on_host : kOnHost) {
    CAPTURE(on_host);
    test::ScopedTuning tuning;
    tuning->set("automatic_on_host", on_host);
    // Bad arrays: the host's message, naming the same vertex.
    for (const ParentArray& bad : {ParentArray{-1, 5}, ParentArray{-1, -2}, ParentArray{1, 0},
                                   ParentArray{-1, 2, 1}, ParentArray{0}}) {
      const std::string host = message_of([&] { validate_parent_array(bad); });
      REQUIRE(!host.empty());
      CHECK(message_of([&] {
              DeviceTree(rt, DeviceArray<vertex_t>::upload(rt, bad), ParentCheck::validate);
            }) == host);
    }
    for (const ParentArray& parent :
         {ParentArray{}, ParentArray{-1}, ParentArray(5, -1), generate::path(300),
          generate::shuffle_labels(generate::random_forest(1009, 17, 7), 8)}) {
      CAPTURE(parent.size());
      const auto device_parent = DeviceArray<vertex_t>::upload(rt, parent);
      for (ParentCheck check : {ParentCheck::validate, ParentCheck::known_forest}) {
        DeviceTree tree(rt, device_parent, check);
        // a known forest is not read back until something asks for the host copy
        if (check == ParentCheck::known_forest) CHECK(!tree.parent_on_host());
        CHECK(tree.size() == parent.size());
        const auto w = test::random_values<std::int64_t>(parent.size(), 3, -9, 9);
        std::vector<std::int64_t> out(parent.size());
        treefix::treefix(rt, tree, w.data(), out.data(), 1, Fix::leaf, {});
        CHECK(out == reference::leaffix(parent, w, Op::sum));
        CHECK(tree.parent() == parent);
        CHECK(tree.parent_on_host());
        if (parent.empty()) continue;
        DeviceTree from_host(rt, parent);
        std::vector<double> lengths(parent.size(), 0.5);
        check_same_queries(rt, tree, from_host, DeviceArray<double>::upload(rt, lengths), 5);
      }
    }
  }
}

TEST_CASE(
    "tree surgery: an edited tree is a new tree as it is (reroot, prune, reroot, ladderize)") {
  Runtime& rt = test::runtime();
  std::mt19937_64 rng(31);
  for (bool on_host : kOnHost) {
    CAPTURE(on_host);
    test::ScopedTuning tuning;
    tuning->set("automatic_on_host", on_host);
    for (const ParentArray& start :
         {ParentArray{-1}, generate::shuffle_labels(generate::random_binary(301, 3), 4),
          generate::random_forest(503, 5, 9), generate::caterpillar(97, 40)}) {
      CAPTURE(start.size());
      std::vector<double> w(start.size());
      std::uniform_real_distribution<double> length(0.01, 2.0);
      for (double& x : w) x = length(rng);
      // Each edit is made twice: on the tree it left on the device, and on the same tree built
      // from host copies of its arrays. Both must give the same tree and answer alike.
      auto tree = std::make_unique<DeviceTree>(rt, start);
      auto lengths = DeviceArray<double>::upload(rt, w);
      for (int step = 0; step < 4; ++step) {
        CAPTURE(step);
        const auto edit = [&](DeviceTree& t, const DeviceArray<double>& l) {
          const std::size_t n = t.size();
          if (step == 1) {  // prune to about half the vertices (at least one)
            std::vector<vertex_t> keep;
            for (std::size_t v = 0; v < n; v += 2) keep.push_back(vertex_t(v));
            const LcaIndex index(rt, t);
            return prune(rt, t, index, PathLengths(rt, t, l), keep);
          }
          if (step == 3) return ladderize(rt, t, l);
          const vertex_t x = vertex_t(n / 3);
          return reroot(rt, t, l, x);
        };
        const EditedTree edited = edit(*tree, lengths);
        const HostEditedTree host = edited.download(rt);
        DeviceTree adopted(rt, edited.parent, ParentCheck::known_forest);
        DeviceTree rebuilt(rt, host.parent);
        CHECK(!adopted.parent_on_host());
        check_same_queries(rt, adopted, rebuilt, edited.lengths, std::uint64_t(step));
        CHECK(adopted.parent() == host.parent);  // the copy made when asked for
        const auto rebuilt_lengths = DeviceArray<double>::upload(rt, host.lengths);
        const HostEditedTree next_adopted = edit(adopted, edited.lengths).download(rt);
        const HostEditedTree next_rebuilt = edit(rebuilt, rebuilt_lengths).download(rt);
        CHECK(next_adopted.parent == next_rebuilt.parent);
        CHECK(next_adopted.lengths == next_rebuilt.lengths);
        CHECK(next_adopted.origin == next_rebuilt.origin);
        tree = std::make_unique<DeviceTree>(rt, edited.parent, ParentCheck::known_forest);
        lengths = edited.lengths;
      }
    }
  }
}

TEST_CASE("branch lengths checked on the device name the first vertex that is not finite") {
  Runtime& rt = test::runtime();
  check_finite_lengths(rt, DeviceArray<double>(rt, 0), "lengths");  // nothing to check
  for (std::size_t n : {std::size_t(1), std::size_t(257), std::size_t(4099)}) {
    CAPTURE(n);
    std::vector<double> lengths(n, 0.25);
    check_finite_lengths(rt, DeviceArray<double>::upload(rt, lengths), "lengths");
    const std::size_t last = n - 1, middle = n / 2;
    lengths[last] = -INFINITY;
    lengths[middle] = NAN;  // the first in id order is named, whichever work-item finds it
    CHECK(message_of([&] {
            check_finite_lengths(rt, DeviceArray<double>::upload(rt, lengths), "lengths");
          }) == "lengths: the length of vertex " + std::to_string(middle) + " is not finite");
  }
}

TEST_CASE("edge count lengths: 1 on every branch, 0 at the roots, made on the device") {
  Runtime& rt = test::runtime();
  for (const ParentArray& parent :
       {ParentArray{}, ParentArray{-1}, ParentArray(7, -1), generate::random_forest(1009, 17, 7)}) {
    CAPTURE(parent.size());
    DeviceTree tree(rt, DeviceArray<vertex_t>::upload(rt, parent), ParentCheck::known_forest);
    std::vector<double> expected(parent.size());
    for (std::size_t v = 0; v < parent.size(); ++v) expected[v] = parent[v] < 0 ? 0.0 : 1.0;
    CHECK(edge_count_lengths(rt, tree).download(rt) == expected);
  }
}
