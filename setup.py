"""The optional compiled beam pass (spidercli/_beam.c): everything else is in pyproject.toml.

``optional=True``: where no C compiler is found, or the build fails, spidercli installs without it
and the solver runs its pure Python pass (the same lines, slower).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("spidercli._beam", ["spidercli/_beam.c"], optional=True)])
