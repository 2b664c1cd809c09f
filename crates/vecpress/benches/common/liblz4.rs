//! liblz4 (through the `lz4` crate's bindings, x86-64 only) for the
//! bench targets that time or count it beside vecpress: `#[path]`-included.
#![allow(dead_code)]

#[cfg(target_arch = "x86_64")]
mod imp {
    /// `LZ4_compress_default` into `dst`.
    pub fn compress(src: &[u8], dst: &mut [u8]) -> usize {
        lz4::block::compress_to_buffer(src, None, false, dst).expect("room")
    }

    /// `LZ4_compress_HC` at `level` into `dst`.
    pub fn compress_hc(src: &[u8], dst: &mut [u8], level: u32) -> usize {
        let mode = lz4::block::CompressionMode::HIGHCOMPRESSION(level as i32);
        lz4::block::compress_to_buffer(src, Some(mode), false, dst).expect("room")
    }

    /// `LZ4_decompress_safe` of `src` into all of `dst`.
    pub fn decompress(src: &[u8], dst: &mut [u8]) -> usize {
        // SAFETY: the pointers and lengths describe live slices, which
        // LZ4_decompress_safe stays inside.
        let n = unsafe {
            lz4::liblz4::LZ4_decompress_safe(
                src.as_ptr().cast(),
                dst.as_mut_ptr().cast(),
                src.len() as i32,
                dst.len() as i32,
            )
        };
        usize::try_from(n).expect("a sound block")
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod imp {
    pub fn compress(_: &[u8], _: &mut [u8]) -> usize {
        eprintln!("liblz4 is a peer on x86-64 only");
        std::process::exit(2);
    }

    pub fn compress_hc(_: &[u8], _: &mut [u8], _: u32) -> usize {
        compress(&[], &mut [])
    }

    pub fn decompress(_: &[u8], _: &mut [u8]) -> usize {
        compress(&[], &mut [])
    }
}

pub use imp::*;
