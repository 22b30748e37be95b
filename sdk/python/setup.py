"""pip install ./sdk/python: the okbot SDK (pure Python) and the okr engine module (a C
extension compiled from engine/ by setuptools) in one install, offline:

    pip install --no-build-isolation --no-index ./sdk/python

(docs/python.md "Installing"). Needs a C compiler and Python's headers (Debian: python3-dev),
setuptools (python3-setuptools); protoc (protobuf-compiler) to ship okbot's okr_pb2.py, else
okbot generates it when imported. The build reads ../../engine and ../../proto, so install from
a checkout of the whole repository."""

import glob
import os
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PROTO = os.path.join(REPO, "proto", "okr.proto")


def rel(path):
    """setuptools wants source paths relative to setup.py."""
    return os.path.relpath(path, HERE)


class BuildPy(build_py):
    """Also put proto/okr.proto and, with protoc, the generated okr_pb2.py into okbot."""

    def run(self):
        super().run()
        out = os.path.join(self.build_lib, "okbot")
        if not os.path.isfile(PROTO):
            raise SystemExit("setup.py: %s not found: install from a whole checkout" % PROTO)
        shutil.copy(PROTO, os.path.join(out, "okr.proto"))
        protoc = os.environ.get("PROTOC") or shutil.which("protoc")
        if protoc:
            subprocess.run([protoc, "-I", os.path.dirname(PROTO), "--python_out=" + out, PROTO],
                           check=True)


engine = os.path.join(REPO, "engine")
okr_ext = Extension(
    "okr._okr",
    sources=[rel(os.path.join(HERE, "okr", "_okr.c"))] +
    [rel(p) for p in sorted(glob.glob(os.path.join(engine, "src", "*.c")))],
    include_dirs=[rel(os.path.join(engine, "include")), rel(os.path.join(engine, "src"))],
    extra_compile_args=["-std=c11", "-O2"],
)

setup(
    name="okarena",
    version="0.16.0",
    description="okarena's Python SDK (okbot) and rules engine (okr)",
    packages=["okbot", "okr"],
    ext_modules=[okr_ext],
    cmdclass={"build_py": BuildPy},
    python_requires=">=3.9",
)
