// Readers and writers of point and body files (see points_io.hpp); the parsing is
// spatial/number_table.cpp.
#include "treefix/spatial/points_io.hpp"

#include <algorithm>
#include <cstdio>

#include "spatial/number_table.hpp"
#include "treefix/io/file_kind.hpp"
#include "treefix/io/npy.hpp"

namespace treefix {
namespace {

PointSet read_table(const std::string& path, PointFormat format, const detail::TableSpec& spec) {
  switch (point_format_of(path, format)) {
    case PointFormat::npy:
      return detail::read_npy_table(path, spec);
    case PointFormat::xyz:
      return detail::read_text_table(path, false, spec);
    default:
      return detail::read_text_table(path, true, spec);
  }
}

void write_float(std::ostream& out, float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", double(v));
  out << buf;
}

}  // namespace

PointFormat point_format_of(const std::string& path, PointFormat given) {
  if (given != PointFormat::automatic) return given;
  if (is_npy_path(path)) return PointFormat::npy;
  if (file_kind(path) == FileKind::xyz) return PointFormat::xyz;
  return PointFormat::text;
}

PointSet read_points(const std::string& path, PointFormat format) {
  return read_table(path, format, {});
}

Bodies read_bodies(const std::string& path, PointFormat format) {
  detail::TableSpec spec;
  spec.rows_name = "bodies";
  spec.row_name = "body";
  spec.columns = 7;
  spec.columns_hint = "mass x y z vx vy vz";
  spec.nonnegative_column = 0;
  spec.nonnegative_name = "mass";
  const PointSet table = read_table(path, format, spec);
  // The table is structure of arrays: each column is one contiguous range.
  const std::size_t n = table.n;
  auto column = [&](int k) { return table.coord.begin() + std::ptrdiff_t(k * n); };
  Bodies bodies(n);
  std::copy(column(0), column(1), bodies.mass.begin());
  std::copy(column(1), column(4), bodies.position.coord.begin());
  std::copy(column(4), column(7), bodies.velocity.coord.begin());
  return bodies;
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

void write_points_npy(std::ostream& out, const PointSet& points) {
  std::vector<float> rows(points.coord.size());
  for (std::size_t i = 0; i < points.n; ++i)
    for (int k = 0; k < points.dim; ++k) rows[i * points.dim + k] = points.at(i, k);
  write_npy(out, rows.data(), {points.n, std::size_t(points.dim)});
}

void write_bodies(std::ostream& out, const Bodies& bodies, PointFormat format) {
  const std::size_t n = bodies.size();
  if (format == PointFormat::npy) {
    std::vector<float> rows(n * 7);
    for (std::size_t i = 0; i < n; ++i) {
      float* row = &rows[i * 7];
      row[0] = bodies.mass[i];
      for (int k = 0; k < 3; ++k) row[1 + k] = bodies.position.at(i, k);
      for (int k = 0; k < 3; ++k) row[4 + k] = bodies.velocity.at(i, k);
    }
    write_npy(out, rows.data(), {n, std::size_t(7)});
    return;
  }
  if (format != PointFormat::xyz) out << n << " 7\n";
  for (std::size_t i = 0; i < n; ++i) {
    write_float(out, bodies.mass[i]);
    for (int k = 0; k < 3; ++k) out << ' ', write_float(out, bodies.position.at(i, k));
    for (int k = 0; k < 3; ++k) out << ' ', write_float(out, bodies.velocity.at(i, k));
    out << '\n';
  }
}

}  // namespace treefix
