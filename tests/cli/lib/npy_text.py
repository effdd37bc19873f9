"""Prints a .npy array, or the members of an .npz archive, as text, with the standard library
alone (the CLI scripts run where NumPy may be missing): 'name dtype shape' then the values, one
row per line (repr of floats, so -0.0 stays visible).

    python3 npy_text.py FILE.npy|FILE.npz
"""
import ast
import os
import struct
import sys
import zipfile

FORMATS = {"<i4": "i", "<i8": "q", "<f4": "f", "<f8": "d", "|u1": "B"}


def show(name, data):
    assert data[:6] == b"\x93NUMPY", name + ": not a .npy stream"
    major = data[6]
    length = struct.unpack("<H" if major == 1 else "<I", data[8:10] if major == 1 else data[8:12])[0]
    start = (10 if major == 1 else 12) + length
    header = ast.literal_eval(data[10 if major == 1 else 12:start].decode("latin1"))
    descr, shape = header["descr"], tuple(header["shape"])
    count = 1
    for s in shape:
        count *= s
    values = struct.unpack("<%d%s" % (count, FORMATS[descr]), data[start:])
    print(name, descr, shape)
    width = shape[-1] if len(shape) > 1 else 1
    for i in range(0, count, width):
        print(" ".join(repr(v) for v in values[i:i + width]))


path = sys.argv[1]
try:
    if path.endswith(".npz"):
        with zipfile.ZipFile(path) as archive:
            for member in archive.namelist():
                show(member[:-4], archive.read(member))
    else:
        with open(path, "rb") as f:
            show("array", f.read())
    sys.stdout.flush()
except BrokenPipeError:  # `| head -1` has what it wanted
    os._exit(0)
