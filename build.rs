//! Build script: finds LLVM 22 (LLVM_CONFIG, else llvm-config-22, else Debian's path),
//! compiles the C++17 shim with `cc` (every `.cpp` under src/: the shared files in src/shim and
//! each pass's adapter beside its Rust), and links libLLVM dynamically
//! (docs/ARCHITECTURE.md, "Platform facts": opt/llc/clang share libLLVM.so.22.1).
use std::path::{Path, PathBuf};
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

/// The C++ sources and headers under `dir` (src/bin, the driver, has none), sorted.
fn cpp_sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            out.extend(cpp_sources(&path));
        } else if path.extension().is_some_and(|e| e == "cpp" || e == "h") {
            out.push(path);
        }
    }
    out
}

fn main() {
    println!("cargo:rerun-if-env-changed=LLVM_CONFIG");
    let sources = cpp_sources(Path::new("src"));
    for path in &sources {
        println!("cargo:rerun-if-changed={}", path.display());
    }
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
    for path in sources.iter().filter(|p| p.extension().is_some_and(|e| e == "cpp")) {
        build.file(path);
    }
    build.compile("nvoptshim");

    println!("cargo:rustc-link-search=native={libdir}");
    println!("cargo:rustc-link-lib=dylib=LLVM-{REQUIRED_MAJOR}");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{libdir}");
    println!("cargo:rustc-env=NVOPT_LLVM_VERSION={version}");
}
