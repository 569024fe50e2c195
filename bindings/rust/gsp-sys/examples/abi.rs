//! Prints this crate's view of the ABI in the format of tests/test_abi_layout.c.
use core::mem::{offset_of, size_of};
use gsp_sys::*;

macro_rules! layout {
    ($t:ident; $($f:ident),*) => {
        println!("size {} {}", stringify!($t), size_of::<$t>());
        $(println!("offset {}.{} {}", stringify!($t), stringify!($f), offset_of!($t, $f));)*
    };
}

fn main() {
    // The fields tests/test_abi_layout.c prints.
    layout!(gsp_options; size, backend, algorithm, device, flags, delta, num_threads,
            device_memory_limit, cuda_stream, progress, progress_user, limit, num_devices, index);
    layout!(gsp_run_info; size, backend, algorithm, weight_type, num_vertices, num_sources, device,
            device_name, seconds, upload_seconds, iterations, relaxations, has_paths, setup_seconds,
            compute_seconds, copy_seconds, paths_seconds, num_devices);
    for (name, value) in CONSTANTS {
        println!("const {name} {value}");
    }
    for (name, value) in ALGORITHMS {
        println!("algorithm {name} {value}");
    }
}
