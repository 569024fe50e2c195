"""Build hook of the Python package (the metadata is in pyproject.toml):
ships libgsp.so inside the package, so the installed package needs neither
GSP_LIBRARY nor a library path. The library is taken from $GSP_LIBRARY, else
from the lib directory that `pkg-config gsp` names; without either the
package is pure Python and finds libgsp.so at import (see gsp/_ffi.py)."""
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py


def _installed_library():
    path = os.environ.get("GSP_LIBRARY")
    if path:
        return path if os.path.exists(path) else None
    try:
        libdir = subprocess.run(["pkg-config", "--variable=libdir", "gsp"], capture_output=True, text=True,
                                check=False).stdout.strip()
    except OSError:
        return None
    so = os.path.join(libdir, "libgsp.so") if libdir else ""
    return so if os.path.exists(so) else None


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        so = _installed_library()
        if so:
            # The soname's file (libgsp.so.M.m), which is what _ffi.py looks for first.
            real = os.path.realpath(so)
            name = os.path.basename(so)
            dest = os.path.join(self.build_lib, "gsp")
            soname = _soname(real) or name
            shutil.copyfile(real, os.path.join(dest, soname))
            print("gsp: shipping %s as gsp/%s" % (real, soname))
        else:
            print("gsp: no libgsp.so found (set GSP_LIBRARY or PKG_CONFIG_PATH); the package will look for it at import")


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


setup(cmdclass={"build_py": BuildWithLibrary})
