// Core I/O: the parallel tokenizer (errors at exact lines wherever chunks fall) and .npy files.
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/io/text_io.hpp"
#include "treefix/io/text_parse.hpp"
#include "treefix/io/value_format.hpp"

using namespace treefix;

namespace {
std::string write_file(const std::string& name, const std::string& bytes) {
  std::ofstream(name, std::ios::binary) << bytes;
  return name;
}

template <class T>
std::string npy_bytes(const std::vector<T>& values, const std::vector<std::size_t>& shape) {
  std::ostringstream out;
  write_npy(out, values.data(), shape);
  return out.str();
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("parallel tokenizer: every token in order, lines exact across chunks") {
  // 3 MiB of "i\n" lines with comments: several chunks of at least 1 MiB each.
  std::string text = "# header comment\n";
  const std::size_t lines = 400000;
  for (std::size_t i = 0; i < lines; ++i) {
    text += std::to_string(i);
    text += i % 1000 == 0 ? "  # a comment\n" : "\n";
  }
  auto path = write_file("tokenizer_lines.txt", text);
  TextFile file(path);
  TokenChunks chunks(file, 0, "#");
  CHECK(chunks.tokens() == lines);
  std::vector<std::int64_t> values(chunks.tokens());
  chunks.parse(values.data(), [](std::string_view t, std::int64_t& v) {
    return parse_int(t, v) ? "" : "is not an integer";
  });
  bool in_order = true;
  for (std::size_t i = 0; i < lines; ++i) in_order &= values[i] == static_cast<std::int64_t>(i);
  CHECK(in_order);
  CHECK(chunks.last_token_line() == lines + 1);
  // A bad token on every line in turn near chunk starts and ends is reported at its own line.
  for (std::size_t bad : {std::size_t(0), lines / 3, lines / 3 + 1, lines / 2, lines - 1}) {
    std::string broken = text;
    const std::string needle = "\n" + std::to_string(bad) + (bad % 1000 == 0 ? "  #" : "\n");
    const auto at = broken.find(needle);
    REQUIRE(at != std::string::npos);
    broken.replace(at + 1, std::to_string(bad).size(), "x" + std::to_string(bad));
    auto bad_path = write_file("tokenizer_bad.txt", broken);
    TextFile bad_file(bad_path);
    TokenChunks bad_chunks(bad_file, 0, "#");
    std::vector<std::int64_t> out(bad_chunks.tokens());
    const std::string what = message_of([&] {
      bad_chunks.parse(out.data(), [](std::string_view t, std::int64_t& v) {
        return parse_int(t, v) ? "" : "is not an integer";
      });
    });
    CHECK(what == bad_path + ":" + std::to_string(bad + 2) + ": token " + std::to_string(bad) +
                      " ('x" + std::to_string(bad) + "') is not an integer");
  }
  // Two bad tokens in different chunks: the first in the file wins.
  std::string two = text;
  two.replace(two.find("\n399990\n") + 1, 6, "bad999");
  two.replace(two.find("\n17\n") + 1, 2, "zz");
  auto two_path = write_file("tokenizer_two.txt", two);
  TextFile two_file(two_path);
  TokenChunks two_chunks(two_file, 0, "#");
  std::vector<std::int64_t> out(two_chunks.tokens());
  CHECK(message_of([&] {
          two_chunks.parse(out.data(), [](std::string_view t, std::int64_t& v) {
            return parse_int(t, v) ? "" : "is not an integer";
          });
        }).find(two_path + ":19:") == 0);
  std::remove(path.c_str());
}

TEST_CASE("parallel tokenizer: empty files, directories, missing files") {
  auto empty = write_file("tokenizer_empty.txt", "");
  TextFile file(empty);
  TokenChunks chunks(file, 0, "#");
  CHECK(chunks.tokens() == 0);
  CHECK(message_of([] { TextFile f("."); }).find("directory") != std::string::npos);
  CHECK(message_of([] { TextFile f("no/such/file"); }).find("cannot open") != std::string::npos);
}

TEST_CASE(".npy: every value type and a 2-D array round-trip") {
  const std::vector<std::int32_t> i32 = {-1, 0, 7, 2147483647};
  const std::vector<std::int64_t> i64 = {-1, 5, 1ll << 40};
  const std::vector<float> f32 = {0.5f, -2.25f, 1e-30f};
  const std::vector<double> f64 = {0.1, -3.0, 1e300};
  CHECK(parse_npy(npy_bytes(i32, {4}), "a").values<std::int32_t>("a", 1) == i32);
  CHECK(parse_npy(npy_bytes(i64, {3}), "b").values<std::int64_t>("b", 1) == i64);
  CHECK(parse_npy(npy_bytes(f32, {3}), "c").values<float>("c", 1) == f32);
  CHECK(parse_npy(npy_bytes(f64, {3}), "d").values<double>("d", 1) == f64);
  const std::vector<float> grid = {1, 2, 3, 4, 5, 6};
  NpyArray two = parse_npy(npy_bytes(grid, {2, 3}), "grid.npy");
  CHECK(two.shape == std::vector<std::size_t>{2, 3});
  CHECK(two.values<float>("grid.npy", 2) == grid);
  const std::vector<double> none;
  CHECK(parse_npy(npy_bytes(none, {0}), "e").values<double>("e", 1).empty());
  // the header is padded to a multiple of 64 bytes, as NumPy writes it
  CHECK((npy_bytes(i32, {4}).size() - i32.size() * 4) % 64 == 0);
}

TEST_CASE(".npy: other dtypes, byte orders, orders, shapes and truncation are refused") {
  auto with_header = [](const std::string& dict, const std::string& data) {
    std::string header = dict;
    while ((10 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
    bytes += static_cast<char>(header.size() & 0xff);
    bytes += static_cast<char>(header.size() >> 8);
    return bytes + header + data;
  };
  const std::string eight(8, '\0');
  CHECK(message_of([&] {
          parse_npy(with_header("{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }", eight),
                    "x.npy");
        }).find("big-endian") != std::string::npos);
  CHECK(message_of([&] {
          parse_npy(
              with_header("{'descr': '<f8', 'fortran_order': True, 'shape': (1, 1), }", eight),
              "x.npy");
        }).find("Fortran") != std::string::npos);
  CHECK(message_of([&] {
          parse_npy(with_header("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", eight),
                    "x.npy");
        }).find("truncated") != std::string::npos);
  CHECK(message_of([&] {
          parse_npy(with_header("{'descr': '<u2', 'fortran_order': False, 'shape': (4,), }", eight),
                    "x.npy")
              .values<std::int32_t>("x.npy", 1);
        }).find("dtype '<u2'") != std::string::npos);
  CHECK(message_of([&] {
          parse_npy(
              with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }", eight),
              "x.npy")
              .values<float>("x.npy", 1);
        }).find("2 dimensions") != std::string::npos);
  CHECK(message_of([] { parse_npy("hello", "x.npy"); }).find("not a .npy") != std::string::npos);
  CHECK(message_of([&] {
          parse_npy(with_header("{'descr': '<i4', 'shape': (2,), }", eight), "x.npy");
        }).find("lacks") != std::string::npos);
}

TEST_CASE(".npy files to every value type: exact conversions only, finite values, sizes first") {
  auto file_of = [](const std::string& name, const std::string& bytes) {
    return write_file("/tmp/treefix-test-" + name, bytes);
  };
  const std::vector<std::int32_t> small = {-3, 0, 16777216};
  const std::vector<std::int64_t> big = {1, (std::int64_t(1) << 40) + 1};
  const std::vector<float> halves = {0.5f, -1.25f};
  const std::vector<double> tenth = {0.1};
  const std::string i4 = file_of("i4.npy", npy_bytes(small, {3}));
  const std::string i8 = file_of("i8.npy", npy_bytes(big, {2}));
  const std::string f4 = file_of("f4.npy", npy_bytes(halves, {2}));
  const std::string f8 = file_of("f8.npy", npy_bytes(tenth, {1}));
  // same type, and every exact conversion
  CHECK(read_npy_values<std::int32_t>(i4) == small);
  CHECK(read_npy_values<std::int64_t>(i4) == std::vector<std::int64_t>{-3, 0, 16777216});
  CHECK(read_npy_values<float>(i4) == std::vector<float>{-3, 0, 16777216});
  CHECK(read_npy_values<double>(i8) == std::vector<double>{1, 1099511627777.0});
  CHECK(read_npy_values<double>(f4) == std::vector<double>{0.5, -1.25});
  // inexact ones are refused, naming the element and the file's dtype
  CHECK(message_of([&] { read_npy_values<float>(f8, "weight"); }) ==
        f8 + ": weight 0 (0.1) is not exactly a float (the file holds <f8)");
  CHECK(message_of([&] {
          read_npy_values<std::int32_t>(i8);
        }).find("element 1 (1099511627777) is not exactly a 32-bit integer") != std::string::npos);
  CHECK(message_of([&] { read_npy_values<float>(i8); }).find("element 1") != std::string::npos);
  CHECK(message_of([&] {
          read_npy_values<std::int64_t>(f4);
        }).find("element 0 (0.5) is not exactly a 64-bit integer") != std::string::npos);
  // the number policy of parse_value: floating values must be finite
  const std::vector<double> infinite = {1, INFINITY};
  CHECK(message_of([&] {
          read_npy_values<double>(file_of("inf.npy", npy_bytes(infinite, {2})));
        }).find("element 1 (inf) is not finite") != std::string::npos);
  const std::vector<float> nan = {NAN};
  CHECK(message_of([&] {
          read_npy_values<float>(file_of("nan.npy", npy_bytes(nan, {1})));
        }).find("is not finite") != std::string::npos);
  // 1-D only; a header promising more than the file holds is refused before allocating
  const std::vector<float> grid = {1, 2, 3, 4};
  CHECK(message_of([&] {
          read_npy_values<float>(file_of("grid.npy", npy_bytes(grid, {2, 2})));
        }).find("2 dimensions, expected 1") != std::string::npos);
  std::string huge = npy_bytes(grid, {4});
  const auto shape = huge.find("'shape': (") + 10;
  huge.replace(shape, huge.find(')', shape) - shape, "4000000000000,");
  huge.erase(huge.find('\n') - 12, 12);  // the header keeps its length: padding absorbs it
  CHECK(message_of([&] { read_npy_values<float>(file_of("huge.npy", huge)); }).find("truncated") !=
        std::string::npos);
  // a large array crosses the parallel pieces in order
  std::vector<std::int32_t> many(300007);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = static_cast<std::int32_t>(i * 7 - 5);
  CHECK(read_npy_values<double>(file_of("many.npy", npy_bytes(many, {many.size()})))[300006] ==
        300006.0 * 7 - 5);
  CHECK(npy_value_type(i8) == ValueType::int64);
}

TEST_CASE("values are written in the shortest form that reads back exactly, on every core") {
  std::vector<double> doubles(200003);
  std::vector<float> floats(doubles.size());
  std::uint64_t x = 88172645463325252ull;
  for (std::size_t i = 0; i < doubles.size(); ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    doubles[i] = std::ldexp(static_cast<double>(x >> 11), static_cast<int>(x % 200) - 150) *
                 (x & 1 ? -1 : 1);
    floats[i] = static_cast<float>(doubles[i]);
  }
  std::ostringstream d, f;
  write_values(d, doubles);
  write_values(f, floats);
  std::istringstream dr(d.str()), fr(f.str());
  std::string line;
  std::size_t i = 0;
  for (; std::getline(dr, line); ++i) {
    double back = 0;
    REQUIRE(*parse_value(line, back) == '\0');
    REQUIRE(back == doubles[i]);
  }
  CHECK(i == doubles.size());
  for (i = 0; std::getline(fr, line); ++i) {
    float back = 0;
    REQUIRE(*parse_value(line, back) == '\0');
    REQUIRE(back == floats[i]);
  }
  CHECK(i == floats.size());
  // the ends of float's range too: FLT_MAX is written "3.4028235e+38", which as a decimal is a
  // little above FLT_MAX and must still read back as FLT_MAX
  const std::vector<float> extremes = {FLT_MAX,      -FLT_MAX,      FLT_MIN,
                                       FLT_TRUE_MIN, -FLT_TRUE_MIN, std::nextafter(FLT_MAX, 0.0f),
                                       0.0f,         -0.0f};
  std::ostringstream e;
  write_values(e, extremes);
  std::istringstream er(e.str());
  for (i = 0; std::getline(er, line); ++i) {
    float back = 1;
    REQUIRE(*parse_value(line, back) == '\0');
    CHECK(back == extremes[i]);
    CHECK(std::signbit(back) == std::signbit(extremes[i]));
  }
  CHECK(i == extremes.size());
  std::ostringstream ints;
  write_values<std::int64_t>(ints, {INT64_MIN, -1, 0, INT64_MAX});
  CHECK(ints.str() == "-9223372036854775808\n-1\n0\n9223372036854775807\n");
}

TEST_CASE("the number policy: finite and representable in the chosen type, else what is wrong") {
  auto problem = [](const char* token, auto type) {
    decltype(type) value = 7;
    const std::string why = parse_value(token, value);
    if (!why.empty()) CHECK(value == 7);  // a refused token stores nothing
    return why;
  };
  const float f = 0;
  const double d = 0;
  // non-finite: refused in every floating type, whatever the spelling
  for (const char* token : {"nan", "-nan", "inf", "-inf", "infinity", "NaN", "INF"}) {
    CAPTURE(token);
    CHECK(problem(token, f) == "is not finite");
    CHECK(problem(token, d) == "is not finite");
  }
  // overflow: of float from 1e39 (not turned into inf), of double from 1e400
  CHECK(problem("1e39", f) == "overflows float");
  CHECK(problem("-1e39", f) == "overflows float");
  CHECK(problem("1e39", d).empty());
  CHECK(problem("1e400", d) == "overflows double");
  CHECK(problem("1e400", f) == "overflows float");
  // the boundary of float: what rounds to FLT_MAX is FLT_MAX; half an ulp above is not
  float value = 0;
  CHECK(*parse_value("3.4028235e+38", value) == '\0');
  CHECK(value == FLT_MAX);
  CHECK(*parse_value("3.40282356e38", value) == '\0');
  CHECK(value == FLT_MAX);
  CHECK(problem("3.4028236e38", f) == "overflows float");
  // underflow rounds to zero or a subnormal: kept
  CHECK(*parse_value("1e-50", value) == '\0');
  CHECK(value == 0.0f);
  CHECK(*parse_value("1e-40", value) == '\0');
  CHECK(value == 1e-40f);
  double small = 1;
  CHECK(*parse_value("1e-400", small) == '\0');
  CHECK(small == 0.0);
  // malformed and integer tokens
  CHECK(problem("1.5x", f) == "is not a number");
  CHECK(problem("", d) == "is not a number");
  CHECK(problem("2147483648", std::int32_t{}) == "is not a 32-bit integer");
  CHECK(problem("1e3", std::int64_t{}) == "is not a 64-bit integer");
  // values already held as doubles (float64 .npy elements, branch lengths stored as float)
  CHECK(std::string(representable<float>(3.4028235e38)).empty());
  CHECK(std::string(representable<float>(1e39)) == "overflows float");
  CHECK(std::string(representable<double>(1e300)).empty());
  CHECK(std::string(representable<double>(NAN)) == "is not finite");
  CHECK(std::string(representable<float>(-INFINITY)) == "is not finite");
}

TEST_CASE("host memory: what is available, refusals with the numbers before allocating") {
  const std::uint64_t physical = host_memory_bytes(), available = host_memory_available_bytes();
  CHECK(available > 0);
  CHECK(available <= physical);
  CHECK(bytes_for(UINT64_MAX / 2, 3) == UINT64_MAX);  // saturates
  CHECK(add_bytes(UINT64_MAX - 1, 2) == UINT64_MAX);
  CHECK(mib_text(std::uint64_t(3) << 20) == "3.0 MiB");
  CHECK(mib_text(UINT64_MAX) == "more than 2^64 bytes");
  require_host_memory(1 << 20, "a small array");  // fits
  try {
    require_host_memory(bytes_for(std::uint64_t(1) << 40, 1 << 20), "a huge array");
    FAIL("expected a CapacityError");
  } catch (const CapacityError& e) {
    const std::string message = e.what();
    CHECK(message.find("a huge array needs 1099511627776.0 MiB of host memory, but only ") == 0);
    CHECK(message.find(" of the host's " + mib_text(physical) + " are available") !=
          std::string::npos);
  }
  try {
    require_host_memory(UINT64_MAX, "a saturated count");
    FAIL("expected a CapacityError");
  } catch (const CapacityError& e) {
    CHECK(std::string(e.what()).find("needs more than 2^64 bytes of host memory") !=
          std::string::npos);
  }
}
