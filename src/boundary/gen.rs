//! The boundary generator, run by build.rs (which includes this file with `#[path]`) and unit-tested
//! in the crate (src/boundary/mod.rs). The Rust side is the one definition of the functions and
//! codes that cross between Rust and the C++ shim; this file reads it and writes the C++ side,
//! `nvopt_boundary.h`, which build.rs force-includes (`-include`) in every `.cpp`:
//!
//! - a prototype for every `nvopt_*` function Rust declares in an `extern "C"` block (the shim
//!   defines it) or exports with `#[no_mangle] pub ... extern "C" fn` (the shim calls it). A C++
//!   definition whose signature differs from the prototype is a "conflicting declaration of C
//!   function" error, so the build fails; and [`check_cpp`] fails the build on a C++ declaration
//!   written by hand, on a C++ definition that Rust does not declare, and on a declaration Rust
//!   makes twice with different signatures;
//! - a C++ enum for every `shared_codes!` invocation (src/boundary/mod.rs): the codes keep the
//!   Rust constants' names and values.
//!
//! Types map as C's: integers to `<cstdint>` types, `usize` to `size_t`, `c_char` to `char`,
//! `c_void` to `void`, `*const T`/`*mut T` to `const T *`/`T *`, `extern "C" fn(..)` (also in an
//! `Option`) to a function pointer, LLVM's C handles (`LLVMValueRef`, ...) to themselves, a
//! `#[repr(C)]` struct of the layout list (src/boundary/mod.rs, `layout!`) to its C++ name, and a
//! pointer to any other Rust type to `void *` (an opaque handle). Anything else fails the build
//! with the function's name. The parser reads the Rust source as text (comments and string
//! literals blanked); it understands the forms this crate uses, and panics on what it cannot read.
use std::collections::BTreeMap;
use std::fmt::Write;

/// One function that crosses the boundary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    pub name: String,
    /// (parameter name, Rust type), in order.
    pub params: Vec<(String, String)>,
    /// The Rust return type; `None` for `()`.
    pub ret: Option<String>,
    /// Whether Rust defines it (an export the shim calls) rather than declares it.
    pub rust_defines: bool,
    /// The Rust file it comes from, for the header's comments and the messages.
    pub file: String,
}

/// One `shared_codes!` enum: its C++ name, Rust integer type and (name, value) codes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Codes {
    pub name: String,
    pub ty: String,
    pub codes: Vec<(String, String)>,
    pub file: String,
}

/// Replaces comments and the contents of string and char literals (but `"C"`) with spaces,
/// keeping every byte offset and line break, so that the scanners below see code only.
pub fn blank(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let wipe = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in out.iter_mut().take(to).skip(from) {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            let end = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p);
            wipe(&mut out, i, end);
            i = end;
        } else if b[i..].starts_with(b"/*") {
            let (mut depth, mut j) = (0usize, i);
            while j < b.len() {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            wipe(&mut out, i, j);
            i = j;
        } else if b[i] == b'r'
            && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
            && (i == 0 || !is_ident(b[i - 1]))
        {
            // A raw string r"..." or r#"..."#.
            let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
            let open = i + 1 + hashes;
            if b.get(open) != Some(&b'"') {
                i += 1;
                continue;
            }
            let close: Vec<u8> =
                std::iter::once(b'"').chain(std::iter::repeat(b'#').take(hashes)).collect();
            let end = b[open + 1..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(b.len(), |p| open + 1 + p);
            wipe(&mut out, open + 1, end);
            i = end + close.len();
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            // `extern "C"` keeps its string: it is the one the scanners look for.
            if &b[i + 1..j.min(b.len())] != b"C" {
                wipe(&mut out, i + 1, j.min(b.len()));
            }
            i = j + 1;
        } else if b[i] == b'\'' {
            // A char literal ('x', '\n', '\''), not a lifetime ('a).
            let len = if b.get(i + 1) == Some(&b'\\') {
                b[i + 2..].iter().position(|&c| c == b'\'').map(|p| p + 3)
            } else if b.get(i + 2) == Some(&b'\'') {
                Some(3)
            } else {
                None
            };
            match len {
                Some(n) => {
                    wipe(&mut out, i + 1, i + n - 1);
                    i += n;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).expect("blanking keeps UTF-8 (only ASCII bytes change)")
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The index of the bracket that closes the one at `open` (`(`, `[`, `{` or `<`).
fn closing(s: &[u8], open: usize) -> usize {
    let (o, c) = match s[open] {
        b'(' => (b'(', b')'),
        b'[' => (b'[', b']'),
        b'{' => (b'{', b'}'),
        b'<' => (b'<', b'>'),
        other => panic!("boundary generator: no bracket at {open} ({})", other as char),
    };
    let mut depth = 0usize;
    for (j, &ch) in s.iter().enumerate().skip(open) {
        if ch == o {
            depth += 1;
        } else if ch == c && !(c == b'>' && j > 0 && s[j - 1] == b'-') {
            depth -= 1;
            if depth == 0 {
                return j;
            }
        }
    }
    panic!("boundary generator: unbalanced bracket at {open}");
}

/// Splits at top-level commas (not inside brackets); empty pieces are dropped.
fn split_top(s: &str) -> Vec<String> {
    let (mut out, mut depth, mut cur) = (Vec::new(), 0i32, String::new());
    let b = s.as_bytes();
    for (i, ch) in s.char_indices() {
        match ch {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            '>' if i == 0 || b[i - 1] != b'-' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    out.push(cur);
    out.into_iter().map(|p| squash(&p)).filter(|p| !p.is_empty()).collect()
}

/// Collapses runs of whitespace to one space and trims.
fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Parses `name(params) -> ret` starting at the function name; returns the function and the
/// index after the signature.
fn signature(code: &str, at: usize, file: &str, rust_defines: bool) -> (Function, usize) {
    let b = code.as_bytes();
    let name_end = at + b[at..].iter().position(|&c| !is_ident(c)).unwrap_or(b.len() - at);
    let name = code[at..name_end].to_string();
    let open = name_end + b[name_end..].iter().position(|&c| c == b'(').expect("a parameter list");
    assert!(
        code[name_end..open].trim().is_empty(),
        "boundary generator: {file}: {name} is generic or oddly written; write it as fn name(..)"
    );
    let close = closing(b, open);
    let params = split_top(&code[open + 1..close])
        .into_iter()
        .map(|p| {
            let (n, t) = p.split_once(':').unwrap_or_else(|| {
                panic!("boundary generator: {file}: {name}: parameter `{p}` has no type")
            });
            (n.trim().trim_start_matches("mut ").to_string(), squash(t))
        })
        .collect();
    let end = close
        + 1
        + b[close + 1..].iter().position(|&c| c == b';' || c == b'{').expect("an end of signature");
    let tail = code[close + 1..end].trim();
    let ret = tail.strip_prefix("->").map(squash).filter(|r| r != "()");
    assert!(
        ret.is_some() || tail.is_empty() || tail.starts_with("where"),
        "boundary generator: {file}: {name}: cannot read `{tail}` after the parameters"
    );
    (Function { name, params, ret, rust_defines, file: file.to_string() }, end)
}

/// The `nvopt_*` functions one Rust file declares in `extern "C"` blocks or exports with
/// `#[no_mangle]`, and its `shared_codes!` enums.
pub fn scan_rust(file: &str, src: &str) -> (Vec<Function>, Vec<Codes>) {
    let code = blank(src);
    let b = code.as_bytes();
    let mut fns = Vec::new();
    // extern "C" { ... } blocks and `extern "C" fn` definitions.
    let mut i = 0;
    while let Some(p) = code[i..].find("extern \"C\"") {
        let at = i + p;
        let q = at + 10;
        i = q;
        let rest = code[q..].trim_start();
        let rest_at = q + (code[q..].len() - rest.len());
        if rest.starts_with('{') {
            let close = closing(b, rest_at);
            let body = &code[rest_at + 1..close];
            let mut j = 0;
            while let Some(f) = find_word(body, "fn", j) {
                let name_at = f + 2 + (body[f + 2..].len() - body[f + 2..].trim_start().len());
                let (func, end) = signature(body, name_at, file, false);
                j = end;
                if func.name.starts_with("nvopt_") {
                    fns.push(func);
                }
            }
            i = close;
        } else if let Some(after_fn) = rest.strip_prefix("fn") {
            // `extern "C" fn name(..)`: an export when #[no_mangle] precedes it.
            if !after_fn.starts_with(|c: char| c.is_whitespace()) {
                continue;
            }
            let item_start = code[..at].rfind([';', '}']).map_or(0, |p| p + 1);
            let head = &code[item_start..at];
            if !head.contains("no_mangle") {
                continue;
            }
            let name_at = rest_at + 2 + (after_fn.len() - after_fn.trim_start().len());
            let (func, end) = signature(&code, name_at, file, true);
            i = end;
            if func.name.starts_with("nvopt_") {
                fns.push(func);
            }
        }
    }
    // shared_codes! { ... }
    let mut codes = Vec::new();
    let mut i = 0;
    while let Some(p) = code[i..].find("shared_codes!") {
        let at = i + p;
        if at > 0 && is_ident(b[at - 1]) || code[..at].trim_end().ends_with("macro_rules!") {
            i = at + 1;
            continue;
        }
        let open = at + code[at..].find('{').expect("shared_codes! {");
        let close = closing(b, open);
        i = close;
        let inner = &code[open + 1..close];
        if inner.contains('$') {
            continue; // the macro's own definition
        }
        let e = find_word(inner, "enum", 0)
            .unwrap_or_else(|| panic!("boundary generator: {file}: shared_codes! without `enum`"));
        let head_end = e + inner[e..].find('{').expect("shared_codes! enum body");
        let head = squash(&inner[e + 4..head_end]);
        let (name, ty) = head.split_once(':').unwrap_or_else(|| {
            panic!("boundary generator: {file}: write `enum Name: u32 {{ .. }}`")
        });
        let body_close = closing(inner.as_bytes(), head_end);
        let list = split_top(&inner[head_end + 1..body_close])
            .into_iter()
            .map(|c| {
                let c = strip_attrs(&c);
                let (n, v) = c.split_once('=').unwrap_or_else(|| {
                    panic!("boundary generator: {file}: code `{c}` has no value")
                });
                (n.trim().to_string(), v.trim().to_string())
            })
            .collect();
        codes.push(Codes {
            name: name.trim().into(),
            ty: ty.trim().into(),
            codes: list,
            file: file.into(),
        });
    }
    (fns, codes)
}

/// Drops leading `#[...]` attributes (doc comments are already blank).
fn strip_attrs(s: &str) -> String {
    let mut s = s.trim().to_string();
    while s.starts_with("#[") {
        let close = closing(s.as_bytes(), 1);
        s = s[close + 1..].trim().to_string();
    }
    s
}

/// The next occurrence of `word` as a whole word in `s`, from `from`.
fn find_word(s: &str, word: &str, from: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = from;
    while let Some(p) = s[i..].find(word) {
        let at = i + p;
        let before = at == 0 || !is_ident(b[at - 1]);
        let after = at + word.len() >= b.len() || !is_ident(b[at + word.len()]);
        if before && after {
            return Some(at);
        }
        i = at + word.len();
    }
    None
}

/// The names a boundary type may use besides C's: the `#[repr(C)]` structs of the layout list
/// (Rust name to C++ name), the opaque handles, and the crate's type aliases (`type ValueId = usize;`).
#[derive(Clone, Debug, Default)]
pub struct Names {
    pub structs: BTreeMap<String, String>,
    /// Rust types the shim holds only as pointers (`handle!` in src/boundary/mod.rs): Rust name
    /// to the C++ name the header forward-declares.
    pub handles: BTreeMap<String, String>,
    pub aliases: BTreeMap<String, String>,
}

/// The type aliases of one Rust file: `type Name = T;` (at any visibility) and renaming imports
/// of types (`use path::ScevNode as Flat`).
pub fn aliases(src: &str) -> Vec<(String, String)> {
    let code = blank(src);
    let mut out = Vec::new();
    let upper_ident =
        |t: &str| t.starts_with(|c: char| c.is_ascii_uppercase()) && is_path(t) && !t.contains(':');
    let mut i = 0;
    while let Some(at) = find_word(&code, "as", i) {
        i = at + 2;
        let before = code[..at].trim_end();
        let from = &before[before.rfind(|c: char| !is_ident(c as u8)).map_or(0, |p| p + 1)..];
        let after = code[i..].trim_start();
        let to: String = after.chars().take_while(|&c| is_ident(c as u8)).collect();
        if upper_ident(from) && upper_ident(&to) {
            out.push((to, from.to_string()));
        }
    }
    let mut i = 0;
    while let Some(at) = find_word(&code, "type", i) {
        i = at + 4;
        let Some(end) = code[i..].find(';').map(|p| i + p) else { break };
        if let Some((name, target)) = code[i..end].split_once('=') {
            let name = name.trim();
            if is_path(name) && !name.contains(':') {
                out.push((name.to_string(), squash(target)));
            }
        }
    }
    out
}

/// The C++ type of a Rust type at the boundary.
pub fn c_type(ty: &str, names: &Names) -> Result<String, String> {
    let ty = squash(ty);
    if let Some(inner) = ty.strip_prefix("Option<").and_then(|t| t.strip_suffix('>')) {
        if inner.trim_start().starts_with("extern") || inner.trim_start().starts_with("unsafe") {
            return c_type(inner, names);
        }
        return Err(format!("`{ty}`: only an Option of a function pointer crosses"));
    }
    for (prefix, konst) in [("*const ", true), ("*mut ", false)] {
        if let Some(inner) = ty.strip_prefix(prefix) {
            let inner = inner.trim();
            let pointee =
                if let Some(h) = names.handles.get(inner.rsplit("::").next().unwrap_or(inner)) {
                    h.clone()
                } else if let Some(elem) = inner.strip_prefix('[').and_then(|a| a.split_once(';')) {
                    c_type(elem.0, names)? // a pointer to an array is, in C, one to its first element
                } else {
                    c_type(inner, names)?
                };
            return Ok(pointer(&pointee, konst));
        }
    }
    let f = ty.strip_prefix("unsafe ").unwrap_or(&ty);
    if let Some(sig) = f.strip_prefix("extern \"C\" fn") {
        let sig = sig.trim();
        let close = closing(sig.as_bytes(), 0);
        let params: Result<Vec<String>, String> =
            split_top(&sig[1..close]).iter().map(|p| c_type(unnamed(p), names)).collect();
        let ret = match sig[close + 1..].trim().strip_prefix("->") {
            Some(r) if r.trim() != "()" => c_type(r, names)?,
            _ => "void".into(),
        };
        return Ok(format!("{ret} (*)({})", params?.join(", ")));
    }
    let last = ty.rsplit("::").next().unwrap_or(&ty);
    let prim = match last {
        "bool" => "bool",
        "u8" => "uint8_t",
        "i8" => "int8_t",
        "u16" => "uint16_t",
        "i16" => "int16_t",
        "u32" => "uint32_t",
        "i32" => "int32_t",
        "u64" => "uint64_t",
        "i64" => "int64_t",
        "usize" => "size_t",
        "isize" => "ptrdiff_t",
        "f32" => "float",
        "f64" => "double",
        "c_char" => "char",
        "c_int" => "int",
        "c_uint" => "unsigned",
        "c_void" => "void",
        _ => "",
    };
    if !prim.is_empty() {
        return Ok(prim.into());
    }
    if last.starts_with("LLVM") && last.ends_with("Ref") && is_path(last) {
        return Ok(last.into());
    }
    if let Some(cpp) = names.structs.get(last) {
        return Ok(cpp.clone());
    }
    match names.aliases.get(last) {
        Some(target) if target != &ty => c_type(target, names),
        _ => Err(format!(
            "`{ty}` has no C++ type (add it to src/boundary/mod.rs: `layout!` for a struct, `handle!` for an opaque pointee)"
        )),
    }
}

/// A function-pointer parameter's type without its name (`name: T` or `T`).
fn unnamed(p: &str) -> &str {
    match p.find(':') {
        Some(c) if !p[c..].starts_with("::") && is_path(p[..c].trim()) => p[c + 1..].trim(),
        _ => p,
    }
}

fn is_path(t: &str) -> bool {
    !t.is_empty() && t.bytes().all(|c| is_ident(c) || c == b':')
}

/// `T *` or `const T *`, also for a function pointer (`R (*)(A)` becomes `R (**)(A)`).
fn pointer(pointee: &str, konst: bool) -> String {
    if let Some(p) = pointee.find("(*)") {
        let (a, b) = pointee.split_at(p + 2);
        return format!("{a}{}*{b}", if konst { " const " } else { "" })
            .replace("( const *", "(* const");
    }
    match (pointee.ends_with('*'), konst) {
        (true, true) => format!("{pointee}const *"),
        (true, false) => format!("{pointee}*"),
        (false, true) => format!("const {pointee} *"),
        (false, false) => format!("{pointee} *"),
    }
}

/// Declares `name` with C++ type `ty` (placing the name inside a function-pointer type).
fn declare(ty: &str, name: &str) -> String {
    match ty.find("(*") {
        Some(p) => {
            let close = p + ty[p..].find(')').expect("(*)");
            format!("{}{name}{}", &ty[..close], &ty[close..])
        }
        None if ty.ends_with('*') => format!("{ty}{name}"),
        None => format!("{ty} {name}"),
    }
}

/// C++ keywords that Rust allows as parameter names; the header appends `_` to them.
const CPP_KEYWORDS: [&str; 16] = [
    "auto", "char", "class", "default", "delete", "double", "float", "int", "long", "new",
    "private", "public", "register", "short", "signed", "unsigned",
];

/// A function's C++ prototype.
pub fn prototype(f: &Function, names: &Names) -> Result<String, String> {
    let ctx = |e: String| format!("{}: {}: {e}", f.file, f.name);
    let ret = match &f.ret {
        Some(r) => c_type(r, names).map_err(ctx)?,
        None => "void".into(),
    };
    let name = |n: &str| if CPP_KEYWORDS.contains(&n) { format!("{n}_") } else { n.to_string() };
    let params: Result<Vec<String>, String> = f
        .params
        .iter()
        .map(|(n, t)| c_type(t, names).map(|c| declare(&c, &name(n))).map_err(ctx))
        .collect();
    let head = declare(&ret, &f.name);
    Ok(format!("{head}({});", params?.join(", ")))
}

/// The C++ `enum` of one `shared_codes!` invocation.
pub fn codes_enum(c: &Codes) -> Result<String, String> {
    let ty =
        c_type(&c.ty, &Names::default()).map_err(|e| format!("{}: {}: {e}", c.file, c.name))?;
    let list: Vec<String> = c.codes.iter().map(|(n, v)| format!("  {n} = {v},")).collect();
    Ok(format!("enum {} : {ty} {{\n{}\n}};", c.name, list.join("\n")))
}

/// The `layout!(path, "Cpp", ..)` (or, with `macro` "handle", `handle!(path, "Cpp")`) pairs of
/// src/boundary/mod.rs: Rust type name to C++ name.
pub fn struct_names(boundary_src: &str, macro_name: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for piece in boundary_src.split(&format!("{macro_name}!(")).skip(1) {
        let Some((path, rest)) = piece.split_once(',') else { continue };
        let Some(cpp) = rest.trim_start().strip_prefix('"').and_then(|r| r.split('"').next())
        else {
            continue;
        };
        let rust = path.trim().rsplit("::").next().unwrap_or("").to_string();
        if is_path(&rust) && !rust.starts_with('$') {
            out.insert(rust, cpp.to_string());
        }
    }
    out
}

/// The generated header: every function's prototype and every code enum. Fails on a function
/// declared twice with different signatures, on a code name used twice, and on a type that has no
/// C++ equivalent.
pub fn header(fns: &[Function], codes: &[Codes], names: &Names) -> Result<String, String> {
    let mut out = String::from(
        "// Generated by build.rs (src/boundary/gen.rs) from the Rust side of the boundary; do not\n\
         // edit. Force-included in every .cpp of the shim, so that a C++ definition whose signature\n\
         // differs from Rust's declaration does not compile.\n#pragma once\n\
         #include \"boundary.h\"\n#include \"llvm-c/Types.h\"\n#include <cstddef>\n#include <cstdint>\n\n",
    );
    let mut seen: BTreeMap<&str, (String, &Function)> = BTreeMap::new();
    let mut groups: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    for f in fns {
        let p = prototype(f, names)?;
        if let Some((q, g)) = seen.get(f.name.as_str()) {
            if *q != p {
                return Err(format!(
                    "{} is declared twice with different signatures:\n  {}: {q}\n  {}: {p}",
                    f.name, g.file, f.file
                ));
            }
            continue;
        }
        seen.insert(&f.name, (p.clone(), f));
        groups[f.rust_defines as usize].push(format!("{p} // {}", f.file));
    }
    for h in names.handles.values() {
        writeln!(out, "struct {h}; // a Rust object the shim holds by pointer only").unwrap();
    }
    out += "\nextern \"C\" {\n// Defined in C++, called by Rust.\n";
    for l in &groups[0] {
        writeln!(out, "{l}").unwrap();
    }
    out += "// Defined in Rust, called by C++.\n";
    for l in &groups[1] {
        writeln!(out, "{l}").unwrap();
    }
    out += "}\n";
    let mut names: BTreeMap<&str, &str> = BTreeMap::new();
    for c in codes {
        for (n, _) in &c.codes {
            if let Some(other) = names.insert(n, &c.name) {
                return Err(format!(
                    "code {n} is in both {other} and {} (names are global in C++)",
                    c.name
                ));
            }
        }
        writeln!(out, "\n// {}\n{}", c.file, codes_enum(c)?).unwrap();
    }
    Ok(out)
}

/// Checks the C++ side against Rust's: no `nvopt_*` function declared by hand (the header
/// declares them) and none defined that Rust does not know. `files` are (path, source) pairs.
pub fn check_cpp(files: &[(String, String)], fns: &[Function]) -> Result<(), String> {
    let known: std::collections::BTreeSet<&str> = fns.iter().map(|f| f.name.as_str()).collect();
    let mut errors = Vec::new();
    for (path, src) in files {
        let code = blank(src);
        let mut i = 0;
        while let Some(p) = code[i..].find("extern \"C\"") {
            let at = i + p;
            i = at + 10;
            let rest = &code[at + 10..];
            if rest.trim_start().starts_with('{') {
                continue;
            }
            // The declaration runs to its first `;` or `{` at bracket depth 0.
            let (mut depth, mut end) = (0i32, rest.len());
            for (j, ch) in rest.char_indices() {
                match ch {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    ';' | '{' if depth == 0 => {
                        end = j;
                        break;
                    }
                    _ => {}
                }
            }
            let decl = &rest[..end];
            let Some(n) = decl.find("nvopt_") else { continue };
            let name: String =
                decl[n..].chars().take_while(|&c| c.is_ascii_alphanumeric() || c == '_').collect();
            let line = src[..at].matches('\n').count() + 1;
            if rest[end..].starts_with(';') {
                errors.push(format!(
                    "{path}:{line}: {name} is declared by hand; the generated header declares it (drop the line)"
                ));
            } else if !known.contains(name.as_str()) {
                errors.push(format!(
                    "{path}:{line}: {name} is defined here but Rust declares no such function (declare it in an extern \"C\" block, or make it static)"
                ));
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};
    use std::process::Command;

    const RUST: &str = r#"
        use std::ffi::{c_char, c_void};
        extern "C" {
            // a comment with extern "C" { fn nvopt_not_this(); }
            fn nvopt_t_facts(host: *mut c_void, id: u32, name: *mut *const c_char, len: *mut usize) -> bool;
            fn nvopt_t_each(cb: extern "C" fn(*mut c_void, u32), ctx: *mut c_void);
            fn atexit(f: extern "C" fn()) -> i32;
        }
        /// Runs the pass.
        #[no_mangle]
        pub unsafe extern "C" fn nvopt_t_run(f: LLVMValueRef, nodes: *const Node, default: bool) -> u32 { 0 }
        extern "C" fn not_exported(x: u32) {}
        crate::shared_codes! {
            /// Facts.
            pub enum NvTFact: u8 {
                /// None.
                T_NONE = 0,
                T_SOME = 2,
            }
        }
    "#;

    fn names() -> Names {
        let mut n = Names::default();
        n.structs.insert("Node".into(), "NvScevNode".into());
        n
    }

    #[test]
    fn reads_the_rust_side() {
        let (fns, codes) = scan_rust("t.rs", RUST);
        let got: Vec<&str> = fns.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(got, ["nvopt_t_facts", "nvopt_t_each", "nvopt_t_run"]);
        assert!(fns[2].rust_defines && !fns[0].rust_defines);
        let h = header(&fns, &codes, &names()).unwrap();
        assert!(
            h.contains(
                "bool nvopt_t_facts(void *host, uint32_t id, const char **name, size_t *len);"
            ),
            "{h}"
        );
        assert!(h.contains("void nvopt_t_each(void (*cb)(void *, uint32_t), void *ctx);"), "{h}");
        assert!(
            h.contains(
                "uint32_t nvopt_t_run(LLVMValueRef f, const NvScevNode *nodes, bool default_);"
            ),
            "{h}"
        );
        assert!(h.contains("enum NvTFact : uint8_t {\n  T_NONE = 0,\n  T_SOME = 2,\n};"), "{h}");
        assert!(!h.contains("atexit") && !h.contains("not_exported") && !h.contains("not_this"));
    }

    #[test]
    fn refuses_what_it_cannot_map() {
        let (fns, _) = scan_rust("t.rs", "extern \"C\" { fn nvopt_t(v: Vec<u8>); }");
        assert!(header(&fns, &[], &names()).unwrap_err().contains("`Vec<u8>` has no C++ type"));
        let twice =
            "extern \"C\" { fn nvopt_t(a: *const u8); }\nextern \"C\" { fn nvopt_t(a: *mut u8); }";
        let (fns, _) = scan_rust("t.rs", twice);
        assert!(header(&fns, &[], &names()).unwrap_err().contains("declared twice"));
    }

    #[test]
    fn checks_the_cpp_side() {
        let (fns, _) = scan_rust("t.rs", RUST);
        let by_hand = (
            "a.cpp".to_string(),
            "extern \"C\" bool nvopt_t_run(LLVMValueRef F, const NvScevNode *N, bool D);\n"
                .to_string(),
        );
        assert!(check_cpp(&[by_hand], &fns)
            .unwrap_err()
            .contains("a.cpp:1: nvopt_t_run is declared by hand"));
        let unknown =
            ("b.cpp".to_string(), "// x\nextern \"C\" void nvopt_t_gone(void *H) {}\n".to_string());
        assert!(check_cpp(&[unknown], &fns)
            .unwrap_err()
            .contains("b.cpp:2: nvopt_t_gone is defined here but Rust declares"));
        let fine = (
            "c.cpp".to_string(),
            "extern \"C\" void nvopt_t_each(void (*Cb)(void *, uint32_t), void *Ctx) {}\n"
                .to_string(),
        );
        check_cpp(&[fine], &fns).unwrap();
    }

    /// Compiles `cpp` with the header generated from `rust` force-included, as build.rs does;
    /// whether g++ (or `$CXX`) accepts it, and its messages.
    fn compiles(rust: &str, cpp: &str, dir: &Path) -> (bool, String) {
        let (fns, codes) = scan_rust("t.rs", rust);
        std::fs::create_dir_all(dir).unwrap();
        let h = dir.join("nvopt_boundary.h");
        std::fs::write(&h, header(&fns, &codes, &names()).unwrap()).unwrap();
        let src = dir.join("t.cpp");
        std::fs::write(&src, cpp).unwrap();
        let shim = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/shim");
        let out = Command::new(std::env::var("CXX").unwrap_or_else(|_| "c++".into()))
            .args(["-std=c++17", "-fsyntax-only", "-include"])
            .arg(&h)
            .arg("-I")
            .arg(&shim)
            .arg("-I")
            .arg(env!("NVOPT_LLVM_INCLUDEDIR"))
            .arg(&src)
            .output()
            .expect("run the C++ compiler");
        (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
    }

    /// The point of the generator: a C++ definition whose signature differs from Rust's
    /// declaration does not compile, one that matches does, and a shared code has Rust's value.
    #[test]
    fn a_signature_that_differs_fails_the_build() {
        let dir: PathBuf =
            std::env::temp_dir().join(format!("nvopt-boundary-gen-{}", std::process::id()));
        let ok = "extern \"C\" bool nvopt_t_facts(void *H, uint32_t Id, const char **Name, size_t *Len) { return Id == T_SOME; }\n\
                  static_assert(T_SOME == 2, \"Rust's value\");\n";
        let (pass, msg) = compiles(RUST, ok, &dir);
        assert!(pass, "the matching definition must compile:\n{msg}");
        for wrong in [
            "extern \"C\" bool nvopt_t_facts(void *H, uint32_t Id, char **Name, size_t *Len) { return false; }\n",
            "extern \"C\" bool nvopt_t_facts(void *H, uint64_t Id, const char **Name, size_t *Len) { return false; }\n",
            "extern \"C\" int nvopt_t_facts(void *H, uint32_t Id, const char **Name, size_t *Len) { return 0; }\n",
            "extern \"C\" bool nvopt_t_facts(void *H, uint32_t Id, const char **Name) { return false; }\n",
        ] {
            let (pass, msg) = compiles(RUST, wrong, &dir);
            assert!(!pass, "a definition that differs from Rust's must not compile:\n{wrong}");
            assert!(msg.contains("nvopt_t_facts"), "{msg}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
