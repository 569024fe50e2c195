//! Finds the installed libgsp through the `pkg-config` program (standard
//! library only: no crates). `pkg-config --static --libs gsp` lists what
//! libgsp.a needs besides itself (libstdc++, zlib...; the CUDA runtime is
//! inside libgsp).
//!
//! Environment: PKG_CONFIG (the program, default "pkg-config"),
//! PKG_CONFIG_PATH (where gsp.pc is), GSP_STATIC=0 to link libgsp.so instead
//! of libgsp.a (found at run time like any shared library: see
//! doc/getting-started.md, "Linking").
use std::env;
use std::process::Command;

fn main() {
    for v in ["PKG_CONFIG", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "GSP_STATIC"] {
        println!("cargo:rerun-if-env-changed={v}");
    }
    let prog = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".into());
    let run = |args: &[&str]| -> String {
        let out = Command::new(&prog).args(args).arg("gsp").output().unwrap_or_else(|e| {
            panic!("gsp-sys: cannot run `{prog}`: {e}. Install pkg-config and libgsp, and set PKG_CONFIG_PATH.")
        });
        if !out.status.success() {
            panic!(
                "gsp-sys: `{prog} {} gsp` failed: {}Is libgsp installed and PKG_CONFIG_PATH set to its lib/pkgconfig?",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        String::from_utf8(out.stdout).expect("pkg-config printed non-UTF-8")
    };
    let static_gsp = env::var("GSP_STATIC").map(|v| v != "0").unwrap_or(true);
    let libs = if static_gsp { run(&["--static", "--libs"]) } else { run(&["--libs"]) };
    for flag in libs.split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={dir}");
        } else if let Some(lib) = flag.strip_prefix("-l") {
            let kind = if (lib == "gsp" && static_gsp) || lib.ends_with("_static") { "static" } else { "dylib" };
            println!("cargo:rustc-link-lib={kind}={lib}");
        } else if flag == "-pthread" {
            println!("cargo:rustc-link-lib=dylib=pthread");
        }
    }
    // For crates that depend on this one (DEP_GSP_INCLUDE).
    for flag in run(&["--cflags"]).split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-I") {
            println!("cargo:include={dir}");
        }
    }
}
