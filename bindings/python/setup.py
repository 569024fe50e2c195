"""Build hook of the Python package (the metadata is in pyproject.toml):
ships libgsp.so inside the package, so the installed package needs neither
GSP_LIBRARY nor a library path.

Where the library comes from, in order:
1. $GSP_LIBRARY (a path to libgsp.so), else the lib directory that
   `pkg-config gsp` names (an installed libgsp: make install);
2. else libgsp is built with CMake from the source tree this directory sits
   in (../../CMakeLists.txt, or $GSP_SOURCE_DIR when pip builds a copy
   elsewhere): -DGSP_BUILD_SHARED=ON -DGSP_BUILD_TESTS=OFF
   -DCMAKE_BUILD_TYPE=Release, plus $GSP_CMAKE_ARGS (e.g.
   "-DGSP_WITH_CUDA=OFF"; by default CMake builds the CUDA engines when it
   finds nvcc), target gsp_shared only, in the build's temporary directory;
3. else the build fails, saying so.

The wheel holds a shared library: it is tagged for its platform
(py3-none-<platform>), not py3-none-any.
"""
import glob
import os
import shlex
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

try:  # setuptools >= 70 has its own; before that, the wheel package's
    from setuptools.command.bdist_wheel import bdist_wheel as _bdist_wheel
except ImportError:  # pragma: no cover - depends on the machine
    try:
        from wheel.bdist_wheel import bdist_wheel as _bdist_wheel
    except ImportError:
        _bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))


def _installed_library():
    path = os.environ.get("GSP_LIBRARY")
    if path:
        if not os.path.exists(path):
            raise SystemExit("gsp: GSP_LIBRARY=%s does not exist" % path)
        return path
    try:
        libdir = subprocess.run(["pkg-config", "--variable=libdir", "gsp"], capture_output=True, text=True,
                                check=False).stdout.strip()
    except OSError:
        return None
    so = os.path.join(libdir, "libgsp.so") if libdir else ""
    return so if os.path.exists(so) else None


def _is_source_tree(d):
    return bool(d) and os.path.isfile(os.path.join(d, "CMakeLists.txt")) and \
        os.path.isfile(os.path.join(d, "include", "gsp", "gsp.h"))


def _source_tree():
    """The libgsp source root: $GSP_SOURCE_DIR, else two levels above this file."""
    env = os.environ.get("GSP_SOURCE_DIR")
    if env:
        if not _is_source_tree(env):
            raise SystemExit("gsp: GSP_SOURCE_DIR=%s is not a libgsp source tree (no CMakeLists.txt and "
                             "include/gsp/gsp.h)" % env)
        return os.path.abspath(env)
    up = os.path.dirname(os.path.dirname(HERE))
    return up if _is_source_tree(up) else None


def _build_library(src, build_temp):
    """Configure and build libgsp.so with CMake; returns its path."""
    if shutil.which("cmake") is None:
        raise SystemExit("gsp: building libgsp from %s needs cmake (>= 3.22) on PATH" % src)
    bdir = os.path.join(os.path.abspath(build_temp), "libgsp-cmake")
    args = ["cmake", "-S", src, "-B", bdir, "-DCMAKE_BUILD_TYPE=Release", "-DGSP_BUILD_SHARED=ON",
            "-DGSP_BUILD_TESTS=OFF"] + shlex.split(os.environ.get("GSP_CMAKE_ARGS", ""))
    jobs = os.environ.get("GSP_BUILD_JOBS") or str(os.cpu_count() or 1)
    print("gsp: building libgsp from %s: %s" % (src, " ".join(shlex.quote(a) for a in args)), flush=True)
    subprocess.run(args, check=True)
    subprocess.run(["cmake", "--build", bdir, "--target", "gsp_shared", "-j", jobs], check=True)
    found = sorted(glob.glob(os.path.join(bdir, "libgsp.so.*")), key=len)
    if not found:
        raise SystemExit("gsp: the CMake build in %s made no libgsp.so" % bdir)
    return found[0]


def _soname(path):
    try:
        out = subprocess.run(["objdump", "-p", path], capture_output=True, text=True, check=False).stdout
    except OSError:
        return None
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "SONAME":
            return parts[1]
    return None


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        so = _installed_library()
        if so is None:
            src = _source_tree()
            if src is None:
                raise SystemExit(
                    "gsp: no libgsp found: not installed (set GSP_LIBRARY to libgsp.so, or PKG_CONFIG_PATH so "
                    "that `pkg-config gsp` finds it), and %s is not inside a libgsp source tree (pip may have "
                    "copied it elsewhere: set GSP_SOURCE_DIR to the clone's root)" % HERE)
            so = _build_library(src, self.get_finalized_command("build").build_temp)
        # The soname's file (libgsp.so.M.m), which is what _ffi.py looks for first.
        real = os.path.realpath(so)
        soname = _soname(real) or os.path.basename(so)
        dest = os.path.join(self.build_lib, "gsp")
        os.makedirs(dest, exist_ok=True)
        shutil.copyfile(real, os.path.join(dest, soname))
        print("gsp: shipping %s as gsp/%s" % (real, soname), flush=True)


cmdclass = {"build_py": BuildWithLibrary}
if _bdist_wheel is not None:
    class PlatformWheel(_bdist_wheel):
        """A wheel holding libgsp.so: any Python 3, this platform only."""

        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            _, _, plat = super().get_tag()
            return "py3", "none", plat

    cmdclass["bdist_wheel"] = PlatformWheel

setup(cmdclass=cmdclass)
