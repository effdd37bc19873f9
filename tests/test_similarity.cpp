#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>

#include "fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/forest/generate.hpp"
#include "treefix/forest/ruleml.hpp"
#include "treefix/forest/similarity.hpp"

using namespace treefix;

namespace {

const SimilarityParameters weighted{SimilarityDefinition::weighted, 0.5, false};
const SimilarityParameters thesis{SimilarityDefinition::thesis, 0.5, false};

std::string data_file(const std::string& name) {
  return (std::filesystem::path(__FILE__).parent_path() / "data" / "ruleml" / name).string();
}

SemanticTree file(const std::string& name) { return read_ruleml(data_file(name)); }

// A tree from a list of (arc, weight, leaf label) under a root label.
SemanticTree flat_tree(const std::string& label,
                       std::vector<std::tuple<std::string, double, std::string>> arcs) {
  SemanticTree t{label};
  for (auto& [arc, w, leaf] : arcs) t.add_child(arc, w, SemanticTree{leaf});
  return t;
}

// The reference similarity of x to y and of y to x, under both definitions.
void check_both_orders(const SemanticTree& x, const SemanticTree& y, double thesis_value,
                       double weighted_value) {
  for (bool swap : {false, true}) {
    const auto& a = swap ? y : x;
    const auto& b = swap ? x : y;
    CHECK(tree_similarity_reference(a, b, thesis) == doctest::Approx(thesis_value));
    CHECK(tree_similarity_reference(a, b, weighted) == doctest::Approx(weighted_value));
  }
}

// Same labels and shape, weights within 1e-12 (RuleML text rounds them).
bool same_tree(const SemanticTree& a, const SemanticTree& b) {
  std::vector<std::pair<const SemanticTree*, const SemanticTree*>> stack = {{&a, &b}};
  while (!stack.empty()) {
    auto [x, y] = stack.back();
    stack.pop_back();
    if (x->label != y->label || x->arc_labels != y->arc_labels ||
        x->children.size() != y->children.size())
      return false;
    for (std::size_t i = 0; i < x->children.size(); ++i) {
      if (std::abs(x->weights[i] - y->weights[i]) > 1e-12) return false;
      stack.emplace_back(&x->children[i], &y->children[i]);
    }
  }
  return true;
}

// Similarity of `reference` against `trees` four ways: the reference evaluation, CPU on 1 and 3
// threads, device. All agree; every result lies in [0, 1].
std::vector<double> check_all_agree(const SemanticTree& reference,
                                    const std::vector<SemanticTree>& trees,
                                    const SimilarityParameters& p) {
  Interner interner;
  auto ref = build_semantic_forest({reference}, interner);
  auto forest = build_semantic_forest(trees, interner);
  auto cpu1 = similarity_cpu(ref, forest, p, 1);
  auto cpu3 = similarity_cpu(ref, forest, p, 3);
  auto device = similarity_device(test::runtime(), ref, forest, p);
  REQUIRE(cpu1.size() == trees.size());
  REQUIRE(device.size() == trees.size());
  CHECK(cpu3 == cpu1);
  std::vector<double> expected(trees.size());
  for (std::size_t i = 0; i < trees.size(); ++i) {
    expected[i] = tree_similarity_reference(reference, trees[i], p);
    const std::string definition = to_string(p.definition);
    CAPTURE(i);
    CAPTURE(definition);
    CAPTURE(p.degradation);
    CAPTURE(p.sqrt_adjustment);
    CHECK(cpu1[i] == doctest::Approx(expected[i]).epsilon(1e-6));  // float weights in forests
    CHECK(device[i] == doctest::Approx(expected[i]).epsilon(2e-6));
    for (double s : {expected[i], cpu1[i], static_cast<double>(device[i])}) {
      CHECK(s >= 0.0);
      CHECK(s <= 1.0);
    }
  }
  return expected;
}

}  // namespace

TEST_CASE("weighted similarity of the hand-worked examples (docs/forests.md)") {
  auto car_a = file("car_a.xml");
  // Make and Year match (weights 0.3, 0.5), Model leaves differ: 0.3 + 0.5 = 0.8 (car_b lists
  // its arcs in another order: pairing is by label).
  CHECK(tree_similarity_reference(car_a, file("car_b.xml")) == doctest::Approx(0.8));
  // Make (0.3+0.5)/2, Year (0.5+0.5)/2, Model missing: 0.2/2 * 0.5 * S(leaf)=1: 0.95.
  CHECK(tree_similarity_reference(car_a, file("car_c.xml")) == doctest::Approx(0.95));
  // Make 0.3; Engine missing: 0.7/2 * 0.5 * S(Engine) with S = 0.5 * (0.6 + 0.4) = 0.5 -> 0.0875;
  // Model and Year missing: 0.2/2 * 0.5 + 0.5/2 * 0.5 = 0.175. Total 0.5625.
  CHECK(tree_similarity_reference(car_a, file("car_engine.xml")) == doctest::Approx(0.5625));
  // Engines differ in Cylinders only: 0.3 + 0.7 * ((0.4+0.4)/2 * 1) = 0.58.
  CHECK(tree_similarity_reference(file("car_engine.xml"), file("car_engine2.xml")) ==
        doctest::Approx(0.58));
  // A one-node Car against car_a: S(car_a) / 2 = 0.5 * (0.3 + 0.2 + 0.5) / 2 = 0.25.
  CHECK(tree_similarity_reference(car_a, file("car_leaf.xml")) == doctest::Approx(0.25));
  CHECK(tree_similarity_reference(file("car_leaf.xml"), car_a) == doctest::Approx(0.25));
  CHECK(tree_similarity_reference(car_a, car_a) == 1.0);
  CHECK(tree_similarity_reference(car_a, file("truck.xml")) == 0.0);
  CHECK(tree_similarity_reference(file("car_engine.xml"), car_a) == doctest::Approx(0.5625));
}

TEST_CASE("thesis similarity of the hand-worked examples (docs/forests.md)") {
  auto car_a = file("car_a.xml");
  // Children by position: car_b lists Year, Model, Make; no position has equal leaves: 0.
  CHECK(tree_similarity_reference(car_a, file("car_b.xml"), thesis) == 0.0);
  // Make/Make equal (no loss); Model Explorer against Year 2002: loss (0.2+0.5)/2; car_a's Year
  // unpaired, a leaf: loss 0.5 * (1/2 - D) = 0: 1 - 0.35 = 0.65.
  CHECK(tree_similarity_reference(car_a, file("car_c.xml"), thesis) == doctest::Approx(0.65));
  // Make equal; Model Explorer against Engine: loss (0.2+0.7)/2; Year unpaired leaf: 0. 0.55.
  CHECK(tree_similarity_reference(car_a, file("car_engine.xml"), thesis) == doctest::Approx(0.55));
  CHECK(tree_similarity_reference(file("car_engine.xml"), file("car_engine2.xml"), thesis) ==
        doctest::Approx(0.58));
  // Leaf against internal node with the same label: simPlicity of the internal node, the mean of
  // its leaves' 0.5 * arc weight: (0.15 + 0.1 + 0.25) / 3 = 1/6 (weighted: 0.25).
  CHECK(tree_similarity_reference(car_a, file("car_leaf.xml"), thesis) == doctest::Approx(1.0 / 6));
  CHECK(tree_similarity_reference(file("car_leaf.xml"), car_a, thesis) == doctest::Approx(1.0 / 6));
  CHECK(tree_similarity_reference(car_a, car_a, thesis) == 1.0);
  CHECK(tree_similarity_reference(car_a, file("truck.xml"), thesis) == 0.0);

  std::vector<SemanticTree> all;
  for (auto name : {"car_a.xml", "car_b.xml", "car_c.xml", "car_engine.xml", "car_engine2.xml",
                    "car_leaf.xml", "truck.xml"})
    all.push_back(file(name));
  for (const auto& p : {weighted, thesis}) {
    check_all_agree(car_a, all, p);
    check_all_agree(all[3], all, p);
    check_all_agree(all[5], all, p);  // a one-node reference
  }
}

TEST_CASE("extra siblings on either side, both definitions") {
  // Two arcs against one: the unpaired Model leaf.
  auto two = flat_tree("Car", {{"Make", 0.5, "Ford"}, {"Model", 0.5, "X"}});
  auto one = flat_tree("Car", {{"Make", 1.0, "Ford"}});
  // thesis: Make paired, loss 0; Model unpaired leaf: loss 0.5 * (1/2 - 0.5) = 0, so 1: with
  // D = 0.5 the thesis' 0.5 * (arc weight) gives a missing leaf its whole share.
  // weighted: (0.5 + 1)/2 + 0.5/2 * 0.5 * 1 = 0.875.
  check_both_orders(two, one, 1.0, 0.875);
  // An unpaired internal child: Engine{Cyl 6 0.5, Fuel gas 0.5} under an arc of 0.6.
  SemanticTree engine = flat_tree("Car", {{"Make", 0.4, "Ford"}});
  engine.add_child("Engine", 0.6, flat_tree("Engine", {{"Cyl", 0.5, "6"}, {"Fuel", 0.5, "gas"}}));
  // thesis: P(Engine) = (0.25 + 0.25) / 2 = 0.25; gain 0.6 * 0.25 -> 0.7 + 0.15 = 0.85.
  // weighted: S(Engine) = 0.5; gain 0.6/2 * 0.5 * 0.5 = 0.075 -> 0.775.
  check_both_orders(engine, one, 0.85, 0.775);
  // An unpaired internal child is scaled by its arc weight (docs/forests.md): unscaled, this pair
  // would score 0.505 + 0.5 = 1.005 under the thesis' figures.
  SemanticTree light = flat_tree("Car", {{"Make", 0.01, "Ford"}});
  light.add_child("Engine", 0.99, flat_tree("Engine", {{"Cyl", 1.0, "6"}}));
  CHECK(tree_similarity_reference(light, one, thesis) == doctest::Approx(1.0));
  // Extra siblings before the pair on one side, after it on the other (thesis pairs the first
  // children whatever their arcs): Year/2002 against Make/Ford by position, 0.
  auto year_first = flat_tree("Car", {{"Year", 0.5, "2002"}, {"Make", 0.5, "Ford"}});
  CHECK(tree_similarity_reference(year_first, one, thesis) == doctest::Approx(0.25));
  CHECK(tree_similarity_reference(year_first, one, weighted) == doctest::Approx(0.875));
  std::vector<SemanticTree> trees = {two, one, engine, year_first, light};
  for (const auto& p : {weighted, thesis})
    for (const auto& r : trees) check_all_agree(r, trees, p);
}

TEST_CASE("similarity on the device and CPU equals the reference on random trees") {
  for (std::size_t count : {0, 1, 257, 4099}) {
    auto trees = random_semantic_trees(count, count + 11);
    auto references = random_semantic_trees(3, count + 99);
    if (count) references.push_back(trees[count / 2]);  // one of them: similarity 1
    for (const auto& p : {weighted, thesis})
      for (auto& r : references) check_all_agree(r, trees, p);
  }
  // About 10^6 nodes against a reference taken from among them.
  auto many = random_semantic_trees(65537, 3);
  check_all_agree(many[12345], many, weighted);
  // Wider and deeper shapes, larger alphabets.
  SemanticTreeShape wide{7, 6, 2, 3, 8};
  auto trees = random_semantic_trees(500, 5, wide);
  for (const auto& p : {weighted, thesis}) {
    check_all_agree(trees[0], trees, p);
    check_all_agree(random_semantic_trees(1, 6, wide)[0], trees, p);
    SimilarityParameters adjusted = p;
    adjusted.sqrt_adjustment = true;
    check_all_agree(trees[1], trees, adjusted);
    adjusted.degradation = 0.25;
    check_all_agree(trees[2], trees, adjusted);
  }
  SimilarityParameters bad = thesis;
  bad.degradation = 0.75;  // the thesis definition needs D <= 0.5
  CHECK_THROWS_AS(tree_similarity_reference(trees[0], trees[1], bad), InputError);
  bad.definition = SimilarityDefinition::weighted;
  bad.degradation = 1.5;
  CHECK_THROWS_AS(tree_similarity_reference(trees[0], trees[1], bad), InputError);
}

TEST_CASE("results lie in [0, 1] and identical trees give exactly 1: deep trees, extreme weights") {
  // Deep random trees over tiny alphabets (many pairs), sibling weights near 0 and near 1, some
  // groups summing to 1 +- 4e-4 (inside the readers' tolerance: renormalised).
  std::mt19937_64 rng(2024);
  const std::vector<std::vector<double>> patterns[] = {
      {{1.0}, {0.9996}},
      {{1e-7, 1 - 1e-7}, {0.5002, 0.5002}, {0.9999999, 1e-7}, {0.4998, 0.5}},
      {{1e-7, 1e-9, 1 - 1e-7 - 1e-9},
       {0.3333334, 0.3333333, 0.3333337},
       {0.1, 0.2, 0.7},
       {0.3334, 0.3334, 0.3336}}};
  auto random_tree = [&](int depth) {
    SemanticTree root{"r"};
    std::vector<std::pair<SemanticTree*, int>> pending = {{&root, 0}};
    while (!pending.empty()) {
      auto [node, d] = pending.back();
      pending.pop_back();
      const int k = d >= depth ? 0 : static_cast<int>(rng() % 3) + (d < 3 ? 1 : 0);
      if (k == 0) continue;
      const auto& choices = patterns[k - 1];
      const std::vector<double>& w = choices[rng() % choices.size()];
      node->children.reserve(k);  // add_child keeps references valid
      for (int i = 0; i < k; ++i)
        node->add_child("a" + std::to_string(rng() % 2 + 2 * i), w[i],
                        SemanticTree{std::string(1, "xy"[rng() % 2])});
      for (auto& c : node->children) pending.emplace_back(&c, d + 1);
    }
    return root;
  };
  std::vector<SemanticTree> trees;
  for (int i = 0; i < 60; ++i) trees.push_back(random_tree(8 + i % 30));
  for (const auto& p : {weighted, thesis}) {
    Interner interner;
    auto forest = build_semantic_forest(trees, interner);
    for (std::size_t r = 0; r < trees.size(); r += 7) {
      auto ref = build_semantic_forest({trees[r]}, interner);
      auto cpu = similarity_cpu(ref, forest, p);
      auto device = similarity_device(test::runtime(), ref, forest, p);
      CAPTURE(r);
      CHECK(cpu[r] == 1.0);  // exactly
      CHECK(device[r] == 1.0f);
      CHECK(tree_similarity_reference(trees[r], trees[r], p) == 1.0);
      CHECK(tree_similarity_reference(trees[r], SemanticTree(trees[r]), p) == 1.0);
      for (std::size_t i = 0; i < trees.size(); ++i) {
        CHECK(cpu[i] >= 0.0);
        CHECK(cpu[i] <= 1.0);
        CHECK(device[i] >= 0.0f);
        CHECK(device[i] <= 1.0f);
        CHECK(device[i] == doctest::Approx(cpu[i]).epsilon(1e-5));
      }
    }
  }
  // A tree whose sibling weights sum to 1.0004 against itself: exactly 1 (was 1.0004).
  auto heavy = flat_tree("Car", {{"Make", 0.5002, "Ford"}, {"Year", 0.5002, "2002"}});
  for (const auto& p : {weighted, thesis}) {
    Interner interner;
    auto ref = build_semantic_forest({heavy}, interner);
    auto forest = build_semantic_forest({heavy, heavy}, interner);
    CHECK(similarity_cpu(ref, forest, p) == std::vector<double>{1.0, 1.0});
    CHECK(similarity_device(test::runtime(), ref, forest, p) == std::vector<float>{1.0f, 1.0f});
    CHECK(tree_similarity_reference(heavy, heavy, p) == 1.0);
  }
}

TEST_CASE("a RuleML chain nested a million deep: read, copied, compared, destroyed, measured") {
  constexpr std::size_t depth = 1000000;
  auto chain_text = [](std::size_t levels) {
    std::string text;
    text.reserve(levels * 56 + 16);
    for (std::size_t d = 0; d < levels; ++d)
      text += "<cterm><_opc><ctor>p</ctor></_opc><_r n=\"n\" w=\"1\">";
    text += "<ind>end</ind>";
    for (std::size_t d = 0; d < levels; ++d) text += "</_r></cterm>";
    return text;
  };
  SemanticTree chain = parse_ruleml(chain_text(depth), "chain");
  CHECK(node_count(chain) == depth + 1);
  SemanticTree other = chain;  // iterative copy
  CHECK(other == chain);
  SemanticTree* bottom = &other;
  while (!bottom->leaf()) bottom = &bottom->children[0];
  bottom->label = "other";
  CHECK(other != chain);
  std::vector<SemanticTree> both;
  both.push_back(std::move(chain));
  both.push_back(std::move(other));
  Interner interner;
  const auto forest = build_semantic_forest(both, interner);
  const auto ref = build_semantic_forest({both[0]}, interner);  // a copy, destroyed at once
  chain = std::move(both[0]);
  other = std::move(both[1]);
  CHECK(semantic_tree_of(forest, interner, 0) == chain);
  for (const auto& p : {weighted, thesis}) {
    CHECK(tree_similarity_reference(chain, chain, p) == 1.0);
    // The deepest leaves differ; with weight 1 on every arc that reaches the root: 0.
    CHECK(tree_similarity_reference(chain, other, p) == 0.0);
    CHECK(similarity_cpu(ref, forest, p) == std::vector<double>{1.0, 0.0});
    CHECK(similarity_device(test::runtime(), ref, forest, p) == std::vector<float>{1.0f, 0.0f});
  }
  // Writing: indentation is capped, so the text stays linear in the depth (counted, not kept).
  struct Counter : std::streambuf {
    std::size_t bytes = 0;
    int_type overflow(int_type c) override {
      ++bytes;
      return c;
    }
    std::streamsize xsputn(const char*, std::streamsize n) override {
      bytes += static_cast<std::size_t>(n);
      return n;
    }
  } counter;
  std::ostream counted(&counter);
  write_ruleml(counted, chain);
  CHECK(counter.bytes < 300 * (depth + 1));
  other = chain;  // copy-assigned over the old nodes: both iterative
  chain = SemanticTree{};
  CHECK(node_count(other) == depth + 1);
  // A round trip at a tenth of the depth.
  SemanticTree shorter = parse_ruleml(chain_text(depth / 10), "shorter");
  std::ostringstream written;
  write_ruleml(written, shorter);
  CHECK(parse_ruleml(written.str(), "written") == shorter);
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
  SemanticTree leaf{"a<b&c"};
  std::ostringstream text;
  write_ruleml(text, leaf);
  CHECK(same_tree(parse_ruleml(text.str(), "leaf"), leaf));
}

TEST_CASE("random semantic trees: expected size, and shapes too large are refused up front") {
  CHECK(expected_semantic_tree_nodes({0, 3, 2, 4, 5}) == 1.0);
  // Height 1: the root and 1..3 children, 2 on average.
  CHECK(expected_semantic_tree_nodes({1, 3, 2, 4, 5}) == 3.0);
  // The default shape: 1 + 2 (1 + 1.5 (1 + 1.5 (1 + 1.5))) = 17.25 nodes.
  CHECK(expected_semantic_tree_nodes({}) == doctest::Approx(17.25));
  const SemanticTreeShape huge{64, 64, 2, 4, 64};
  CHECK(expected_semantic_tree_nodes(huge) > 1e90);
  try {
    random_semantic_trees(1, 1, huge);
    FAIL("expected a CapacityError");
  } catch (const CapacityError& e) {
    const std::string what = e.what();
    CHECK_MESSAGE(what.find("nodes expected") != std::string::npos, what);
    CHECK_MESSAGE(
        what.find("needs more than 2^64 bytes of host memory, but only ") != std::string::npos,
        what);
  }
  std::mt19937_64 rng(1);
  CHECK_THROWS_AS(random_semantic_tree(rng, huge), CapacityError);
  // The shape semtrees was once left to grow with (--max-height 64 --max-children 64 and the
  // default alphabets): refused at once by the function the command calls first.
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_AS(require_host_memory_for(1, SemanticTreeShape{64, 64, 2, 4, 64}), CapacityError);
  // A shape that fits one tree but not a million of them.
  const SemanticTreeShape large{8, 8, 2, 4, 8};  // about 10^5 nodes, 16 MiB
  CHECK_NOTHROW(require_host_memory_for(1, large));
  CHECK_THROWS_AS(require_host_memory_for(1000000, large), CapacityError);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
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
  auto refused = [](const std::string& weight, const std::string& fragment) {
    const std::string text = "<cterm><_opc><ctor>A</ctor></_opc>\n<_r n=\"x\" w=\"" + weight +
                             "\"><ind>b</ind></_r></cterm>";
    try {
      parse_ruleml(text, "t.xml");
      FAIL("weight " << weight << " accepted");
    } catch (const InputError& e) {
      CHECK_MESSAGE(std::string(e.what()).find(fragment) != std::string::npos, e.what());
      CHECK_MESSAGE(std::string(e.what()).find("t.xml:2:") != std::string::npos, e.what());
    }
  };
  // The number policy (parse_value): complete, finite; then the range [0, 1].
  refused("abc", "'abc' is not a number");
  refused("1x", "'1x' is not a number");
  refused("inf", "is not finite");
  refused("nan", "is not finite");
  refused("1e999", "overflows double");
  refused("1.5", "outside [0, 1]");
  refused("-0.5", "outside [0, 1]");
  CHECK_THROWS_AS(parse_ruleml("<cterm><_opc><ctor> </ctor></_opc></cterm>", "t"), InputError);
  CHECK_THROWS_AS(parse_ruleml("<cterm><_opc><ctor>A</ctor></_opc><foo/></cterm>", "t"),
                  InputError);
  CHECK_THROWS_AS(parse_ruleml("<cterm><_opc><ctor>A</ctor></_opc>text</cterm>", "t"), InputError);
  CHECK_THROWS_AS(parse_ruleml("", "t"), InputError);
  CHECK_THROWS_AS(read_ruleml(data_file("no-such-file.xml")), InputError);
  // Nested trees built in code go through the same checks.
  Interner interner;
  auto repeated = flat_tree("A", {{"x", 0.5, "b"}, {"x", 0.5, "c"}});
  CHECK_THROWS_WITH_AS(build_semantic_forest({repeated}, interner), doctest::Contains("repeats"),
                       InputError);
  auto light = flat_tree("A", {{"x", 0.5, "b"}, {"y", 0.4, "c"}});
  CHECK_THROWS_WITH_AS(build_semantic_forest({light}, interner), doctest::Contains("sum to 0.9"),
                       InputError);
  auto infinite = flat_tree("A", {{"x", INFINITY, "b"}});
  CHECK_THROWS_AS(build_semantic_forest({infinite}, interner), InputError);
}

TEST_CASE("Interner: dense ids in first-seen order, absent names, growth, stable names, copies") {
  Interner a;
  CHECK(a.find("x") == -1);
  CHECK(a.size() == 0);
  CHECK(a.id("b") == 0);
  CHECK(a.id("a") == 1);
  CHECK(a.id("") == 2);  // the empty name is a name like any other
  CHECK(a.id("b") == 0);
  CHECK(a.find("") == 2);
  const std::string& first = a.name(0);
  // Through many doublings of the table: every id found again, absent names stay absent.
  for (int i = 0; i < 100003; ++i) REQUIRE(a.id("n" + std::to_string(i)) == i + 3);
  for (int i = 0; i < 100003; i += 7) CHECK(a.find("n" + std::to_string(i)) == i + 3);
  CHECK(a.find("m5") == -1);
  CHECK(a.find("n100003") == -1);
  CHECK(a.size() == 100006);
  CHECK(first == "b");  // a name's reference outlives later ids
  Interner copy = a;
  CHECK(copy.id("new") == 100006);
  CHECK(a.find("new") == -1);
  CHECK(copy.find("n99999") == a.find("n99999"));
  const Interner moved = std::move(copy);
  CHECK(moved.find("new") == 100006);
  CHECK(moved.name(1) == "a");
}

TEST_CASE("ranking: highest first, ties by index; millionths as printed") {
  CHECK(to_millionths(std::vector<double>{1.0, 0.0, 0.5, 0.1234566, 0.9999996}) ==
        std::vector<std::uint32_t>{1000000, 0, 500000, 123457, 1000000});
  CHECK(rank_by_millionths({500000, 900000, 500000, 0, 1000000}) ==
        std::vector<std::size_t>{4, 1, 0, 2, 3});
  CHECK(rank_by_millionths({}).empty());
  // Against a comparison sort on many values with many ties.
  std::mt19937_64 rng(5);
  std::vector<std::uint32_t> values(100003);
  for (auto& v : values) v = static_cast<std::uint32_t>(rng() % 1000 * 1000 + (rng() % 2) * 999);
  std::vector<std::size_t> expected(values.size());
  std::iota(expected.begin(), expected.end(), 0);
  std::stable_sort(expected.begin(), expected.end(),
                   [&](std::size_t a, std::size_t b) { return values[a] > values[b]; });
  CHECK(rank_by_millionths(values) == expected);
  CHECK_THROWS_AS(rank_by_millionths({1000001}), InputError);
  auto files = list_ruleml_files(data_file(""));
  CHECK(files.names.front() == "car_a.xml");  // sorted, bad/ (a directory) left out
  CHECK(files.names.size() == 7);
}
