// Tree file formats: Newick (against a reference writer, real data, malformed input), .npy and
// text parent arrays, weights files, capacity checks before allocation.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/tree_io.hpp"

using namespace treefix;

namespace {

std::string data_path(const std::string& name) {
  return (std::filesystem::path(__FILE__).parent_path() / "data" / name).string();
}

std::string temp_file(const std::string& name, const std::string& bytes) {
  std::string path = "/tmp/treefix-test-io-" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

// A forest as Newick text, written without recursion: children in increasing id, node v named
// "v<id>" with length id / 4 (exact in binary), each tree ended by ';'. Also what a parser must
// return: the pre-order numbering of the text.
struct Written {
  std::string text;
  std::vector<vertex_t> pre;  // vertex -> pre-order number
};
Written write_newick(const ParentArray& parent) {
  ChildLists lists = child_lists(parent);
  Written out;
  out.pre.assign(parent.size(), -1);
  vertex_t next = 0;
  auto label = [&](vertex_t v) {
    std::ostringstream s;
    s.precision(17);
    s << "v" << v << ":" << v / 4.0;
    out.text += s.str();
  };
  for (vertex_t root : lists.roots) {
    std::vector<std::pair<vertex_t, std::int64_t>> stack = {{root, lists.child_offset[root]}};
    out.pre[root] = next++;
    if (lists.child_offset[root] < lists.child_offset[root + 1]) out.text += '(';
    while (!stack.empty()) {
      auto& [v, at] = stack.back();
      if (at < lists.child_offset[v + 1]) {
        if (at > lists.child_offset[v]) out.text += ',';
        const vertex_t c = lists.child[at++];
        out.pre[c] = next++;
        if (lists.child_offset[c] < lists.child_offset[c + 1]) {
          out.text += '(';
          stack.push_back({c, lists.child_offset[c]});
        } else {
          label(c);
        }
      } else {
        if (lists.child_offset[v] < lists.child_offset[v + 1]) out.text += ')';
        label(v);
        stack.pop_back();
      }
    }
    out.text += ";\n";
  }
  return out;
}

void check_against_writer(const ParentArray& parent) {
  Written w = write_newick(parent);
  NewickTree t = parse_newick(w.text, "generated", true);
  REQUIRE(t.parent.size() == parent.size());
  for (std::size_t v = 0; v < parent.size(); ++v) {
    const vertex_t p = w.pre[v];
    REQUIRE(t.parent[p] == (parent[v] < 0 ? -1 : w.pre[parent[v]]));
    REQUIRE(t.length[p] == v / 4.0);
    REQUIRE(t.names[p] == "v" + std::to_string(v));
  }
}

}  // namespace

TEST_CASE("newick: quoted labels, comments, white space, multifurcations, unary nodes, lengths") {
  const std::string text =
      "[a comment] ( 'it''s here':1.5e-1 , B : 2 [lengths may be commented],\n"
      "  ((C)unary:3,D,'E F')multi:0.25 ) root:1E1;\n"
      "(x,y);";
  NewickTree t = parse_newick(text, "t.nwk", true);
  // pre-order: root 0, 'it''s here' 1, B 2, multi 3, unary 4, C 5, D 6, 'E F' 7; then x's tree
  CHECK(t.parent == ParentArray{-1, 0, 0, 0, 3, 4, 3, 3, -1, 8, 8});
  CHECK(t.length == std::vector<double>{10, 0.15, 2, 0.25, 3, 0, 0, 0, 0, 0, 0});
  const std::vector<std::string> names = {"root", "it's here", "B", "multi", "unary", "C",
                                          "D",    "E F",       "",  "x",     "y"};
  REQUIRE(t.names.size() == names.size());
  for (std::size_t v = 0; v < names.size(); ++v) CHECK(t.names[v] == names[v]);
  // without names nothing is kept, and the rest is the same
  NewickTree bare = parse_newick(text, "t.nwk");
  CHECK(bare.names.empty());
  CHECK(bare.parent == t.parent);
  // distances from the root (the root's own length counts) and clade sizes
  CHECK(reference::rootfix(t.parent, t.length, Op::sum)[5] == doctest::Approx(10 + 0.25 + 3));
  CHECK(reference::leaffix(t.parent, std::vector<int>(t.parent.size(), 1), Op::sum)[3] == 5);
}

TEST_CASE("newick: generated forests parse as a reference writer numbers them") {
  for (std::size_t n : {1ul, 2ul, 7ul, 97ul, 4099ul}) {
    CAPTURE(n);
    check_against_writer(generate::random_forest(n, 1 + n / 50, n));
    check_against_writer(generate::star(n));
    check_against_writer(generate::caterpillar(n, n / 3 + 1));
  }
  check_against_writer(generate::shuffle_labels(generate::kary(1000, 5), 3));
  check_against_writer(generate::path(100000));  // a path of 10^5: 10^5 nested parentheses
}

TEST_CASE("newick: a path of 10^6 nodes nested in parentheses parses without recursion") {
  const std::size_t depth = 1000000;
  std::string text(depth, '(');
  text += "leaf";
  for (std::size_t i = 0; i < depth; ++i) text += ")";
  text += ";";
  NewickTree t = parse_newick(text, "deep.nwk");
  REQUIRE(t.parent.size() == depth + 1);
  CHECK(t.parent == generate::path(depth + 1));
}

TEST_CASE("newick: malformed input is refused with the byte offset") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"(A,B", "byte 0 (line 1): unbalanced parentheses: this '(' is never closed"},
      {"(A,(B,C);", "byte 8 (line 1): unbalanced parentheses: ';' while 1 '(' are open"},
      {"(A,B));", "byte 5 (line 1): unbalanced parentheses: ')' without a '('"},
      {"(A,B)", "byte 5 (line 1): missing ';'"},
      {"(A:x,B);", "byte 3 (line 1): branch length 'x' is not a number"},
      {"(A:1e999,B);", "branch length '1e999' overflows double"},
      {"(A:,B);", "byte 3 (line 1): a branch length is missing"},
      {"(A,B);\ntrailing", "byte 15 (line 2): missing ';'"},
      {"(A B,C);", "byte 3 (line 1): unexpected 'B,C);'"},
      {"('A,B);", "byte 1 (line 1): unterminated quoted label"},
      {"(A,B)[open;", "byte 5 (line 1): unterminated [comment]"},
      {"  \n ", "no tree"},
      {";", "byte 0 (line 1): an empty tree"},
      {"A,B;", "byte 1 (line 1): ',' outside parentheses"},
  };
  for (auto& [case_text, expected] : cases) {
    const auto& text = case_text;  // C++17: a lambda (CAPTURE) cannot capture a binding
    CAPTURE(text);
    const std::string message = message_of([&] { parse_newick(text, "bad.nwk"); });
    CHECK(message.find("bad.nwk: ") == 0);
    CHECK(message.find(expected) != std::string::npos);
  }
  CHECK_THROWS_AS(parse_newick("(A,B", "x"), InputError);
}

TEST_CASE("newick: the bird phylogeny (real data): shape, names, root-to-tip distances") {
  TreeReadOptions options;
  options.names = true;
  TreeInput birds = read_tree_input(data_path("birds_gumbs2022.nwk"), options);
  const auto& parent = birds.parent;
  REQUIRE(parent.size() == 21975);
  REQUIRE(birds.has_lengths);
  std::vector<int> children(parent.size(), 0);
  for (vertex_t p : parent)
    if (p >= 0) ++children[p];
  CHECK(std::count(children.begin(), children.end(), 0) == 10988);
  auto depth = depths(parent);
  CHECK(*std::max_element(depth.begin(), depth.end()) == 59);
  CHECK(birds.names[6] == "Nothura_minor");
  CHECK(birds.lengths[6] == 17.44964569);
  CHECK(birds.names[21974] == "Steatornis_caripensis");
  // Ultrametric: every tip lies 106.031 from the root; clade sizes of the root's children.
  auto distance = reference::rootfix(parent, birds.lengths, Op::sum);
  for (std::size_t v = 0; v < parent.size(); ++v)
    if (children[v] == 0) CHECK(distance[v] == doctest::Approx(106.031063814).epsilon(1e-9));
  auto clade = reference::leaffix(parent, std::vector<std::int64_t>(parent.size(), 1), Op::sum);
  CHECK(clade[0] == 21975);
  CHECK(clade[1] == 121);
  CHECK(clade[122] == 21853);
}

TEST_CASE("tree files: .npy parents, formats by extension, ranges, capacity before allocation") {
  const ParentArray parent = generate::random_forest(1000, 7, 5);
  const std::string npy = "/tmp/treefix-test-io-tree.npy", text = "/tmp/treefix-test-io-tree.tree";
  write_tree_file(npy, parent);
  write_tree_file(text, parent);
  CHECK(tree_format_of(npy) == TreeFormat::npy);
  CHECK(tree_format_of("x.nwk") == TreeFormat::newick);
  CHECK(tree_format_of("x.newick") == TreeFormat::newick);
  CHECK(tree_format_of("x.tree") == TreeFormat::parents);
  CHECK(tree_format_of("x.tree", TreeFormat::newick) == TreeFormat::newick);
  CHECK(read_tree(npy) == parent);
  CHECK(read_tree(text) == parent);
  // int64 parents are read too; out of range and floating-point parents are refused
  std::ostringstream wide;
  const std::vector<std::int64_t> p64 = {-1, 0, 0, 1};
  write_npy(wide, p64.data(), {4});
  CHECK(read_tree(temp_file("wide.npy", wide.str())) == ParentArray{-1, 0, 0, 1});
  std::ostringstream far;
  const std::vector<std::int32_t> bad = {-1, 0, 9};
  write_npy(far, bad.data(), {3});
  CHECK(message_of([&] {
          read_tree(temp_file("far.npy", far.str()));
        }).find("vertex 2 has parent 9, outside -1..2") != std::string::npos);
  std::ostringstream floats;
  const std::vector<float> fp = {-1, 0};
  write_npy(floats, fp.data(), {2});
  CHECK(message_of([&] {
          read_tree(temp_file("float.npy", floats.str()));
        }).find("int32 or int64") != std::string::npos);
  // validation is optional (the device does it), ranges are not
  TreeReadOptions lazy;
  lazy.validate = false;
  CHECK(read_tree_input(temp_file("cycle.tree", "3\n1 2 0\n"), lazy).parent ==
        ParentArray{1, 2, 0});
  CHECK_THROWS_AS(read_tree(temp_file("cycle.tree", "3\n1 2 0\n")), InputError);
  // a count that the file cannot hold is refused before anything is allocated
  CHECK(message_of([] {
          read_tree(temp_file("huge.tree", "2000000000\n-1\n"));
        }).find("cannot hold that many parents") != std::string::npos);
}

TEST_CASE("weights files: text and .npy, counts, exact conversions, Newick lengths as a type") {
  const std::vector<double> w = {0.5, -2, 3};
  const std::string npy = "/tmp/treefix-test-io-w.npy";
  write_values_file(npy, w);
  CHECK(read_weights<double>(npy, 3) == w);
  CHECK(read_weights<float>(npy, 3) == std::vector<float>{0.5f, -2, 3});  // exact: converted
  CHECK(message_of([&] {
          read_weights<std::int32_t>(npy, 3);
        }).find("weight 0 (0.5) is not exactly a 32-bit integer") != std::string::npos);
  CHECK(message_of([&] { read_weights<double>(npy, 4); }).find("3 weights for 4 vertices") !=
        std::string::npos);
  CHECK(lengths_as<float>({1.5, 2}, "t.nwk") == std::vector<float>{1.5f, 2});
  CHECK(lengths_as<std::int64_t>({3, 0}, "t.nwk") == std::vector<std::int64_t>{3, 0});
  CHECK(message_of([] {
          lengths_as<std::int32_t>({0.5}, "t.nwk");
        }).find("branch length of node 0") != std::string::npos);
}
