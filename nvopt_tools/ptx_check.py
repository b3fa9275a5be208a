"""ptx_check: an address-space provenance lint over PTX text.

PTX has one generic address space and several state spaces (.param, .local, .shared, .global,
.const), and the two kinds of address are different numbers for the same byte: `mov` of a
variable gives its address inside its state space, `cvta.X` turns that into a generic address,
`cvta.to.X` back. An instruction with a state space (`ld.param`, `st.local`, `atom.shared`, ...)
must be given an address of that space. ptxas accepts the PTX either way and the code computes
garbage on the GPU: nvopt once emitted `ld.param [%SP+32]` (param space read through a generic
stack address) and `ld.param [%rd6]` with %rd6 from `cvta.param` (a generic address of a kernel
parameter, which a generic `ld` must read). This checker finds such code statically.

It tracks per function and flow-sensitively which kinds of address each register may hold
right before each instruction (the union over the register's definitions that reach it, see
below): a kernel parameter (`mov` of a .entry param), a call-sequence or return parameter, the
local copy of a device function's parameter (`mov` of a .func param, local space per the PTX
ISA), local (`__local_depot`, %SPL, `cvta.to.local`), shared (`mov` of a .shared variable, 32
or 64 bits, `cvta.to.shared`, `mapa.shared::cluster`), global (`mov` of a .global variable,
`cvta.to.global`), const, the generic address of each space (`cvta.X`; %SP), or unknown
provenance (loaded from memory, function parameters, call results). Addresses flow through
mov, add/sub, mad, selp, integer cvt and and/or with an immediate; any other operation on an
address gives an unknown one. Rules:

  param-addr   ld.param/st.param only through a param symbol (`[name+8]`) or a register that
               holds param symbol addresses only (a register of unknown provenance alone counts
               as a finding too: nothing correct puts a param address in memory).
  param-write  no st.param to the kernel's own parameters (call-sequence parameters and a
               .func's return parameter are written normally).
  local-addr   ld.local/st.local (any .local access) not through a generic, param, shared,
               global or const address (unknown provenance is fine: a pointer a device
               function receives may be local).
  shared-addr  an access with a .shared/.shared::cta/.shared::cluster operand (ld, st, atom,
               red, cp.async, ldmatrix, mbarrier, ...) not through a generic, local, param,
               global or const address (unknown provenance is fine).
  cvta-pair    cvta.X of an address of another known space or of a generic one; cvta.to.X of a
               generic address from cvta.Y (Y != X) or of a non-generic address (other than a
               global one for cvta.to.global).

Reaching definitions: a forward data flow over the function's control-flow graph (basic
blocks split at labels and after bra, brx, ret, exit and trap; edges: fall-through, unless the
block ends in an unpredicated bra/brx/ret/exit/trap, the target of a `bra`, the labels of a
`brx.idx` table's `.branchtargets`), iterated to a fixpoint. A definition kills the earlier
ones of its register on its path, a predicated one (`@%p mov ...`) joins them; the kinds of
each definition are iterated to a fixpoint too (loops carry kinds back to earlier uses). So a
register that PHI elimination or coalescing reuses for addresses of two spaces on separate
paths is checked per path, and a use that both reach (a join) sees both. Conservative where
the flow is not known: in a function with a branch whose target or table it cannot resolve,
every definition of a register reaches every use (flow-insensitive, the union); a block that
nothing branches or falls into (dead code) starts from the join of every block's state; a
register with a single definition holds its kinds at every use. Registers and labels
declared inside a `{ }` block (inline asm, call sequences) are kept apart from same-named ones
of other blocks. Limits: calls and memory are not followed (a loaded or passed address is
unknown, and unknown addresses pass every rule but param-addr); a .func's own parameters
are let be (st.param to them, and their `mov` address used as param or local); the state
space of each bracketed operand is taken from the instruction's state-space qualifiers in
order (`cp.async.ca.shared.global [dst], [src]`; a bulk copy's tensor map, paired with
.global, is not checked); generic, .global and .const accesses and the values stored are not
checked.

usage: python3 -m nvopt_tools.ptx_check [--quiet] [--summary] FILE_OR_DIR...
  One line per finding, `FILE:LINE: FUNCTION: RULE: message: instruction`, then
  `ptx_check: N files, M functions, K findings`. Directories: every *.ptx beneath. --quiet:
  only the summary line; --summary: also the findings per rule. Exit 0: no findings; 1:
  findings; 2: usage error (a missing or unreadable file, a directory without .ptx files).
API: check_text(text, name="<ptx>") and check_file(path) return a list of Finding
(file, line, function, rule, message, instruction). Python 3, standard library only.
"""
import argparse
import heapq
import os
import re
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    file: str
    line: int
    function: str
    rule: str
    message: str
    instruction: str

    def __str__(self):
        return f"{self.file}:{self.line}: {self.function}: {self.rule}: {self.message}: {self.instruction}"


# ---------------------------------------------------------------- address kinds

SPACES = ("param", "local", "shared", "global", "const")
# Raw (state-space) address kinds; "param" is a kernel parameter, "callparam" a call-sequence
# or return parameter, "funcparam" what `mov` of a .func's own parameter gives (the ISA moves
# it to local memory; accepted where a param or a local address is).
RAW = {"param", "callparam", "funcparam", "local", "shared", "global", "const"}
GEN = {f"gen_{s}": s for s in SPACES}
UNKNOWN = "unknown"
KNOWN = set(RAW) | set(GEN)
DESCRIBE = {
    "param": "a kernel parameter address",
    "callparam": "a call-sequence parameter address",
    "funcparam": "the address of a device-function parameter (local copy)",
    "local": "a local address",
    "shared": "a shared address",
    "global": "a global address",
    "const": "a const address",
    "gen_param": "a generic address of a parameter (cvta.param)",
    "gen_local": "a generic address of local memory (cvta.local, %SP)",
    "gen_shared": "a generic address of shared memory (cvta.shared)",
    "gen_global": "a generic address of global memory (cvta.global)",
    "gen_const": "a generic address of const memory (cvta.const)",
    UNKNOWN: "an address of unknown provenance (loaded from memory, a parameter, a call result)",
}
# For an access to space S: the kinds that are wrong there.
BAD_FOR = {
    "param": KNOWN - {"param", "callparam", "funcparam"},
    "local": KNOWN - {"local", "funcparam"},
    "shared": KNOWN - {"shared"},
}
SPECIAL_REGS = re.compile(
    r"%(tid|ntid|ctaid|nctaid|laneid|warpid|nwarpid|smid|nsmid|gridid|lanemask_\w+|clock\w*|"
    r"globaltimer\w*|pm\d+\w*|envreg\d+|total_smem_size|dynamic_smem_size|aggr_smem_size|"
    r"reserved_smem\w*|cluster\w*|nclusterid|is_explicit_cluster|current_graph_exec)\b")
INT_TYPE = re.compile(r"^[usb](8|16|32|64)$")
STATE = re.compile(r"^(param|local|shared|global|const)(::\w+)?$")


def space_of(qual):
    m = STATE.match(qual)
    return m.group(1) if m else None


# ---------------------------------------------------------------- lexing

COMMENT = re.compile(r'"[^"\n]*"|//[^\n]*|/\*.*?\*/', re.S)


def strip_comments(text):
    """Comments replaced by blanks (newlines kept, so line numbers hold); strings kept."""
    return COMMENT.sub(lambda m: m.group(0) if m.group(0).startswith('"')
                       else re.sub(r"[^\n]", " ", m.group(0)), text)


HEADER = re.compile(r"^\s*(?:\.(?:visible|weak|extern|common)\s+)*\.(?:entry|func)\b|^\s*\.section\b")
LABEL = re.compile(r"^\s*[A-Za-z_$%][\w$]*\s*$")
# Directives that end at the end of their line, without a `;`.
LINE_DIRECTIVE = re.compile(r"\.(version|target|address_size|file|loc)\b")


def items(text):
    """Yields (kind, line, text) for kind 'stmt' (`;`-terminated), 'label', 'header' (a function
    or section header before its `{`), 'open' and 'close' (block braces)."""
    text = strip_comments(text)
    buf, start, line, inner, i, n = [], 0, 1, 0, 0, len(text)
    has, first = False, 0  # buf holds more than blanks; where its text starts

    def flush(kind):
        s = "".join(buf).strip()
        buf.clear()
        return (kind, start, s)

    while i < n:
        c = text[i]
        if c == '"':
            j = text.find('"', i + 1)
            j = n if j < 0 else j + 1
            if not has:
                start, has, first = line, True, i
            buf.append(text[i:j])
            line += text.count("\n", i, j)
            i = j
            continue
        if c == "\n":
            if has and inner == 0 and LINE_DIRECTIVE.match(text, first):
                yield flush("stmt")
                has = False
            line += 1
            buf.append(" ")
        elif c == ";" and inner == 0:
            yield flush("stmt")
            has = False
        elif c == "{" and inner == 0 and not has:
            buf.clear()
            yield ("open", line, "")
        elif c == "{" and inner == 0 and HEADER.match("".join(buf)):
            yield flush("header")
            yield ("open", line, "")
            has = False
        elif c == "{":
            inner += 1
            buf.append(c)
        elif c == "}" and inner > 0:
            inner -= 1
            buf.append(c)
        elif c == "}":
            if has:
                yield flush("stmt")
            buf.clear()
            has = False
            yield ("close", line, "")
        elif (c == ":" and inner == 0 and text[i + 1:i + 2] != ":" and text[i - 1:i] != ":"
              and has and LABEL.match("".join(buf))):
            yield flush("label")
            has = False
        else:
            if not has and not c.isspace():
                start, has, first = line, True, i
            buf.append(c)
        i += 1
    if has:
        yield flush("stmt")


def split_top(s, sep=","):
    """Splits at `sep` outside (), [] and {}."""
    parts, depth, cur = [], 0, []
    for c in s:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


# ---------------------------------------------------------------- module structure

@dataclass
class Function:
    name: str
    kind: str            # "entry" or "func"
    params: list         # input parameter names
    rets: list           # return parameter names (.func)
    body: list           # ('stmt' | 'label' | 'open' | 'close', line, text)


VAR = re.compile(r"^(?:\.(?:visible|extern|weak|common)\s+)*\.(global|const|shared|local)(?:::\w+)?\b(.*)$",
                 re.S)


def var_names(rest):
    """Names declared by the rest of a variable directive (after its state space)."""
    rest = rest.split("=", 1)[0]
    rest = re.sub(r"\.\w+(\([^)]*\))?", " ", rest)       # .align, .b8, .attribute(...), ...
    rest = re.sub(r"\[[^\]]*\]|<[^>]*>", " ", rest)        # array sizes
    names = []
    for part in rest.split(","):
        ids = [t for t in re.findall(r"[A-Za-z_$][\w$]*", part)]
        if ids:
            names.append(ids[-1])
    return names


def param_names(decls):
    """Names in a parenthesized parameter list `.param .u64 .ptr .align 1 a, .param .b8 b[8]`."""
    out = []
    for d in split_top(decls):
        d = re.sub(r"\[[^\]]*\]", " ", d)
        ids = re.findall(r"(?<![.\w$])([A-Za-z_$][\w$]*)", d)
        if ids:
            out.append(ids[-1])
    return out


FUNC_HEADER = re.compile(
    r"\.(entry|func)\s*(?:\((?P<ret>[^)]*)\))?\s*(?P<name>[A-Za-z_$][\w$]*)\s*(?:\((?P<params>[^)]*)\))?",
    re.S)


def parse_module(text):
    """(functions, {symbol: space}) of a PTX module."""
    funcs, symbols = [], {}
    it = iter(items(text))
    for kind, line, s in it:
        if kind == "stmt":
            m = VAR.match(s)
            if m:
                for name in var_names(m.group(2)):
                    symbols[name] = m.group(1)
        elif kind == "header":
            body, depth = [], 0
            for item in it:
                if item[0] == "open":
                    depth += 1
                elif item[0] == "close":
                    depth -= 1
                    if depth == 0:
                        break
                body.append(item)
            m = FUNC_HEADER.search(s)
            if m and not re.match(r"\s*\.section\b", s):
                funcs.append(Function(m.group("name"), m.group(1), param_names(m.group("params") or ""),
                                      param_names(m.group("ret") or ""), body[1:]))
    return funcs, symbols


# ---------------------------------------------------------------- instructions

@dataclass
class Instr:
    line: int
    text: str
    opcode: str
    quals: list          # opcode split at dots, first part excluded
    ops: list            # operand texts, registers renamed to their scoped names
    pred: bool = False   # guarded by a predicate (`@%p ...`, `@!%p ...`)
    scope: tuple = ()    # ids of the `{ }` blocks around it, outermost first (label lookup)


@dataclass
class Body:
    """One function's instructions and what its control flow needs: `labels` maps (block id,
    label) to the index of the instruction after the label (len(instrs) at the end), `tables`
    (block id, label) to the target labels of a `.branchtargets` directive and its block path."""
    instrs: list
    symkind: dict
    regs: set
    labels: dict
    tables: dict


def base_of(op):
    """(base, offset-free) of an address expression inside [...]: register, symbol or number."""
    first = split_top(op)[0] if op else ""
    m = re.match(r"\s*([A-Za-z_$%][\w$#]*(?:\.[xyzw])?)", first)
    return m.group(1) if m else None


class Scopes:
    """Block-scoped names: `.reg` declared inside a nested `{ }` (inline asm) and `.param`
    declared in call sequences get unique names, so reuse in another block stays apart."""

    def __init__(self):
        self.stack, self.counter = [{}], 0

    def open(self):
        self.stack.append({})

    def close(self):
        if len(self.stack) > 1:
            self.stack.pop()

    def declare(self, name, kind):
        """Declares `name` in the innermost block; returns its unique name."""
        uniq = name
        if len(self.stack) > 1:
            self.counter += 1
            uniq = f"{name}#{self.counter}"
        self.stack[-1][name] = (uniq, kind)
        return uniq

    def lookup(self, name):
        for scope in reversed(self.stack):
            if name in scope:
                return scope[name]
        return None


def parse_body(fn, module_symbols):
    """The Body of one function: its instructions, symbol kinds for address operands ('param',
    'callparam', 'funcparam', 'local', 'shared', 'global', 'const'), the (unique) names of the
    registers declared without `%`, its labels and branch tables. Labels are kept per `{ }`
    block (inline asm may repeat a label name in each of its blocks)."""
    scopes, regs = Scopes(), set()
    symkind = dict(module_symbols)
    for p in fn.params:
        symkind[p] = "param" if fn.kind == "entry" else "funcparam"
    for r in fn.rets:
        symkind[r] = "callparam"
    out, labels, tables = [], {}, {}
    blocks, nblocks, last_label = [0], 0, None
    for kind, line, s in fn.body:
        if kind == "open":
            scopes.open()
            nblocks += 1
            blocks.append(nblocks)
            last_label = None
            continue
        if kind == "close":
            scopes.close()
            if len(blocks) > 1:
                blocks.pop()
            last_label = None
            continue
        if kind == "label":
            labels[(blocks[-1], s)] = len(out)
            last_label = s
            continue
        label, last_label = last_label, None
        if kind != "stmt" or not s:
            continue
        if s.startswith("."):
            m = re.match(r"\.branchtargets\b(.*)$", s, re.S)
            if m:
                if label is not None:
                    tables[(blocks[-1], label)] = ([t.strip() for t in m.group(1).split(",") if t.strip()],
                                                   tuple(blocks))
                continue
            m = re.match(r"\.(reg|param|local|shared)\b(.*)$", s, re.S)
            if not m:
                continue
            what, rest = m.groups()
            if what == "reg":
                for name in var_names(rest.replace("%", "PCT_")):
                    regs.add(scopes.declare(name.replace("PCT_", "%"), "reg"))
            else:
                sk = {"param": "callparam", "local": "local", "shared": "shared"}[what]
                for name in var_names(rest):
                    symkind[scopes.declare(name, sk)] = sk
            continue
        text = " ".join(s.split())
        m = re.match(r"(@!?%?[\w$]+\s+)?(\S+)\s*(.*)$", s, re.S)
        if not m:
            continue
        guard, opcode, rest = m.groups()
        parts = opcode.split(".")

        def rename(tok):
            found = scopes.lookup(tok.group(0))
            return found[0] if found else tok.group(0)

        ops = [re.sub(r"(?<![\w$.])%?[A-Za-z_$][\w$]*", rename, o) for o in split_top(rest)]
        out.append(Instr(line, text, opcode, parts[1:], ops, guard is not None, tuple(blocks)))
    return Body(out, symkind, regs, labels, tables)


EMPTY = frozenset()
TERMINATORS = {"bra", "brx", "ret", "exit", "trap"}
NAME = re.compile(r"[A-Za-z_$%][\w$#]*")


def bits(m):
    """The indices of the set bits of the int `m`, lowest first."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


class Analysis:
    """Flow-sensitive address kinds of one function's registers: a forward data flow over the
    function's control-flow graph gives the definitions of each register that reach each
    instruction (a definition kills the earlier ones on its path, a predicated one does not),
    and each definition the kinds its instruction gives it from the kinds of the definitions
    that reach its operands, iterated to a fixpoint."""

    def __init__(self, body):
        self.body = body
        self.instrs, self.symkind, self.regs = body.instrs, body.symkind, set(body.regs)
        self.defined = set()   # every register some instruction writes
        self.defval = []       # kinds per definition
        self.single = {}       # register with one definition: its id
        self.reach = []        # per instruction: {register with several definitions: the
                               # merge of those that reach it} or None
        self.members = []      # per merge: its definition ids
        self.mergeval = []     # kinds per merge

    # -------------------------------------------------------------- kinds of operands

    def kinds_at(self, name, i):
        """Kinds register `name` may hold right before instruction i (do not modify)."""
        d = self.single.get(name)
        if d is not None:
            return self.defval[d]
        k = self.reach[i].get(name) if self.reach[i] else None
        return EMPTY if k is None else self.mergeval[k]

    def operand(self, op, i):
        """Kinds of a source operand (register, symbol[+off], immediate, brace list) of
        instruction i."""
        op = op.strip()
        if op.startswith("{"):
            out = set()
            for o in split_top(op[1:-1]):
                out |= self.operand(o, i)
            return out
        m = NAME.match(op)
        if not m:
            return set()
        name = m.group(0)
        if name.startswith("%") and SPECIAL_REGS.match(op):
            return set()
        if name in self.symkind:
            return {self.symkind[name]}
        return set(self.kinds_at(name, i))

    def is_register(self, op):
        """A virtual register: `%name` (not a special register) or a block-scoped `.reg`."""
        op = op.strip()
        if op in self.symkind:
            return False
        if op in self.regs:
            return True
        return bool(re.fullmatch(r"%[\w$#]+", op)) and not SPECIAL_REGS.match(op)

    def dests(self, ins):
        """Registers the instruction writes (first operand, brace lists and `%r|%p` pairs)."""
        if not ins.ops or ins.opcode.split(".")[0] in NO_DEST:
            return []
        first = ins.ops[0]
        regs = split_top(first[1:-1]) if first.startswith("{") else first.split("|")
        return [r.strip() for r in regs if self.is_register(r)]

    def value(self, ins, i):
        """The kinds a definition by instruction i (`ins`) gives its destinations."""
        parts = ins.opcode.split(".")
        base, quals = parts[0], parts[1:]
        if len(self.dst[i]) > 1 or ins.ops[0].startswith("{"):
            # vector or paired destinations: loaded or unpacked values
            srcs = [self.operand(o, i) for o in ins.ops[1:]]
            return {UNKNOWN} if base in LOADS or any(s & KNOWN for s in srcs) else set()
        srcs = ins.ops[1:]
        if base in LOADS:
            return {UNKNOWN}
        if base == "cvta":
            sp = next((space_of(q) for q in quals if space_of(q)), None)
            if sp is None:
                return {UNKNOWN}
            if "to" in quals:
                return {"callparam" if sp == "param" else sp}
            return {f"gen_{sp}"}
        if base == "mapa":
            return {"shared"} if any(q.startswith("shared") for q in quals) else {"gen_shared"}
        k = [self.operand(o, i) for o in srcs]
        if base == "mov":
            if srcs and srcs[0].startswith("{"):
                return {UNKNOWN} if any(k) else set()  # a vector pack
            return set(k[0]) if k else set()
        if not any(k):
            return set()
        if base == "cvt":
            types = [q for q in quals if re.match(r"^[usbf]\d+$", q)]
            if not all(INT_TYPE.match(q) for q in types):
                return set()
            if types and types[0][1:] in ("8", "16", "32") and k[0] & set(GEN):
                return {UNKNOWN}  # the low bits of a generic address: no address of a space
            return set(k[0])
        if any(re.match(r"^f\d+$", q) for q in quals):
            return set()  # floating point
        known = [x & KNOWN for x in k]
        if base == "add" and len(k) == 2:
            # address + offset; an offset may be a loaded value (unknown)
            return (known[0] | known[1]) or {UNKNOWN}
        if base == "sub" and len(k) == 2:
            if known[1]:
                return set() if k[0] else {UNKNOWN}  # a difference of addresses
            return known[0] or ({UNKNOWN} if k[0] and not k[1] else set())
        if base == "mad" and len(k) == 3:
            if known[2]:
                return known[2]
            return {UNKNOWN}
        if base in ("selp", "slct") and len(k) >= 2:
            return k[0] | k[1]
        if base in ("and", "or") and len(k) == 2:
            width = 32 if any(q.endswith("32") for q in quals) else 64
            for addr, other in ((0, 1), (1, 0)):
                imm = immediate(srcs[other])
                if imm is not None:
                    if imm >= 1 << (width - 1):
                        imm -= 1 << width
                    # or with a constant, and with a mask that clears low bits (alignment)
                    if base == "or" or imm < 0:
                        return set(k[addr])
                    return set()
            return {UNKNOWN}
        if any(known):
            return {UNKNOWN}
        return set()

    # -------------------------------------------------------------- control flow

    def resolve(self, label, scope):
        """Index of the instruction after `label` as seen from the `{ }` blocks `scope`."""
        for b in reversed(scope):
            at = self.body.labels.get((b, label))
            if at is not None:
                return at
        return None

    def targets(self, ins):
        """Instruction indices a branch may go to, or None when they cannot be resolved."""
        base = ins.opcode.split(".")[0]
        if base == "bra":
            if len(ins.ops) != 1:
                return None
            at = self.resolve(ins.ops[0].strip(), ins.scope)
            return None if at is None else [at]
        if len(ins.ops) != 2:
            return None
        table = None
        for b in reversed(ins.scope):
            table = self.body.tables.get((b, ins.ops[1].strip()))
            if table is not None:
                break
        if table is None:
            return None
        names, scope = table
        out = [self.resolve(t, scope) for t in names]
        return None if None in out else out

    def cfg(self):
        """Basic blocks (start indices), their successors, and the blocks whose branches
        cannot be resolved."""
        n = len(self.instrs)
        leaders = {0} | {at for at in self.body.labels.values() if at < n}
        for i, ins in enumerate(self.instrs):
            if ins.opcode.split(".")[0] in TERMINATORS and i + 1 < n:
                leaders.add(i + 1)
        starts = sorted(leaders) if n else []
        block_of = {s: b for b, s in enumerate(starts)}
        ends = starts[1:] + [n]
        succs, wild = [], []
        for b, (s, e) in enumerate(zip(starts, ends)):
            last = self.instrs[e - 1]
            base = last.opcode.split(".")[0]
            out = set()
            if base in ("bra", "brx"):
                ts = self.targets(last)
                if ts is None:
                    wild.append(b)
                else:
                    out |= {block_of[t] for t in ts if t < n}
            if (base not in TERMINATORS or last.pred) and e < n:
                out.add(b + 1)
            succs.append(out)
        return starts, ends, succs, wild

    # -------------------------------------------------------------- the analysis

    def run(self):
        instrs = self.instrs
        n = len(instrs)
        # definitions: one per (instruction, destination register)
        self.dst = [self.dests(ins) for ins in instrs]
        first_def, ndefs, all_defs = [], 0, {}
        for i, d in enumerate(self.dst):
            first_def.append(ndefs)
            for j, r in enumerate(d):
                all_defs.setdefault(r, []).append(ndefs + j)
            ndefs += len(d)
        self.defined = set(all_defs)
        # A register with one definition holds what it gives wherever it is read (where that
        # definition does not reach, the register is undefined), so only the registers with
        # several definitions take part in the reaching-definitions data flow, as bit sets
        # over their definitions (bit k: definition multi_ids[k]).
        self.single = {r: ds[0] for r, ds in all_defs.items() if len(ds) == 1}
        defs_of, bit_of, multi_ids = {}, {}, []
        for r, ds in all_defs.items():
            if len(ds) > 1:
                m = 0
                for d in ds:
                    bit_of[d] = len(multi_ids)
                    m |= 1 << len(multi_ids)
                    multi_ids.append(d)
                defs_of[r] = m
        users = [[] for _ in range(ndefs)]
        uses = []
        for i, ins in enumerate(instrs):
            # the registers it reads: every operand but the destinations
            names = {t for o in (ins.ops[1:] if self.dst[i] else ins.ops) for t in NAME.findall(o)}
            uses.append([t for t in names if t in defs_of])
            for t in names:
                d = self.single.get(t)
                if d is not None:
                    users[d].append(i)
        # per instruction: (register, bit) of its definitions of multi-defined registers
        mdefs = [[(r, 1 << bit_of[first_def[i] + j]) for j, r in enumerate(d) if r in defs_of]
                 for i, d in enumerate(self.dst)]

        starts, ends, succs, wild = self.cfg()
        nb = len(starts)
        preds = [[] for _ in range(nb)]
        for b, ss in enumerate(succs):
            for t in ss:
                preds[t].append(b)
        # blocks nothing reaches (other than the entry; dead code): joined with every state
        orphan = [b > 0 and not preds[b] for b in range(nb)]

        # reaching definitions
        gen, keep = [], []
        for s, e in zip(starts, ends):
            g, kill = 0, 0
            for i in range(s, e):
                if not mdefs[i]:
                    continue
                pred = instrs[i].pred
                for r, bit in mdefs[i]:
                    if pred:
                        g |= bit
                    else:
                        g = (g & ~defs_of[r]) | bit
                        kill |= defs_of[r]
            gen.append(g)
            keep.append(~kill)
        outs, ins_ = [0] * nb, [0] * nb
        changed = bool(defs_of) and not wild
        while changed:
            changed = False
            everything = 0
            if any(orphan):
                for o in outs:
                    everything |= o
            for b in range(nb):
                x = 0
                for p in preds[b]:
                    x |= outs[p]
                if orphan[b]:
                    x |= everything
                ins_[b] = x
                o = gen[b] | (x & keep[b])
                if o != outs[b]:
                    outs[b] = o
                    changed = True

        # The definitions of each multi-defined register that reach each instruction, as
        # merges: one per distinct set of definitions (the same bit set is one merge), whose
        # kinds are the union of its definitions' kinds.
        merge_of, members, merge_users = {}, [], []
        def_merges = [[] for _ in range(ndefs)]
        reach = [None] * n
        for b in range(nb):
            cur = ins_[b]
            for i in range(starts[b], ends[b]):
                r_i = None
                for r in uses[i]:
                    # a branch it cannot resolve (to a label it missed, say): every definition
                    # reaches every use, flow-insensitively
                    m = defs_of[r] if wild else cur & defs_of[r]
                    if m:
                        k = merge_of.get(m)
                        if k is None:
                            k = merge_of[m] = len(members)
                            ids = [multi_ids[x] for x in bits(m)]
                            members.append(ids)
                            merge_users.append([])
                            for d in ids:
                                def_merges[d].append(k)
                        merge_users[k].append(i)
                        if r_i is None:
                            r_i = {}
                        r_i[r] = k
                reach[i] = r_i
                if mdefs[i]:
                    pred = instrs[i].pred
                    for r, bit in mdefs[i]:
                        cur = cur | bit if pred else (cur & ~defs_of[r]) | bit
        self.reach, self.members = reach, members

        # kinds per definition (and merge), to a fixpoint: a worklist of defining instructions,
        # lowest index first, as the definitions of straight-line code come in text order
        self.defval = [set() for _ in range(ndefs)]
        self.mergeval = mergeval = [set() for _ in members]
        work = [i for i in range(n) if self.dst[i]]
        queued = set(work)

        def wake(us):
            for u in us:
                if u not in queued and self.dst[u]:
                    queued.add(u)
                    heapq.heappush(work, u)

        while work:
            i = heapq.heappop(work)
            queued.discard(i)
            v = self.value(instrs[i], i)
            for j in range(len(self.dst[i])):
                d = first_def[i] + j
                cur = self.defval[d]
                if not v <= cur:
                    cur |= v
                    wake(users[d])
                    for k in def_merges[d]:
                        if not v <= mergeval[k]:
                            mergeval[k] |= v
                            wake(merge_users[k])
        return self


LOADS = {"ld", "ldu", "atom", "tex", "tld4", "suld", "txq", "suq"}
# Instructions whose first operand is not a destination (or whose results are never addresses).
NO_DEST = {"st", "red", "cp", "bra", "brx", "call", "ret", "exit", "trap", "bar", "barrier",
           "membar", "fence", "prefetch", "prefetchu", "stmatrix", "nanosleep", "pmevent",
           "discard", "applypriority", "griddepcontrol", "setmaxnreg", "wgmma", "tcgen05",
           "multimem", "tensormap", "brkpt", "mbarrier", "setp", "isspacep", "sust", "sured"}


def immediate(op):
    op = op.strip()
    try:
        return int(op, 0)
    except ValueError:
        m = re.fullmatch(r"(-?)(0[xX][0-9a-fA-F]+|\d+)[uU]?", op)
        return int(m.group(1) + m.group(2), 0) if m else None


# ---------------------------------------------------------------- rules

def describe(kinds):
    return " or ".join(DESCRIBE[k] for k in sorted(kinds))


def check_function(fn, module_symbols, file):
    body = parse_body(fn, module_symbols)
    instrs, symkind = body.instrs, body.symkind
    an = Analysis(body).run()
    findings = []

    def report(ins, rule, msg):
        findings.append(Finding(file, ins.line, fn.name, rule, msg, ins.text))

    for i, ins in enumerate(instrs):
        base = ins.opcode.split(".")[0]
        if base == "cvta":
            check_cvta(an, ins, i, report)
            continue
        spaces = [space_of(q) for q in ins.quals if space_of(q)]
        brackets = [o for o in ins.ops if o.startswith("[")]
        for sp, op in zip(spaces, brackets):
            if sp not in BAD_FOR:
                continue
            addr = base_of(op[1:-1])
            if addr is None:
                continue  # an immediate (absolute) address
            if addr in symkind:
                kinds = {symkind[addr]}
            elif an.is_register(addr) or addr in an.defined:
                kinds = an.kinds_at(addr, i)
            else:
                continue  # an unknown symbol
            what = f"{base}.{sp}" if base in ("ld", "st") else f"{ins.opcode} ({sp} operand)"
            shown = addr.split("#")[0]
            bad = kinds & BAD_FOR[sp]
            rule = {"param": "param-addr", "local": "local-addr", "shared": "shared-addr"}[sp]
            if bad:
                report(ins, rule, f"{what} through {shown}, which may hold {describe(bad)}")
            elif sp == "param" and kinds == {UNKNOWN}:
                report(ins, rule, f"{what} through {shown}, which holds {describe(kinds)}, not a param symbol")
            if sp == "param" and base == "st" and "param" in kinds:
                report(ins, "param-write", f"st.param writes the kernel's own parameter through {shown}")
    return findings


def check_cvta(an, ins, i, report):
    sp = next((space_of(q) for q in ins.quals if space_of(q)), None)
    if sp is None or len(ins.ops) < 2:
        return
    src = ins.ops[1].strip()
    name = base_of(src)
    if name is None:
        return
    kinds = an.operand(src, i) & KNOWN
    name = name.split("#")[0]
    if "to" in ins.quals:
        if name in an.symkind:
            return  # a symbol operand: not a generic address, but no compiler writes this
        bad = {k for k in kinds if k in GEN and GEN[k] != sp}
        bad |= {k for k in kinds if k in RAW and k != "funcparam" and not (sp == "global" and k == "global")}
        if bad:
            report(ins, "cvta-pair", f"cvta.to.{sp} of {name}, which may hold {describe(bad)}")
    else:
        ok = {"param": {"param", "callparam", "funcparam"}, "local": {"local", "funcparam"},
              "global": {"global", "gen_global"}}.get(sp, {sp})
        bad = kinds - ok
        if bad:
            report(ins, "cvta-pair", f"cvta.{sp} of {name}, which may hold {describe(bad)}")


def _check(text, name):
    funcs, symbols = parse_module(text)
    findings = []
    for fn in funcs:
        findings += check_function(fn, symbols, name)
    findings.sort(key=lambda f: f.line)
    return findings, len(funcs)


def check_text(text, name="<ptx>"):
    """Findings of the PTX module `text` (reported under file name `name`)."""
    return _check(text, name)[0]


def check_file(path):
    """Findings of the PTX file at `path` (OSError when it cannot be read)."""
    with open(path, errors="replace") as f:
        return check_text(f.read(), path)


# ---------------------------------------------------------------- command line

def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m nvopt_tools.ptx_check", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    p.add_argument("--quiet", action="store_true", help="print only the summary line")
    p.add_argument("--summary", action="store_true", help="also print the findings per rule")
    args = p.parse_args(argv)
    files = []
    for path in args.paths:
        if os.path.isdir(path):
            found = sorted(os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs
                           if f.endswith(".ptx"))
            if not found:
                print(f"ptx_check: no .ptx files under {path}", file=sys.stderr)
                return 2
            files += found
        else:
            files.append(path)
    total, nfuncs = [], 0
    for path in files:
        try:
            with open(path, errors="replace") as f:
                text = f.read()
        except OSError as e:
            print(f"ptx_check: cannot read {path}: {e.strerror or e}", file=sys.stderr)
            return 2
        found, n = _check(text, path)
        nfuncs += n
        total += found
        if not args.quiet:
            for f in found:
                print(f)
    if args.summary:
        for rule in RULES:
            print(f"ptx_check: {rule}: {sum(1 for f in total if f.rule == rule)}")
    print(f"ptx_check: {len(files)} files, {nfuncs} functions, {len(total)} findings")
    return 1 if total else 0


RULES = ("param-addr", "param-write", "local-addr", "shared-addr", "cvta-pair")

if __name__ == "__main__":
    sys.exit(main())
