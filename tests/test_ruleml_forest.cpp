// read_ruleml_forest: RuleML files straight into a linear forest on several threads, against the
// nested path (read_ruleml_trees, build_semantic_forest) on the same files: the same arrays, the
// same name order, the same failure reported, whatever the threads or the file count.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "scratch_directory.hpp"
#include "treefix/core/error.hpp"
#include "treefix/forest/generate.hpp"
#include "treefix/forest/ruleml.hpp"

using namespace treefix;
using test::ScratchDirectory;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> label_names(const std::vector<std::int32_t>& ids,
                                     const Interner& interner) {
  std::vector<std::string> out;
  for (auto id : ids) out.push_back(id < 0 ? "" : interner.name(id));
  return out;
}

// `got` (ids of `labels`) holds the same trees as `expected` (ids of `expected_labels`), in the
// same order; fresh labels got lexicographic ids.
void check_same_forest(const SemanticForest& got, const Interner& labels,
                       const SemanticForest& expected, const Interner& expected_labels) {
  CHECK(got.shape.head == expected.shape.head);
  CHECK(got.shape.node_count == expected.shape.node_count);
  CHECK(got.shape.first_child == expected.shape.first_child);
  CHECK(got.shape.next_sibling == expected.shape.next_sibling);
  CHECK(got.shape.parent == expected.shape.parent);
  CHECK(got.shape.original == expected.shape.original);
  CHECK(got.weight == expected.weight);
  // Ids differ (lexicographic here, first-seen there); the labels they stand for do not.
  CHECK(label_names(got.label, labels) == label_names(expected.label, expected_labels));
  CHECK(label_names(got.arc, labels) == label_names(expected.arc, expected_labels));
  CHECK(labels.size() == expected_labels.size());
  for (std::size_t id = 1; id < labels.size(); ++id)  // lexicographic, whatever the threads
    CHECK(labels.name(static_cast<std::int32_t>(id - 1)) <
          labels.name(static_cast<std::int32_t>(id)));
}

// Names that sort awkwardly: case, spaces and underscores, a name that extends another, bytes
// above 0x7f (they sort after ASCII: bytes compare unsigned), long names sharing more than the
// eight bytes the sort packs into an integer, numbers without leading zeros.
std::string awkward_name(std::size_t i) {
  static const char* const prefix_suffix[8][2] = {{"t", ".xml"},
                                                  {"T", ".xml"},
                                                  {"t", " .xml"},
                                                  {"t_", ".xml"},
                                                  {"t", ".xml.xml"},
                                                  {"\xc3\xa9t", ".xml"},
                                                  {"a-long-prefix-shared-by-many-names-", ".xml"},
                                                  {"a-long-prefix-shared-by-many-names-", "-.xml"}};
  const auto& [prefix, suffix] = prefix_suffix[i % 8];
  return prefix + std::to_string(i) + suffix;
}

}  // namespace

TEST_CASE("RuleML files straight into a forest equal the nested path, on 1 and 3 threads") {
  const ScratchDirectory scratch("treefix_test_ruleml_forest");
  const fs::path& dir = scratch.path;
  // Random trees, single nodes, deep paths, wide nodes (sorted duplicate check).
  auto trees = random_semantic_trees(301, 77);
  trees.push_back(SemanticTree{"lonely"});
  SemanticTree path{"p"};
  SemanticTree* node = &path;
  for (int d = 0; d < 3000; ++d) node = &node->add_child("next", 1.0, SemanticTree{"p"});
  trees.insert(trees.begin() + 17, std::move(path));
  SemanticTree wide{"w"};
  for (int i = 0; i < 40; ++i) wide.add_child("arc" + std::to_string(i), 0.025, SemanticTree{"x"});
  trees.push_back(std::move(wide));
  for (std::size_t i = 0; i < trees.size(); ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "t_%04zu.xml", i);
    std::ofstream out(dir / name);
    write_ruleml(out, trees[i]);
  }
  { std::ofstream(dir / "notes.txt") << "not a tree"; }  // not *.xml: left out
  fs::create_directories(dir / "sub.xml");               // a directory: left out
  Interner nested_labels;
  const auto expected = build_semantic_forest(read_ruleml_trees(dir.string()).trees, nested_labels);
  for (unsigned threads : {1u, 3u}) {
    Interner labels;
    RuleMLReadTimes times;
    auto got = read_ruleml_forest(dir.string(), labels, threads, &times);
    CAPTURE(threads);
    REQUIRE(got.names.size() == trees.size());
    CHECK(got.names.front() == "t_0000.xml");
    check_same_forest(got.forest, labels, expected, nested_labels);
    CHECK(times.parse_ms >= 0.0);
  }
  // Two bad files: the first in name order is reported, whatever the threads.
  { std::ofstream(dir / "t_0100.xml") << "<cterm><_opc><ctor>A</ctor></_opc>"; }
  { std::ofstream(dir / "t_0200.xml") << "<ind></ind>"; }
  for (unsigned threads : {1u, 3u}) {
    Interner labels;
    CHECK_THROWS_WITH_AS(read_ruleml_forest(dir.string(), labels, threads),
                         doctest::Contains("t_0100.xml:1: malformed XML"), InputError);
  }
}

TEST_CASE(
    "RuleML forest in name order: 0, 1, prime file counts, more threads than files, "
    "look-alike names") {
  const ScratchDirectory scratch("treefix_test_ruleml_forest_order");
  const fs::path& dir = scratch.path;
  // 67 and 257 cross the reader's chunks of 64 files; 1031 and 2053 reach the sample sort on 2,
  // 3 and 8 threads (one sort below 256 names a thread).
  const auto trees = random_semantic_trees(2053, 31);
  std::size_t written = 0;
  for (std::size_t count : {0, 1, 2, 67, 257, 1031, 2053}) {
    for (; written < count; ++written) {
      std::ofstream out(dir / awkward_name(written));
      write_ruleml(out, trees[written]);
    }
    std::vector<std::string> sorted;
    for (std::size_t i = 0; i < count; ++i) sorted.push_back(awkward_name(i));
    std::sort(sorted.begin(), sorted.end());
    Interner nested_labels;
    const NamedSemanticTrees nested = read_ruleml_trees(dir.string());
    REQUIRE(nested.names == sorted);
    const SemanticForest expected = build_semantic_forest(nested.trees, nested_labels);
    for (unsigned threads : {1u, 2u, 3u, 8u}) {
      CAPTURE(count);
      CAPTURE(threads);
      Interner labels;
      const NamedSemanticForest got = read_ruleml_forest(dir.string(), labels, threads);
      CHECK(got.names == sorted);
      REQUIRE(got.forest.trees() == count);
      check_same_forest(got.forest, labels, expected, nested_labels);
    }
  }
  // A list of files keeps its order (no sort), on any number of threads.
  RuleMLFiles files = list_ruleml_files(dir.string());
  std::reverse(files.names.begin(), files.names.end());
  std::vector<SemanticTree> reversed;
  for (std::size_t i = 0; i < files.names.size(); ++i)
    reversed.push_back(read_ruleml(files.path(i)));
  Interner nested_labels;
  const SemanticForest expected = build_semantic_forest(reversed, nested_labels);
  for (unsigned threads : {1u, 3u}) {
    Interner labels;
    const NamedSemanticForest got = read_ruleml_forest(files, labels, threads);
    CHECK(got.names == files.names);
    check_same_forest(got.forest, labels, expected, nested_labels);
  }
}

TEST_CASE("RuleML forest: labels already interned keep their ids; new ones follow in order") {
  const ScratchDirectory scratch("treefix_test_ruleml_forest_labels");
  const fs::path& dir = scratch.path;
  const auto trees = random_semantic_trees(700, 8);
  for (std::size_t i = 0; i < trees.size(); ++i) {
    std::ofstream out(dir / ("f" + std::to_string(i) + ".xml"));
    write_ruleml(out, trees[i]);
  }
  for (unsigned threads : {1u, 4u}) {
    CAPTURE(threads);
    Interner labels;
    const std::int32_t zebra = labels.id("zebra"), a0 = labels.id("a0");  // a0: an arc label
    const NamedSemanticForest got = read_ruleml_forest(dir.string(), labels, threads);
    CHECK(labels.find("zebra") == zebra);
    CHECK(labels.find("a0") == a0);
    CHECK(std::count(got.forest.arc.begin(), got.forest.arc.end(), a0) > 0);
    for (std::size_t id = 3; id < labels.size(); ++id)
      CHECK(labels.name(static_cast<std::int32_t>(id - 1)) <
            labels.name(static_cast<std::int32_t>(id)));
  }
}
