// The seeds' own worked examples, pinned (docs/seeds.md):
//   Defour & Marin's Fig. 2: its tree, Euler-tour vector and vector tree representation ((V, V),
//   W), then Algorithm 2 (Write, Scan, Read) and Algorithm 1 on it;
//   the thesis' Car tree (Figs. 2.5, 2.6): its linear layout (treeN: breadth-first nodes with
//   first-child and right-sibling links) and its similarity under both definitions, by hand.
#include <doctest/doctest.h>

#include <filesystem>
#include <vector>

#include "fixture.hpp"
#include "treefix/forest/ruleml.hpp"
#include "treefix/forest/similarity.hpp"
#include "treefix/treefix/bfs_treefix.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/tree.hpp"
#include "treefix/treefix/treefix.hpp"

using namespace treefix;

namespace {

// Fig. 2: a has children b and f; b has children c, d, e. Vertices a..f are 0..5, children in
// increasing id (the figure's order).
const ParentArray fig2_parent = {-1, 0, 1, 1, 1, 0};
// E = [(a, (b, (c, c), (d, d), (e, e), b), (f, f), a)]
const std::vector<std::int64_t> fig2_open = {0, 1, 2, 4, 6, 9};     // (V
const std::vector<std::int64_t> fig2_close = {11, 8, 3, 5, 7, 10};  // V)
const std::vector<std::int32_t> fig2_weight = {1, 2, 4, 5, 6, 3};   // W
// Algorithm 2, step 1 (Write): E[(V[i]] = W[i], E[V)[i]] = -W[i].
const std::vector<std::int32_t> fig2_written = {1, 2, 4, -4, 5, -5, 6, -6, -2, 3, -3, -1};
// Step 2: the +scan as section II-B defines it, (0, x0, x0 + x1, ...): exclusive.
const std::vector<std::int32_t> fig2_scanned = {0, 1, 3, 7, 3, 8, 3, 9, 3, 1, 4, 1};
// Step 3 (Read) E[(V[i]]: the sum over the ancestors alone, Leiserson and Maggs' rootfix.
const std::vector<std::int32_t> fig2_ancestors = {0, 1, 3, 3, 3, 1};
// Algorithm 1 (rootfix[0] = W[0], rootfix[j] = rootfix[i] + W[j]) counts the vertex too: the
// inclusive rootfix, which an inclusive scan reads at the same positions.
const std::vector<std::int32_t> fig2_rootfix = {1, 3, 7, 8, 9, 4};
const std::vector<std::int32_t> fig2_leaffix = {21, 17, 4, 5, 6, 3};  // a: 1 + 17 + 3

// A deeper tree worked the same way by hand (7 vertices, a path of three below the root).
//        0 (w 1)
//       /      \
//    1 (2)      2 (3)
//    /   \        \
//  3 (4) 4 (5)    5 (6)
//                   \
//                   6 (7)
const ParentArray deep_parent = {-1, 0, 0, 1, 1, 2, 5};
const std::vector<std::int32_t> deep_weight = {1, 2, 3, 4, 5, 6, 7};
const std::vector<std::int64_t> deep_open = {0, 1, 7, 2, 4, 8, 9};
const std::vector<std::int64_t> deep_close = {13, 6, 12, 3, 5, 11, 10};
const std::vector<std::int32_t> deep_rootfix = {1, 3, 4, 7, 8, 10, 17};
const std::vector<std::int32_t> deep_leaffix = {28, 11, 16, 4, 5, 13, 7};

std::vector<std::int32_t> written_tour(const EulerTour& tour, const std::vector<std::int32_t>& w) {
  std::vector<std::int32_t> written(2 * w.size());
  for (std::size_t v = 0; v < w.size(); ++v) {
    written[tour.open_pos[v]] = w[v];
    written[tour.close_pos[v]] = -w[v];
  }
  return written;
}

// Every device method of the library gives the hand-worked values.
void check_every_method(const ParentArray& parent, const std::vector<std::int32_t>& w,
                        const std::vector<std::int32_t>& rootfix_values,
                        const std::vector<std::int32_t>& leaffix_values) {
  CHECK(reference::rootfix(parent, w, Op::sum) == rootfix_values);
  CHECK(reference::leaffix(parent, w, Op::sum) == leaffix_values);
  for (Algorithm algorithm : {Algorithm::euler, Algorithm::levels, Algorithm::bfs}) {
    for (EulerKernels kernels : {EulerKernels::three, EulerKernels::fused}) {
      if (algorithm != Algorithm::euler && kernels == EulerKernels::three) continue;
      TreefixOptions options;
      options.algorithm = algorithm;
      options.euler_kernels = kernels;
      CAPTURE(to_string(algorithm));
      CAPTURE(to_string(kernels));
      CHECK(rootfix(test::runtime(), parent, w, options) == rootfix_values);
      CHECK(leaffix(test::runtime(), parent, w, options) == leaffix_values);
    }
  }
}

std::string thesis_file(const std::string& name) {
  return (std::filesystem::path(__FILE__).parent_path() / "data" / "ruleml" / "thesis" / name)
      .string();
}

}  // namespace

TEST_CASE("Defour & Marin, Fig. 2: the tree, its Euler-tour vector and Algorithms 1 and 2") {
  const EulerTour tour = build_euler_tour(fig2_parent);
  CHECK(tour.open_pos == fig2_open);
  CHECK(tour.close_pos == fig2_close);
  const auto written = written_tour(tour, fig2_weight);
  CHECK(written == fig2_written);
  std::vector<std::int32_t> scanned(written.size());
  std::int32_t running = 0;
  for (std::size_t i = 0; i < written.size(); ++i) {
    scanned[i] = running;
    running += written[i];
  }
  CHECK(scanned == fig2_scanned);
  CHECK(running == 0);  // every +w meets its -w
  for (std::size_t v = 0; v < fig2_parent.size(); ++v) {
    CAPTURE(v);
    CHECK(scanned[tour.open_pos[v]] == fig2_ancestors[v]);
    CHECK(scanned[tour.open_pos[v]] + fig2_weight[v] == fig2_rootfix[v]);
  }
  CHECK(reference::rootfix(fig2_parent, fig2_weight, Op::sum, true) == fig2_ancestors);
  check_every_method(fig2_parent, fig2_weight, fig2_rootfix, fig2_leaffix);
  // Algorithm 1 on the figure's CSR: three levels below the virtual root, as the figure is deep.
  auto& rt = test::runtime();
  BfsTreefixStats stats;
  const auto w = DeviceArray<std::int32_t>::upload(rt, fig2_weight);
  DeviceArray<std::int32_t> r(rt, fig2_weight.size());
  bfs_rootfix(rt, upload_child_lists(rt, fig2_parent), w, r, Op::sum, false, nullptr, &stats);
  CHECK(r.download(rt) == fig2_rootfix);
  CHECK(stats.levels == 3);
}

TEST_CASE("a deeper tree, worked by hand the same way") {
  const EulerTour tour = build_euler_tour(deep_parent);
  CHECK(tour.open_pos == deep_open);
  CHECK(tour.close_pos == deep_close);
  const auto written = written_tour(tour, deep_weight);
  std::vector<std::int32_t> inclusive(written.size());
  std::int32_t running = 0;
  for (std::size_t i = 0; i < written.size(); ++i) inclusive[i] = running += written[i];
  for (std::size_t v = 0; v < deep_parent.size(); ++v)
    CHECK(inclusive[tour.open_pos[v]] == deep_rootfix[v]);
  check_every_method(deep_parent, deep_weight, deep_rootfix, deep_leaffix);
}

TEST_CASE("the thesis' Car tree (Figs. 2.5, 2.6): its linear layout and similarity by hand") {
  const SemanticTree car = read_ruleml(thesis_file("car_fig2_6.xml"));
  const SemanticTree car_2006 = read_ruleml(thesis_file("car_fig2_5.xml"));
  const SemanticTree no_category = read_ruleml(thesis_file("car_without_category.xml"));
  Interner interner;
  const SemanticForest forest = build_semantic_forest({car, car_2006}, interner);
  // treeN (section 3.3): breadth-first, Car, Jeep, GMC, 1999, 7000, large, V-6, Terrain; HeadArr
  // holds each tree's root.
  const std::vector<std::string> labels = {"Car",  "Jeep",  "GMC", "1999",
                                           "7000", "large", "V-6", "Terrain"};
  for (std::size_t i = 0; i < labels.size(); ++i) {
    CAPTURE(i);
    CHECK(interner.name(forest.label[i]) == labels[i]);
  }
  CHECK(forest.shape.head == std::vector<vertex_t>{0, 8});
  const std::vector<vertex_t> first_child = {1, 4, 6, -1, -1, -1, -1, -1};
  const std::vector<vertex_t> right_sibling = {-1, 2, 3, -1, 5, -1, 7, -1};
  CHECK(std::vector<vertex_t>(forest.shape.first_child.begin(),
                              forest.shape.first_child.begin() + 8) == first_child);
  CHECK(std::vector<vertex_t>(forest.shape.next_sibling.begin(),
                              forest.shape.next_sibling.begin() + 8) == right_sibling);
  CHECK(interner.name(forest.arc[1]) == "Category");
  CHECK(forest.weight[1] == doctest::Approx(0.2));
  CHECK(forest.weight[3] == doctest::Approx(0.3));

  const SimilarityParameters weighted{SimilarityDefinition::weighted, 0.5, false};
  const SimilarityParameters thesis{SimilarityDefinition::thesis, 0.5, false};
  // Fig. 2.6 against Fig. 2.5: Category and Make agree (0.2 + 0.5), Year 1999 is not 2006; both
  // definitions pair the same arcs (the same order): 0.7.
  // Against the Car without Category (Make 0.625, Year 0.375):
  //   weighted pairs by label: Make (0.5 + 0.625)/2 + Year (0.3 + 0.375)/2 = 0.9, and the unpaired
  //     Category costs all but 0.2/2 * D * S(Jeep) = 0.1 * 0.5 * 0.5 = 0.025: 0.925;
  //   thesis pairs by position: Jeep/GMC and GMC/1999 differ (0), and the unpaired Year leaf adds
  //     w * D = 0.3 * 0.5: 0.15.
  for (const auto& [p, against_2006, against_no_category] :
       {std::tuple{weighted, 0.7, 0.925}, std::tuple{thesis, 0.7, 0.15}}) {
    const std::string definition = to_string(p.definition);  // (a binding cannot be captured)
    CAPTURE(definition);
    CHECK(tree_similarity_reference(car, car, p) == 1.0);
    CHECK(tree_similarity_reference(car, car_2006, p) == doctest::Approx(against_2006));
    CHECK(tree_similarity_reference(car, no_category, p) == doctest::Approx(against_no_category));
    // the CPU and the device on the linear forest (float on the device)
    Interner shared;
    const auto reference_forest = build_semantic_forest({car}, shared);
    const auto trees = build_semantic_forest({car, car_2006, no_category}, shared);
    for (const auto& got : {similarity_cpu(reference_forest, trees, p), std::vector<double>([&, params = p] {
                              auto f = similarity_device(test::runtime(), reference_forest,
                                                         trees, params);
                              return std::vector<double>(f.begin(), f.end());
                            }())}) {
      REQUIRE(got.size() == 3);
      CHECK(got[0] == doctest::Approx(1.0).epsilon(1e-6));
      CHECK(got[1] == doctest::Approx(against_2006).epsilon(1e-6));
      CHECK(got[2] == doctest::Approx(against_no_category).epsilon(1e-6));
    }
  }
}
