"""Build the Cython search core and map the project's folders under one
import package, ``whist_solve``:

    solver/   -> whist_solve          (the library: rules, files, analyses, the engine)
    cli/      -> whist_solve.cli      (the command line, one module per command)
    puzzles/  -> whist_solve.puzzles  (the shipped puzzle collections)
    benchmarks/data/ -> whist_solve.bench_sets  (the deal sets of `whist-solve bench`)

With GCC on Linux the core is built profile-guided (ProfileGuidedBuild
below; WHIST_SOLVE_PGO=0 for a plain build).
"""
import os
import platform
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from Cython.Build import cythonize


def _target_args() -> list:
    """The instruction set the search core is built for.  It counts bits
    and extracts them on every node (POPCNT, LZCNT, BMI2's PEXT/PDEP):
    without those instructions it is about twice as slow.  On x86-64 the
    default is the x86-64-v3 level (AVX2, BMI1/2, LZCNT, POPCNT; every
    x86-64 processor since about 2013) when this machine has it, so that
    the build runs on any such machine (a venv shared by a cluster's nodes,
    a wheel handed on) and not only on processors like this one, as
    -march=native would (an AVX-512 build dies of SIGILL on import
    elsewhere); else POPCNT alone, if present.  WHIST_SOLVE_NATIVE=1 builds
    for this very processor, WHIST_SOLVE_PORTABLE=1 for any x86-64."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return []
    if os.environ.get("WHIST_SOLVE_PORTABLE") == "1":
        return []
    if os.environ.get("WHIST_SOLVE_NATIVE") == "1":
        return ["-march=native"]
    here = _native_macros()
    if {"__AVX2__", "__BMI__", "__BMI2__", "__LZCNT__", "__FMA__", "__MOVBE__"} <= here \
            and _accepts("-march=x86-64-v3"):
        return ["-march=x86-64-v3"]
    return ["-mpopcnt"] if "__POPCNT__" in here else []


def _compiler() -> list:
    return (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()


def _native_macros() -> set:
    """The macros the C compiler defines for this processor (-march=native):
    which instruction sets it has.  Empty when that cannot be asked."""
    try:
        out = subprocess.run(_compiler() + ["-march=native", "-dM", "-E", "-x", "c", os.devnull],
                             capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return set()
    return {line.split()[1] for line in out.splitlines() if line.startswith("#define ")}


def _accepts(flag: str) -> bool:
    """Does the C compiler take this flag (GCC 11 and clang 12 know the
    x86-64-v3 level, older ones do not)?"""
    try:
        return subprocess.run(_compiler() + [flag, "-E", "-x", "c", os.devnull],
                              capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


compile_args = ["-O3"] + _target_args()

extensions = [
    Extension(
        "whist_solve._engine",
        ["solver/_engine.pyx"],
        extra_compile_args=compile_args,
    ),
]

HERE = os.path.dirname(os.path.abspath(__file__))
PGO_TRAIN = os.path.join(HERE, "benchmarks", "pgo_train.py")


def _is_gcc() -> bool:
    """Is the C compiler the build will use GCC?"""
    cc = _compiler()
    try:
        out = subprocess.run([cc[0], "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in out and "clang" not in out.lower()


class ProfileGuidedBuild(build_ext):
    """Build the search core twice, as bridge-solver's own build does: once
    with profiling on, run on a seeded workload (benchmarks/pgo_train.py:
    tables, exchanges, leads), then again with the compiler using the
    profile.  Measured on the bench's random set: 6-8% less time (same
    nodes).  GCC on Linux only; WHIST_SOLVE_PGO=0 turns it off; any failure
    falls back to the plain build."""

    def run(self):
        if not self._wanted():
            return super().run()
        self._compiler_choice = self.compiler      # build_ext.run replaces it by the compiler object
        profile_dir = os.path.join(os.path.abspath(self.build_temp), "pgo-profile")
        try:
            self._instrumented_run(profile_dir)
        except Exception as exc:       # (a build must not fail for want of a profile)
            print(f"whist-solve: profile-guided build skipped ({exc})", file=sys.stderr)
            shutil.rmtree(profile_dir, ignore_errors=True)
            self._build([], [])
            return
        try:
            self._build(["-fprofile-use", f"-fprofile-dir={profile_dir}", "-fprofile-partial-training",
                         "-Wno-missing-profile"], [])
        except Exception as exc:
            print(f"whist-solve: profile-guided build failed ({exc}); plain build", file=sys.stderr)
            self._build([], [])
            return
        print("whist-solve: profile-guided build of the search core", file=sys.stderr)

    def _wanted(self) -> bool:
        return (os.environ.get("WHIST_SOLVE_PGO", "1") != "0" and sys.platform.startswith("linux")
                and os.path.exists(PGO_TRAIN) and _is_gcc())

    def _build(self, compile_extra, link_extra):
        """One full build of the extensions with these extra flags."""
        for ext in self.extensions:
            ext.extra_compile_args = compile_args + compile_extra
            ext.extra_link_args = link_extra
        self.compiler = self._compiler_choice
        self.force = True
        super().run()

    def _instrumented_run(self, profile_dir):
        shutil.rmtree(profile_dir, ignore_errors=True)
        self._build(["-fprofile-generate", f"-fprofile-dir={profile_dir}"], ["-fprofile-generate"])
        for ext in self.extensions:
            path = self.get_ext_fullpath(ext.name)
            subprocess.run([sys.executable, PGO_TRAIN, path], check=True, timeout=600,
                           stdout=subprocess.DEVNULL)
        if not any(f.endswith(".gcda") for _d, _s, fs in os.walk(profile_dir) for f in fs):
            raise RuntimeError("no profile was written")


setup(
    cmdclass={"build_ext": ProfileGuidedBuild},
    packages=["whist_solve", "whist_solve.cli", "whist_solve.puzzles", "whist_solve.bench_sets"],
    package_dir={
        "whist_solve": "solver",
        "whist_solve.cli": "cli",
        "whist_solve.puzzles": "puzzles",
        "whist_solve.bench_sets": "benchmarks/data",
    },
    package_data={"whist_solve": ["*.pxd", "*.pyx"], "whist_solve.puzzles": ["*.pbn"],
                  "whist_solve.bench_sets": ["*.pbn"]},
    # (the C file Cython writes is a build product: the sdist carries it, an
    # install needs only the compiled module)
    exclude_package_data={"whist_solve": ["*.c", "*.html"]},
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
