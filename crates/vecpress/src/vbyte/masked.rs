//! PLACEHOLDER kernel (being written).
/// # Safety
/// CPU features of the level.
pub(super) unsafe fn decode_bulk(_input: &[u8], _out: &mut [u32]) -> (usize, usize) {
    (0, 0)
}
/// # Safety
/// CPU features of the level.
pub(super) unsafe fn decode_delta_bulk(
    _input: &[u8],
    _out: &mut [u32],
    _prev: &mut u32,
) -> (usize, usize) {
    (0, 0)
}
