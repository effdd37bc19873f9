// read_ruleml_forest_on_device: RuleML files scanned into a forest on the device, against the
// host reader on the same files: the same arrays and labels, the host's forest where the device
// gives up, the host's error for a bad file, the same similarities.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "fixture.hpp"
#include "scratch_directory.hpp"
#include "treefix/core/error.hpp"
#include "treefix/forest/device_forest.hpp"
#include "treefix/forest/generate.hpp"
#include "treefix/forest/ruleml.hpp"
#include "treefix/forest/similarity.hpp"

using namespace treefix;
using test::ScratchDirectory;
namespace fs = std::filesystem;

namespace {

void write_trees(const fs::path& dir, const std::vector<SemanticTree>& trees) {
  for (std::size_t i = 0; i < trees.size(); ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "t_%04zu.xml", i);
    std::ofstream out(dir / name);
    write_ruleml(out, trees[i]);
  }
}

// A plain file written by hand: a root with the given arcs ("label:weight"), each to a leaf.
std::string star_file(const std::vector<std::pair<std::string, std::string>>& arcs,
                      const std::string& root = "R") {
  std::string text = "<cterm><_opc><ctor>" + root + "</ctor></_opc>";
  for (const auto& [label, weight] : arcs)
    text += "<_r n=\"" + label + "\" w=\"" + weight + "\"><ind>leaf</ind></_r>";
  return text + "</cterm>\n";
}

// The device forest holds what the host reader reads from the same input: the same arrays, and
// labels that map one to one.
void check_same_as_host(const DeviceSemanticForest& got, const std::string& input) {
  Runtime& rt = test::runtime();
  Interner labels;
  const NamedSemanticForest expected = read_ruleml_forest(input, labels, 3);
  const SemanticForest& f = expected.forest;
  REQUIRE(got.trees == f.trees());
  REQUIRE(got.nodes == f.size());
  CHECK(got.names == expected.names);
  std::vector<std::int32_t> bounds(f.shape.head.begin(), f.shape.head.end());
  bounds.push_back(static_cast<std::int32_t>(f.size()));
  CHECK(got.bounds.download(rt) == bounds);
  CHECK(got.first_child.download(rt) == f.shape.first_child);
  CHECK(got.next_sibling.download(rt) == f.shape.next_sibling);
  CHECK(got.weight.download(rt) == f.weight);
  // Host label id -> device id: each host label has one, distinct from the others'.
  std::vector<std::string> names(labels.size());
  for (std::size_t id = 0; id < labels.size(); ++id)
    names[id] = labels.name(static_cast<std::int32_t>(id));
  const std::vector<std::int32_t> ids = got.label_ids(rt, names);
  std::vector<std::int32_t> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
  CHECK((sorted.empty() || sorted.front() >= 0));
  auto renumber = [&](const std::vector<std::int32_t>& host) {
    std::vector<std::int32_t> out(host.size());
    for (std::size_t v = 0; v < host.size(); ++v) out[v] = host[v] < 0 ? -1 : ids[host[v]];
    return out;
  };
  CHECK(got.label.download(rt) == renumber(f.label));
  CHECK(got.arc.download(rt) == renumber(f.arc));
  CHECK(got.label_ids(rt, {"no such label", ""}) == std::vector<std::int32_t>{-1, -1});
}

}  // namespace

TEST_CASE("RuleML on the device: random forests, single nodes, paths and wide nodes as the host") {
  const ScratchDirectory scratch("treefix_test_ruleml_device");
  auto trees = random_semantic_trees(517, 91);
  trees.push_back(SemanticTree{"lonely"});
  trees.insert(trees.begin(), SemanticTree{"first"});
  SemanticTree path{"p"};  // 31 levels below the root: the scanner's deepest
  SemanticTree* node = &path;
  for (int d = 0; d < 31; ++d) node = &node->add_child("next", 1.0, SemanticTree{"p"});
  trees.insert(trees.begin() + 40, std::move(path));
  SemanticTree wide{"w"};  // 64 children: the most the device checks
  for (int i = 0; i < 64; ++i)
    wide.add_child("arc" + std::to_string(i), 1.0 / 64, SemanticTree{"x"});
  trees.push_back(std::move(wide));
  write_trees(scratch.path, trees);
  // Hand-written: blanks and single quotes in tags, exponents, labels trimmed, other attributes.
  {
    std::ofstream(scratch.path / "hand_1.xml")
        << "<?xml version='1.0'?>\n<cterm  id='7' ><_opc > <ctor>\t Car \n</ctor ></_opc>\n"
           "<_r w = '2.5e-1' n='Make' x=\"y\"><ind> Ford</ind></_r>"
           "<_r n=\"Model\" w=\"7.5E-1\"><ind>T</ind></_r></cterm>\n\n";
  }
  {
    std::ofstream(scratch.path / "hand_2.xml")
        << "<!-- a comment -->\n<ind>just a leaf</ind><!---->";
  }
  {
    std::ofstream(scratch.path / "hand_4.xml")
        << "<?xml version=\"1.0\"?>\n<!-- prolog -->\n<cterm><!-- x "
           "--><_opc><ctor>C</ctor><!--y--></_opc>"
           "<!-- between arcs --><_r n='a' w='1'><!-- z --><ind>L</ind><!-- w --></_r></cterm>";
  }
  {
    std::ofstream(scratch.path / "hand_3.xml")
        << star_file({{"a", "0.333333333333"}, {"b", "0.333333333333"}, {"c", ".333333333334"}});
  }
  for (unsigned threads : {1u, 4u}) {
    CAPTURE(threads);
    DeviceForestTimes times;
    const DeviceSemanticForest got =
        read_ruleml_forest_on_device(test::runtime(), scratch.path.string(), threads, &times);
    REQUIRE(test::runtime().description().fp64);  // PoCL and NVIDIA have it
    CHECK(got.parsed_on_device);
    CHECK(times.host_reader_ms == 0.0);
    CHECK(times.parse_ms > 0.0);
    check_same_as_host(got, scratch.path.string());
  }
  // One file named, not a directory.
  const std::string one = (scratch.path / "hand_1.xml").string();
  check_same_as_host(read_ruleml_forest_on_device(test::runtime(), one), one);
}

TEST_CASE("RuleML on the device: what the scanner does not take goes to the host reader") {
  const std::vector<std::pair<const char*, std::string>> odd = {
      {"a comment in a label", "<ind><!-- c -->x</ind>"},
      {"an entity", star_file({{"a&amp;b", "1"}})},
      {"an entity in a label", "<ind>fish &amp; chips</ind>"},
      {"CDATA", "<ind><![CDATA[x]]></ind>"},
      {"a carriage return", "<ind>a\r\nb</ind>"},
      {"a sign", star_file({{"a", "+0.5"}, {"b", "0.5"}})},
      {"a long mantissa",
       star_file({{"a", "0.33333333333333333333"}, {"b", "0.66666666666666666667"}})},
      {"a byte-order mark", "\xef\xbb\xbf<ind>x</ind>"},
      {"a processing instruction after the root", "<ind>x</ind><?pi x?>"},
  };
  for (const auto& item : odd) {
    // named copies: a structured binding cannot be captured (CAPTURE) before C++20
    const std::string what = item.first, text = item.second;
    CAPTURE(what);
    const ScratchDirectory scratch("treefix_test_ruleml_device_odd");
    write_trees(scratch.path, random_semantic_trees(20, 5));
    { std::ofstream(scratch.path / "odd.xml", std::ios::binary) << text; }
    const DeviceSemanticForest got =
        read_ruleml_forest_on_device(test::runtime(), scratch.path.string(), 2);
    CHECK_FALSE(got.parsed_on_device);
    check_same_as_host(got, scratch.path.string());
  }
  // Deeper than 32 levels, more than 64 children.
  const ScratchDirectory scratch("treefix_test_ruleml_device_big");
  SemanticTree path{"p"};
  SemanticTree* node = &path;
  for (int d = 0; d < 40; ++d) node = &node->add_child("next", 1.0, SemanticTree{"p"});
  SemanticTree wide{"w"};
  for (int i = 0; i < 70; ++i)
    wide.add_child("arc" + std::to_string(i), 1.0 / 70, SemanticTree{"x"});
  for (SemanticTree* big : {&path, &wide}) {
    fs::remove_all(scratch.path);
    fs::create_directories(scratch.path);
    write_trees(scratch.path, {random_semantic_trees(3, 8)[0], *big});
    const DeviceSemanticForest got =
        read_ruleml_forest_on_device(test::runtime(), scratch.path.string());
    CHECK_FALSE(got.parsed_on_device);
    check_same_as_host(got, scratch.path.string());
  }
}

TEST_CASE("RuleML on the device: a bad file gets the host reader's error, first in name order") {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"malformed XML", "<cterm><_opc><ctor>A</ctor></_opc>"},
      {"empty label", "<ind>  </ind>"},
      {"weight", star_file({{"a", "1.5"}})},
      {"repeats among siblings", star_file({{"a", "0.5"}, {"a", "0.5"}})},
      {"sum to", star_file({{"a", "0.5"}, {"b", "0.25"}})},
      {"missing weight", "<cterm><_opc><ctor>R</ctor></_opc><_r n='a'><ind>x</ind></_r></cterm>"},
      {"unexpected element", "<cterm><_opc><ctor>R</ctor></_opc><x/></cterm>"},
  };
  for (const auto& item : bad) {
    const std::string message = item.first, text = item.second;
    CAPTURE(message);
    const ScratchDirectory scratch("treefix_test_ruleml_device_bad");
    write_trees(scratch.path, random_semantic_trees(30, 6));
    { std::ofstream(scratch.path / "t_0010.xml") << text; }
    { std::ofstream(scratch.path / "t_0020.xml") << "<cterm>"; }  // later in name order
    Interner labels;
    std::string host_error, device_error;
    try {
      read_ruleml_forest(scratch.path.string(), labels, 2);
    } catch (const InputError& e) {
      host_error = e.what();
    }
    try {
      read_ruleml_forest_on_device(test::runtime(), scratch.path.string(), 2);
    } catch (const InputError& e) {
      device_error = e.what();
    }
    CHECK(host_error.find("t_0010.xml") != std::string::npos);
    CHECK(host_error.find(message) != std::string::npos);
    CHECK(device_error == host_error);
  }
}

TEST_CASE("RuleML on the device: empty directory, and similarities equal the host forest's") {
  const ScratchDirectory scratch("treefix_test_ruleml_device_similarity");
  const DeviceSemanticForest none =
      read_ruleml_forest_on_device(test::runtime(), scratch.path.string());
  CHECK(none.trees == 0);
  CHECK(none.nodes == 0);

  auto trees = random_semantic_trees(1009, 3);
  trees.push_back(SemanticTree{"lonely"});
  write_trees(scratch.path, trees);
  const DeviceSemanticForest on_device =
      read_ruleml_forest_on_device(test::runtime(), scratch.path.string());
  Interner labels;
  const NamedSemanticForest host = read_ruleml_forest(scratch.path.string(), labels);
  // References: a copy of tree 7 (identical trees give exactly 1), and the same with an arc and
  // a label that no tree has.
  SemanticTree odd = trees[7];
  odd.add_child("an arc nobody has", 0.0, SemanticTree{"a label nobody has"});
  for (const SemanticTree* reference_tree : {&trees[7], &odd}) {
    const SemanticForest reference = build_semantic_forest({*reference_tree}, labels);
    for (auto definition : {SimilarityDefinition::weighted, SimilarityDefinition::thesis}) {
      CAPTURE(static_cast<int>(definition));
      SimilarityParameters p;
      p.definition = definition;
      const auto expected = similarity_device(test::runtime(), reference, host.forest, p);
      const auto got = similarity_device(test::runtime(), reference, labels, on_device, p);
      CHECK(got == expected);
      REQUIRE(got.size() == trees.size());
      if (reference_tree == &trees[7]) CHECK(got[7] == 1.0f);
    }
  }
}

TEST_CASE("write_buffer_gather: pieces of any size, staged or direct, land back to back") {
  Runtime& rt = test::runtime();
  // Around the staging chunk (8 MiB) and the pinned threshold (1 MiB), with empty pieces.
  std::vector<std::string> pieces;
  std::size_t seed = 1;
  for (std::size_t size :
       {0ul, 1ul, 70001ul, 0ul, 3ul << 20, 5ul << 20, 1ul, 65537ul, 9ul << 20, 0ul}) {
    std::string piece(size, '\0');
    for (char& c : piece) c = static_cast<char>((seed = seed * 6364136223846793005ull + 1) >> 56);
    pieces.push_back(std::move(piece));
  }
  std::string whole;
  std::vector<detail::HostPiece> host;
  for (const std::string& piece : pieces) {
    whole += piece;
    host.push_back({piece.data(), piece.size()});
  }
  for (bool pinned : {false, true}) {
    CAPTURE(pinned);
    test::ScopedTuning tuning;
    tuning->set("pinned_transfers", pinned);
    DeviceArray<char> device(rt, whole.size());
    detail::write_buffer_gather(rt, device.buffer(), host, nullptr);
    const std::vector<char> back = device.download(rt);
    CHECK(std::string(back.begin(), back.end()) == whole);
    // The first 2 MiB only, in two pieces.
    DeviceArray<char> small(rt, 2 << 20);
    detail::write_buffer_gather(rt, small.buffer(),
                                {{whole.data(), 1 << 20}, {whole.data() + (1 << 20), 1 << 20}},
                                nullptr);
    const std::vector<char> small_back = small.download(rt);
    CHECK(std::string(small_back.begin(), small_back.end()) == whole.substr(0, 2 << 20));
  }
}
