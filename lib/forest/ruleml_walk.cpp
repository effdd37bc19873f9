// One RuleML document into a FlatTree while walking the pugixml DOM breadth-first.
#include "forest/ruleml_walk.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/io/text_io.hpp"

namespace treefix::detail {

namespace {

bool is_blank(const char* text) { return text[std::strspn(text, " \t\r\n")] == '\0'; }

// Element and attribute names are a few bytes: compared here, inline, rather than by a call.
bool same_name(const char* name, const char* expected) {
  while (*expected && *name == *expected) ++name, ++expected;
  return *name == *expected;
}

bool named(pugi::xml_node element, const char* name) { return same_name(element.name(), name); }

}  // namespace

std::size_t read_file_at(int directory_fd, const char* name, const std::string& path,
                         std::string& bytes, bool listed_regular) {
  // openat/read/close: a RuleML file is about a kilobyte, where a stream or a mapping costs more
  // than the bytes; relative to the directory's descriptor the kernel looks up one name, not the
  // whole path, for each of 10^5 files.
  const int fd = ::openat(directory_fd, name, O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path + ": cannot open: " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  // fstat only where nobody has checked the type (a file named by the user), and when the bytes
  // outgrow 16 MiB: a large file must be regular, and its bytes and pugixml's DOM (about 2.5
  // times the text) must fit what the host has available.
  const auto check = [&] {
    struct stat info {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode))
      throw InputError(path + ": cannot open: not a regular file");
    if (info.st_size > (16 << 20))
      require_host_memory(bytes_for(static_cast<std::uint64_t>(info.st_size), 7) / 2,
                          path + " (" + std::to_string(info.st_size) + " bytes of RuleML)");
    return static_cast<std::size_t>(info.st_size);
  };
  constexpr std::size_t checked_from = std::size_t(16) << 20;
  bool checked = !listed_regular;
  // One more byte than the file holds, so that the first read takes it all and the second finds
  // the end.
  const std::size_t wanted = (checked ? check() : 0) + 1;
  if (bytes.size() < wanted) bytes.resize(std::max<std::size_t>(wanted, 64 << 10));
  std::size_t done = 0;
  for (;;) {
    if (done == bytes.size()) {
      if (!checked && bytes.size() >= checked_from) {
        check();
        checked = true;
      }
      bytes.resize(2 * bytes.size());
    }
    const ssize_t got = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (got == 0) return done;
    if (got < 0) {
      if (errno == EINTR) continue;
      throw InputError(path + ": read error: " + std::strerror(errno));
    }
    done += static_cast<std::size_t>(got);
  }
}

void read_file_bytes(const std::string& path, std::string& bytes) {
  bytes.resize(read_file_at(AT_FDCWD, path.c_str(), path, bytes, false));
}

void RuleMLWalker::read(std::string_view text, const std::string& name, FlatTree& out) {
  text_ = text;
  name_ = &name;
  out.clear();
  term_.clear();
  // In place on the walker's own copy: `text` stays as it was, so that offsets (the same in both)
  // map to the lines a user sees, and no buffer is allocated per document. No comments,
  // declarations or processing instructions in the DOM.
  parsed_.assign(text.data(), text.size());
  const unsigned options = pugi::parse_cdata | pugi::parse_escapes | pugi::parse_eol;
  const pugi::xml_parse_result parsed =
      document_.load_buffer_inplace(parsed_.data(), parsed_.size(), options, pugi::encoding_utf8);
  if (parsed.status == pugi::status_no_document_element)
    throw InputError(name + ": no XML element (expected <cterm>)");
  if (!parsed) {
    const auto end = text.begin() + std::clamp<std::ptrdiff_t>(parsed.offset, 0, text.size());
    throw InputError(name + ":" + std::to_string(1 + std::count(text.begin(), end, '\n')) +
                     ": malformed XML: " + parsed.description());
  }
  pugi::xml_node top = document_.document_element();
  if (!top) throw InputError(name + ": no XML element (expected <cterm>)");
  for (pugi::xml_node extra = top.next_sibling(); extra; extra = extra.next_sibling())
    if (extra.type() == pugi::node_element) fail(extra, "a second document element");
  term_.push_back(top);
  out.add(-1, {}, {}, 0.0);
  for (std::size_t q = 0; q < term_.size(); ++q) read_term(q, out);
  check_flat_tree(out, [this](std::size_t node, bool arc) { return describe(node, arc); });
}

std::string RuleMLWalker::describe(pugi::xml_node e) const {
  const std::ptrdiff_t offset = std::clamp<std::ptrdiff_t>(e.offset_debug(), 0, text_.size());
  std::string d = *name_ + ":" +
                  std::to_string(1 + std::count(text_.begin(), text_.begin() + offset, '\n')) +
                  ": element <" + e.name();
  for (pugi::xml_attribute a : e.attributes())
    d += " " + std::string(a.name()) + "=\"" + a.value() + "\"";
  return d + ">";
}

std::string RuleMLWalker::describe(std::size_t node, bool arc) const {
  // A node's arc is the <_r> around its term; a node is its <cterm> (or <ind>).
  return describe(arc ? term_.at(node).parent() : term_.at(node));
}

void RuleMLWalker::fail(pugi::xml_node e, const std::string& message) const {
  throw InputError(describe(e) + ": " + message);
}

pugi::xml_node RuleMLWalker::element_from(pugi::xml_node parent, pugi::xml_node c) const {
  for (; c; c = c.next_sibling()) {
    const auto type = c.type();
    if (type == pugi::node_element) return c;
    if ((type == pugi::node_pcdata || type == pugi::node_cdata) && !is_blank(c.value()))
      fail(parent, "unexpected text '" + std::string(c.value()).substr(0, 40) + "'");
  }
  return c;
}

std::string_view RuleMLWalker::label_text(pugi::xml_node e) const {
  for (pugi::xml_node c = e.first_child(); c; c = c.next_sibling())
    if (c.type() == pugi::node_element) fail(e, "a label may not contain elements");
  const std::string_view v = e.text().get();
  const auto b = v.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) fail(e, "empty label");
  return v.substr(b, v.find_last_not_of(" \t\r\n") - b + 1);
}

void RuleMLWalker::read_term(std::size_t index, FlatTree& out) {
  const pugi::xml_node e = term_[index];
  if (named(e, "ind")) {
    out.label[index] = label_text(e);
    return;
  }
  if (!named(e, "cterm")) fail(e, "expected <cterm> or <ind>");
  const pugi::xml_node opc = element_from(e, e.first_child());
  if (!opc || !named(opc, "_opc"))
    fail(e, "the first child must be <_opc><ctor>label</ctor></_opc>");
  const pugi::xml_node ctor = element_from(opc, opc.first_child());
  if (!ctor || !named(ctor, "ctor") || element_from(opc, ctor.next_sibling()))
    fail(opc, "expected exactly one <ctor> inside");
  out.label[index] = label_text(ctor);
  const auto parent = static_cast<vertex_t>(index);
  for (pugi::xml_node r = element_from(e, opc.next_sibling()); r;
       r = element_from(e, r.next_sibling())) {
    if (!named(r, "_r"))
      fail(r, "unexpected element (a <cterm> holds one <_opc> and then <_r> arcs)");
    pugi::xml_attribute n, w;  // the first of each name, as xml_node::attribute finds them
    for (pugi::xml_attribute a = r.first_attribute(); a; a = a.next_attribute()) {
      if (!n && same_name(a.name(), "n")) n = a;
      if (!w && same_name(a.name(), "w")) w = a;
    }
    if (!n || !*n.value()) fail(r, "missing arc label (attribute n)");
    if (!w) fail(r, "missing weight (attribute w)");
    double weight = 0;
    if (const char* problem = parse_value(w.value(), weight); *problem)
      fail(r, "weight '" + std::string(w.value()) + "' " + problem);
    const pugi::xml_node inner = element_from(r, r.first_child());
    if (!inner || element_from(r, inner.next_sibling()))
      fail(r, "expected exactly one <cterm> or <ind> inside");
    term_.push_back(inner);
    out.add(parent, {}, n.value(), weight);
  }
}

}  // namespace treefix::detail
