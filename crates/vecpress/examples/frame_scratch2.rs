use std::io::Read;
use std::time::{Duration, Instant};
use vecpress::lz4::frame::{self, BlockSize, FrameInfo};
fn time(f: &mut dyn FnMut() -> usize) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..40 {
        let t = Instant::now();
        std::hint::black_box(f());
        best = best.min(t.elapsed());
    }
    best
}
fn main() {
    for name in ["dickens", "mr", "ooffice", "xml"] {
        let data = std::fs::read(format!("/work/shared/data/silesia/{name}")).unwrap();
        for bs in [BlockSize::Max64KB, BlockSize::Max4MB] {
            let packed = frame::compress_with(
                &data,
                FrameInfo::new().block_size(bs).content_checksum(true),
            );
            let ours = time(&mut || frame::decompress(&packed).unwrap().len());
            let mut out = vec![0u8; data.len()];
            let into = time(&mut || frame::decompress_into(&packed, &mut out).unwrap());
            let c = time(&mut || {
                let mut v = Vec::with_capacity(data.len());
                lz4::Decoder::new(&packed[..])
                    .unwrap()
                    .read_to_end(&mut v)
                    .unwrap();
                v.len()
            });
            let flex = time(&mut || {
                let mut v = Vec::with_capacity(data.len());
                lz4_flex::frame::FrameDecoder::new(&packed[..])
                    .read_to_end(&mut v)
                    .unwrap();
                v.len()
            });
            let c = c.as_secs_f64();
            println!("{name:8} {bs:?}: decompress {:.3} into {:.3} lz4_flex {:.3} (÷ liblz4 LZ4F; liblz4 {:.2} GB/s)",
                c / ours.as_secs_f64(), c / into.as_secs_f64(), c / flex.as_secs_f64(),
                data.len() as f64 / c / 1e9);
        }
    }
}
