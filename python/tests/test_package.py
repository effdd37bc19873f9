"""The package as users get it: its version is the project's, its public names are documented and
shown as treefix.*, it carries its stubs, and (when the suite is asked to test an installed
package) it is the installed one, not the build tree's."""
import importlib.metadata
import inspect
import os
import pathlib
import re

import pytest

import treefix
from conftest import REPO


def project_version():
    text = (REPO / "CMakeLists.txt").read_text()
    return re.search(r"project\(\s*treefix-cl\s+VERSION\s+([0-9.]+)", text).group(1)


def test_version_is_the_project_version():
    assert treefix.__version__ == project_version()


def test_installed_metadata_has_the_same_version():
    try:
        installed = importlib.metadata.version("treefix")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("treefix is not pip-installed here (the build tree or `cmake --install`)")
    assert installed == treefix.__version__


def test_the_package_carries_its_stubs_and_marker():
    folder = pathlib.Path(treefix.__file__).parent
    assert (folder / "__init__.pyi").is_file()
    assert (folder / "py.typed").is_file()


def test_every_public_name_is_documented_and_shown_as_treefix():
    assert treefix.__all__, "the compiled module exports nothing"
    undocumented = []
    for name in treefix.__all__:
        value = getattr(treefix, name)
        assert value.__module__ == "treefix", name
        doc = inspect.getdoc(value) or ""
        # pybind11 writes the signature first; a docstring says more than that
        if len([line for line in doc.splitlines() if line.strip()]) < 2:
            undocumented.append(name)
    assert not undocumented, "no docstring beyond the signature: %s" % undocumented


def test_suite_runs_on_the_installed_package_when_asked():
    # CI sets TREEFIX_TEST_INSTALLED=1 when it runs this suite on a pip-installed package.
    if os.environ.get("TREEFIX_TEST_INSTALLED") != "1":
        pytest.skip("TREEFIX_TEST_INSTALLED is not set: the suite may run on the build tree")
    location = pathlib.Path(treefix.__file__).resolve()
    assert REPO not in location.parents, "treefix imported from the clone: %s" % location
    assert "site-packages" in location.parts or "dist-packages" in location.parts, location
