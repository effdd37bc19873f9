#pragma once
// Internal to the spatial module: rows of d numbers from a file, the common part of the point
// and body readers (treefix/spatial/points_io.hpp). Three layouts:
//   counted text   a first line "n d", then n rows of d numbers
//   plain rows     rows of d numbers and nothing else (.xyz scans); d = the first row's count
//   .npy           a 2-D float32 or float64 array of shape (n, d), C order
// Text is tokenized on all host cores (io/text_parse.hpp); every number goes through the number
// policy (finite, within +-FLT_MAX: the values are stored as float). The result is a PointSet of
// dimension d (structure of arrays); its size is checked against the host's memory before it is
// allocated.
#include <string>

#include "treefix/spatial/points.hpp"

namespace treefix::detail {

constexpr int max_table_columns = 16;

struct TableSpec {
  const char* rows_name = "points";  // for messages: "empty file: no points"
  const char* row_name = "point";
  int columns = 0;                // the required d; 0: any in 1..max_table_columns
  const char* columns_hint = "";  // what the required columns are: "mass x y z vx vy vz"
  int nonnegative_column = -1;    // a column that must be >= 0 (body masses), -1: none
  const char* nonnegative_name = "";
};

// counted = true: the "n d" layout; false: plain rows.
PointSet read_text_table(const std::string& path, bool counted, const TableSpec& spec);
PointSet read_npy_table(const std::string& path, const TableSpec& spec);

}  // namespace treefix::detail
