#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>

#include "fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/forest/generate.hpp"
#include "treefix/forest/ruleml.hpp"
#include "treefix/forest/similarity.hpp"

using namespace treefix;

namespace {

std::string data_file(const std::string& name) {
  return (std::filesystem::path(__FILE__).parent_path() / "data" / "ruleml" / name).string();
}

bool same_tree(const SemanticTree& a, const SemanticTree& b) {
  if (a.label != b.label || a.arc_labels != b.arc_labels || a.children.size() != b.children.size())
    return false;
  for (std::size_t i = 0; i < a.children.size(); ++i)
    if (std::abs(a.weights[i] - b.weights[i]) > 1e-12 || !same_tree(a.children[i], b.children[i]))
      return false;
  return true;
}

// Similarity of `reference` against `trees` three ways: reference recursion, CPU (1 and 3
// threads), device; all must agree.
void check_all_agree(const SemanticTree& reference, const std::vector<SemanticTree>& trees,
                     const SimilarityParameters& p = {}) {
  Interner interner;
  auto ref = build_semantic_forest({reference}, interner);
  auto forest = build_semantic_forest(trees, interner);
  auto cpu1 = similarity_cpu(ref, forest, p, 1);
  auto cpu3 = similarity_cpu(ref, forest, p, 3);
  auto device = similarity_device(test::runtime(), ref, forest, p);
  REQUIRE(cpu1.size() == trees.size());
  REQUIRE(device.size() == trees.size());
  CHECK(cpu3 == cpu1);
  for (std::size_t i = 0; i < trees.size(); ++i) {
    const double expected = tree_similarity_reference(reference, trees[i], p);
    CAPTURE(i);
    CHECK(cpu1[i] == doctest::Approx(expected).epsilon(1e-6));  // weights are stored as float
    CHECK(device[i] == doctest::Approx(expected).epsilon(2e-6));
    CHECK(expected >= 0.0);
    CHECK(expected <= 1.0 + 1e-12);
  }
}

}  // namespace

TEST_CASE("similarity of the hand-worked examples (docs/forest.md)") {
  auto car_a = read_ruleml(data_file("car_a.xml"));
  // Make and Year match (weights 0.3, 0.5), Model leaves differ: 0.3 + 0.5 = 0.8.
  CHECK(tree_similarity_reference(car_a, read_ruleml(data_file("car_b.xml"))) ==
        doctest::Approx(0.8));
  // Make (0.3+0.5)/2, Year (0.5+0.5)/2, Model missing: 0.2/2 * 0.5 * S(leaf)=1: 0.95.
  CHECK(tree_similarity_reference(car_a, read_ruleml(data_file("car_c.xml"))) ==
        doctest::Approx(0.95));
  // Make 0.3; Engine missing: 0.7/2 * 0.5 * S(Engine) with S = 0.5 * (0.6 + 0.4) = 0.5 -> 0.0875;
  // Model and Year missing: 0.2/2 * 0.5 + 0.5/2 * 0.5 = 0.175. Total 0.5625.
  CHECK(tree_similarity_reference(car_a, read_ruleml(data_file("car_engine.xml"))) ==
        doctest::Approx(0.5625));
  // Engines differ in Cylinders only: 0.3 + (0.7+0.7)/2 * ((0.4+0.4)/2 * 1) = 0.3 + 0.7 * 0.4 =
  // 0.58.
  CHECK(tree_similarity_reference(read_ruleml(data_file("car_engine.xml")),
                                  read_ruleml(data_file("car_engine2.xml"))) ==
        doctest::Approx(0.58));
  // A one-node Car against car_a: every arc of car_a missing: 0.5 * (0.3 + 0.2 + 0.5) / 2 = 0.25.
  CHECK(tree_similarity_reference(car_a, read_ruleml(data_file("car_leaf.xml"))) ==
        doctest::Approx(0.25));
  // Identical trees give 1, a different root label 0.
  CHECK(tree_similarity_reference(car_a, car_a) == 1.0);
  CHECK(tree_similarity_reference(car_a, read_ruleml(data_file("truck.xml"))) == 0.0);
  // Symmetry on these examples.
  CHECK(tree_similarity_reference(read_ruleml(data_file("car_engine.xml")), car_a) ==
        doctest::Approx(0.5625));

  std::vector<SemanticTree> all;
  for (auto name : {"car_a.xml", "car_b.xml", "car_c.xml", "car_engine.xml", "car_engine2.xml",
                    "car_leaf.xml", "truck.xml"})
    all.push_back(read_ruleml(data_file(name)));
  check_all_agree(car_a, all);
  check_all_agree(all[3], all);
  check_all_agree(all[5], all);  // a one-node reference
}

TEST_CASE("similarity on the device and CPU equals the reference on random trees") {
  for (std::size_t count : {0, 1, 257, 4099}) {
    auto trees = random_semantic_trees(count, count + 11);
    auto references = random_semantic_trees(3, count + 99);
    if (count) references.push_back(trees[count / 2]);  // one of them: similarity 1
    for (auto& r : references) check_all_agree(r, trees);
  }
  // About 10^6 nodes against a reference taken from among them.
  auto many = random_semantic_trees(65537, 3);
  check_all_agree(many[12345], many);
  // Wider and deeper shapes, larger alphabets.
  SemanticTreeShape wide{7, 6, 2, 3, 8};
  auto trees = random_semantic_trees(500, 5, wide);
  check_all_agree(trees[0], trees);
  check_all_agree(random_semantic_trees(1, 6, wide)[0], trees);
  SimilarityParameters sqrt_adjusted;
  sqrt_adjusted.sqrt_adjustment = true;
  check_all_agree(trees[1], trees, sqrt_adjusted);
}

TEST_CASE("similarity of deep paths: no depth limit on CPU or device") {
  auto path = [](std::size_t depth, const std::string& leaf) {
    SemanticTree root{"p", {}, {}, {}};
    SemanticTree* node = &root;
    for (std::size_t d = 0; d < depth; ++d) {
      node->arc_labels = {"next"};
      node->weights = {1.0};
      node->children.resize(1);
      node = &node->children[0];
      node->label = "p";
    }
    node->label = leaf;
    return root;
  };
  // 5000 levels: the forest is built and compared without recursion; the nested host trees'
  // copy constructors and destructors do recurse, so keep them moderate and never copy them.
  std::vector<SemanticTree> trees;
  trees.push_back(path(5000, "end"));
  trees.push_back(path(5000, "other"));
  trees.push_back(path(1000, "end"));
  std::vector<SemanticTree> reference;
  reference.push_back(path(5000, "end"));
  Interner interner;
  auto ref = build_semantic_forest(reference, interner);
  auto forest = build_semantic_forest(trees, interner);
  auto device = similarity_device(test::runtime(), ref, forest);
  auto cpu = similarity_cpu(ref, forest);
  CHECK(device[0] == 1.0f);
  CHECK(cpu[0] == 1.0);
  CHECK(device[1] == 0.0f);  // the deepest leaves differ, and that propagates to the root
  CHECK(cpu[1] == 0.0);
  // The short path ends in a leaf "end" where the reference continues with a "p" node: 0.
  CHECK(cpu[2] == doctest::Approx(device[2]));
}

TEST_CASE("RuleML: writing and reading round-trips; generated trees have the thesis' shape") {
  auto trees = random_semantic_trees(200, 42);
  for (auto& t : trees) {
    std::ostringstream text;
    write_ruleml(text, t);
    CHECK(same_tree(parse_ruleml(text.str(), "generated"), t));
    // Shape: height <= 4, <= 3 children, distinct arcs, weights summing to 1.
    std::vector<std::pair<const SemanticTree*, int>> stack = {{&t, 0}};
    while (!stack.empty()) {
      auto [node, depth] = stack.back();
      stack.pop_back();
      CHECK(depth <= 4);
      CHECK(node->children.size() <= 3);
      double sum = 0;
      for (double w : node->weights) sum += w;
      if (!node->leaf()) CHECK(sum == doctest::Approx(1.0).epsilon(1e-12));
      for (auto& c : node->children) stack.emplace_back(&c, depth + 1);
    }
  }
  SemanticTree leaf{"a<b&c", {}, {}, {}};
  std::ostringstream text;
  write_ruleml(text, leaf);
  CHECK(same_tree(parse_ruleml(text.str(), "leaf"), leaf));
}

TEST_CASE("bad RuleML is refused with the file, line and element") {
  auto expect = [](const std::string& file, std::vector<std::string> fragments) {
    try {
      read_ruleml(data_file("bad/" + file));
      FAIL("expected an InputError for " << file);
    } catch (const InputError& e) {
      const std::string what = e.what();
      CHECK_MESSAGE(what.find(file) != std::string::npos, what);
      for (auto& f : fragments) CHECK_MESSAGE(what.find(f) != std::string::npos, what);
    }
  };
  expect("malformed.xml", {"malformed XML"});
  expect("missing_weight.xml", {":4:", "<_r n=\"Year\">", "missing weight"});
  expect("weight_sum.xml", {":1:", "<cterm>", "sum to 0.8"});
  expect("duplicate_arc.xml", {":4:", "'Make' repeats"});
  expect("no_ctor.xml", {"<cterm>", "_opc"});
  CHECK_THROWS_AS(
      parse_ruleml(
          "<cterm><_opc><ctor>A</ctor></_opc><_r n=\"x\" w=\"abc\"><ind>b</ind></_r></cterm>", "t"),
      InputError);
  CHECK_THROWS_AS(
      parse_ruleml(
          "<cterm><_opc><ctor>A</ctor></_opc><_r n=\"x\" w=\"1.5\"><ind>b</ind></_r></cterm>", "t"),
      InputError);
  CHECK_THROWS_AS(parse_ruleml("<cterm><_opc><ctor> </ctor></_opc></cterm>", "t"), InputError);
  CHECK_THROWS_AS(parse_ruleml("<cterm><_opc><ctor>A</ctor></_opc><foo/></cterm>", "t"),
                  InputError);
  CHECK_THROWS_AS(parse_ruleml("", "t"), InputError);
  CHECK_THROWS_AS(read_ruleml(data_file("no-such-file.xml")), InputError);
}

TEST_CASE("ranking: highest first, ties by name") {
  auto order = rank_by_similarity({0.5, 0.9, 0.5, 0.0}, {"b.xml", "z.xml", "a.xml", "c.xml"});
  CHECK(order == std::vector<std::size_t>{1, 2, 0, 3});
  auto named = read_ruleml_trees(data_file(""));
  CHECK(named.names.front() == "car_a.xml");  // sorted, bad/ (a directory) left out
  CHECK(named.names.size() == 7);
}
