# Parsers for the bench's per-function figures (docs/ARCHITECTURE.md "Measuring"):
# ptxas -v registers / spills / stack frame, PTX instruction and register-to-register mov
# counts, SASS instruction counts from cuobjdump -sass, and the instructions inside loops of
# both (a loop: the instructions from a label to a later branch back to it; issue 5's
# "PTX and SASS instructions inside loop bodies"). Unit tests: nvopt_tools/tests/test_figures.py.
import re

# PTX special registers that are not virtual registers (a `mov` from them is not a copy).
SPECIAL_REGS = {"%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid", "%clock",
                "%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi",
                "%total_smem_size", "%dynamic_smem_size", "%aggr_smem_size",
                "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt"}
HEADER = re.compile(r"^\s*(?:\.(?:visible|weak|extern)\s+)*\.(entry|func)\b")


def ptx_functions(text):
    """{name: (kind, [instruction lines], {label: index of the statement it precedes})} for
    every PTX function with a body."""
    funcs, lines, i = {}, text.splitlines(), 0
    while i < len(lines):
        m = HEADER.match(lines[i])
        if not m:
            i += 1
            continue
        kind, header = m.group(1), []
        while i < len(lines) and "{" not in strip_comment(lines[i]) and not strip_comment(lines[i]).rstrip().endswith(";"):
            header.append(strip_comment(lines[i]))
            i += 1
        if i >= len(lines) or "{" not in strip_comment(lines[i]):
            i += 1  # a declaration (prototype) without a body
            continue
        name = function_name(kind, " ".join(header))
        body, labels, i = function_body(lines, i)
        if name:
            funcs[name] = (kind, body, labels)
    return funcs


def strip_comment(line):
    return line.split("//", 1)[0]


def function_name(kind, header):
    if kind == "entry":
        m = re.search(r"\.entry\s+([\w$.]+)", header)
    else:
        m = re.search(r"\.func\s+(?:\([^)]*\)\s*)?([\w$.]+)", header)
    return m.group(1) if m else ""


def function_body(lines, i):
    """Statements (`;`-terminated, labels, braces and directives removed) of the function whose
    opening brace is at lines[i]; returns (statements, {label: index into statements of the
    statement after it}, index after the closing brace).
    Statements may span lines (nvcc splits call sequences over several)."""
    depth, code = 0, []
    while i < len(lines):
        line = strip_comment(lines[i])
        i += 1
        depth += line.count("{") - line.count("}")
        code.append(line)
        if depth <= 0 and "}" in line:
            break
    stmts, labels = [], {}
    for piece in " ".join(code).replace("{", " ").replace("}", " ").split(";"):
        piece = " ".join(piece.split())
        m = re.match(r"^(?:\s*[\w$.]+:)+", piece)
        if m:
            for label in re.findall(r"([\w$.]+):", m.group(0)):
                labels[label] = len(stmts)
        stmt = piece[m.end():].strip() if m else piece
        if is_instruction(stmt):
            stmts.append(stmt + ";")
    return stmts, labels, i


def is_instruction(stmt):
    return bool(stmt) and not stmt.startswith(".") and not stmt.endswith(":")


def is_reg_mov(stmt):
    """`mov.T %dst, %src;` where %src is a virtual register (not special, immediate or symbol)."""
    m = re.match(r"^(?:@!?%\w+\s+)?mov\.\w+\s+([^,]+),\s*([^;]+);", stmt)
    if not m:
        return False
    dst, src = m.group(1).strip(), m.group(2).strip()
    if dst.startswith("{") or not src.startswith("%") or "." in src:
        return False
    return src not in SPECIAL_REGS and not re.match(r"%(envreg|pm)\d+$", src)


CALL = re.compile(r"\bcall(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?([\w$.]+)")


def callees(funcs, name):
    """Non-entry functions reachable from `name` through PTX calls (transitively)."""
    seen, todo = set(), [name]
    while todo:
        for stmt in funcs[todo.pop()][1]:
            m = CALL.search(stmt)
            if m and m.group(1) in funcs and m.group(1) not in seen and funcs[m.group(1)][0] == "func":
                seen.add(m.group(1))
                todo.append(m.group(1))
    return seen


BRA = re.compile(r"^(?:@!?%\w+\s+)?bra(?:\.uni)?\s+([\w$.]+)\s*;")


def union_size(ranges):
    """Number of integers covered by the inclusive ranges [lo, hi] (each counted once)."""
    covered = set()
    for lo, hi in ranges:
        covered.update(range(lo, hi + 1))
    return len(covered)


def ptx_loop_instrs(body, labels):
    """Statements of one function that lie inside a loop: from a label to a later `bra` (or
    `@%p bra`, `bra.uni`) back to it, inclusive; overlapping and nested loops count once."""
    ranges = []
    for i, stmt in enumerate(body):
        m = BRA.match(stmt)
        if m and m.group(1) in labels and labels[m.group(1)] <= i:
            ranges.append((labels[m.group(1)], i))
    return union_size(ranges)


def ptx_counts(text):
    """{entry: {'ptx_instrs', 'movs', 'ptx_loop', 'callees'}}. An entry's counts include the
    .func bodies it calls, as its SASS does (ptxas places callees inside the entry's code)."""
    funcs, out = ptx_functions(text), {}
    for name, (kind, _, _) in funcs.items():
        if kind != "entry":
            continue
        called = sorted(callees(funcs, name))
        instrs = [s for f in [name, *called] for s in funcs[f][1]]
        out[name] = {"ptx_instrs": len(instrs), "movs": sum(1 for s in instrs if is_reg_mov(s)),
                     "ptx_loop": sum(ptx_loop_instrs(funcs[f][1], funcs[f][2]) for f in [name, *called]),
                     "callees": called}
    return out


def ptxas_info(text):
    """{name: {'regs', 'spill_stores', 'spill_loads', 'stack'}} from `ptxas -v` output."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.search(r"Function properties for ([\w$.]+)", line)
        if m:
            cur = out.setdefault(m.group(1), {})
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and cur is not None:
            cur.update(stack=int(m.group(1)), spill_stores=int(m.group(2)), spill_loads=int(m.group(3)))
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and cur is not None:
            cur["regs"] = int(m.group(1))
    return out


def sass_functions(text):
    """{name: ([(address, instruction text)], {label: address})} from `cuobjdump -sass` (or
    nvdisasm, whose branch targets are `.L_x_N` labels); NOPs (alignment padding) excluded,
    a label's address is that of the instruction after it."""
    out, cur, pending = {}, None, []
    for line in text.splitlines():
        m = re.match(r"\s*Function\s*:\s*([\w$.]+)", line)
        if m:
            cur, pending = m.group(1), []
            out[cur] = ([], {})
            continue
        if cur is None:
            continue
        m = re.match(r"\s*(\.L_x_\d+)\s*:", line)
        if m:
            pending.append(m.group(1))
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if m:
            addr = int(m.group(1), 16)
            for label in pending:
                out[cur][1][label] = addr
            pending = []
            if not re.match(r"^NOP\b", m.group(2)):
                out[cur][0].append((addr, m.group(2)))
    return out


SASS_BRA = re.compile(r"^(?:@!?U?P\w+\s+)?BRA(?:\.[\w.]+)?\s+(.*)$")


def sass_loop_instrs(instrs, labels):
    """Instructions (NOPs excluded) inside [target, branch] for every backward BRA of one
    function, each instruction counted once. A BRA to itself (the trap after EXIT) is no loop."""
    ranges = []
    for addr, ins in instrs:
        m = SASS_BRA.match(ins)
        if not m:
            continue
        targets = re.findall(r"(0x[0-9a-f]+|\.L_x_\d+)", m.group(1))
        if not targets:
            continue
        t = targets[-1]
        target = int(t, 16) if t.startswith("0x") else labels.get(t)
        if target is not None and target < addr:
            ranges.append((target, addr))
    return sum(1 for addr, _ in instrs if any(lo <= addr <= hi for lo, hi in ranges))


def sass_counts(text):
    """{name: SASS instructions} from `cuobjdump -sass`, NOPs (alignment padding) excluded."""
    return {name: len(instrs) for name, (instrs, _) in sass_functions(text).items()}


def sass_loop_counts(text):
    """{name: SASS instructions inside loops} from `cuobjdump -sass` (sass_loop_instrs)."""
    return {name: sass_loop_instrs(instrs, labels) for name, (instrs, labels) in sass_functions(text).items()}
