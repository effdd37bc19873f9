// The vector representation of a tree (Defour & Marin's Fig. 2), worked by hand on a 7-vertex tree
// and pinned: the tour positions, the Write array, its scan, and the values Read takes from it.
#include <doctest/doctest.h>

#include <vector>

#include "fixture.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/tree.hpp"
#include "treefix/treefix/treefix.hpp"

using namespace treefix;

namespace {

//        0 (w 1)
//       /      \
//    1 (2)      2 (3)
//    /   \        \
//  3 (4) 4 (5)    5 (6)
//                   \
//                   6 (7)
const ParentArray fig2_parent = {-1, 0, 0, 1, 1, 2, 5};
const std::vector<std::int32_t> fig2_weight = {1, 2, 3, 4, 5, 6, 7};

// Depth-first, children in increasing order: 0 1 3 3' 4 4' 1' 2 5 6 6' 5' 2' 0'.
const std::vector<std::int64_t> fig2_open = {0, 1, 7, 2, 4, 8, 9};
const std::vector<std::int64_t> fig2_close = {13, 6, 12, 3, 5, 11, 10};
// Write: +w at an entry, -w at an exit.
const std::vector<std::int32_t> fig2_written = {1, 2, 4, -4, 5, -5, -2, 3, 6, 7, -7, -6, -3, -1};
// Scan (inclusive prefix sums of the written tour).
const std::vector<std::int32_t> fig2_scanned = {1, 3, 7, 3, 8, 3, 1, 4, 10, 17, 10, 4, 1, 0};
// Read: a vertex's rootfix is the scan at its entry: the sum of the weights on its root path.
const std::vector<std::int32_t> fig2_rootfix = {1, 3, 4, 7, 8, 10, 17};
// Leaffix, the sum over each subtree: 0: 28, 1: 2+4+5, 2: 3+6+7, 5: 6+7.
const std::vector<std::int32_t> fig2_leaffix = {28, 11, 16, 4, 5, 13, 7};

}  // namespace

TEST_CASE("the vector representation, worked by hand (Defour & Marin, Fig. 2)") {
  const EulerTour tour = build_euler_tour(fig2_parent);
  CHECK(tour.open_pos == fig2_open);
  CHECK(tour.close_pos == fig2_close);

  // The three steps on the host, from the tour: they give the hand-worked arrays.
  std::vector<std::int32_t> written(2 * fig2_parent.size());
  for (std::size_t v = 0; v < fig2_parent.size(); ++v) {
    written[tour.open_pos[v]] = fig2_weight[v];
    written[tour.close_pos[v]] = -fig2_weight[v];
  }
  CHECK(written == fig2_written);
  std::vector<std::int32_t> scanned(written.size());
  std::int32_t running = 0;
  for (std::size_t i = 0; i < written.size(); ++i) scanned[i] = running += written[i];
  CHECK(scanned == fig2_scanned);
  for (std::size_t v = 0; v < fig2_parent.size(); ++v)
    CHECK(scanned[tour.open_pos[v]] == fig2_rootfix[v]);

  CHECK(reference::rootfix(fig2_parent, fig2_weight, Op::sum) == fig2_rootfix);
  CHECK(reference::leaffix(fig2_parent, fig2_weight, Op::sum) == fig2_leaffix);

  // The library's device treefix gives the same values in both Euler-tour forms (the paper's
  // three kernels and the fused one) and level by level.
  for (EulerKernels kernels : {EulerKernels::three, EulerKernels::fused}) {
    TreefixOptions options;
    options.op = Op::sum;
    options.algorithm = Algorithm::euler;
    options.euler_kernels = kernels;
    CAPTURE(static_cast<int>(kernels));
    CHECK(rootfix(test::runtime(), fig2_parent, fig2_weight, options) == fig2_rootfix);
    CHECK(leaffix(test::runtime(), fig2_parent, fig2_weight, options) == fig2_leaffix);
  }
  TreefixOptions levels;
  levels.op = Op::sum;
  levels.algorithm = Algorithm::levels;
  CHECK(rootfix(test::runtime(), fig2_parent, fig2_weight, levels) == fig2_rootfix);
  CHECK(leaffix(test::runtime(), fig2_parent, fig2_weight, levels) == fig2_leaffix);
}
