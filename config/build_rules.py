"""Compile rules/ with mypyc, in place (README, "The compiled rules core").

    .venv/bin/python config/build_rules.py            # build when a source changed
    .venv/bin/python config/build_rules.py --force    # build anyway
    .venv/bin/python config/build_rules.py --clean    # remove the build: pure Python

run.sh and test.sh run it (through config/bootstrap.sh) on every start: when the
stamp matches the sources it returns at once. Without a C compiler or mypyc it says
so and leaves the Python sources to run. What it writes is ignored by git: an
extension module beside each compiled source, and ``rules/__compiled__/`` (the
shared library they load and the stamp that rules/compiled.py checks at import).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# The build reads the gate's lists with the Python sources loaded (no warning about
# the build it is about to replace).
os.environ["RULES_PURE"] = "1"
from rules import compiled as gate  # noqa: E402


def compiler_missing() -> str | None:
    """Why nothing can be compiled here (None: it can)."""
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return "mypyc is not installed (it comes with mypy, the dev extra)"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(os.environ.get("CC", compiler).split()[0]) is None:
        return f"no C compiler ({compiler}) on PATH"
    if not Path(sysconfig.get_paths()["include"], "Python.h").is_file():
        return "Python's C headers (Python.h) are missing"
    return None


def clean() -> None:
    """Remove every product of a build: the Python sources run again."""
    shutil.rmtree(gate.BUILD_DIR, ignore_errors=True)
    for suffix in {".so", ".pyd"}:
        for path in gate.PACKAGE_DIR.rglob(f"*{suffix}"):
            path.unlink()
    shutil.rmtree(ROOT / "build" / "rules", ignore_errors=True)


def build() -> None:
    """Compile, then move the shared library into the build folder and stamp it
    with the sources as they were when the compilation started."""
    from mypyc.build import mypycify
    from setuptools import setup

    clean()  # a failed build leaves no stamp, so the Python sources run
    names = gate.compiled_sources()
    stamp = {
        "tag": gate.build_tag(),
        "sources": {name: gate.record(name) for name in gate.sources()},
    }
    paths = [f"rules/{name}" for name in names]
    os.chdir(ROOT)
    extensions = mypycify(
        paths, opt_level="3", group_name="rules", target_dir="build/rules"
    )
    setup(
        name="rules-compiled",
        ext_modules=extensions,
        script_args=["build_ext", "--inplace", "--build-temp", "build/rules/temp"],
    )
    gate.BUILD_DIR.mkdir(exist_ok=True)
    for library in ROOT.glob(f"{gate.SHARED_LIB}.*"):
        library.replace(gate.BUILD_DIR / library.name)
    gate.STAMP.write_text(json.dumps(stamp, indent=1), encoding="utf-8")
    # The generated C (about 50 MB) and objects serve no later build.
    shutil.rmtree(ROOT / "build" / "rules", ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="build even if fresh")
    parser.add_argument("--clean", action="store_true", help="remove the build")
    args = parser.parse_args()
    if args.clean:
        clean()
        print("rules: compiled modules removed; the Python sources run")
        return 0
    reason = gate.stale_reason()
    if reason is None and not args.force:
        return 0
    missing = compiler_missing()
    if missing:
        print(f"rules: not compiled ({missing}); the Python sources run")
        return 0
    print(f"==> compiling rules/ with mypyc ({reason or 'forced'})", flush=True)
    started = time.monotonic()
    build()
    print(f"rules: compiled in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
