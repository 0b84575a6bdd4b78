"""Build the Cython search core and map the project's folders under one
import package, ``whist_solve``:

    solver/   -> whist_solve          (the library: rules, files, analyses, the engine)
    cli/      -> whist_solve.cli      (the command line, one module per command)
    puzzles/  -> whist_solve.puzzles  (the shipped puzzle collections)
    benchmarks/data/ -> whist_solve.bench_sets  (the deal sets of `whist-solve bench`)
"""
import os
import platform

from setuptools import Extension, setup
from Cython.Build import cythonize

# The search core uses population counts and bit extraction on every node:
# let the compiler use this processor's instructions for them, unless a
# portable build is asked for (WHIST_SOLVE_PORTABLE=1, e.g. for wheels).
compile_args = ["-O3"]
if os.environ.get("WHIST_SOLVE_PORTABLE") != "1" and platform.machine().lower() in (
        "x86_64", "amd64", "i686", "i386"):
    compile_args.append("-march=native")

extensions = [
    Extension(
        "whist_solve._engine",
        ["solver/_engine.pyx"],
        extra_compile_args=compile_args,
    ),
]

setup(
    packages=["whist_solve", "whist_solve.cli", "whist_solve.puzzles", "whist_solve.bench_sets"],
    package_dir={
        "whist_solve": "solver",
        "whist_solve.cli": "cli",
        "whist_solve.puzzles": "puzzles",
        "whist_solve.bench_sets": "benchmarks/data",
    },
    package_data={"whist_solve": ["*.pxd", "*.pyx"], "whist_solve.puzzles": ["*.pbn"],
                  "whist_solve.bench_sets": ["*.pbn"]},
    ext_modules=cythonize(
        extensions,
        include_path=["solver"],
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
