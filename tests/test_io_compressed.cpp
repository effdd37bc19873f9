// Compressed input and the extension table (treefix/io/compressed.hpp, treefix/io/file_kind.hpp).
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "treefix/core/error.hpp"
#include "treefix/io/compressed.hpp"
#include "treefix/io/file_kind.hpp"
#include "treefix/io/text_io.hpp"
#include "treefix/io/text_parse.hpp"
#include "treefix/treefix/tree_io.hpp"

using namespace treefix;

namespace {

// "3\n-1 0 0\n" as gzip, xz and zstd write it.
const char kGzipBytes[] =
    "\x1f\x8b\x08\x08\xa2\x58\x08\x6b\x00\x03\x74\x2e\x74\x78\x74\x00\x33\xe6\xd2\x35\x54\x30\x50"
    "\x30\xe0\x02\x00\x8d\x36\x0d\x37\x09\x00\x00\x00";
const std::string kGzip(kGzipBytes, sizeof kGzipBytes - 1);
const char kXzBytes[] =
    "\xfd\x37\x7a\x58\x5a\x00\x00\x04\xe6\xd6\xb4\x46\x02\x00\x21\x01\x16\x00\x00\x00\x74\x2f\xe5"
    "\xa3\x01\x00\x08\x33\x0a\x2d\x31\x20\x30\x20\x30\x0a\x00\x00\x00\x00\xaf\x4a\xde\x20\x02\xcd"
    "\xf8\xed\x00\x01\x21\x09\x6c\x18\xc5\xd5\x1f\xb6\xf3\x7d\x01\x00\x00\x00\x00\x04\x59\x5a";
const std::string kXz(kXzBytes, sizeof kXzBytes - 1);
const char kZstdBytes[] =
    "\x28\xb5\x2f\xfd\x24\x09\x49\x00\x00\x33\x0a\x2d\x31\x20\x30\x20\x30\x0a\x26\xdd\x75\x9d";
const std::string kZstd(kZstdBytes, sizeof kZstdBytes - 1);
const std::string kPlain = "3\n-1 0 0\n";

std::string scratch(const std::string& name, const std::string& bytes) {
  const std::string path = "compressed_" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string error_of(const std::string& path) {
  try {
    TextFile file(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("compressed input: gzip, xz and zstd are recognised by their bytes and read whole") {
  CHECK(kGzip.size() == 35);
  CHECK(kXz.size() == 68);
  CHECK(kZstd.size() == 22);
  CHECK(compression_of(kGzip) == Compression::gzip);
  CHECK(compression_of(kXz) == Compression::xz);
  CHECK(compression_of(kZstd) == Compression::zstd);
  CHECK(compression_of(kPlain) == Compression::none);
  CHECK(compression_of("") == Compression::none);
  for (const auto& [name, bytes] :
       {std::pair{"t.gz", kGzip}, {"t.xz", kXz}, {"t.zst", kZstd}, {"named.txt", kGzip}}) {
    const std::string path = scratch(name, bytes);
    CHECK(std::string(TextFile(path).text()) == kPlain);
    CHECK(read_tree(path) == ParentArray{-1, 0, 0});
    TokenStream tokens(path);  // the streaming tokenizer reads them too
    CHECK(tokens.next_int("count") == 3);
  }
  // Concatenated members read as one stream (cat a.gz b.gz), as gzip -d does.
  CHECK(std::string(TextFile(scratch("twice.gz", kGzip + kGzip)).text()) == kPlain + kPlain);
  CHECK(std::string(TextFile(scratch("twice.zst", kZstd + kZstd)).text()) == kPlain + kPlain);
}

TEST_CASE("compressed input: truncated or damaged data is refused with the file's name") {
  for (const auto& [name, bytes, kind] : {std::tuple{"cut.gz", kGzip.substr(0, 20), "gzip"},
                                          {"cut.xz", kXz.substr(0, 40), "xz"},
                                          {"cut.zst", kZstd.substr(0, 15), "zstd"}}) {
    const std::string path = scratch(name, bytes);
    CHECK(error_of(path).find(path + ": damaged " + kind + " data") != std::string::npos);
  }
  std::string flipped = kXz;
  flipped[30] = static_cast<char>(flipped[30] ^ 0x40);
  CHECK(error_of(scratch("bad.xz", flipped)).find("damaged xz data") != std::string::npos);
  CHECK(error_of(scratch("tail.gz", kGzip + "junk")).find("bytes after the end") !=
        std::string::npos);
}

TEST_CASE("the extension table looks through compression suffixes and ignores case") {
  CHECK(format_extension("g.MTX.xz") == "mtx");
  CHECK(format_extension("dir.v2/file") == "");
  CHECK(format_extension(".hidden") == "");
  CHECK(file_kind("a.npy") == FileKind::npy);
  CHECK(file_kind("a.NPY") == FileKind::npy);
  CHECK(file_kind("w.graph.zst") == FileKind::metis);
  CHECK(file_kind("t.nwk.gz") == FileKind::newick);
  CHECK(file_kind("t.treefile") == FileKind::maybe_newick);
  CHECK(file_kind("edges.txt.xz") == FileKind::text);
  CHECK(file_kind("-") == FileKind::text);
  CHECK(tree_format_of(scratch("n.tre", "((a,b)c);")) == TreeFormat::newick);
  CHECK(tree_format_of(scratch("p.tree", "3 -1 0 0")) == TreeFormat::parents);
  CHECK(tree_format_of("x.npy.gz") == TreeFormat::npy);
}

TEST_CASE("decimal text weights are told from integers") {
  CHECK(text_looks_fractional("1 2\n3 # 0.5 in a comment\n", "#") == false);
  CHECK(text_looks_fractional("1 2\n0.5\n", "#"));
  CHECK(text_looks_fractional("1e3\n", "#"));
  CHECK(text_looks_fractional("-7\n12\n", "#") == false);
}
