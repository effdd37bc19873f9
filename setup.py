"""The Python package `treefix`, built by CMake: what `pip install .` runs (pyproject.toml).

The compiled module comes from the CMake build tree the README's commands make, `build/` (or
$TREEFIX_BUILD_DIR): when it exists, pip reuses it and compiles nothing that is up to date; when
it does not, pip configures it (Release, for this interpreter) and builds only the module and the
library under it. Either way `cmake --build build --target treefix-python` is what runs, and the
package is the folder it fills, build/python/treefix/ (the module, and _version.py with
CMakeLists.txt's project version), with python/treefix/ (__init__.py, the stubs, py.typed).
"""
import os
import re
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def project_version():
    """The one version number: CMakeLists.txt's `project(treefix-cl VERSION x.y.z ...)`."""
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        found = re.search(r"project\(\s*treefix-cl\s+VERSION\s+([0-9][0-9.]*)", f.read())
    if not found:
        raise RuntimeError("CMakeLists.txt: no `project(treefix-cl VERSION ...)` line")
    return found.group(1)


def cached(build_dir, name):
    """A variable of build_dir's CMakeCache.txt, or None."""
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8") as f:
            for line in f:
                if line.startswith(name + ":"):
                    return line.split("=", 1)[1].strip()
    except FileNotFoundError:
        pass
    return None


def extension_suffix(python):
    """The file-name suffix of extension modules for an interpreter (".cpython-311-x86_64...")."""
    if os.path.realpath(python) == os.path.realpath(sys.executable):
        return sysconfig.get_config_var("EXT_SUFFIX")
    try:
        return subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))"],
            check=True, capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    """Builds the module with CMake and copies the build tree's package files into the wheel."""

    def build_dir(self):
        chosen = os.environ.get("TREEFIX_BUILD_DIR")
        if chosen:
            return os.path.abspath(chosen)
        readme_build = os.path.join(ROOT, "build")
        python = cached(readme_build, "Python3_EXECUTABLE")
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        if python is None or extension_suffix(python) == suffix:
            return readme_build
        # The README's build is for another Python (another ABI): a tree of this one's beside it.
        tag = re.sub(r"[^\w.-]", "", suffix.split(".")[1] if suffix.count(".") > 1 else "python")
        print("treefix: build/ holds a module for %s; building for %s in build/%s"
              % (python, sys.executable, tag))
        return os.path.join(readme_build, tag)

    def build_extension(self, ext):
        build_dir = self.build_dir()
        configure = ["cmake", "-S", ROOT, "-B", build_dir]
        if cached(build_dir, "CMAKE_HOME_DIRECTORY") is None:
            configure += ["-DCMAKE_BUILD_TYPE=Release", "-DPython3_EXECUTABLE=" + sys.executable]
            try:  # pybind11 from pip (build isolation), when the system has none
                import pybind11
                configure.append("-Dpybind11_DIR=" + pybind11.get_cmake_dir())
            except ImportError:
                pass
        # A configured tree with the module is built as it is (the build re-runs CMake if its
        # inputs changed); otherwise it is configured, with the module on.
        if cached(build_dir, "TREEFIX_BUILD_PYTHON") != "ON":
            subprocess.run(configure + ["-DTREEFIX_BUILD_PYTHON=ON"], check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.run(["cmake", "--build", build_dir, "--target", "treefix-python", "-j", jobs],
                       check=True)

        built = os.path.join(build_dir, "python", "treefix")
        module = os.path.join(built, "_treefix" + sysconfig.get_config_var("EXT_SUFFIX"))
        if not os.path.exists(module):
            raise RuntimeError("%s: not built (the build tree's module is for another Python: "
                               "set TREEFIX_BUILD_DIR to a new folder)" % module)
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(module, target)
        shutil.copyfile(os.path.join(built, "_version.py"),
                        os.path.join(os.path.dirname(target), "_version.py"))


setup(
    version=project_version(),
    ext_modules=[CMakeExtension("treefix._treefix")],
    cmdclass={"build_ext": CMakeBuild},
    # setuptools' own staging beside the CMake tree, not mixed with it
    options={"build": {"build_base": os.path.join("build", "setuptools")}},
)
