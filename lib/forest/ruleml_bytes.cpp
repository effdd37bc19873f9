// RuleML files' bytes on host threads, for the device parser: the host reader's listing and
// reading (forest/ruleml_listing.hpp), each chunk of files appended into one string, then the
// names sorted on the same threads.
#include "forest/ruleml_bytes.hpp"

#include <chrono>
#include <memory>
#include <numeric>

#include "forest/name_order.hpp"
#include "forest/ruleml_listing.hpp"
#include "forest/unfilled_array.hpp"
#include "treefix/core/parallel.hpp"

namespace treefix::detail {

namespace {

using Clock = std::chrono::steady_clock;

// A chunk's files back to back; file i ends at end[i].
struct ChunkBytes {
  std::string bytes;
  std::vector<std::uint64_t> end;
  std::vector<FileFailure> failures;  // its files that could not be read
};

void read_chunk(const Source& source, std::size_t first_index, const NameChunk& names,
                FileReader& reader, ChunkBytes& out) {
  out.end.reserve(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::string& path = reader.path;
    path.assign(source.directory);
    if (!path.empty()) path += '/';
    path += names.name(i);
    try {
      const std::size_t length = reader.read(source, names.c_str(i), path);
      if (out.bytes.capacity() < out.bytes.size() + length)
        out.bytes.reserve(std::max(2 * out.bytes.capacity(), out.bytes.size() + length));
      out.bytes.append(reader.bytes.data(), length);
    } catch (const Error& e) {
      out.failures.push_back({first_index + i, e.what()});  // the caller picks the first by name
    }
    out.end.push_back(out.bytes.size());
  }
}

}  // namespace

RuleMLBytes read_ruleml_bytes(const std::string& dir_or_file, unsigned threads) {
  struct stat info {};
  if (::stat(dir_or_file.c_str(), &info) != 0)
    throw InputError(dir_or_file + ": no such file or directory");
  const bool directory = S_ISDIR(info.st_mode);
  const Source source{directory ? dir_or_file : "", directory};
  std::unique_ptr<OpenDirectory> listing;
  if (directory) listing = std::make_unique<OpenDirectory>(dir_or_file);

  if (threads == 0) threads = host_threads();
  ChunkQueue<ChunkBytes> queue;
  std::vector<double> read_ms(threads, 0.0);
  RuleMLBytes out;
  const Clock::time_point start = Clock::now();
  run_on_threads(threads, [&](unsigned thread) {
    if (thread == 0) {
      try {
        if (listing) {
          listing->list_into(dir_or_file, queue);
        } else {
          NameChunk one;
          one.add(dir_or_file);
          queue.publish(std::move(one));
        }
      } catch (...) {
        queue.finish();
        throw;
      }
      queue.finish();
      out.list_ms = ms_between(start, Clock::now());
    }
    FileReader reader(source);
    std::size_t k;
    const NameChunk* names;
    ChunkBytes* bytes;
    std::size_t last = 0;  // the previous chunk's size is a good guess for the next
    while (queue.take(k, names, bytes)) {
      const Clock::time_point begin = Clock::now();
      bytes->bytes.reserve(last + last / 4);
      read_chunk(source, k * chunk_files, *names, reader, *bytes);
      last = bytes->bytes.size();
      read_ms[thread] += ms_between(begin, Clock::now());
    }
  });
  const Clock::time_point read = Clock::now();
  out.read_ms = ms_between(start, read);
  out.read_thread_ms = std::accumulate(read_ms.begin(), read_ms.end(), 0.0);

  const auto& chunks = queue.chunks();
  std::size_t count = 0;
  for (const NameChunk& chunk : chunks) count += chunk.size();
  UnfilledArray<NameRef> names(count);
  parallel_for(chunks.size(), threads, [&](std::size_t k) {
    for (std::size_t i = 0; i < chunks[k].size(); ++i) {
      const std::string_view name = chunks[k].name(i);
      names[k * chunk_files + i] = {name.data(), static_cast<std::uint32_t>(name.size())};
    }
  });
  std::vector<std::uint32_t> order;
  if (directory) {
    order = sorted_order(names.begin(), count, threads);
  } else {
    order.resize(count);
    std::iota(order.begin(), order.end(), 0u);
  }
  FirstFailure first_failure(chunks, directory);
  for (const ChunkBytes& chunk : queue.results()) first_failure.consider_all(chunk.failures);
  first_failure.throw_if_any();

  out.chunk_offset.assign(chunks.size() + 1, 0);
  for (std::size_t k = 0; k < chunks.size(); ++k)
    out.chunk_offset[k + 1] = out.chunk_offset[k] + queue.results()[k].bytes.size();
  out.file_begin.resize(count);
  out.file_end.resize(count);
  out.names.resize(count);
  const Ranges slices(count, threads * 4, 256);
  parallel_for(slices.count, threads, [&](std::size_t s) {
    for (std::size_t j = slices.begin(s); j < slices.end(s); ++j) {
      const std::size_t k = order[j] / chunk_files, i = order[j] % chunk_files;
      const ChunkBytes& c = queue.results()[k];
      out.file_begin[j] = out.chunk_offset[k] + (i ? c.end[i - 1] : 0);
      out.file_end[j] = out.chunk_offset[k] + c.end[i];
      out.names[j] = std::string(names[order[j]].view());
    }
  });
  out.chunks.resize(chunks.size());
  for (std::size_t k = 0; k < chunks.size(); ++k)
    out.chunks[k] = std::move(queue.results()[k].bytes);
  out.names_ms = ms_between(read, Clock::now());
  return out;
}

}  // namespace treefix::detail
