"""The type stubs (treefix/__init__.pyi) describe the module as built: mypy's stubtest finds every
public name in both with the same kind, and every function's and method's parameters (names,
order, which are keyword-only, defaults) are those of the module's own signatures.

When the module's interface changes, these tests name what differs; the stubs are then brought in
step by hand (types are not in the compiled module's signatures, only in the stubs).
"""
import ast
import importlib.util
import inspect
import os
import pathlib
import re
import subprocess
import sys

import pytest

import treefix

STUB = pathlib.Path(treefix.__file__).with_name("__init__.pyi")
# (find_spec of a submodule imports its package: ask for mypy first)
mypy_stubtest = importlib.util.find_spec("mypy") and importlib.util.find_spec("mypy.stubtest")


@pytest.mark.skipif(mypy_stubtest is None, reason="mypy is not installed (Debian: python3-mypy)")
def test_stubtest_finds_the_stubs_and_the_module_in_step(tmp_path):
    # The same treefix this test imported, whatever put it on the path.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p),
               MYPY_CACHE_DIR=str(tmp_path / "mypy-cache"))
    done = subprocess.run([sys.executable, "-m", "mypy.stubtest", "treefix", "--concise"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        pytest.fail("treefix/__init__.pyi differs from the built module %s (stubtest):\n%s%s"
                    % (treefix._treefix.__file__, done.stdout, done.stderr), pytrace=False)


class AnyDefault:
    """A stub default written `...`: stands for the module's, whatever it is (a float("inf"), which
    a stub cannot spell as a literal)."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __repr__(self):
        return "..."


def stub_functions():
    """{"name" or "Class.name": [parameter lists of each overload]} from the stub file."""
    tree = ast.parse(STUB.read_text())
    found = {}

    def parameters(node):
        args = node.args
        positional = args.posonlyargs + args.args
        defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        listed = [(a.arg, "positional", d) for a, d in zip(positional, defaults)]
        listed += [(a.arg, "keyword", d) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
        def default(d):
            value = ast.literal_eval(d)
            return AnyDefault() if value is Ellipsis else value

        return [(name, kind, None if d is None else default(d))
                for name, kind, d in listed if name not in ("self", "cls")]

    def visit(body, prefix):
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body, node.name + ".")
            elif isinstance(node, ast.FunctionDef):
                decorators = {getattr(d, "id", getattr(d, "attr", "")) for d in node.decorator_list}
                if "property" in decorators:
                    continue
                found.setdefault(prefix + node.name, []).append(parameters(node))

    visit(tree.body, "")
    return found


SIGNATURE = re.compile(r"^(\w+)\((.*)\) -> .*$")


def runtime_parameters(doc, name):
    """The parameter lists a pybind11 docstring's signature lines give for `name`."""
    lists = []
    for line in (doc or "").splitlines():
        line = re.sub(r"^\d+\. ", "", line.strip())
        match = SIGNATURE.match(line)
        if not match or match.group(1) != name:
            continue
        listed, kind = [], "positional"
        for part in split_arguments(match.group(2)):
            if part == "*":
                kind = "keyword"
                continue
            head, _, default = part.partition(" = ")
            argument = head.split(":", 1)[0].strip()
            if argument in ("self", "cls"):
                continue
            listed.append((argument, kind, literal(default) if default else None))
        lists.append(listed)
    return lists


def split_arguments(text):
    """Splits at the commas outside brackets and quotes."""
    parts, depth, quote, current = [], 0, None, ""
    for char in text:
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        current += char
    if current.strip():
        parts.append(current.strip())
    return parts


def literal(text):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text  # an object pybind11 shows by its repr


def runtime_functions():
    """{"name" or "Class.name": docstring} of every public function and method of the module."""
    found = {}
    for name in treefix.__all__:
        value = getattr(treefix, name)
        if inspect.isclass(value):
            for attribute, member in vars(value).items():
                if attribute.startswith("_") and attribute != "__init__":
                    continue
                if isinstance(member, staticmethod):
                    member = member.__func__
                if callable(member) and not isinstance(member, property):
                    found[name + "." + attribute] = (member.__doc__, attribute)
        elif callable(value):
            found[name] = (value.__doc__, name)
    return found


def test_every_parameter_list_in_the_stubs_is_the_module_s():
    stubs = stub_functions()
    differences = []
    for qualified, (doc, name) in sorted(runtime_functions().items()):
        signatures = runtime_parameters(doc, name)
        if not signatures:
            continue  # a pybind11 function without a signature line (none so far)
        if qualified not in stubs:
            differences.append("%s: in the module, not in the stubs" % qualified)
            continue
        # Every overload has the module's parameters in its order (an overload may make one
        # keyword-only, for a Literal it is typed by); the last one (or the one definition)
        # has their kinds and defaults too.
        order = [[p[0] for p in params] for params in signatures]
        names = [[p[0:2] for p in params] for params in signatures]
        for overload in stubs[qualified]:
            if [p[0] for p in overload] not in order:
                differences.append("%s: the stub's parameters %s are none of the module's %s"
                                   % (qualified, [p[0] for p in overload],
                                      [[p[0] for p in params] for params in signatures]))
        last = stubs[qualified][-1]
        if [p[0] for p in last] in order and [p[0:2] for p in last] not in names:
            differences.append("%s: the stub's positional and keyword-only parameters %s are "
                               "not the module's %s" % (qualified, last, signatures))
        elif last not in signatures and [p[0:2] for p in last] in names:
            module = signatures[names.index([p[0:2] for p in last])]
            for stub_param, module_param in zip(last, module):
                if stub_param != module_param:
                    differences.append("%s: parameter %s: stub default %r, module default %r"
                                       % (qualified, stub_param[0], stub_param[2],
                                          module_param[2]))
    if differences:
        pytest.fail("treefix/__init__.pyi differs from the module's signatures:\n" +
                    "\n".join(differences), pytrace=False)


def test_the_stubs_list_every_public_name():
    tree = ast.parse(STUB.read_text())
    listed = next(ast.literal_eval(node.value) for node in tree.body
                  if isinstance(node, ast.Assign) and node.targets[0].id == "__all__")
    assert sorted(listed) == sorted(treefix.__all__), (
        "in the module, not in the stubs' __all__: %s; in the stubs only: %s"
        % (sorted(set(treefix.__all__) - set(listed)), sorted(set(listed) - set(treefix.__all__))))
