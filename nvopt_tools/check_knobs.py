"""Checks that no nvopt knob collides with an option LLVM 22's opt or llc already has (a duplicate
name aborts LLVM when the plugin loads). Knob names come from the plugin's own "nvopt options"
section of `opt --help-hidden`; LLVM's names from opt/llc --help-hidden without the plugin."""
import re
import subprocess
import sys

from nvopt_tools.paths import LLVM_BIN as BIN
OPTION = re.compile(r"^\s+--?([A-Za-z0-9][A-Za-z0-9_.+-]*)")


def help_text(tool, *extra):
    res = subprocess.run([f"{BIN}/{tool}", *extra, "--help-hidden"], capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"check_knobs: {tool} {' '.join(extra)} --help-hidden failed:\n{res.stderr}")
    return res.stdout


def names(text):
    return {m.group(1) for line in text.splitlines() if (m := OPTION.match(line))}


def knob_names(plugin):
    text = help_text("opt", f"-load-pass-plugin={plugin}")
    section = text.split("\nnvopt options:\n", 1)
    if len(section) != 2:
        sys.exit("check_knobs: no 'nvopt options' section in opt --help-hidden")
    body = re.split(r"\n\n[A-Za-z][^\n]*:\n", section[1], maxsplit=1)[0]
    return names(body)


def main():
    plugin = sys.argv[1]
    knobs = knob_names(plugin)
    bad = 0
    for tool in ("opt", "llc"):
        llvm = names(help_text(tool))
        clash = sorted(knobs & llvm)
        bad += len(clash)
        print(f"{tool}: {len(llvm)} LLVM options, {len(clash)} collide with nvopt knobs {clash if clash else ''}")
    print(f"{len(knobs)} nvopt knobs checked, {bad} collisions")
    return 1 if bad or not knobs else 0


if __name__ == "__main__":
    sys.exit(main())
