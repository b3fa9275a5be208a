"""The shim-policy check (issue 14, "No policy in C++"): the C++ adapters (src/shim and the `.cpp`
beside each pass's Rust) report facts and perform edits; every threshold is a knob or a named Rust
constant. This check fails when a numeric literal other than 0 or 1 appears in a `.cpp` or `.h`
file under src/, except where a number is structure rather than policy:
  - in comments and string literals;
  - as the inline capacity of an LLVM small container (`SmallVector<T, 8>`, `SmallPtrSet<...>`);
  - in an enumerator list (`enum ... { A = 2, ... }`: codes shared with Rust);
  - in a `static_assert` (a layout check against Rust).
Literals that are still to be moved to Rust are listed, with the reason they remain, in
scripts/shim_literals.allow (one `file: source line` per entry, the file relative to src/). The check is a ratchet: a
literal outside the list fails, and so does a listed entry that no longer occurs (shrink the
list). `--list` prints every literal found, listed or not.

    python3 -m nvopt_tools.check_shim [--list] [--src DIR] [--allow FILE]
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")
ALLOW = os.path.join(ROOT, "scripts", "shim_literals.allow")
NUMBER = re.compile(r"(?<![A-Za-z0-9_.])(0[xX][0-9a-fA-F]+|[0-9]+(?:\.[0-9]+)?)[uUlLfF]*(?![A-Za-z0-9_.])")
SMALL_CONTAINER = re.compile(r"\bSmall\w*<[^<>]*(?:<[^<>]*>[^<>]*)*>")
STRING = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])\'')


def code_lines(text):
    """(line number, code) with comments and strings blanked."""
    in_block = False
    for n, line in enumerate(text.splitlines(), 1):
        code = STRING.sub('""', line)
        if in_block:
            end = code.find("*/")
            if end < 0:
                continue
            code, in_block = code[end + 2:], False
        code = re.sub(r"/\*.*?\*/", " ", code)
        if "/*" in code:
            code, in_block = code[:code.index("/*")], True
        yield n, line.strip(), code.split("//", 1)[0]


def literals(path):
    in_enum = False
    for n, line, code in code_lines(open(path).read()):
        opens_enum = re.search(r"\benum\b[^{;]*\{", code)
        if opens_enum or in_enum:
            in_enum = "}" not in code
            continue
        if "static_assert" in code:
            continue
        code = SMALL_CONTAINER.sub(" ", code)
        values = [m.group(1) for m in NUMBER.finditer(code)]
        if any(_value(v) > 1 for v in values):
            yield n, line


def _value(text):
    return int(text, 16) if text.lower().startswith("0x") else float(text)


def allowed(path):
    entries = {}
    for raw in open(path).read().splitlines():
        if raw.strip() and not raw.startswith("#"):
            where, _, why = raw.partition("  # ")
            entries[where.strip()] = why.strip()
    return entries


def cpp_files(src):
    """The `.cpp` and `.h` files under src, relative to it, sorted (src/bin holds none)."""
    out = []
    for root, _, files in os.walk(src):
        out += [os.path.relpath(os.path.join(root, f), src) for f in files if f.endswith((".cpp", ".h"))]
    return sorted(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true", help="print every literal found")
    ap.add_argument("--src", default=SRC, help="folder whose C++ files (at any depth) are checked")
    ap.add_argument("--allow", default=ALLOW, help="list of literals still to move")
    args = ap.parse_args()
    allow = allowed(args.allow)
    found = []
    for name in cpp_files(args.src):
        found += [(f"{name}: {line}", name, n) for n, line in literals(os.path.join(args.src, name))]
    keys = {k for k, _, _ in found}
    new = [(k, name, n) for k, name, n in found if k not in allow]
    stale = [k for k in allow if k not in keys]
    if args.list:
        for k, name, n in found:
            print(f"src/{name}:{n}: {k.split(': ', 1)[1]}" + ("" if k in allow else "   <- not listed"))
    for k, name, n in new:
        print(f"check_shim: src/{name}:{n}: numeric literal in the shim (move it to a knob or a "
              f"named Rust constant): {k.split(': ', 1)[1]}")
    for k in stale:
        print(f"check_shim: listed in scripts/shim_literals.allow but gone (remove the entry): {k}")
    print(f"check_shim: {len(found)} literals in the C++ under src/, {len(found) - len(new)} listed as still to "
          f"move, {len(new)} unlisted, {len(stale)} stale entries")
    sys.exit(1 if new or stale else 0)


if __name__ == "__main__":
    main()
