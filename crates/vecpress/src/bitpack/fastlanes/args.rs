//! The checks of a call's arguments: a whole block, room for one, a base
//! a lane, and a width the type holds.

use super::{BLOCK, Word};
use crate::Error;

/// `values` as one whole block.
pub(super) fn block<T: Word>(values: &[T]) -> Result<&[T; BLOCK], Error> {
    values.try_into().map_err(|_| Error::InvalidArgument {
        what: "values in a block (1024)",
        value: values.len(),
    })
}

/// The first block of `out`.
pub(super) fn out_block<T: Word>(out: &mut [T]) -> Result<&mut [T; BLOCK], Error> {
    let actual = out.len();
    match out.get_mut(..BLOCK) {
        Some(o) => Ok(o.try_into().expect("a slice of BLOCK")),
        None => Err(Error::OutputTooSmall {
            needed: BLOCK,
            actual,
        }),
    }
}

/// `bases` when it has one base a lane.
pub(super) fn lane_bases<T: Word>(bases: &[T]) -> Result<&[T], Error> {
    if bases.len() == T::LANES {
        Ok(bases)
    } else {
        Err(Error::InvalidArgument {
            what: "bases of a delta block (one a lane: 1024 / bits of the type)",
            value: bases.len(),
        })
    }
}

/// `Ok` when `width` is one for `T`.
pub(super) fn check_width<T: Word>(width: u8) -> Result<usize, Error> {
    if usize::from(width) <= T::BITS {
        Ok(usize::from(width))
    } else {
        Err(Error::InvalidArgument {
            what: "bit width (at most the bits of the type)",
            value: usize::from(width),
        })
    }
}
