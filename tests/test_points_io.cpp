// Point and body files in the three formats (text "n d", plain .xyz rows, .npy): round trips, the
// real scans, and bad inputs refused with file, line (or element) and value.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "error_of.hpp"
#include "ropes_fixture.hpp"
#include "treefix/core/error.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/spatial/points_io.hpp"

using namespace treefix;
using test::error_of;
using test::Shape;

namespace {

// A scratch file removed at the end of the scope.
struct Scratch {
  std::string path;
  explicit Scratch(std::string name) : path("points_io_test_" + std::move(name)) {}
  ~Scratch() { std::remove(path.c_str()); }
  void text(const std::string& content) const { std::ofstream(path, std::ios::binary) << content; }
  template <class T>
  void npy(const std::vector<T>& values, const std::vector<std::size_t>& shape) const {
    std::ofstream out(path, std::ios::binary);
    write_npy(out, values.data(), shape);
  }
};

std::string points_error(const Scratch& f) {
  return error_of([&] { read_points(f.path); });
}

void check_contains(const std::string& message, const std::string& part) {
  CAPTURE(message);
  CHECK(message.find(part) != std::string::npos);
}

// The rows of a point set as plain text, one point per line.
std::string as_rows(const PointSet& p) {
  std::string text;
  char buf[32];
  for (std::size_t i = 0; i < p.n; ++i)
    for (int k = 0; k < p.dim; ++k) {
      std::snprintf(buf, sizeof buf, "%.9g", double(p.at(i, k)));
      text += buf;
      text += k + 1 < p.dim ? " " : "\n";
    }
  return text;
}

}  // namespace

TEST_CASE("points io: the format comes from the extension unless given") {
  CHECK(point_format_of("a.npy") == PointFormat::npy);
  CHECK(point_format_of("scan.xyz") == PointFormat::xyz);
  CHECK(point_format_of("points.txt") == PointFormat::text);
  CHECK(point_format_of("scan.xyz", PointFormat::text) == PointFormat::text);
  CHECK(parse<PointFormat>("rows") == PointFormat::xyz);
}

TEST_CASE("points io: text, xyz and npy (float32, float64) hold the same points") {
  for (std::size_t n : {1, 2, 97, 4099}) {
    CAPTURE(n);
    const auto pts = test::make_points(n, 3, Shape::clustered, n);
    Scratch text("same.txt"), rows("same.xyz"), f32("same32.npy"), f64("same64.npy");
    write_output(text.path, [&](std::ostream& out) { write_points(out, pts); });
    rows.text(as_rows(pts));
    write_output(f32.path, [&](std::ostream& out) { write_points_npy(out, pts); });
    std::vector<double> wide(n * 3);
    for (std::size_t i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) wide[i * 3 + k] = pts.at(i, k);
    f64.npy(wide, {n, 3});
    for (const Scratch* f : {&text, &rows, &f32, &f64}) {
      CAPTURE(f->path);
      const PointSet back = read_points(f->path);
      CHECK(back.n == n);
      CHECK(back.dim == 3);
      CHECK(back.coord == pts.coord);
    }
  }
  // Other dimensions, comments, CRLF and trailing spaces in plain rows.
  Scratch f("dims.xyz");
  f.text("# two columns\r\n1 2 \r\n\r\n3 4 # note\r\n-5e-3 +6\n");
  const PointSet p = read_points(f.path);
  CHECK(p.n == 3);
  CHECK(p.dim == 2);
  CHECK(p.coord == std::vector<float>{1, 3, -5e-3f, 2, 4, 6});
  // A float64 value rounds to the nearest float (the policy refuses only overflow).
  Scratch g("round.npy");
  g.npy(std::vector<double>{0.1, 1e-50, -3e38}, {1, 3});
  CHECK(read_points(g.path).coord == std::vector<float>{0.1f, 0.0f, -3e38f});
}

TEST_CASE("points io: the real scans read as x y z rows") {
  const PointSet dragon = test::real_scan("dragon_scan_2k.xyz");
  CHECK(dragon.n == 2093);
  CHECK(dragon.dim == 3);
  CHECK(dragon.at(0, 0) == -0.0570643f);
  CHECK(dragon.at(0, 2) == 0.0326335f);
  const PointSet office = test::real_scan("kinect_office_2k.xyz");
  CHECK(office.n == 2545);
  CHECK(office.at(1, 2) == 4.977f);
}

TEST_CASE("points io: bodies from text, plain rows and .npy (n, 7)") {
  const auto bodies = generate::plummer(101, 3);
  PointSet table(bodies.size(), 7);  // the columns mass x y z vx vy vz
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    table.at(i, 0) = bodies.mass[i];
    for (int k = 0; k < 3; ++k) table.at(i, 1 + k) = bodies.position.at(i, k);
    for (int k = 0; k < 3; ++k) table.at(i, 4 + k) = bodies.velocity.at(i, k);
  }
  Scratch text("bodies.txt"), rows("bodies.xyz"), npy("bodies.npy");
  write_output(text.path, [&](std::ostream& out) { write_bodies(out, bodies); });
  rows.text(as_rows(table));
  write_output(npy.path, [&](std::ostream& out) { write_points_npy(out, table); });
  for (const Scratch* f : {&text, &rows, &npy}) {
    CAPTURE(f->path);
    const Bodies back = read_bodies(f->path);
    CHECK(back.mass == bodies.mass);
    CHECK(back.position.coord == bodies.position.coord);
    CHECK(back.velocity.coord == bodies.velocity.coord);
  }
  // write_bodies in each format reads back as the same bodies
  Scratch written_rows("written.xyz"), written_npy("written.npy");
  write_output(written_rows.path,
               [&](std::ostream& out) { write_bodies(out, bodies, PointFormat::xyz); });
  write_output(written_npy.path,
               [&](std::ostream& out) { write_bodies(out, bodies, PointFormat::npy); });
  for (const Scratch* f : {&written_rows, &written_npy}) {
    CAPTURE(f->path);
    const Bodies back = read_bodies(f->path);
    CHECK(back.mass == bodies.mass);
    CHECK(back.position.coord == bodies.position.coord);
    CHECK(back.velocity.coord == bodies.velocity.coord);
  }
  // A point file is not a body file.
  check_contains(error_of([] { read_bodies(test::test_data_path("dragon_scan_2k.xyz")); }),
                 "expected 7 columns (mass x y z vx vy vz), the first row has 3");
  Scratch negative("negative.npy");
  negative.npy(std::vector<double>{1, 0, 0, 0, 0, 0, 0, -2, 1, 1, 1, 0, 0, 0}, {2, 7});
  check_contains(error_of([&] { read_bodies(negative.path); }),
                 "element [1, 0] (-2) is a negative mass");
  Scratch negative_text("negative.xyz");
  negative_text.text("1 0 0 0 0 0 0\n-1 1 1 1 0 0 0\n");
  check_contains(error_of([&] { read_bodies(negative_text.path); }),
                 negative_text.path + ":2: row 2, column 1 ('-1') is a negative mass");
}

TEST_CASE("points io: bad text is refused with file, line and value") {
  Scratch f("bad.xyz");
  struct Case {
    const char* content;
    const char* message;
  };
  for (const Case& c : std::vector<Case>{
           {"", ": empty file: no points"},
           {"# only a comment\n\n", ": empty file: no points"},
           {"0 0 0\n1 nan 2\n", ":2: row 2, column 2 ('nan') is not finite"},
           {"0 0 0\n1 2 1e39\n", ":2: row 2, column 3 ('1e39') overflows float"},
           {"0 0 0\n1 2 -inf\n", ":2: row 2, column 3 ('-inf') is not finite"},
           {"0 0 0\n1 2 x\n", ":2: row 2, column 3 ('x') is not a number"},
           {"0 0 0\n1 2\n3 4 5\n", ":2: row 2 has only 2 of 3 numbers"},
           {"0 0 0\n1 2 3 4\n", ":2: row 2 has more than 3 numbers"},
           {"0 0 0\n1 2 3\n4\n", ":3: row 3 has only 1 of 3 numbers"},
           {"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",
            ":1: the number of columns must be in "
            "1..16, the first row has 17"},
       }) {
    f.text(c.content);
    check_contains(points_error(f), f.path + c.message);
  }
  Scratch t("bad.txt");
  for (const Case& c : std::vector<Case>{
           {"", ": empty file: expected the header 'n d'"},
           {"2 3\n0 0 0\n", ":2: 1 rows, but the header announces 2"},
           {"1 3 0\n0 0 0\n", ":1: the header line has more than 2 numbers"},
           {"1\n3\n0 0 0\n", ":2: the header must be one line 'n d'"},
           {"1 3\n0 0 0\n1 1 1\n", ":3: more than the 1 rows the header announces"},
           {"2 3\n0 0 0\n0 1e39 0\n", ":3: row 2, column 2 ('1e39') overflows float"},
           {"1 17\n", ":1: the number of columns must be in 1..16, the header says 17"},
           {"1 0\n", ":1: the number of columns must be in 1..16, the header says 0"},
           {"-1 3\n", ":1: negative row count -1"},
       }) {
    t.text(c.content);
    check_contains(points_error(t), t.path + c.message);
  }
  // A header that promises far more rows than the file holds is refused without allocating them.
  t.text("1000000000 3\n0 0 0\n");
  check_contains(points_error(t), ":2: 1 rows, but the header announces 1000000000");
  t.text("2000000000 3\n0 0 0\n");
  CHECK_THROWS_AS(read_points(t.path), CapacityError);
}

TEST_CASE("points io: errors deep in a large file name their line, whichever chunk parses it") {
  // About 8 MiB of rows: several chunks of the parallel tokenizer.
  const auto pts = test::make_points(300000, 3, Shape::uniform, 5);
  std::string rows = as_rows(pts);
  Scratch f("large.xyz");
  f.text(rows);
  CHECK(read_points(f.path).coord == pts.coord);
  for (std::size_t bad_row : {2, 150001, 299999, 300000}) {
    CAPTURE(bad_row);
    // Drop the last number of row bad_row (1-based): that row is short.
    std::size_t line_start = 0;
    for (std::size_t r = 1; r < bad_row; ++r) line_start = rows.find('\n', line_start) + 1;
    const std::size_t line_end = rows.find('\n', line_start);
    const std::size_t last_space = rows.rfind(' ', line_end);
    std::string broken = rows.substr(0, last_space) + rows.substr(line_end);
    f.text(broken);
    check_contains(points_error(f), f.path + ":" + std::to_string(bad_row) + ": row " +
                                        std::to_string(bad_row) + " has only 2 of 3 numbers");
    // A NaN in its place instead.
    f.text(rows.substr(0, last_space) + " nan" + rows.substr(line_end));
    check_contains(points_error(f), f.path + ":" + std::to_string(bad_row) + ": row " +
                                        std::to_string(bad_row) +
                                        ", column 3 ('nan') is not finite");
  }
}

TEST_CASE("points io: bad .npy arrays are refused with the element or the shape") {
  Scratch f("bad.npy");
  f.text("");
  check_contains(points_error(f), "empty file: no points");
  f.npy(std::vector<float>{1, 2, 3}, {3});
  check_contains(points_error(f), "a .npy array of shape (3,), expected 2 dimensions (n, d)");
  f.npy(std::vector<float>(6), {2, 3, 1});
  check_contains(points_error(f), "shape (2, 3, 1), expected 2 dimensions");
  f.npy(std::vector<float>(17), {1, 17});
  check_contains(points_error(f),
                 "the number of columns must be in 1..16, the array has shape (1, 17)");
  f.npy(std::vector<float>(), {1, 0});
  check_contains(points_error(f), "the array has shape (1, 0)");
  f.npy(std::vector<std::int64_t>{1, 2, 3}, {1, 3});
  check_contains(points_error(f), ".npy dtype '<i8', expected float32 or float64");
  f.npy(std::vector<double>{0, 0, 0, 1, std::nan(""), 2}, {2, 3});
  check_contains(points_error(f), f.path + ": element [1, 1] (nan) is not finite");
  f.npy(std::vector<double>{0, 0, 0, 1, 2, 1e39}, {2, 3});
  check_contains(points_error(f), f.path + ": element [1, 2] (1e+39) overflows float");
  // Truncated data: the header promises more than the file holds.
  f.npy(std::vector<float>(6), {2, 3});
  {
    std::ifstream in(f.path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    f.text(bytes.substr(0, bytes.size() - 4));
  }
  check_contains(points_error(f), "truncated .npy data");
  // An empty array is zero points, as "0 3" is.
  f.npy(std::vector<float>(), {0, 3});
  CHECK(read_points(f.path).n == 0);
}
