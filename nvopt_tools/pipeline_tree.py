"""Prints an LLVM pipeline string (opt -print-pipeline-passes) as a tree, one pass or adaptor per
line, two spaces per nesting level: the layout of cicc's printed pipelines
(docs/CICC-FACTS.md "The printed pipelines"). With
--leaves, prints only leaf pass names (no parameters, adaptors or analyses), one per line."""
import sys


def split_top(text):
    """Splits `a,b(c,d),e<x;y>` at top-level commas."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "(<":
            depth += 1
        elif ch in ")>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        parts.append(cur)
    return parts


def walk(text, depth, out):
    for part in split_top(text.strip()):
        angle = 0
        for i, ch in enumerate(part):
            angle += ch == "<"
            angle -= ch == ">"
            if ch == "(" and angle == 0:
                out.append((depth, part[:i], True))
                walk(part[i + 1:-1], depth + 1, out)
                break
        else:
            out.append((depth, part, False))


def main():
    leaves = "--leaves" in sys.argv[1:]
    for line in sys.stdin:
        out = []
        walk(line, 0, out)
        for depth, item, adaptor in out:
            if not leaves:
                print("  " * depth + item)
            elif not adaptor and not item.startswith("require<"):
                print(item.split("<")[0])


if __name__ == "__main__":
    main()
