//! The command line: nvcc's device-side spellings (`-arch`, `-maxrregcount`, `-Xptxas`,
//! `--use_fast_math`, `-lineinfo`, `-G`, `-rdc`, `-ptx`/`-cubin`, ...), cicc's optimization
//! levels (`-O0..-O3`, `-Ofast-compile=`), and nvopt's own pass-through options (`--knob`,
//! `-Xopt`, `-Xllc`, `-Xcc`). Options that take a value accept it joined with `=` or as the
//! next argument, as nvcc does. Parsing only: nothing here touches the file system.

use crate::program_options::{self as program_options, Phase, ProgramOptions};

/// What the driver writes for each input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    Ptx,
    Cubin,
}

/// Device debug information (nvcc `-lineinfo` and `-G`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Debug {
    None,
    LineInfo,
    Full,
}

/// nvcc's floating-point options. `--use_fast_math` implies ftz, approximate division and
/// square root, and contraction (nvcc --help); an explicit `-ftz`/`-prec-div`/`-prec-sqrt`/
/// `-fmad` wins over it in either order (as nvcc passes them to cicc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MathFlags {
    pub fast: bool,
    pub ftz: Option<bool>,
    pub prec_div: Option<bool>,
    pub prec_sqrt: Option<bool>,
    pub fmad: Option<bool>,
}

/// The floating-point settings in force after defaults and `--use_fast_math`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Math {
    pub fast: bool,
    pub ftz: bool,
    pub prec_div: bool,
    pub prec_sqrt: bool,
    pub fmad: bool,
}

impl MathFlags {
    pub fn resolve(&self) -> Math {
        Math {
            fast: self.fast,
            ftz: self.ftz.unwrap_or(self.fast),
            prec_div: self.prec_div.unwrap_or(!self.fast),
            prec_sqrt: self.prec_sqrt.unwrap_or(!self.fast),
            fmad: self.fmad.unwrap_or(true),
        }
    }
}

/// Everything the command line says.
#[derive(Clone, Debug)]
pub struct Options {
    pub olevel: Option<u8>,
    pub fast_compile: Option<String>,
    pub arch: Option<String>,
    pub ptx_isa: Option<String>,
    pub emit: Emit,
    pub output: Option<String>,
    pub inputs: Vec<String>,
    pub cc_args: Vec<String>,
    pub opt_args: Vec<String>,
    pub llc_args: Vec<String>,
    pub ptxas_args: Vec<String>,
    pub knobs: Vec<String>,
    /// `-maxrregcount N` (1..=255): nvopt's register target (`-nv-maxreg=N` in opt and llc)
    /// and ptxas's `-maxrregcount`, as nvcc gives it to cicc (`-maxreg`) and ptxas.
    pub maxrregcount: Option<u32>,
    pub math: MathFlags,
    pub debug: Debug,
    /// `-rdc=true`: clang compiles with `-fgpu-rdc` and ptxas with `--compile-only`, as nvcc
    /// does, and opt gets `-nv-rdc` (no whole-program internalization, src/opt/internalize.rs).
    pub rdc: bool,
    pub cuda_path: Option<String>,
    pub verbose: bool,
    pub keep: bool,
    pub verify: bool,
    pub run_ptxas: bool,
    pub plugin: Option<String>,
    /// `--upstream`: LLVM's own `default<On>` and llc without the plugin, for comparisons.
    pub upstream: bool,
    pub warnings: Vec<String>,
    /// `-ptx` or `-cubin` given: device code only, whatever else the command line says.
    pub emit_explicit: bool,
    /// nvcc's whole-program options (src/bin/nvopt-cc/program_options.rs).
    pub program: ProgramOptions,
}

/// What the command line asks for.
#[derive(Debug)]
pub enum Request {
    Compile(Box<Options>),
    Help,
    Version,
}

/// A command-line error: `Usage` is printed after "nvopt-cc: error: ", `Nvvm` verbatim
/// (libnvvm's own texts for the options it owns); both exit 1, as nvcc's do.
#[derive(Debug, PartialEq, Eq)]
pub enum ArgError {
    Usage(String),
    Nvvm(String),
}

/// libnvvm's exact message for an unsupported fast-compile level (docs/CICC-FACTS.md "Two optimizers inside cicc 13.5").
pub const FASTCOMPILE_ERROR: &str = "libnvvm : error: -Ofast-compile called with unsupported \
level, only supports 0, min, mid, or max";
/// libnvvm's exact message for a fast-compile level given twice (cicc 13.5).
pub const FASTCOMPILE_TWICE: &str = "libnvvm : error: -Ofast-compile defined more than once";

const FAST_COMPILE_LEVELS: [&str; 4] = ["0", "min", "mid", "max"];

impl Options {
    fn new() -> Self {
        Options {
            olevel: None,
            fast_compile: None,
            arch: None,
            ptx_isa: None,
            emit: Emit::Ptx,
            output: None,
            inputs: Vec::new(),
            cc_args: Vec::new(),
            opt_args: Vec::new(),
            llc_args: Vec::new(),
            ptxas_args: Vec::new(),
            knobs: Vec::new(),
            maxrregcount: None,
            math: MathFlags::default(),
            debug: Debug::None,
            rdc: false,
            cuda_path: None,
            verbose: false,
            keep: false,
            verify: false,
            run_ptxas: true,
            plugin: None,
            upstream: false,
            warnings: Vec::new(),
            emit_explicit: false,
            program: ProgramOptions::default(),
        }
    }

    /// The nvopt level that runs: `-G` compiles unoptimized (nvcc passes `-O0` to cicc), a
    /// non-zero fast-compile level wins over `-O<n>` (cicc), else `-O<n>`, default O3 (nvcc
    /// never passes `-O` to cicc).
    pub fn level(&self) -> String {
        if self.debug == Debug::Full {
            return "O0".to_string();
        }
        match self.fast_compile.as_deref() {
            Some(fc) if fc != "0" => format!("Ofc{fc}"),
            _ => format!("O{}", self.olevel.unwrap_or(3)),
        }
    }

    /// Whether the driver builds programs (host and device code through clang's CUDA driver,
    /// objects, executables, libraries) rather than device code alone (PTX, cubin: today's
    /// mode, and the default). Device code only with `-ptx`/`-cubin`; a whole program with a
    /// phase option (`-c`, `-dc`, `-dlink`, `-link`, `-lib`, `-M`, `-MM`), a host or link option
    /// (`-Xcompiler`, `-Xlinker`, `-L`, `-l`, `-shared`, `-cudart`), an input that is no
    /// device source (`.o`, `.a`, `.so`, `.cpp`, `.c`, ...), or an output named other than
    /// `*.ptx`, `*.cubin` or `-`.
    pub fn whole_program(&self) -> bool {
        if self.emit_explicit {
            return false;
        }
        if self.program.phase.is_some() || self.program.program_only {
            return true;
        }
        let cu_lang = self.program.lang.as_deref() == Some("cu");
        let device_input = |i: &String| {
            let l = i.to_lowercase();
            let object =
                [".o", ".a", ".so", ".obj"].iter().any(|e| l.ends_with(e)) || l.contains(".so.");
            i == "-" || [".cu", ".ll", ".bc"].iter().any(|e| l.ends_with(e)) || (cu_lang && !object)
        };
        if !self.inputs.iter().all(device_input) {
            return true;
        }
        self.output
            .as_deref()
            .is_some_and(|out| out != "-" && !out.ends_with(".ptx") && !out.ends_with(".cubin"))
    }

    /// llc's `-O` digit: 0 at O0 and at every fast-compile level (cicc uses its O0 codegen
    /// list there), else the level's digit.
    pub fn llc_level(&self) -> char {
        let level = self.level();
        if level.starts_with("Ofc") {
            '0'
        } else {
            level.chars().nth(1).unwrap_or('3')
        }
    }
}

/// One argument and where its value is.
pub(crate) struct Cursor<'a> {
    args: &'a [String],
    i: usize,
}

impl<'a> Cursor<'a> {
    /// If `arg` is one of `names`, its value: joined (`NAME=V`) or the next argument.
    pub(crate) fn value(&mut self, arg: &str, names: &[&str]) -> Result<Option<String>, ArgError> {
        for name in names {
            if arg == *name {
                self.i += 1;
                return match self.args.get(self.i) {
                    Some(v) => Ok(Some(v.clone())),
                    None => Err(ArgError::Usage(format!("option '{name}' needs a value"))),
                };
            }
            if let Some(v) = arg.strip_prefix(name).and_then(|r| r.strip_prefix('=')) {
                return Ok(Some(v.to_string()));
            }
        }
        Ok(None)
    }

    /// Like [`Cursor::value`], also accepting the value glued on (`-Ifoo`, `-DX=1`).
    pub(crate) fn short_value(
        &mut self,
        arg: &str,
        name: &str,
    ) -> Result<Option<String>, ArgError> {
        if arg == name {
            return self.value(arg, &[name]);
        }
        Ok(arg.strip_prefix(name).filter(|v| !v.is_empty()).map(str::to_string))
    }
}

fn boolean(option: &str, value: &str) -> Result<bool, ArgError> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(ArgError::Usage(format!("{option}: '{value}': expected true or false"))),
    }
}

fn number(option: &str, value: &str) -> Result<u32, ArgError> {
    value.parse().map_err(|_| ArgError::Usage(format!("{option}: '{value}': expected a number")))
}

/// The most registers a thread can have (PTX ISA: `.maxnreg`; ptxas ignores larger
/// `-maxrregcount` values).
pub const MAX_REGISTERS: u32 = 255;

/// A `-maxrregcount` value: a number from 1 to 255.
fn register_count(value: &str) -> Result<u32, ArgError> {
    let n = number("-maxrregcount", value)?;
    if n == 0 || n > MAX_REGISTERS {
        return Err(ArgError::Usage(format!(
            "-maxrregcount: '{value}': expected a register count from 1 to {MAX_REGISTERS}"
        )));
    }
    Ok(n)
}

fn knob_flag(spec: &str) -> Result<String, ArgError> {
    let name = spec.trim_start_matches('-');
    if name.is_empty() || name.starts_with('=') {
        return Err(ArgError::Usage(format!("bad --knob '{spec}' (expected NAME=VALUE)")));
    }
    Ok(format!("-{name}"))
}

pub(crate) const FLAG_NAMES: &[(&[&str], Flag)] = &[
    (&["-h", "--help", "-help"], Flag::Help),
    (&["--version", "-V", "-version"], Flag::Version),
    (&["-ptx", "--ptx"], Flag::Ptx),
    (&["-cubin", "--cubin"], Flag::Cubin),
    (&["-use_fast_math", "--use_fast_math"], Flag::FastMath),
    (&["-lineinfo", "--generate-line-info"], Flag::LineInfo),
    (&["-G", "--device-debug"], Flag::DeviceDebug),
    (&["-v", "--verbose"], Flag::Verbose),
    (&["--keep", "-keep"], Flag::Keep),
    (&["--verify"], Flag::Verify),
    (&["--no-ptxas"], Flag::NoPtxas),
    (&["--no-build"], Flag::NoBuild),
    (&["--upstream"], Flag::Upstream),
];

#[derive(Clone, Copy)]
pub(crate) enum Flag {
    Help,
    Version,
    Ptx,
    Cubin,
    FastMath,
    LineInfo,
    DeviceDebug,
    Verbose,
    Keep,
    Verify,
    NoPtxas,
    NoBuild,
    Upstream,
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Request, ArgError> {
    let mut o = Options::new();
    let mut cur = Cursor { args, i: 0 };
    while cur.i < args.len() {
        let arg = args[cur.i].clone();
        if let Some(flag) = FLAG_NAMES.iter().find(|(n, _)| n.contains(&arg.as_str())) {
            match flag.1 {
                Flag::Help => return Ok(Request::Help),
                Flag::Version => return Ok(Request::Version),
                f => apply_flag(&mut o, f),
            }
        } else if program_options::parse(&mut o, &mut cur, &arg)? {
        } else if !parse_valued(&mut o, &mut cur, &arg)? {
            if arg == "-" || !arg.starts_with('-') {
                o.inputs.push(arg);
            } else {
                return Err(ArgError::Usage(format!(
                    "unknown option '{arg}' (see nvopt-cc --help)"
                )));
            }
        }
        cur.i += 1;
    }
    check(&o)?;
    Ok(Request::Compile(Box::new(o)))
}

fn apply_flag(o: &mut Options, flag: Flag) {
    match flag {
        Flag::Ptx => {
            o.emit = Emit::Ptx;
            o.emit_explicit = true;
        }
        Flag::Cubin => {
            o.emit = Emit::Cubin;
            o.emit_explicit = true;
        }
        Flag::FastMath => o.math.fast = true,
        Flag::LineInfo => {
            if o.debug == Debug::None {
                o.debug = Debug::LineInfo
            }
        }
        Flag::DeviceDebug => o.debug = Debug::Full,
        Flag::Verbose => o.verbose = true,
        Flag::Keep => o.keep = true,
        Flag::Verify => o.verify = true,
        Flag::NoPtxas => o.run_ptxas = false,
        Flag::Upstream => o.upstream = true,
        // The wrapper scripts/nvopt-cc reads it; the binary never builds anything.
        Flag::NoBuild | Flag::Help | Flag::Version => {}
    }
}

/// Options with a value. Returns whether `arg` was one.
fn parse_valued(o: &mut Options, cur: &mut Cursor, arg: &str) -> Result<bool, ArgError> {
    if parse_level(o, cur, arg)? || parse_math(o, cur, arg)? || parse_front_end(o, cur, arg)? {
        return Ok(true);
    }
    if let Some(v) = cur.value(arg, &["-arch", "--arch", "--gpu-architecture", "--gpu-name"])? {
        if let Some(old) = o.arch.replace(v.clone()).filter(|old| *old != v) {
            o.warnings.push(format!(
                "incompatible redefinition for option 'gpu-architecture' ('{old}', then '{v}'): \
                 the last value is used"
            ));
        }
    } else if let Some(v) = cur.value(arg, &["--ptx-isa", "--ptx", "-ptx"])? {
        o.ptx_isa = Some(v);
    } else if let Some(v) = cur.short_value(arg, "-o")? {
        o.output = Some(v);
    } else if let Some(v) = cur.value(arg, &["--output-file"])? {
        o.output = Some(v);
    } else if let Some(v) = cur.value(arg, &["-maxrregcount", "--maxrregcount"])? {
        o.maxrregcount = Some(register_count(&v)?);
    } else if let Some(v) = cur.value(arg, &["-rdc", "--relocatable-device-code"])? {
        o.rdc = boolean("-rdc", &v)?;
    } else if let Some(v) = cur.value(arg, &["-Xptxas", "--ptxas-options"])? {
        o.ptxas_args.extend(v.split(',').filter(|s| !s.is_empty()).map(str::to_string));
    } else if let Some(v) = cur.value(arg, &["-Xopt", "--Xopt"])? {
        o.opt_args.push(v);
    } else if let Some(v) = cur.value(arg, &["-Xllc", "--Xllc"])? {
        o.llc_args.push(v);
    } else if let Some(v) = cur.value(arg, &["-Xcc", "--Xcc"])? {
        o.cc_args.push(v);
    } else if let Some(v) = cur.value(arg, &["--knob", "-knob"])? {
        o.knobs.push(knob_flag(&v)?);
    } else if let Some(v) = cur.value(arg, &["--cuda-path"])? {
        o.cuda_path = Some(v);
    } else if let Some(v) = cur.value(arg, &["--plugin"])? {
        o.plugin = Some(v);
    } else {
        return Ok(false);
    }
    Ok(true)
}

/// `-O<n>` and the fast-compile spellings, with cicc's rules.
fn parse_level(o: &mut Options, cur: &mut Cursor, arg: &str) -> Result<bool, ArgError> {
    if let Some(digit) = arg.strip_prefix("-O").filter(|d| d.len() == 1) {
        let n = digit.as_bytes()[0];
        if !n.is_ascii_digit() {
            return Ok(false);
        }
        if n > b'3' {
            return Err(ArgError::Usage(format!(
                "unsupported optimization level '{arg}' (use -O0, -O1, -O2 or -O3)"
            )));
        }
        if let Some(old) = o.olevel {
            return Err(ArgError::Usage(format!(
                "-O given more than once ('-O{old}' and '{arg}'); cicc rejects this too"
            )));
        }
        o.olevel = Some(n - b'0');
        return Ok(true);
    }
    let names = ["-Ofast-compile", "--Ofast-compile", "-Ofc", "--Ofc"];
    let Some(level) =
        cur.value(arg, &names).map_err(|_| ArgError::Nvvm(FASTCOMPILE_ERROR.into()))?
    else {
        return Ok(false);
    };
    if !FAST_COMPILE_LEVELS.contains(&level.as_str()) {
        return Err(ArgError::Nvvm(FASTCOMPILE_ERROR.into()));
    }
    if o.fast_compile.is_some() {
        return Err(ArgError::Nvvm(FASTCOMPILE_TWICE.into()));
    }
    o.fast_compile = Some(level);
    Ok(true)
}

/// nvcc's individual floating-point options (`-ftz=true` etc.).
fn parse_math(o: &mut Options, cur: &mut Cursor, arg: &str) -> Result<bool, ArgError> {
    let slots: [(&[&str], &str, &mut Option<bool>); 4] = [
        (&["-ftz", "--ftz"], "-ftz", &mut o.math.ftz),
        (&["-prec-div", "--prec-div"], "-prec-div", &mut o.math.prec_div),
        (&["-prec-sqrt", "--prec-sqrt"], "-prec-sqrt", &mut o.math.prec_sqrt),
        (&["-fmad", "--fmad"], "-fmad", &mut o.math.fmad),
    ];
    for (names, label, slot) in slots {
        if let Some(v) = cur.value(arg, names)? {
            *slot = Some(boolean(label, &v)?);
            return Ok(true);
        }
    }
    Ok(false)
}

/// Preprocessor options for clang: `-I`, `-D`, `-U` (glued or separate), nvcc's long names,
/// `-include`/`--pre-include` and `-isystem`.
fn parse_front_end(o: &mut Options, cur: &mut Cursor, arg: &str) -> Result<bool, ArgError> {
    for (short, long) in
        [("-I", "--include-path"), ("-D", "--define-macro"), ("-U", "--undefine-macro")]
    {
        let v = match cur.short_value(arg, short)? {
            Some(v) => Some(v),
            None => cur.value(arg, &[long])?,
        };
        if let Some(v) = v {
            o.cc_args.push(format!("{short}{v}"));
            return Ok(true);
        }
    }
    for (names, flag) in
        [(&["-include", "--pre-include"][..], "-include"), (&["-isystem"], "-isystem")]
    {
        if let Some(v) = cur.value(arg, names)? {
            o.cc_args.extend([flag.to_string(), v]);
            return Ok(true);
        }
    }
    Ok(false)
}

fn check(o: &Options) -> Result<(), ArgError> {
    if o.inputs.is_empty() {
        return Err(ArgError::Usage(
            "no input file (give .cu, .ll or .bc files; see nvopt-cc --help)".into(),
        ));
    }
    if o.upstream && o.level().starts_with("Ofc") {
        return Err(ArgError::Usage(
            "--upstream runs LLVM's default<O0..O3>, which has no fast-compile levels".into(),
        ));
    }
    if o.upstream && !o.knobs.is_empty() {
        return Err(ArgError::Usage("--knob sets nvopt's knobs: not with --upstream".into()));
    }
    if o.emit_explicit && o.program.phase.is_some() {
        return Err(ArgError::Usage(
            "-ptx/-cubin write device code only: not with -c, -dc, -dlink, -link, -lib or -M"
                .into(),
        ));
    }
    let one_output_each = !o.whole_program()
        || matches!(
            o.program.phase,
            Some(Phase::Compile | Phase::DeviceCompile | Phase::Deps { .. })
        );
    if one_output_each && o.inputs.len() > 1 && o.output.is_some() {
        return Err(ArgError::Usage(
            "a single input file is required for a non-link phase when an output file is \
             specified (nvcc's rule)"
                .into(),
        ));
    }
    Ok(())
}

/// Test helper: the options of a compile request, panicking on anything else.
#[cfg(test)]
pub(crate) fn compile_options(args: &[&str]) -> Options {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    match parse(&args) {
        Ok(Request::Compile(o)) => *o,
        other => panic!("{args:?}: {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(args: &[&str]) -> Options {
        compile_options(args)
    }

    fn err(args: &[&str]) -> ArgError {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        parse(&args).unwrap_err()
    }

    fn levels(args: &[&str]) -> (String, char) {
        let mut all = args.to_vec();
        all.push("x.cu");
        let o = opts(&all);
        (o.level(), o.llc_level())
    }

    #[test]
    fn levels_follow_cicc() {
        assert_eq!(levels(&[]), ("O3".into(), '3'));
        assert_eq!(levels(&["-O1"]), ("O1".into(), '1'));
        assert_eq!(levels(&["-O0", "-Ofc=max"]), ("Ofcmax".into(), '0'));
        assert_eq!(levels(&["-Ofast-compile=min", "-O2"]), ("Ofcmin".into(), '0'));
        assert_eq!(levels(&["--Ofast-compile=0", "-O2"]), ("O2".into(), '2'));
        assert_eq!(levels(&["-Ofc", "mid"]), ("Ofcmid".into(), '0'));
        assert_eq!(levels(&["-G", "-O3"]), ("O0".into(), '0'));
    }

    #[test]
    fn level_errors() {
        assert_eq!(err(&["-Ofc=MAX", "x.cu"]), ArgError::Nvvm(FASTCOMPILE_ERROR.into()));
        assert_eq!(err(&["-Ofc"]), ArgError::Nvvm(FASTCOMPILE_ERROR.into()));
        assert_eq!(
            err(&["-Ofc=max", "-Ofc=min", "x.cu"]),
            ArgError::Nvvm(FASTCOMPILE_TWICE.into())
        );
        assert!(matches!(err(&["-O4", "x.cu"]), ArgError::Usage(m) if m.contains("'-O4'")));
        assert!(
            matches!(err(&["-O3", "-O2", "x.cu"]), ArgError::Usage(m) if m.contains("more than once"))
        );
    }

    #[test]
    fn values_joined_or_separate() {
        let o = opts(&["-arch=sm_80", "-o", "a.ptx", "-maxrregcount", "32", "x.cu"]);
        assert_eq!(
            (o.arch.as_deref(), o.output.as_deref(), o.maxrregcount),
            (Some("sm_80"), Some("a.ptx"), Some(32))
        );
        let o = opts(&["--gpu-architecture", "sm_75", "-oout.ptx", "--maxrregcount=40", "x.cu"]);
        assert_eq!(
            (o.arch.as_deref(), o.output.as_deref(), o.maxrregcount),
            (Some("sm_75"), Some("out.ptx"), Some(40))
        );
        let o = opts(&["-Xptxas", "-v,-O2", "-Xptxas=-warn-spills", "x.cu"]);
        assert_eq!(o.ptxas_args, ["-v", "-O2", "-warn-spills"]);
    }

    #[test]
    fn arch_twice_warns_last_wins() {
        let o = opts(&["-arch", "sm_90", "-arch=sm_80", "x.cu"]);
        assert_eq!(o.arch.as_deref(), Some("sm_80"));
        assert_eq!(o.warnings.len(), 1);
    }

    #[test]
    fn front_end_options() {
        let o = opts(&[
            "-I",
            "inc",
            "-Iinc2",
            "-DX=1",
            "-D",
            "Y",
            "-UZ",
            "-include",
            "h.h",
            "--define-macro=W",
            "x.cu",
        ]);
        assert_eq!(o.cc_args, ["-Iinc", "-Iinc2", "-DX=1", "-DY", "-UZ", "-include", "h.h", "-DW"]);
    }

    #[test]
    fn fast_math_and_overrides() {
        let m = opts(&["x.cu"]).math.resolve();
        assert_eq!(
            (m.fast, m.ftz, m.prec_div, m.prec_sqrt, m.fmad),
            (false, false, true, true, true)
        );
        let m = opts(&["--use_fast_math", "x.cu"]).math.resolve();
        assert_eq!(
            (m.fast, m.ftz, m.prec_div, m.prec_sqrt, m.fmad),
            (true, true, false, false, true)
        );
        let m = opts(&["-prec-div=true", "--use_fast_math", "x.cu"]).math.resolve();
        assert!(m.prec_div && !m.prec_sqrt && m.ftz);
        let m = opts(&["--ftz=true", "-fmad", "false", "x.cu"]).math.resolve();
        assert!(m.ftz && !m.fmad && !m.fast);
    }

    #[test]
    fn value_errors_name_the_choices() {
        assert_eq!(
            err(&["-rdc=maybe", "x.cu"]),
            ArgError::Usage("-rdc: 'maybe': expected true or false".into())
        );
        assert_eq!(
            err(&["-ftz=1", "x.cu"]),
            ArgError::Usage("-ftz: '1': expected true or false".into())
        );
        assert_eq!(
            err(&["-maxrregcount", "abc", "x.cu"]),
            ArgError::Usage("-maxrregcount: 'abc': expected a number".into())
        );
        for bad in ["0", "256", "1000"] {
            assert_eq!(
                err(&["-maxrregcount", bad, "x.cu"]),
                ArgError::Usage(format!(
                    "-maxrregcount: '{bad}': expected a register count from 1 to 255"
                ))
            );
        }
        assert_eq!(opts(&["--maxrregcount", "255", "x.cu"]).maxrregcount, Some(255));
        assert_eq!(opts(&["-maxrregcount=1", "x.cu"]).maxrregcount, Some(1));
        assert_eq!(err(&["-Xptxas"]), ArgError::Usage("option '-Xptxas' needs a value".into()));
        assert!(
            matches!(err(&["-o", "a.ptx", "x.cu", "y.cu"]), ArgError::Usage(m) if m.starts_with("a single input"))
        );
        assert!(
            matches!(err(&["--bogus", "x.cu"]), ArgError::Usage(m) if m.starts_with("unknown option '--bogus'"))
        );
    }

    #[test]
    fn debug_rdc_emit() {
        let o = opts(&["-lineinfo", "-rdc=true", "-cubin", "x.cu"]);
        assert_eq!((o.debug, o.rdc, o.emit), (Debug::LineInfo, true, Emit::Cubin));
        assert_eq!(opts(&["-G", "-lineinfo", "x.cu"]).debug, Debug::Full);
        assert_eq!(opts(&["--ptx=85", "-ptx", "x.cu"]).ptx_isa.as_deref(), Some("85"));
    }
}
