// Readers and writers of point and body files (see points_io.hpp).
#include "treefix/spatial/points_io.hpp"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>

#include "treefix/core/error.hpp"
#include "treefix/core/text_io.hpp"

namespace treefix {
namespace {

// Reads "n d" and checks d against `want_dim` (0: any d in 1..max).
std::pair<std::size_t, int> read_header(TokenStream& in, int want_dim) {
  std::int64_t n = in.next_int("the number of rows n");
  std::size_t header_line = in.line();
  if (n < 0) in.fail("negative row count " + std::to_string(n));
  if (n > std::numeric_limits<std::int32_t>::max() / 2)
    in.fail("row count " + std::to_string(n) + " exceeds 2^30-1");
  std::int64_t d = in.next_int("the number of columns d");
  if (in.line() != header_line) in.fail("the header must be one line 'n d'");
  if (want_dim && d != want_dim)
    in.fail("expected " + std::to_string(want_dim) + " columns (header 'n " +
            std::to_string(want_dim) + "'), found " + std::to_string(d));
  if (d < 1 || d > 16)
    in.fail("the number of columns must be in 1..16, found " + std::to_string(d));
  return {static_cast<std::size_t>(n), static_cast<int>(d)};
}

// The d numbers of row `row`, all on one line after the previous row's line.
template <class Store>
void read_rows(TokenStream& in, std::size_t n, int d, Store store) {
  std::size_t previous_line = in.line();
  std::string what;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t row_line = 0;
    for (int k = 0; k < d; ++k) {
      what = "column " + std::to_string(k + 1) + " of row " + std::to_string(i + 1);
      double v = in.next_double(what.c_str());
      if (k == 0) {
        row_line = in.line();
        if (row_line == previous_line)
          in.fail(i == 0 ? std::string("the header line has more than 2 numbers ('n d')")
                         : "row " + std::to_string(i) + " has more than " + std::to_string(d) +
                               " numbers");
      } else if (in.line() != row_line) {
        throw InputError(in.path() + ":" + std::to_string(row_line) + ": row " +
                         std::to_string(i + 1) + " has only " + std::to_string(k) + " of " +
                         std::to_string(d) + " numbers");
      }
      if (!std::isfinite(v) || std::abs(v) > FLT_MAX)
        in.fail(what + " is " + std::to_string(v) + ": not finite as a float");
      store(i, k, static_cast<float>(v));
    }
    previous_line = row_line;
  }
  std::string_view extra;
  if (in.next(extra)) {
    if (in.line() == previous_line && n > 0)
      in.fail("row " + std::to_string(n) + " has more than " + std::to_string(d) + " numbers");
    in.fail("more than the " + std::to_string(n) + " rows the header announces");
  }
}

void write_float(std::ostream& out, float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", double(v));
  out << buf;
}

}  // namespace

PointSet read_points(const std::string& path) {
  TokenStream in(path, "#");
  auto [n, d] = read_header(in, 0);
  PointSet points(n, d);
  read_rows(in, n, d, [&](std::size_t i, int k, float v) { points.at(i, k) = v; });
  return points;
}

void write_points(std::ostream& out, const PointSet& points) {
  out << points.n << " " << points.dim << "\n";
  for (std::size_t i = 0; i < points.n; ++i) {
    for (int k = 0; k < points.dim; ++k) {
      if (k) out << ' ';
      write_float(out, points.at(i, k));
    }
    out << '\n';
  }
}

Bodies read_bodies(const std::string& path) {
  TokenStream in(path, "#");
  auto [n, d] = read_header(in, 7);
  Bodies bodies(n);
  read_rows(in, n, d, [&](std::size_t i, int k, float v) {
    if (k == 0) {
      if (v < 0) in.fail("row " + std::to_string(i + 1) + ": negative mass " + std::to_string(v));
      bodies.mass[i] = v;
    } else if (k <= 3) {
      bodies.position.at(i, k - 1) = v;
    } else {
      bodies.velocity.at(i, k - 4) = v;
    }
  });
  return bodies;
}

void write_bodies(std::ostream& out, const Bodies& bodies) {
  out << bodies.size() << " 7\n";
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    write_float(out, bodies.mass[i]);
    for (int k = 0; k < 3; ++k) out << ' ', write_float(out, bodies.position.at(i, k));
    for (int k = 0; k < 3; ++k) out << ' ', write_float(out, bodies.velocity.at(i, k));
    out << '\n';
  }
}

}  // namespace treefix
