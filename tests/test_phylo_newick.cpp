// Newick text read on all host cores (parse_newick_in_parallel) gives the sequential reader's
// tree exactly, whatever the chunks; anything it does not take goes back to the sequential reader,
// which reports the error.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <sstream>

#include "treefix/core/error.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/newick.hpp"

using namespace treefix;

namespace {

std::string newick_of(const ParentArray& parent, bool names, bool lengths, std::uint64_t seed) {
  const NodeNames tip_names = generate::tip_names(parent);
  NodeNames all;
  for (std::size_t v = 0; v < parent.size(); ++v) {
    all.add();
    all.append(v, tip_names[v].empty() ? "n" + std::to_string(v) : std::string(tip_names[v]));
  }
  const std::vector<double> w = generate::branch_lengths(parent, seed);
  std::ostringstream out;
  write_newick(out, parent, names ? &all : nullptr, lengths ? &w : nullptr);
  return out.str();
}

void check_same(const NewickTree& a, const NewickTree& b, bool names) {
  CHECK(a.parent == b.parent);
  REQUIRE(a.length.size() == b.length.size());
  CHECK(std::memcmp(a.length.data(), b.length.data(), a.length.size() * sizeof(double)) == 0);
  if (!names) return;
  REQUIRE(a.names.size() == b.names.size());
  std::size_t differ = 0;
  for (std::size_t v = 0; v < a.names.size(); ++v) differ += a.names[v] != b.names[v];
  CHECK(differ == 0);
}

}  // namespace

TEST_CASE("newick in parallel: the sequential reader's tree for every shape and chunk size") {
  std::vector<std::string> texts = {
      "((A:1.5,B:2)C:0.5,D:3)root;\n",
      "(,);",
      "((A))B;",
      "A;",
      "(A,B,(C,D,E)F,G);\n(X:1,Y:2);\n(Z);",
      "  ( A : 1e-3 ,\n\tB:-0.5 ) \n R : 2 ; \n",
      "(a,(b,(c,(d,(e,(f,(g,h)))))));",
  };
  for (const char* shape : {"binary", "random", "star", "path", "caterpillar", "forest"}) {
    const std::size_t n = std::string(shape) == "binary" ? 2001 : 1500;
    generate::TreeParameters parameters;
    parameters.trees = 7;
    parameters.seed = 5;
    const ParentArray parent = generate::tree(shape, n, parameters);
    texts.push_back(newick_of(parent, true, true, 9));
    texts.push_back(newick_of(parent, false, true, 9));
    texts.push_back(newick_of(parent, true, false, 9));
  }
  for (const std::string& text : texts) {
    CAPTURE(text.substr(0, 60));
    for (bool names : {true, false}) {
      const NewickTree expected = parse_newick(text, "t", names);  // small: the sequential reader
      for (std::size_t chunk :
           {std::size_t{1}, std::size_t{7}, std::size_t{64}, std::size_t{1} << 20}) {
        CAPTURE(chunk);
        const std::optional<NewickTree> got = parse_newick_in_parallel(text, "t", names, chunk);
        REQUIRE(got.has_value());
        check_same(*got, expected, names);
      }
    }
  }
}

TEST_CASE(
    "newick in parallel: quotes, comments and malformed text go back to the sequential reader") {
  for (const char* text :
       {"('a b':1,B);", "(A[comment],B);", "((A,B);", "(A,B));", "(A,B)", "(A,B);;", "(A B);",
        "(A:,B);", "(A:x,B);", "A,B;", ",(A,B);", "(A;B);", "", "  \n", "(A,B)C;D)E;", "(A,B]);"}) {
    CAPTURE(text);
    for (std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{1} << 20})
      CHECK_FALSE(parse_newick_in_parallel(text, "t", true, chunk).has_value());
  }
  // the sequential reader still says what is wrong, for any text size
  std::string big = "(" + std::string(2 << 20, ' ') + "A,B;";
  CHECK_THROWS_WITH_AS(parse_newick(big, "big.nwk"),
                       "big.nwk: byte 2097156 (line 1): unbalanced parentheses: ';' while 1 '(' "
                       "are open",
                       InputError);
}
