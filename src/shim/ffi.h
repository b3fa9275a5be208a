// Types shared by the shim's files at the boundary with Rust (layouts mirror src/scev_sources/ffi.rs).
#pragma once
#include <cstddef>

// A string handed to Rust: bytes and length, not NUL-terminated.
struct NvStr {
  const char *Ptr;
  size_t Len;
};
