//! The emulator harness lives in the crate (feature `emulator`), shared with the
//! server's tests.

pub use ferroshop_payments::emulator::*;
