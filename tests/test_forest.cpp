#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/forest/forest.hpp"
#include "treefix/forest/forest_io.hpp"
#include "treefix/forest/generate.hpp"
#include "treefix/forest/traversal.hpp"
#include "treefix/forest/xml_tree.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/reference.hpp"

using namespace treefix;

namespace {

// Writes `text` to `path`, then read() must refuse it with an InputError containing `fragment`.
template <class Read>
void expect_read_error(const std::string& path, const std::string& text,
                       const std::string& fragment, Read read) {
  { std::ofstream(path) << text; }
  try {
    read();
    FAIL("expected an InputError for: " << text);
  } catch (const InputError& e) {
    CHECK_MESSAGE(std::string(e.what()).find(fragment) != std::string::npos, e.what());
  }
}

// Many trees of awkward sizes and shapes in one parent array: single nodes, paths, stars, random.
std::vector<ParentArray> mixed_trees(std::uint64_t seed, std::size_t count, std::size_t max_n) {
  std::mt19937_64 rng(seed);
  std::vector<ParentArray> trees;
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t n = 1 + rng() % max_n;
    switch (k % 5) {
      case 0:
        trees.push_back(generate::path(1));
        break;
      case 1:
        trees.push_back(generate::path(n));
        break;
      case 2:
        trees.push_back(generate::star(n));
        break;
      default:
        trees.push_back(generate::shuffle_labels(generate::random_recursive(n, rng()), rng()));
    }
  }
  return trees;
}

std::vector<BinaryTreeLinks> mixed_binary_trees(std::uint64_t seed, std::size_t count,
                                                std::size_t max_n) {
  std::mt19937_64 rng(seed);
  std::vector<BinaryTreeLinks> trees;
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t n = 1 + rng() % max_n;
    if (k % 6 < 3)
      trees.push_back(binary_path(k % 6 == 0 ? 1 : n, static_cast<int>(k % 3)));
    else
      trees.push_back(random_binary_tree(n, rng()));
  }
  return trees;
}

// Recursive definitions on the nested form, independent of both implementations.
void preorder_of(const NestedTree& t, std::vector<std::int64_t>& out) {
  out.push_back(t.value);
  for (auto& c : t.children) preorder_of(c, out);
}
void postorder_of(const NestedTree& t, std::vector<std::int64_t>& out) {
  for (auto& c : t.children) postorder_of(c, out);
  out.push_back(t.value);
}

}  // namespace

TEST_CASE("linear forest from parent arrays: breadth-first per tree, links consistent") {
  auto trees = mixed_trees(1, 40, 30);
  auto f = linear_forest_from_parents(trees);
  REQUIRE(f.trees() == trees.size());
  std::size_t expected_offset = 0;
  for (std::size_t t = 0; t < f.trees(); ++t) {
    CHECK(f.head[t] == static_cast<vertex_t>(expected_offset));
    CHECK(f.node_count[t] == static_cast<vertex_t>(trees[t].size()));
    CHECK(f.parent[f.head[t]] == -1);
    expected_offset += trees[t].size();
  }
  for (std::size_t v = 0; v < f.size(); ++v) {
    if (f.parent[v] >= 0) CHECK(f.parent[v] < static_cast<vertex_t>(v));  // parents first
    for (vertex_t c = f.first_child[v]; c >= 0; c = f.next_sibling[c])
      CHECK(f.parent[c] == static_cast<vertex_t>(v));
  }
  // original maps back: the parent of a node is the node of the original parent.
  ParentArray all;
  for (auto& t : trees) {
    auto off = static_cast<vertex_t>(all.size());
    for (auto p : t) all.push_back(p < 0 ? -1 : p + off);
  }
  for (std::size_t v = 0; v < f.size(); ++v) {
    const vertex_t p = all[f.original[v]];
    CHECK((p < 0 ? -1 : p) == (f.parent[v] < 0 ? -1 : f.original[f.parent[v]]));
  }
}

TEST_CASE("linear forest from nested trees keeps child order; from files round-trips") {
  std::mt19937_64 rng(7);
  std::vector<NestedTree> trees;
  std::int64_t next = 1000;
  for (std::size_t k = 0; k < 6; ++k) {
    const std::size_t n = 1 + rng() % 40;
    auto parent = generate::random_recursive(n, rng());
    std::vector<NestedTree> nodes(n);
    for (auto& node : nodes) node.value = next++;
    // Children have larger ids than parents: finish them first, then move them in.
    for (std::size_t v = n; v-- > 1;)
      nodes[parent[v]].children.insert(nodes[parent[v]].children.begin(), std::move(nodes[v]));
    trees.push_back(std::move(nodes[0]));
  }
  std::vector<std::int64_t> values;
  auto f = linear_forest_from_nested(trees, &values);
  auto pre = traversal_order_cpu(f, Traversal::preorder);
  auto post = traversal_order_cpu(f, Traversal::postorder);
  std::vector<std::int64_t> expect_pre, expect_post, got_pre, got_post;
  for (auto& t : trees) {
    preorder_of(t, expect_pre);
    postorder_of(t, expect_post);
  }
  for (auto v : pre) got_pre.push_back(values[v]);
  for (auto v : post) got_post.push_back(values[v]);
  CHECK(got_pre == expect_pre);
  CHECK(got_post == expect_post);

  std::ostringstream text;
  write_linear_forest(text, f);
  const std::string path = "forest_roundtrip_test.txt";
  { std::ofstream(path) << text.str(); }
  auto g = read_linear_forest(path);
  CHECK(g.parent == f.parent);
  CHECK(g.first_child == f.first_child);
  CHECK(g.head == f.head);
  std::remove(path.c_str());
}

TEST_CASE("bad forest files and links are refused with the place") {
  const std::string path = "forest_bad_test.txt";
  auto expect_error = [&](const std::string& text, const std::string& fragment) {
    expect_read_error(path, text, fragment, [&] { read_linear_forest(path); });
  };
  expect_error("2\n3 -1 0 0\n2 -1 5\n", ":3:");  // parent out of range, line 3
  expect_error("1\n3 -1 2 1\n", "cycle");        // 1 -> 2 -> 1
  expect_error("1\n2 -1 -1\n", "2 roots");
  expect_error("1\n3 -1 0\n", "file ends");
  expect_error("1\n1 -1 7\n", "unexpected");
  // Counts the file does not hold end at its end, having allocated only what it holds (the
  // count alone once took 8 GB).
  const auto start = std::chrono::steady_clock::now();
  expect_error("1\n2000000000 -1 0 1\n", "file ends");
  expect_error("1\n2147483648 -1\n", "more than 2^31-1 nodes");
  expect_error("-1\n", "negative tree count");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  std::remove(path.c_str());
  CHECK_THROWS_AS(binary_forest_from_links({{{1, -1}, {1, -1}}}), InputError);  // self/two parents
  CHECK_THROWS_AS(binary_forest_from_links({{{1, 0}, {-1, -1}}}), InputError);  // no root
  CHECK_THROWS_AS(
      traversal_order_cpu(linear_forest_from_parents(generate::path(3)), Traversal::inorder),
      InputError);
}

TEST_CASE("device traversal orders equal the CPU's on random general forests") {
  auto& rt = test::runtime();
  for (std::size_t count : {1, 2, 97, 1000, 100003}) {
    auto f = linear_forest_from_parents(mixed_trees(count, count, count < 100 ? 60 : 20));
    auto device = DeviceForest::upload(rt, f);
    for (auto t : {Traversal::preorder, Traversal::postorder, Traversal::breadth_first}) {
      CAPTURE(count);
      CAPTURE(to_string(t));
      const auto cpu = traversal_order_cpu(f, t);
      CHECK(traversal_order(rt, device, t) == cpu);
      CHECK(traversal_order_cpu(f, t, 3) == cpu);  // trees spread over threads
    }
  }
}

TEST_CASE("device traversals of an empty forest and of deep paths (no depth limit)") {
  auto& rt = test::runtime();
  LinearForest empty = linear_forest_from_parents(ParentArray{});
  auto device_empty = DeviceForest::upload(rt, empty);
  CHECK(traversal_order(rt, device_empty, Traversal::preorder).empty());
  // A path of 100003 vertices and a caterpillar: far deeper than any fixed stack.
  auto f = linear_forest_from_parents(std::vector<ParentArray>{
      generate::path(100003), generate::caterpillar(5001, 2500), generate::path(1)});
  auto device = DeviceForest::upload(rt, f);
  for (auto t : {Traversal::preorder, Traversal::postorder, Traversal::breadth_first})
    CHECK(traversal_order(rt, device, t) == traversal_order_cpu(f, t));
}

TEST_CASE("device traversal orders equal the CPU's on random binary forests, in-order included") {
  auto& rt = test::runtime();
  for (std::size_t count : {1, 31, 1000}) {
    auto trees = mixed_binary_trees(count + 5, count, 50);
    if (count == 1) trees = {binary_path(65537, 2)};  // a deep zigzag
    auto f = binary_forest_from_links(trees);
    auto device = DeviceForest::upload(rt, f);
    for (auto t : {Traversal::preorder, Traversal::postorder, Traversal::inorder,
                   Traversal::breadth_first}) {
      CAPTURE(count);
      CAPTURE(to_string(t));
      const auto cpu = traversal_order_cpu(f, t);
      CHECK(traversal_order(rt, device, t) == cpu);
      CHECK(traversal_order_cpu(f, t, 4) == cpu);
    }
  }
}

TEST_CASE("binary forest files: read, and refused with the place") {
  const std::string path = "binary_forest_test.txt";
  { std::ofstream(path) << "2  # trees\n4\n-1 -1\n0 3\n1 -1\n-1 -1\n1\n-1 -1\n"; }
  auto f = read_binary_forest(path);
  REQUIRE(f.trees() == 2);
  CHECK(f.node_count == std::vector<vertex_t>{4, 1});
  // Local node 2 is the root (left 1); 1 has left 0 and right 3: in-order 0 1 3 2.
  std::vector<vertex_t> local;
  for (auto v : traversal_order_cpu(f, Traversal::inorder)) local.push_back(f.original[v]);
  CHECK(local == std::vector<vertex_t>{0, 1, 3, 2, 4});
  std::remove(path.c_str());
  auto expect_error = [&](const std::string& text, const std::string& fragment) {
    expect_read_error(path, text, fragment, [&] { read_binary_forest(path); });
  };
  expect_error("1\n2\n1 -1\n-1 2\n", ":4:");  // child 2 out of range, line 4
  expect_error("1\n2\n1 -1\n0 -1\n", "cycle");
  expect_error("1\n2\n-1 -1\n-1 -1\n", "both have no parent");
  // A tree count of 10^18 or a node count of 2*10^9 with nothing behind them: the file ends,
  // nothing of that size is allocated first.
  const auto start = std::chrono::steady_clock::now();
  expect_error("1000000000000000000\n1\n-1 -1\n", "file ends");
  expect_error("1\n2000000000\n-1 -1\n", "file ends");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  std::remove(path.c_str());
}

TEST_CASE("binary forest in-order matches the recursive definition") {
  // 0 has left 1 and right 2; 1 has right 3: in-order 1 3 0 2.
  auto f = binary_forest_from_links({{{1, -1, -1, -1}, {2, 3, -1, -1}}});
  auto order = traversal_order_cpu(f, Traversal::inorder);
  std::vector<vertex_t> local;
  for (auto v : order) local.push_back(f.original[v]);
  CHECK(local == std::vector<vertex_t>{1, 3, 0, 2});
}

TEST_CASE("a user visit function runs in visit order with a per-tree accumulator") {
  auto& rt = test::runtime();
  auto f = linear_forest_from_parents(mixed_trees(11, 300, 40));
  auto device = DeviceForest::upload(rt, f);
  auto data = test::random_values<std::int64_t>(f.size(), 3, -1000, 1000);
  // A hash of the data along the visit order (kept below 2^63: no signed overflow).
  VisitFunction prefix{
      "void visit(VISIT_T* acc, int tree, int node, int step, global VISIT_T* data) {\n"
      "  *acc = (*acc * 31 + data[node] + step) % 1000000007; data[node] = *acc; }\n",
      ValueType::int64};
  for (auto t : {Traversal::preorder, Traversal::postorder}) {
    auto result = traverse<std::int64_t>(rt, device, t, prefix, data, 5);
    auto order = traversal_order_cpu(f, t);
    CHECK(result.order == order);
    std::vector<std::int64_t> expect = data, acc(f.trees(), 5);
    for (std::size_t tr = 0; tr < f.trees(); ++tr)
      for (vertex_t s = 0; s < f.node_count[tr]; ++s) {
        const vertex_t node = order[f.head[tr] + s];
        acc[tr] = (acc[tr] * 31 + expect[node] + s) % 1000000007;  // no overflow
        expect[node] = acc[tr];
      }
    CHECK(result.data == expect);
    CHECK(result.tree_result == acc);
  }
  CHECK_THROWS_AS(
      traverse<float>(rt, device, Traversal::preorder, prefix, std::vector<float>(f.size()), 0.0f),
      InputError);
  VisitFunction broken{
      "void visit(VISIT_T* acc, int tree, int node, int step, global VISIT_T* data) { oops; }",
      ValueType::int64};
  CHECK_THROWS_AS(traverse<std::int64_t>(rt, device, Traversal::preorder, broken, data, 0),
                  DeviceError);
}

namespace {
std::string xml_file(const std::string& name) {
  return (std::filesystem::path(__FILE__).parent_path() / "data" / "xml" / name).string();
}
}  // namespace

TEST_CASE("XML documents as trees: a real document (Khronos gl.xml excerpt)") {
  // Counts from Python's xml.etree (tests/data/xml/README.md).
  const XmlTree tree = read_xml_tree(xml_file("khronos_gl_excerpt.xml"));
  REQUIRE(tree.size() == 174);
  CHECK(tree.weight.empty());
  CHECK(tree.names[0] == "registry");
  CHECK(tree.parent[0] == -1);
  validate_parent_array(tree.parent);
  for (std::size_t v = 1; v < tree.size(); ++v) CHECK(tree.parent[v] < static_cast<vertex_t>(v));
  std::size_t root_children = 0;
  for (auto p : tree.parent) root_children += p == 0;
  CHECK(root_children == 5);
  CHECK(tree.names[118] == "commands");
  CHECK(tree.names[162] == "feature");
  // Depths (rootfix of 1, exclusive) and subtree sizes (leaffix of 1) of the document.
  const std::vector<std::int64_t> ones(tree.size(), 1);
  const auto depth = reference::rootfix(tree.parent, ones, Op::sum, true);
  const auto size = reference::leaffix(tree.parent, ones, Op::sum, false);
  CHECK(*std::max_element(depth.begin(), depth.end()) == 4);
  CHECK(size[0] == 174);
  CHECK(size[118] == 44);
  // Own text: whitespace-only runs do not count; entities are decoded ("&lt;" is one byte).
  const XmlTree text = read_xml_tree(xml_file("khronos_gl_excerpt.xml"), {XmlWeight::text_length});
  REQUIRE(text.weight.size() == 174);
  CHECK(text.weight[1] == 401);  // <comment>
  CHECK(text.weight[3] == 28);   // <type name="khrplatform">#include &lt;KHR/khrplatform.h&gt;
  CHECK(text.weight[4] == 22);   // <type>typedef unsigned int <name>GLenum</name>;</type>
  double total = 0;
  for (double w : text.weight) total += w;
  CHECK(total == 2400);
  const XmlTree opcode =
      read_xml_tree(xml_file("khronos_gl_excerpt.xml"), {XmlWeight::attribute, "opcode"});
  double opcodes = 0;
  for (double w : opcode.weight) opcodes += w;
  CHECK(opcodes == 137);  // one <glx opcode="137"/>; 0 elsewhere
}

TEST_CASE("XML documents as trees: malformed input refused with the place; any depth") {
  auto refused = [](const std::string& text, const std::string& fragment,
                    XmlTreeOptions options = {}) {
    try {
      parse_xml_tree(text, "doc.xml", options);
      FAIL("accepted: " << text);
    } catch (const InputError& e) {
      CHECK_MESSAGE(std::string(e.what()).find(fragment) != std::string::npos, e.what());
    }
  };
  refused("<a>\n<b>\n</a>", "doc.xml:3: malformed XML");
  refused("", "no XML element");
  refused("<!-- only a comment -->", "no XML element");
  refused("<a>\n<b w=\"0.5\"/>\n<b w=\"heavy\"/></a>",
          "doc.xml:3: element <b>: attribute w=\"heavy\" is not a number",
          {XmlWeight::attribute, "w"});
  refused("<a w=\"1e999\"/>", "overflows double", {XmlWeight::attribute, "w"});
  CHECK_THROWS_AS(read_xml_tree(xml_file("no-such.xml")), InputError);
  // Mixed content, comments, CDATA, processing instructions: only elements are vertices.
  const XmlTree mixed = parse_xml_tree(
      "<?xml version=\"1.0\"?><!-- c --><r>text<x/><?pi?><![CDATA[<y>]]><z><x/></z></r>", "m",
      {XmlWeight::text_length});
  CHECK(mixed.parent == ParentArray{-1, 0, 0, 2});
  CHECK(mixed.names == std::vector<std::string>{"r", "x", "z", "x"});
  CHECK(mixed.weight == std::vector<double>{7, 0, 0, 0});  // "text" + "<y>"
  // Nested 10^6 deep: no recursion anywhere (pugixml parses and frees without recursion too).
  constexpr int depth = 1000000;
  std::string deep;
  deep.reserve(7 * depth);
  for (int i = 0; i < depth; ++i) deep += "<e>";
  for (int i = 0; i < depth; ++i) deep += "</e>";
  const XmlTree path = parse_xml_tree(deep, "deep");
  REQUIRE(path.size() == depth);
  CHECK(path.parent[depth - 1] == depth - 2);
}

TEST_CASE("forest files of paths 10^6 deep: read and traversed without recursion") {
  constexpr vertex_t depth = 1000000;
  const std::string path = "forest_deep_test.txt";
  {
    std::ofstream out(path);
    out << "1\n" << depth << "\n-1";
    for (vertex_t v = 1; v < depth; ++v) out << ' ' << v - 1;
    out << '\n';
  }
  const LinearForest forest = read_linear_forest(path);
  REQUIRE(forest.size() == std::size_t(depth));
  const auto post = traversal_order_cpu(forest, Traversal::postorder);
  CHECK(forest.original[post.front()] == depth - 1);  // the deepest vertex first
  CHECK(forest.original[post.back()] == 0);
  auto& rt = test::runtime();
  CHECK(traversal_order(rt, DeviceForest::upload(rt, forest), Traversal::postorder) == post);
  {
    std::ofstream out(path);  // a binary path of right children, then in-order
    out << "1\n" << depth << '\n';
    for (vertex_t v = 0; v < depth; ++v) out << "-1 " << (v + 1 < depth ? v + 1 : -1) << '\n';
  }
  const BinaryForest binary = read_binary_forest(path);
  const auto in = traversal_order_cpu(binary, Traversal::inorder);
  REQUIRE(in.size() == std::size_t(depth));
  CHECK(binary.original[in.front()] == 0);
  CHECK(binary.original[in.back()] == depth - 1);
  CHECK(traversal_order(rt, DeviceForest::upload(rt, binary), Traversal::inorder) == in);
  std::remove(path.c_str());
}
