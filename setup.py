"""The optional compiled passes of the solver (spidercli/solver/_beam.c, the beam;
spidercli/solver/_proof.c, the search of the whole space): everything else is in pyproject.toml.

``optional=True``: where no C compiler is found, or a build fails, spidercli installs without it
and the solver runs its pure Python pass instead (the same lines, slower).

An install prints no warning: where PYTHONDONTWRITEBYTECODE is set, setuptools skips byte-compiling,
as asked, but says so in a "warning:" line at two steps of every install; the two commands below
skip it without a word.
"""

import sys
import warnings

from setuptools import Extension, setup
from setuptools.command.build_py import build_py
from setuptools.command.install_lib import install_lib
from setuptools.warnings import InformationOnly

# `make demo` and `make test` install spidercli editable on purpose; setuptools' notes on how an
# editable install works ("Editable installation. Please be careful with folders...") are for
# someone choosing one, and are information only, not a fault: they are not printed.
warnings.filterwarnings("ignore", category=InformationOnly)


class QuietBuildPy(build_py):
    def byte_compile(self, files: list[str]) -> None:
        if not sys.dont_write_bytecode:
            super().byte_compile(files)


class QuietInstallLib(install_lib):
    def byte_compile(self, files: list[str]) -> None:
        if not sys.dont_write_bytecode:
            super().byte_compile(files)


setup(
    ext_modules=[
        Extension(
            "spidercli.solver._beam",
            ["spidercli/solver/_beam.c"],
            depends=["spidercli/solver/_passes.h"],
            optional=True,
        ),
        Extension(
            "spidercli.solver._proof",
            ["spidercli/solver/_proof.c"],
            depends=["spidercli/solver/_passes.h"],
            optional=True,
        ),
    ],
    cmdclass={"build_py": QuietBuildPy, "install_lib": QuietInstallLib},
)
