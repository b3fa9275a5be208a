//! Build script: finds LLVM 22 (LLVM_CONFIG, else llvm-config-22, else Debian's path),
//! compiles the C++17 shim with `cc` (every `.cpp` under src/: the shared files in src/shim and
//! each pass's adapter beside its Rust), and links libLLVM dynamically
//! (docs/ARCHITECTURE.md, "Platform facts": opt/llc/clang share libLLVM.so.22.1). Before
//! compiling, it generates the C++ side of the Rust/C++ boundary from the Rust side
//! (src/boundary/gen.rs): `nvopt_boundary.h` in OUT_DIR, force-included in every `.cpp`.
use std::path::{Path, PathBuf};

#[path = "src/boundary/gen.rs"]
#[allow(dead_code)]
mod gen;
use std::process::Command;

const REQUIRED_MAJOR: u32 = 22;
const INSTALL_HINT: &str = "nvopt needs LLVM 22: on Debian/Ubuntu run \
`apt-get update && apt-get install llvm-22-dev llvm-22-tools clang-22` (as root), \
or set LLVM_CONFIG to an LLVM 22 llvm-config";

fn candidates() -> Vec<PathBuf> {
    let mut c = Vec::new();
    if let Ok(p) = std::env::var("LLVM_CONFIG") {
        c.push(PathBuf::from(p));
    }
    c.push(PathBuf::from("llvm-config-22"));
    c.push(PathBuf::from("/usr/lib/llvm-22/bin/llvm-config"));
    c
}

fn query(cfg: &Path, arg: &str) -> Option<String> {
    let out = Command::new(cfg).arg(arg).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn find_llvm_config() -> PathBuf {
    for cfg in candidates() {
        if let Some(v) = query(&cfg, "--version") {
            let major: u32 = v.split('.').next().and_then(|m| m.parse().ok()).unwrap_or(0);
            if major == REQUIRED_MAJOR {
                return cfg;
            }
            println!(
                "cargo:warning={} reports LLVM {v}, not {REQUIRED_MAJOR}; skipped",
                cfg.display()
            );
        }
    }
    panic!("\n\nerror: LLVM {REQUIRED_MAJOR} not found. {INSTALL_HINT}\n");
}

/// The files under `dir` with one of the extensions `exts`, sorted (src/bin, the driver, is
/// neither shim nor boundary and is left out).
fn sources(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path != Path::new("src/bin") {
                out.extend(sources(&path, exts));
            }
        } else if path.extension().is_some_and(|e| exts.iter().any(|x| e == *x)) {
            out.push(path);
        }
    }
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Generates `nvopt_boundary.h` into `out_dir` from the Rust side of the boundary and checks the
/// C++ side (no declaration by hand, no definition Rust does not declare); returns its path.
/// Writes the file only when its text changes.
fn boundary_header(rust: &[PathBuf], cpp: &[PathBuf], out_dir: &Path) -> PathBuf {
    let mut names = gen::Names {
        structs: gen::struct_names(&read(Path::new("src/boundary/mod.rs")), "layout"),
        handles: gen::struct_names(&read(Path::new("src/boundary/mod.rs")), "handle"),
        ..Default::default()
    };
    let (mut fns, mut codes) = (Vec::new(), Vec::new());
    for path in rust {
        let text = read(path);
        names.aliases.extend(gen::aliases(&text));
        let (f, c) = gen::scan_rust(&path.display().to_string(), &text);
        fns.extend(f);
        codes.extend(c);
    }
    let header = gen::header(&fns, &codes, &names)
        .unwrap_or_else(|e| panic!("\n\nerror: the Rust/C++ boundary: {e}\n"));
    let cpp: Vec<(String, String)> =
        cpp.iter().map(|p| (p.display().to_string(), read(p))).collect();
    if let Err(e) = gen::check_cpp(&cpp, &fns) {
        panic!("\n\nerror: the Rust/C++ boundary:\n{e}\n");
    }
    let path = out_dir.join("nvopt_boundary.h");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(header.as_str()) {
        std::fs::write(&path, header).expect("write nvopt_boundary.h");
    }
    path
}

/// Compiles the shim into the archive `nvoptshim`, recompiling only the `.cpp` files whose
/// inputs changed. Every `.rs` file is an input of the generated header, so build.rs reruns on
/// any Rust edit; an object is reused when its key (the `.cpp`, every header under src/, the
/// generated header, this build script and the LLVM version) is the one it was built under.
fn compile_cached(build: &cc::Build, cpp: &[PathBuf], boundary: &Path, out_dir: &Path) {
    use std::hash::{Hash, Hasher};
    let cache = out_dir.join("shim-objects");
    std::fs::create_dir_all(&cache).expect("create the object cache");
    let mut common = std::collections::hash_map::DefaultHasher::new();
    include_str!("build.rs").hash(&mut common);
    read(boundary).hash(&mut common);
    for h in cpp.iter().filter(|p| p.extension().is_some_and(|e| e == "h")) {
        (h, read(h)).hash(&mut common);
    }
    let mut stems = std::collections::BTreeSet::new();
    let (mut objects, mut stale) = (Vec::new(), Vec::new());
    for src in cpp.iter().filter(|p| p.extension().is_some_and(|e| e == "cpp")) {
        let stem = src.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 file name");
        assert!(stems.insert(stem.to_string()), "two .cpp files named {stem}: rename one");
        let mut key = common.clone();
        (src, read(src)).hash(&mut key);
        let obj = cache.join(format!("{stem}-{:016x}.o", key.finish()));
        if !obj.exists() {
            stale.push((src.clone(), obj.clone()));
        }
        objects.push(obj);
    }
    if !stale.is_empty() {
        let mut fresh = build.clone();
        for (src, _) in &stale {
            fresh.file(src);
        }
        let built = fresh.compile_intermediates();
        for (src, obj) in &stale {
            let stem = src.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 file name");
            let suffix = format!("-{stem}.o");
            let out = built
                .iter()
                .find(|o| {
                    o.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(&suffix))
                })
                .unwrap_or_else(|| panic!("no object for {}", src.display()));
            std::fs::copy(out, obj).expect("cache an object");
        }
    }
    for old in std::fs::read_dir(&cache).expect("read the object cache") {
        let old = old.expect("dir entry").path();
        if !objects.contains(&old) {
            let _ = std::fs::remove_file(old);
        }
    }
    let mut archive = build.clone();
    archive.objects(&objects);
    archive.compile("nvoptshim");
}

fn main() {
    println!("cargo:rerun-if-env-changed=LLVM_CONFIG");
    // The shim is every .cpp under src/; the boundary is read from every .rs file beside it.
    let cpp = sources(Path::new("src"), &["cpp", "h"]);
    let rust = sources(Path::new("src"), &["rs"]);
    for path in cpp.iter().chain(&rust) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let boundary = boundary_header(&rust, &cpp, &out_dir);
    let cfg = find_llvm_config();
    let includedir = query(&cfg, "--includedir").expect("llvm-config --includedir");
    let libdir = query(&cfg, "--libdir").expect("llvm-config --libdir");
    let version = query(&cfg, "--version").expect("llvm-config --version");

    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .include(&includedir)
        .include("src/shim")
        .flag("-include")
        .flag(boundary.to_str().expect("a UTF-8 OUT_DIR"))
        .flag("-fno-exceptions")
        .flag("-fno-rtti")
        .flag("-fPIC")
        .flag_if_supported("-Wno-unused-parameter")
        .define("_GNU_SOURCE", None)
        .define("__STDC_CONSTANT_MACROS", None)
        .define("__STDC_FORMAT_MACROS", None)
        .define("__STDC_LIMIT_MACROS", None)
        .define("NVOPT_LLVM_VERSION", Some(format!("\"{version}\"").as_str()))
        .link_lib_modifier("+whole-archive");
    compile_cached(&build, &cpp, &boundary, &out_dir);

    println!("cargo:rustc-link-search=native={libdir}");
    println!("cargo:rustc-link-lib=dylib=LLVM-{REQUIRED_MAJOR}");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{libdir}");
    println!("cargo:rustc-env=NVOPT_LLVM_VERSION={version}");
    println!("cargo:rustc-env=NVOPT_LLVM_INCLUDEDIR={includedir}");
}
