#!/usr/bin/env python3
"""Makes the .npz fixtures of tests/test_graph_formats.cpp with SciPy's own writer.

Run from this folder: python3 make_fixtures.py (made with Debian 12's python3-scipy 1.10.1 and
python3-numpy 1.24.2). The files are committed; the tests need no Python.
"""
import numpy as np
import scipy.io
import scipy.sparse as sp

# The Petersen graph (../petersen.mtx, symmetric pattern), as save_npz writes it by default
# (compressed=True: zlib members) and uncompressed (stored members).
petersen = scipy.io.mmread("../petersen.mtx").tocsr()
sp.save_npz("petersen_compressed.npz", petersen, compressed=True)
sp.save_npz("petersen_stored.npz", petersen, compressed=False)

# A directed 5-vertex matrix as a user might hand it over: rows unsorted, a duplicate entry
# (row 0 lists 2 twice), diagonal entries (1,1) and (4,4), float values, int64 index arrays.
# As a graph: 0 -> {1, 2, 3}, 1 -> {0}, 2 -> {}, 3 -> {4}, 4 -> {}.
indptr = np.array([0, 4, 6, 6, 7, 8], dtype=np.int64)
indices = np.array([3, 2, 1, 2, 1, 0, 4, 4], dtype=np.int64)
data = np.array([1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
directed = sp.csr_matrix((data, indices, indptr), shape=(5, 5))
directed.indices = indices  # keep int64 (SciPy would narrow them to int32)
directed.indptr = indptr
sp.save_npz("directed_int64_unsorted.npz", directed, compressed=False)

# Not a CSR matrix: refused with a message.
sp.save_npz("petersen_coo.npz", petersen.tocoo(), compressed=True)
