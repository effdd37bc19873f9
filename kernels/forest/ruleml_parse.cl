// ruleml_parse.cl: RuleML files (treefix/forest/ruleml.hpp) parsed into a linear forest on the
// device, one work-item per file, the files back to back in one byte buffer.
//
// The scanner takes the plain form of the format, which is what writers produce: an optional
// XML declaration, then <cterm>, <_opc>, <ctor>, <_r n=".." w=".."> and <ind> elements with
// blanks and comments between them, attributes in double or single quotes, decimal weights.
// Anything else (comments inside labels, CDATA, entities such as &amp;, carriage returns in
// labels, a sign or more than 2^53 in a weight's digits, a tree deeper than MAX_DEPTH, a node
// with more than MAX_SIBLINGS children) and every error (malformed XML, a missing label, a
// weight outside [0, 1] ...) make the scanner give up on the file: the host then reads the
// whole input with pugixml (forest/ruleml_forest.cpp), which either reads it or names the file,
// line and element that is wrong. So whatever the device accepts, the host reader would read to
// the same forest.
//
//   ruleml_measure  per file: its node count, 0 where the scanner gives up
//   ruleml_write    per file: its nodes breadth-first from first_node[file] on (the host's order:
//                   level by level, each level in document order), parent links, label and arc
//                   spans (occurrence 2v is node v's label, 2v + 1 its arc's), raw weights
//   forest_links    per node: first child and next sibling from the parent links
//   label_hash      per occurrence: FNV-1a of its bytes
//   label_intern    per occurrence: its label id, the first occurrence of the same bytes to claim
//                   a slot of an open-addressing table (lock-free linear probing: a slot is
//                   claimed once by atomic_cmpxchg and never changes, so no work-item waits for
//                   another)
//   label_find      per query string: the id of equal bytes in the table, -1 when absent
//   forest_weights  per node: its arcs' weights checked (sum within WEIGHT_TOLERANCE of 1, arc
//                   labels distinct) and renormalised, in the host's order and precision
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#ifndef MAX_DEPTH
#define MAX_DEPTH 32
#endif
#ifndef MAX_SIBLINGS
#define MAX_SIBLINGS 64
#endif
#ifndef WEIGHT_TOLERANCE
#define WEIGHT_TOLERANCE 1e-3
#endif
#define NO_SPAN 0xffffffffu

inline int is_blank(uchar c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
inline int is_digit(uchar c) { return c >= '0' && c <= '9'; }
inline int is_name_start(uchar c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || c >= 0x80;
}
inline int is_name_char(uchar c) { return is_name_start(c) || is_digit(c) || c == '-' || c == '.'; }

inline uint skip_blanks(global const uchar* b, uint at, const uint end) {
  while (at < end && is_blank(b[at])) ++at;
  return at;
}

// Blanks and comments ("<!--" to "-->" with no "--" inside, as XML wants) from `at`: the position
// after them, or end + 1 (past the end: every later step fails) where a comment does not close.
inline uint skip_filler(global const uchar* b, uint at, const uint end) {
  for (;;) {
    at = skip_blanks(b, at, end);
    if (!(at + 3 < end && b[at] == '<' && b[at + 1] == '!' && b[at + 2] == '-' && b[at + 3] == '-'))
      return at;
    uint p = at + 4;
    while (p + 1 < end && !(b[p] == '-' && b[p + 1] == '-')) ++p;
    if (p + 2 >= end || b[p + 2] != '>') return end + 1;
    at = p + 3;
  }
}

inline int same_name(global const uchar* b, const uint at, const uint length, constant char* name,
                     const uint name_length) {
  if (length != name_length) return 0;
  for (uint i = 0; i < length; ++i)
    if (b[at + i] != (uchar)name[i]) return 0;
  return 1;
}

// An opening tag at `at` ('<' and a name start): its name and, if present once each, the spans of
// its attributes n and w. Returns the position after its '>', or 0 where the scanner gives up (a
// self-closing tag, which no element of the format may be; a malformed tag; a value with '&',
// '<' or a control character; n or w twice).
uint open_tag(global const uchar* b, uint at, const uint end, uint* name_at, uint* name_length,
              uint* n_at, uint* n_length, uint* w_at, uint* w_length) {
  if (at + 1 >= end || b[at] != '<' || !is_name_start(b[at + 1])) return 0;
  uint p = at + 1;
  *name_at = p;
  while (p < end && is_name_char(b[p])) ++p;
  *name_length = p - *name_at;
  *n_length = *w_length = NO_SPAN;
  for (;;) {
    const uint before = p;
    p = skip_blanks(b, p, end);
    if (p >= end) return 0;
    if (b[p] == '>') return p + 1;
    if (p == before || !is_name_start(b[p])) return 0;  // '/>' included
    const uint attribute_at = p;
    while (p < end && is_name_char(b[p])) ++p;
    const uint attribute_length = p - attribute_at;
    p = skip_blanks(b, p, end);
    if (p >= end || b[p] != '=') return 0;
    p = skip_blanks(b, p + 1, end);
    if (p >= end || (b[p] != '"' && b[p] != '\'')) return 0;
    const uchar quote = b[p++];
    const uint value_at = p;
    while (p < end && b[p] != quote) {
      const uchar c = b[p];
      if (c == '&' || c == '<' || c < 0x20) return 0;
      ++p;
    }
    if (p >= end) return 0;
    const uint value_length = p - value_at;
    ++p;
    if (attribute_length == 1 && b[attribute_at] == 'n') {
      if (*n_length != NO_SPAN) return 0;
      *n_at = value_at;
      *n_length = value_length;
    } else if (attribute_length == 1 && b[attribute_at] == 'w') {
      if (*w_length != NO_SPAN) return 0;
      *w_at = value_at;
      *w_length = value_length;
    }
  }
}

// An opening tag named `name`, attributes ignored: the position after it, or 0.
uint open_named(global const uchar* b, const uint at, const uint end, constant char* name,
                const uint name_length) {
  uint name_at, length, n_at, n_length, w_at, w_length;
  const uint after = open_tag(b, at, end, &name_at, &length, &n_at, &n_length, &w_at, &w_length);
  return after && same_name(b, name_at, length, name, name_length) ? after : 0;
}

// "</name>" (blanks allowed before '>') at `at`: the position after it, or 0.
uint close_named(global const uchar* b, const uint at, const uint end, constant char* name,
                 const uint name_length) {
  if (at + 2 + name_length >= end || b[at] != '<' || b[at + 1] != '/') return 0;
  if (!same_name(b, at + 2, name_length, name, name_length)) return 0;
  const uint p = skip_blanks(b, at + 2 + name_length, end);
  return p < end && b[p] == '>' ? p + 1 : 0;
}

// A label's text from `at` to the next '<', blanks trimmed: its span, and the position of that
// '<'; 0 where it is empty or holds what pugixml would rewrite ('&' escapes, '\r' line ends).
uint label_text(global const uchar* b, const uint at, const uint end, uint* label_at,
                uint* label_length) {
  uint p = at;
  while (p < end && b[p] != '<') {
    if (b[p] == '&' || b[p] == '\r') return 0;
    ++p;
  }
  if (p >= end) return 0;
  uint first = at, last = p;
  while (first < last && is_blank(b[first])) ++first;
  while (last > first && is_blank(b[last - 1])) --last;
  if (first == last) return 0;
  *label_at = first;
  *label_length = last - first;
  return p;
}

constant double powers_of_ten[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// A weight "digits[.digits][e[+-]digits]" in [0, 1], converted exactly as std::from_chars does:
// when the digits make an integer m <= 2^53 and the decimal exponent e has |e| <= 22, both m and
// 10^|e| are exact doubles and one correctly rounded multiplication or division (IEEE, which
// OpenCL requires of double) gives the correctly rounded value (Clinger's fast path). Anything
// else: *ok = 0 (the host reader decides).
double parse_weight(global const uchar* b, uint p, const uint end, int* ok) {
  ulong m = 0;
  int digits = 0, fraction = 0, any = 0;
  *ok = 0;
  for (; p < end && is_digit(b[p]); ++p, any = 1) {
    if (m == 0 && b[p] == '0') continue;
    if (++digits > 17) return 0.0;
    m = m * 10 + (b[p] - '0');
  }
  if (p < end && b[p] == '.') {
    for (++p; p < end && is_digit(b[p]); ++p, any = 1) {
      ++fraction;
      if (m == 0 && b[p] == '0') continue;
      if (++digits > 17) return 0.0;
      m = m * 10 + (b[p] - '0');
    }
  }
  if (!any) return 0.0;
  int exponent = 0;
  if (p < end && (b[p] == 'e' || b[p] == 'E')) {
    ++p;
    int negative = 0;
    if (p < end && (b[p] == '+' || b[p] == '-')) negative = b[p++] == '-';
    if (p >= end || !is_digit(b[p])) return 0.0;
    for (; p < end && is_digit(b[p]); ++p) {
      if (exponent > 1000) return 0.0;
      exponent = exponent * 10 + (b[p] - '0');
    }
    if (negative) exponent = -exponent;
  }
  if (p != end) return 0.0;
  if (m > (1ul << 53)) return 0.0;
  const int e = exponent - fraction;
  double value;
  if (m == 0)
    value = 0.0;
  else if (e >= 0 && e <= 22)
    value = (double)m * powers_of_ten[e];
  else if (e < 0 && e >= -22)
    value = (double)m / powers_of_ten[-e];
  else
    return 0.0;
  if (!(value <= 1.0)) return 0.0;
  *ok = 1;
  return value;
}

#define GIVE_UP return 0u
#define STATE_TERM 0  // a term opens at `at`
#define STATE_BODY 1  // inside a <cterm> after its label: an arc or the end
#define STATE_DONE 2  // a term has ended
#define STATE_END 3   // the document element has ended

// Scans file [at, end) once: returns its node count, or 0 where the scanner gives up.
// Counting (write = 0): level[d] += the nodes at depth d. Writing: level[d] is the next
// breadth-first index at depth d, and the nodes are written from `base` on.
uint scan_file(global const uchar* b, uint at, const uint end, const int write, const uint base,
               uint* level, global int* parent, global uint* span_at, global uint* span_length,
               global double* raw_weight) {
  uint open_index[MAX_DEPTH];  // breadth-first index of the open term at each depth
  uint nodes = 0, depth = 0;
  uint arc_at = 0, arc_length = 0;  // the arc into the term that opens next
  double weight = 0.0;
  // The XML declaration ("<?xml" and a blank, at the first byte only, as pugixml skips it);
  // nothing else before the document element.
  if (at + 5 < end && b[at] == '<' && b[at + 1] == '?' && b[at + 2] == 'x' && b[at + 3] == 'm' &&
      b[at + 4] == 'l' && is_blank(b[at + 5])) {
    uint p = at + 6;
    while (p + 1 < end && !(b[p] == '?' && b[p + 1] == '>')) ++p;
    if (p + 1 >= end) GIVE_UP;
    at = p + 2;
  }
  at = skip_filler(b, at, end);
  int state = STATE_TERM;
  while (state != STATE_END) {
    if (state == STATE_TERM) {
      uint name_at, name_length, n_at, n_length, w_at, w_length;
      uint p = open_tag(b, at, end, &name_at, &name_length, &n_at, &n_length, &w_at, &w_length);
      if (!p || depth >= MAX_DEPTH) GIVE_UP;
      const int leaf = same_name(b, name_at, name_length, "ind", 3);
      if (!leaf && !same_name(b, name_at, name_length, "cterm", 5)) GIVE_UP;
      uint label_at, label_length;
      if (leaf) {
        p = label_text(b, p, end, &label_at, &label_length);
        if (!p || !(p = close_named(b, p, end, "ind", 3))) GIVE_UP;
      } else {
        p = open_named(b, skip_filler(b, p, end), end, "_opc", 4);
        if (!p || !(p = open_named(b, skip_filler(b, p, end), end, "ctor", 4))) GIVE_UP;
        p = label_text(b, p, end, &label_at, &label_length);
        if (!p || !(p = close_named(b, p, end, "ctor", 4))) GIVE_UP;
        if (!(p = close_named(b, skip_filler(b, p, end), end, "_opc", 4))) GIVE_UP;
      }
      const uint index = level[depth]++;
      ++nodes;
      if (write) {
        const uint v = base + index;
        parent[v] = depth ? (int)(base + open_index[depth - 1]) : -1;
        span_at[2 * v] = label_at;
        span_length[2 * v] = label_length;
        span_at[2 * v + 1] = arc_at;
        span_length[2 * v + 1] = depth ? arc_length : 0;
        raw_weight[v] = depth ? weight : 0.0;
      }
      open_index[depth] = index;
      at = p;
      state = leaf ? STATE_DONE : STATE_BODY;
    } else if (state == STATE_BODY) {
      at = skip_filler(b, at, end);
      if (at + 1 < end && b[at] == '<' && b[at + 1] == '/') {
        if (!(at = close_named(b, at, end, "cterm", 5))) GIVE_UP;
        state = STATE_DONE;
        continue;
      }
      uint name_at, name_length, n_at, n_length, w_at, w_length;
      const uint p =
          open_tag(b, at, end, &name_at, &name_length, &n_at, &n_length, &w_at, &w_length);
      if (!p || !same_name(b, name_at, name_length, "_r", 2)) GIVE_UP;
      if (n_length == NO_SPAN || n_length == 0 || w_length == NO_SPAN) GIVE_UP;
      int ok;
      weight = parse_weight(b, w_at, w_at + w_length, &ok);
      if (!ok) GIVE_UP;
      arc_at = n_at;
      arc_length = n_length;
      at = skip_filler(b, p, end);
      ++depth;
      state = STATE_TERM;
    } else {  // STATE_DONE
      if (depth == 0) {
        state = STATE_END;
        continue;
      }
      if (!(at = close_named(b, skip_filler(b, at, end), end, "_r", 2))) GIVE_UP;
      --depth;
      state = STATE_BODY;
    }
  }
  return skip_filler(b, at, end) == end ? nodes : 0u;
}

kernel void ruleml_measure(global const uchar* bytes, global const uint* file_begin,
                           global const uint* file_end, const uint files,
                           global uint* node_count) {
  const uint f = get_global_id(0);
  if (f >= files) return;
  uint level[MAX_DEPTH];
  for (uint d = 0; d < MAX_DEPTH; ++d) level[d] = 0;
  node_count[f] = scan_file(bytes, file_begin[f], file_end[f], 0, 0, level, 0, 0, 0, 0);
}

// first_node: files + 1 entries, the exclusive sum of the counts (every count non-zero).
kernel void ruleml_write(global const uchar* bytes, global const uint* file_begin,
                         global const uint* file_end, const uint files,
                         global const uint* first_node, global int* parent, global uint* span_at,
                         global uint* span_length, global double* raw_weight) {
  const uint f = get_global_id(0);
  if (f >= files) return;
  uint level[MAX_DEPTH];
  for (uint d = 0; d < MAX_DEPTH; ++d) level[d] = 0;
  scan_file(bytes, file_begin[f], file_end[f], 0, 0, level, 0, 0, 0, 0);
  uint start = 0;  // level d's first breadth-first index
  for (uint d = 0; d < MAX_DEPTH; ++d) {
    const uint count = level[d];
    level[d] = start;
    start += count;
  }
  scan_file(bytes, file_begin[f], file_end[f], 1, first_node[f], level, parent, span_at,
            span_length, raw_weight);
}

// first_child must be -1 everywhere before. A node's children are consecutive (breadth-first).
kernel void forest_links(global const int* parent, const uint n, global int* first_child,
                         global int* next_sibling) {
  const uint v = get_global_id(0);
  if (v >= n) return;
  const int p = parent[v];
  next_sibling[v] = p >= 0 && v + 1 < n && parent[v + 1] == p ? (int)v + 1 : -1;
  if (p >= 0 && parent[v - 1] != p) first_child[p] = v;  // p >= 0: v is no tree's first node
}

inline uint fnv1a(global const uchar* b, const uint at, const uint length) {
  uint h = 2166136261u;
  for (uint i = 0; i < length; ++i) h = (h ^ b[at + i]) * 16777619u;
  return h;
}

kernel void label_hash(global const uchar* bytes, global const uint* span_at,
                       global const uint* span_length, const uint count, global uint* hash) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  hash[i] = fnv1a(bytes, span_at[i], span_length[i]);
}

inline int same_bytes(global const uchar* a, const uint a_at, global const uchar* b,
                      const uint b_at, const uint length) {
  for (uint i = 0; i < length; ++i)
    if (a[a_at + i] != b[b_at + i]) return 0;
  return 1;
}

// table: mask + 1 slots (a power of two, more than the occurrences), zero before; a slot holds
// 1 + the occurrence that claimed it. Ids: that occurrence's index; -1 for a root's missing arc.
kernel void label_intern(global const uchar* bytes, global const uint* span_at,
                         global const uint* span_length, global const uint* hash,
                         const uint count, global uint* table, const uint mask,
                         global int* label, global int* arc) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const uint length = span_length[i];
  int id = -1;
  if (length > 0) {
    const uint h = hash[i], at = span_at[i];
    for (uint slot = h & mask;; slot = (slot + 1) & mask) {
      const uint seen = atomic_cmpxchg(&table[slot], 0u, i + 1);
      if (seen == 0) {
        id = (int)i;
        break;
      }
      const uint other = seen - 1;
      if (hash[other] == h && span_length[other] == length &&
          same_bytes(bytes, span_at[other], bytes, at, length)) {
        id = (int)other;
        break;
      }
    }
  }
  if (i & 1)
    arc[i >> 1] = id;
  else
    label[i >> 1] = id;
}

kernel void label_find(global const uchar* bytes, global const uint* span_at,
                       global const uint* span_length, global const uint* hash,
                       global const uint* table, const uint mask, global const uchar* query,
                       global const uint* query_at, global const uint* query_length,
                       const uint queries, global int* found) {
  const uint q = get_global_id(0);
  if (q >= queries) return;
  const uint at = query_at[q], length = query_length[q];
  const uint h = fnv1a(query, at, length);
  int id = -1;
  for (uint slot = h & mask; length > 0; slot = (slot + 1) & mask) {
    const uint seen = table[slot];
    if (seen == 0) break;
    const uint other = seen - 1;
    if (hash[other] == h && span_length[other] == length &&
        same_bytes(bytes, span_at[other], query, at, length)) {
      id = (int)other;
      break;
    }
  }
  found[q] = id;
}

// Per node: its arcs' weights summed in order (as the host's check does), checked, and each
// renormalised by the sum in double, then rounded to float (as the host's layout does). Roots'
// weights are 0. *bad = 1 where the host reader would refuse the tree (or, past MAX_SIBLINGS
// children, where the pairwise check of arc labels would cost too much here).
kernel void forest_weights(global const int* parent, global const int* first_child,
                           global const int* next_sibling, global const int* arc,
                           global const double* raw_weight, const uint n, global float* weight,
                           global int* bad) {
  const uint v = get_global_id(0);
  if (v >= n) return;
  if (parent[v] < 0) weight[v] = 0.0f;
  const int first = first_child[v];
  if (first < 0) return;
  double sum = 0.0;
  uint children = 0;
  for (int c = first; c >= 0; c = next_sibling[c]) {
    sum += raw_weight[c];
    ++children;
  }
  if (children > MAX_SIBLINGS || !(fabs(sum - 1.0) <= WEIGHT_TOLERANCE)) {
    *bad = 1;
    return;
  }
  for (int c = first; c >= 0; c = next_sibling[c])
    for (int d = next_sibling[c]; d >= 0; d = next_sibling[d])
      if (arc[c] == arc[d]) {
        *bad = 1;
        return;
      }
  for (int c = first; c >= 0; c = next_sibling[c]) weight[c] = (float)(raw_weight[c] / sum);
}
