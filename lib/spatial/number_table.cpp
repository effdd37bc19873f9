// Tables of numbers from text and .npy files (spatial/number_table.hpp).
#include "spatial/number_table.hpp"

#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/io/text_io.hpp"
#include "treefix/io/text_parse.hpp"

namespace treefix::detail {
namespace {

// Rows are 32-bit indices in the trees, with room for 2n.
constexpr std::size_t max_rows = std::numeric_limits<std::int32_t>::max() / 2;

std::string str(std::size_t v) { return std::to_string(v); }

// Refuses a column count that is out of range or not the required one; `where` prefixes messages.
void check_columns(std::size_t d, const TableSpec& spec, const std::string& where,
                   const std::string& found) {
  if (spec.columns && d != std::size_t(spec.columns))
    throw InputError(where + "expected " + std::to_string(spec.columns) + " columns (" +
                     spec.columns_hint + "), " + found);
  if (d < 1 || d > std::size_t(max_table_columns))
    throw InputError(where + "the number of columns must be in 1.." +
                     std::to_string(max_table_columns) + ", " + found);
}

void check_rows(std::size_t n, const std::string& where) {
  if (n > max_rows)
    throw CapacityError(where + str(n) +
                        " rows exceed the 2^30-1 that the trees' 32-bit indices "
                        "allow");
}

PointSet allocate_table(std::size_t n, std::size_t d, const std::string& path) {
  require_host_memory(bytes_for(bytes_for(n, d), sizeof(float)),
                      path + ": " + str(n) + " rows of " + str(d) + " numbers");
  return PointSet(n, int(d));
}

// Where the rows start and how they are shaped.
struct Layout {
  std::size_t from = 0;         // byte offset of the first row's text
  std::size_t header_line = 0;  // the "n d" line (0: plain rows)
  std::size_t announced = 0;    // n of "n d"
  std::size_t columns = 0;
};

Layout counted_layout(const TextFile& file, const TableSpec& spec) {
  ChunkTokens scan(file.text(), 1, "#");
  std::string_view token;
  auto at = [&](std::size_t line) { return file.path() + ":" + str(line) + ": "; };
  std::int64_t values[2];
  const char* names[2] = {"the number of rows n", "the number of columns d"};
  Layout layout;
  for (int i = 0; i < 2; ++i) {
    if (!scan.next(token))
      throw InputError(i == 0 ? file.path() + ": empty file: expected the header 'n d', then the " +
                                    spec.rows_name
                              : at(scan.line()) + "the header must be one line 'n d'");
    if (i == 0) layout.header_line = scan.line();
    if (scan.line() != layout.header_line)
      throw InputError(at(scan.line()) + "the header must be one line 'n d'");
    if (!parse_int(token, values[i]))
      throw InputError(at(scan.line()) + names[i] + " ('" + std::string(token.substr(0, 40)) +
                       "') is not an integer");
  }
  const std::string where = at(layout.header_line);
  if (values[0] < 0) throw InputError(where + "negative row count " + std::to_string(values[0]));
  check_rows(std::size_t(values[0]), where);
  const std::string found = "the header says " + std::to_string(values[1]);
  check_columns(std::size_t(values[1]), spec, where, found);
  layout.announced = std::size_t(values[0]);
  layout.columns = std::size_t(values[1]);
  layout.from = std::size_t(scan.position() - file.text().data());
  return layout;
}

Layout plain_layout(const TextFile& file, const TableSpec& spec) {
  ChunkTokens scan(file.text(), 1, "#");
  std::string_view token;
  if (!scan.next(token)) throw InputError(file.path() + ": empty file: no " + spec.rows_name);
  const std::size_t line = scan.line();
  std::size_t count = 1;
  while (scan.peek_line() == line && scan.next(token)) ++count;
  check_columns(count, spec, file.path() + ":" + str(line) + ": ",
                "the first row has " + str(count));
  Layout layout;
  layout.columns = count;
  return layout;
}

// What is wrong with a value of `column` ("is not finite", "is a negative mass"); "" if nothing.
std::string value_problem(double v, std::size_t column, const TableSpec& spec) {
  if (const char* problem = representable<float>(v); *problem) return problem;
  if (int(column) == spec.nonnegative_column && v < 0)
    return std::string("is a negative ") + spec.nonnegative_name;
  return "";
}

}  // namespace

PointSet read_text_table(const std::string& path, bool counted, const TableSpec& spec) {
  TextFile file(path);
  const Layout layout = counted ? counted_layout(file, spec) : plain_layout(file, spec);
  const std::size_t d = layout.columns;
  TokenChunks chunks(file, layout.from, "#");
  const std::size_t tokens = chunks.tokens();
  const std::size_t n = counted ? layout.announced : tokens / d;
  if (!counted) check_rows(n, path + ": ");
  // Values are stored only when the count is right (else the walk finds the error): a header
  // that promises more rows than the file holds allocates nothing.
  const bool store = tokens == n * d;
  PointSet table = store ? allocate_table(n, d, path) : PointSet();
  // Row `row` (0-based), which starts at token `first` on `line`, ends after `count` numbers.
  auto short_row = [&](std::size_t first, std::size_t line, std::size_t row, std::size_t count) {
    chunks.fail(first, line,
                "row " + str(row + 1) + " has only " + str(count) + " of " + str(d) + " numbers");
  };
  chunks.for_each_chunk([&](std::size_t, ChunkTokens& in, std::size_t index) {
    // Chunks start at line starts, so a row that began in an earlier chunk is broken there.
    std::size_t last_line = counted && index == 0 ? layout.header_line : 0;
    std::size_t row_line = 0, row = index / d, column = index % d;
    std::string_view token;
    while (in.next(token)) {
      const std::size_t line = in.line();
      if (column == 0) {
        if (line == last_line)
          chunks.fail(index, line,
                      row == 0 ? std::string("the header line has more than 2 numbers ('n d')")
                               : "row " + str(row) + " has more than " + str(d) + " numbers");
        row_line = line;
      } else if (line != row_line) {
        short_row(index - column, row_line ? row_line : line, row, column);
      }
      if (counted && row >= n)
        chunks.fail(index, line, "more than the " + str(n) + " rows the header announces");
      float value = 0;
      std::string problem = parse_value(token, value);
      if (problem.empty()) problem = value_problem(value, column, spec);
      if (!problem.empty())
        chunks.fail(index, line,
                    "row " + str(row + 1) + ", column " + str(column + 1) + " ('" +
                        std::string(token.substr(0, 40)) + "') " + problem);
      if (store) table.at(row, int(column)) = value;
      last_line = line;
      ++index;
      if (++column == d) column = 0, ++row;
    }
    if (column != 0 && row_line)  // the chunk, hence the row's line, ends inside the row
      short_row(index - column, row_line, row, column);
  });
  if (counted && tokens < n * d)
    throw InputError(path + ":" + str(chunks.last_token_line()) + ": " + str(tokens / d) +
                     " rows, but the header announces " + str(n));
  if (!store)  // the walk refuses every other count; never return a table left empty
    throw InputError(path + ": " + str(tokens) + " numbers are not rows of " + str(d));
  return table;
}

PointSet read_npy_table(const std::string& path, const TableSpec& spec) {
  TextFile file(path);
  if (file.size() == 0) throw InputError(path + ": empty file: no " + spec.rows_name);
  const NpyHeader header = parse_npy_header(file.text(), path);
  std::string shape = "(";
  for (std::size_t i = 0; i < header.shape.size(); ++i)
    shape += (i ? ", " : "") + str(header.shape[i]);
  shape += header.shape.size() == 1 ? ",)" : ")";
  if (header.shape.size() != 2)
    throw InputError(path + ": a .npy array of shape " + shape +
                     ", expected 2 dimensions (n, d): a row of d numbers per " + spec.row_name);
  const auto type = header.value_type();
  if (!type || (*type != ValueType::float32 && *type != ValueType::float64))
    throw InputError(path + ": .npy dtype '" + header.descr +
                     "', expected float32 or float64 ('<f4' or '<f8')");
  const std::size_t n = header.shape[0], d = header.shape[1];
  check_columns(d, spec, path + ": ", "the array has shape " + shape);
  check_rows(n, path + ": ");
  PointSet table = allocate_table(n, d, path);
  const char* data = file.text().data() + header.data_offset;
  auto element = [&, single = header.item_bytes == 4](std::size_t e) {
    if (single) {
      float f;
      std::memcpy(&f, data + e * 4, 4);  // the mapping may be unaligned
      return double(f);
    }
    double v;
    std::memcpy(&v, data + e * 8, 8);
    return v;
  };
  const Ranges pieces(n, 4 * std::size_t(host_threads()), std::size_t(1) << 14);
  std::vector<std::size_t> first_bad(pieces.count, n * d);
  parallel_for(pieces.count, [&](std::size_t p) {
    for (std::size_t i = pieces.begin(p); i < pieces.end(p); ++i)
      for (std::size_t k = 0; k < d; ++k) {
        const double v = element(i * d + k);
        if (!value_problem(v, k, spec).empty()) {
          first_bad[p] = i * d + k;
          return;
        }
        table.at(i, int(k)) = float(v);
      }
  });
  for (std::size_t bad : first_bad)
    if (bad < n * d) {
      const double v = element(bad);
      char text[32];
      const auto end = std::to_chars(text, text + sizeof text, v).ptr;
      throw InputError(path + ": element [" + str(bad / d) + ", " + str(bad % d) + "] (" +
                       std::string(text, end) + ") " + value_problem(v, bad % d, spec) +
                       " (the file holds " + header.descr + ")");
    }
  return table;
}

}  // namespace treefix::detail
