#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets: corpus/<target>/<seed>.

Run from this folder: python3 make_seeds.py. The seeds are committed (the fuzzers and CTest need
no Python); rerun after editing a seed here. Seeds are small (the fuzzers run with -max_len 4096):
the small files of tests/data, the first lines of the large ones, and hand-made edge cases of
each format, good and bad, so that every branch of a reader is a few mutations away.
Needs only the standard library (no NumPy: .npy headers are written by hand).
"""
import os
import shutil
import struct
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")
CORPUS = os.path.join(HERE, "corpus")


def seed(target, name, content):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    if isinstance(content, str):
        content = content.encode()
    with open(os.path.join(folder, name), "wb") as out:
        out.write(content)


def data_file(target, path, lines=None):
    with open(os.path.join(DATA, path), "rb") as f:
        content = f.read()
    if lines is not None:
        content = b"".join(content.splitlines(keepends=True)[:lines])
    seed(target, os.path.basename(path), content)


def npy(descr, shape, payload, version=1, fortran=False):
    """A .npy file with a hand-written header (the format NumPy's np.save writes)."""
    dims = "".join(f"{d}, " for d in shape) if len(shape) == 1 else ", ".join(map(str, shape))
    header = f"{{'descr': '{descr}', 'fortran_order': {fortran}, 'shape': ({dims}), }}"
    prefix = 10 if version == 1 else 12
    header += " " * ((-(prefix + len(header) + 1)) % 64) + "\n"
    length = struct.pack("<H", len(header)) if version == 1 else struct.pack("<I", len(header))
    return b"\x93NUMPY" + bytes([version, 0]) + length + header.encode("latin1") + payload


def pack(fmt, values):
    return struct.pack("<" + fmt * len(values), *values)


def csr_binary(n, offsets, columns, flags=1, version=1):
    header = b"\x89TFXCSR\n" + struct.pack("<IIqqII", version, flags, n, len(columns), 8, 4)
    header += b"\0" * (64 - len(header))
    return header + pack("q", offsets) + pack("i", columns)


def npz(members, compress):
    """A zip of .npy members as scipy.sparse.save_npz writes it."""
    from io import BytesIO

    buffer = BytesIO()
    method = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, content in members.items():  # a fixed date: the same bytes on every run
            member = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            archive.writestr(member, content, compress_type=method)
    return buffer.getvalue()


def trees():
    data_file("tree", "sample.tree")
    seed("tree", "empty", "")
    seed("tree", "zero", "0\n")
    seed("tree", "single", "1\n-1\n")
    seed("tree", "path_comments", "# a path\n4 # vertices\n-1\n0\n1\n2\n")
    seed("tree", "forest_crlf", "5\r\n-1 0 -1 2 2\r\n")
    seed("tree", "cycle", "3\n1\n2\n0\n")
    seed("tree", "self_parent", "2\n-1\n1\n")
    seed("tree", "out_of_range", "3\n-1\n0\n7\n")
    seed("tree", "negative_parent", "3\n-1\n-2\n0\n")
    seed("tree", "truncated", "5\n-1\n0\n")
    seed("tree", "extra", "2\n-1\n0\n1\n")
    seed("tree", "word", "3\n-1\nzero\n0\n")
    seed("tree", "huge_count", "2000000000\n-1\n")
    seed("tree", "negative_count", "-5\n")
    seed("tree", "overflow", "2\n-1\n99999999999999999999\n")
    seed("tree", "float", "2\n-1\n0.5\n")


def newick():
    seed("newick", "worked", "((A:1,B:2)C:0.5,D:3)root;\n")
    seed("newick", "quoted_comments", "('it''s a':1[&&NHX:x=1],[c]'B c':2.5e-3)'r o':0.1;")
    seed("newick", "forest", "(A,B);\n(C,(D,E));\n;\n")
    seed("newick", "unary", "(((A)))B;")
    seed("newick", "multifurcation", "(A:1,B:2,C:3,D:4,E:5)F;")
    seed("newick", "whitespace", "(\n  A : 1 ,\n  B : 2\n) R : 0 ;\n")
    seed("newick", "negative_exponent", "(A:-0.5,B:1E+2,C:.5)D:1e-3;")
    seed("newick", "unbalanced_open", "((A,B);")
    seed("newick", "unbalanced_close", "(A,B));")
    seed("newick", "no_semicolon", "(A,B)C")
    seed("newick", "bad_length", "(A:x,B)C;")
    seed("newick", "nan_length", "(A:nan,B:inf)C;")
    seed("newick", "overflow_length", "(A:1e400)C;")
    seed("newick", "open_quote", "('A,B)C;")
    seed("newick", "open_comment", "(A,B)[C;")
    seed("newick", "empty", "")
    with open(os.path.join(DATA, "birds_gumbs2022.nwk"), "rb") as f:
        seed("newick", "birds_prefix", f.read(3000))  # a real tree, cut (unbalanced)


def weights():
    data_file("weights", "sample.weights")
    seed("weights", "floats", "0.1 -2.5e3\n1e-40\n")
    seed("weights", "comments", "# w\n1 2 # two\n3\n")
    seed("weights", "nonfinite", "nan inf -inf\n")
    seed("weights", "float_overflow", "1e39 3.4028235e38 -3.5e38\n")
    seed("weights", "double_overflow", "1e400 -1e400 4.9e-324\n")
    seed("weights", "int_limits", "2147483647 -2147483648 2147483648\n")
    seed("weights", "int64_limits", "9223372036854775807 -9223372036854775808 9223372036854775808\n")
    seed("weights", "words", "1 two 3\n")
    seed("weights", "hex_and_signs", "0x10 +5 --1\n")
    seed("weights", "empty", "")


def npy_seeds():
    seed("npy", "parents_i4", npy("<i4", (5,), pack("i", [-1, 0, 0, 1, 1])))
    seed("npy", "parents_i8", npy("<i8", (4,), pack("q", [-1, 0, 1, 2])))
    seed("npy", "weights_f4", npy("<f4", (3,), pack("f", [0.5, -1.25, 3.0])))
    seed("npy", "weights_f8", npy("<f8", (3,), pack("d", [0.1, 2.0, 1e300])))
    seed("npy", "nonfinite_f8", npy("<f8", (3,), pack("d", [float("nan"), float("inf"), 1.0])))
    seed("npy", "points_f4", npy("<f4", (4, 3), pack("f", [float(i) for i in range(12)])))
    seed("npy", "bodies_f8", npy("<f8", (2, 7), pack("d", [1, 0, 0, 0, 0, 0, 0, 2, 1, 1, 1, 0, 0, 0])))
    seed("npy", "version2", npy("<i8", (2,), pack("q", [-1, 0]), version=2))
    seed("npy", "version3", npy("<i4", (2,), pack("i", [-1, 0]), version=3))
    seed("npy", "big_endian", npy(">i4", (2,), struct.pack(">ii", -1, 0)))
    seed("npy", "fortran_2d", npy("<f4", (2, 3), pack("f", [0.0] * 6), fortran=True))
    seed("npy", "uint8", npy("|u1", (3,), bytes([0, 1, 2])))
    seed("npy", "unicode", npy("<U3", (1,), "abc".encode("utf-32-le")))
    seed("npy", "scalar", npy("<f8", (), pack("d", [1.0])))
    seed("npy", "truncated", npy("<i8", (100,), pack("q", [0, 1])))
    seed("npy", "trailing_bytes", npy("<i4", (1,), pack("i", [-1, 7])))
    seed("npy", "huge_shape", npy("<f8", (2**62,), b""))
    seed("npy", "zero_length", npy("<i4", (0,), b""))
    seed("npy", "three_dims", npy("<f4", (1, 2, 2), pack("f", [0.0] * 4)))
    seed("npy", "bad_magic", b"\x93NUMPX\x01\x00" + b"\x00" * 8)


def graphs():
    for name in ("petersen.mtx", "directed_real.mtx"):
        data_file("matrix_market", name)
    data_file("matrix_market", "graphs/luxembourg_excerpt.mtx", lines=40)
    mm = "%%MatrixMarket matrix coordinate "
    seed("matrix_market", "integer_skew", mm + "integer skew-symmetric\n3 3 2\n2 1 5\n3 2 -1\n")
    seed("matrix_market", "complex_hermitian", mm + "complex hermitian\n2 2 2\n1 1 1 0\n2 1 1.5 -2\n")
    seed("matrix_market", "not_square", mm + "pattern general\n2 3 1\n1 3\n")
    seed("matrix_market", "array_format", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n")
    seed("matrix_market", "no_banner", "3 3 1\n1 2\n")
    seed("matrix_market", "out_of_range", mm + "pattern general\n3 3 1\n4 1\n")
    seed("matrix_market", "zero_index", mm + "pattern general\n3 3 1\n0 1\n")
    seed("matrix_market", "missing_entries", mm + "pattern general\n3 3 5\n1 2\n")
    seed("matrix_market", "extra_entries", mm + "pattern general\n3 3 1\n1 2\n2 3\n")
    seed("matrix_market", "huge_header", mm + "pattern general\n2000000000 2000000000 1\n1 2\n")
    seed("matrix_market", "bad_value", mm + "real general\n2 2 1\n1 2 x\n")

    data_file("metis", "two_triangles.graph")
    data_file("metis", "weighted.graph")
    seed("metis", "vertex_sizes", "3 2 100\n7 2\n9 1 3\n4 2\n")
    seed("metis", "constraints", "2 1 010 2\n1 1 2\n3 4 1\n")
    seed("metis", "isolated", "3 0\n\n\n\n")
    seed("metis", "too_few_lines", "4 2\n2\n1 3\n")
    seed("metis", "odd_degree_sum", "3 2\n2\n1\n\n")
    seed("metis", "out_of_range", "2 1\n3\n1\n")
    seed("metis", "bad_fmt", "2 1 2\n2\n1\n")
    seed("metis", "huge_header", "2000000000 1\n2\n")
    seed("metis", "empty", "")

    seed("edge_list", "path", "0 1\n1 2\n2 3\n")
    seed("edge_list", "comments", "# SNAP\n% mtx-like\n0 1 # tail\n\n1 2\n")
    seed("edge_list", "loops_and_repeats", "0 0\n0 1\n1 0\n0 1\n")
    seed("edge_list", "forest", "0 1\n0 2\n3 4\n6 5\n")
    seed("edge_list", "cycle", "0 1\n1 2\n2 0\n")
    seed("edge_list", "one_column", "0 1\n2\n")
    seed("edge_list", "negative", "0 -1\n")
    seed("edge_list", "huge_id", "0 2000000000\n")
    seed("edge_list", "int64_id", "0 9223372036854775807\n")
    seed("edge_list", "words", "a b\n")
    seed("edge_list", "tabs_crlf", "0\t1\r\n1\t2\r\n")

    for name in ("petersen_stored.npz", "petersen_compressed.npz", "directed_int64_unsorted.npz",
                 "petersen_coo.npz"):
        data_file("graph_binary", "npz/" + name)
    triangle = dict(
        indptr=npy("<i4", (4,), pack("i", [0, 2, 4, 6])),
        indices=npy("<i4", (6,), pack("i", [1, 2, 0, 2, 0, 1])),
        data=npy("|b1", (6,), bytes([1] * 6)),
        format=npy("<U3", (), "csr".encode("utf-32-le")),
        shape=npy("<i8", (2,), pack("q", [3, 3])),
    )
    seed("graph_binary", "triangle_stored.npz", npz(triangle, False))
    seed("graph_binary", "triangle_deflated.npz", npz(triangle, True))
    seed("graph_binary", "triangle.csr", csr_binary(3, [0, 2, 4, 6], [1, 2, 0, 2, 0, 1]))
    seed("graph_binary", "directed.csr", csr_binary(3, [0, 1, 1, 2], [1, 0], flags=0))
    seed("graph_binary", "unsorted.csr", csr_binary(2, [0, 2, 2], [1, 1], flags=0))
    seed("graph_binary", "bad_offsets.csr", csr_binary(2, [0, 3, 1], [1, 0], flags=0))
    seed("graph_binary", "empty.csr", csr_binary(0, [0], []))


def points():
    data_file("points", "dragon_scan_2k.xyz", lines=20)
    seed("points", "text_2d", "3 2\n0 0\n1 1\n2.5 -3\n")
    seed("points", "text_16d", "1 16\n" + " ".join(["1"] * 16) + "\n")
    seed("points", "bodies", "# mass x y z vx vy vz\n2 7\n1 0 0 0 0 0 0\n2 1 1 1 0.1 0 0\n")
    seed("points", "xyz_comments", "# scan\n1 2 3\n4 5 6 # end\n")
    seed("points", "ragged", "2 3\n1 2 3\n4 5\n6\n")
    seed("points", "too_many_dims", "1 17\n" + " ".join(["0"] * 17) + "\n")
    seed("points", "float_overflow", "1 3\n1e39 0 0\n")
    seed("points", "nonfinite", "1 3\nnan inf 0\n")
    seed("points", "negative_mass", "1 7\n-1 0 0 0 0 0 0\n")
    seed("points", "truncated", "5 3\n1 2 3\n")
    seed("points", "huge_count", "2000000000 3\n0 0 0\n")
    seed("points", "empty", "")


def ruleml():
    folder = os.path.join(DATA, "ruleml")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".xml"):
            data_file("ruleml", "ruleml/" + name)
    for name in sorted(os.listdir(os.path.join(folder, "bad"))):
        data_file("ruleml", "ruleml/bad/" + name)
    seed("ruleml", "ind_only.xml", "<ind>Leaf</ind>")
    seed("ruleml", "nested.xml",
         '<cterm><_opc><ctor>A</ctor></_opc><_r n="x" w="1"><cterm><_opc><ctor>B</ctor></_opc>'
         '<_r n="y" w="1"><ind>C</ind></_r></cterm></_r></cterm>')
    seed("ruleml", "entities.xml",
         '<cterm><_opc><ctor>&lt;A&amp;</ctor></_opc><_r n="&quot;" w="1.0"><ind>&#65;</ind></_r></cterm>')
    seed("ruleml", "bad_weights.xml",
         '<cterm><_opc><ctor>A</ctor></_opc><_r n="x" w="nan"><ind>B</ind></_r>'
         '<_r n="y" w="1e400"><ind>C</ind></_r></cterm>')
    seed("ruleml", "unknown_element.xml", "<cterm><_opc><ctor>A</ctor></_opc><foo/></cterm>")
    seed("ruleml", "wrong_root.xml", "<root/>")
    seed("ruleml", "empty.xml", "")

    data_file("xml_tree", "xml/khronos_gl_excerpt.xml", lines=60)
    data_file("xml_tree", "ruleml/car_engine.xml")
    seed("xml_tree", "weights.xml", '<a w="1"><b w="2.5">text</b><c w="x"/><![CDATA[cdata]]></a>')
    seed("xml_tree", "pi_comment.xml", "<?xml version='1.0'?><!--c--><?pi x?><r><s/></r>")
    seed("xml_tree", "unclosed.xml", "<a><b></a>")
    seed("xml_tree", "no_element.xml", "<?xml version='1.0'?><!-- nothing -->")
    seed("xml_tree", "deep.xml", "<a>" * 200 + "</a>" * 200)


def forests():
    seed("forest", "linear", "# two trees\n2\n3\n-1 0 0\n1\n-1\n")
    seed("forest", "linear_deep", "1\n5\n-1 0 1 2 3\n")
    seed("forest", "binary", "1\n3\n1 2\n-1 -1\n-1 -1\n")
    seed("forest", "binary_two", "2\n1\n-1 -1\n2\n1 -1\n-1 -1\n")
    seed("forest", "cycle", "1\n2\n1 0\n")
    seed("forest", "two_roots", "1\n2\n-1 -1\n")
    seed("forest", "out_of_range", "1\n2\n-1 5\n")
    seed("forest", "shared_child", "1\n3\n1 1\n-1 -1\n-1 -1\n")
    seed("forest", "truncated", "3\n2\n-1 0\n")
    seed("forest", "zero_trees", "0\n")
    # A tree count far beyond the file: crashes/forest/ (read_binary_forest allocates first).
    seed("forest", "empty", "")


if __name__ == "__main__":
    shutil.rmtree(CORPUS, ignore_errors=True)
    trees()
    newick()
    weights()
    npy_seeds()
    graphs()
    points()
    ruleml()
    forests()
