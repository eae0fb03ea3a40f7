//! The crowd benchmark (written next).
fn main() {}
