//! Tables (being written).
