//! `make-levels` as a user runs it: with no output folder it writes into
//! the current directory (installed by `cargo install`, the folder it was
//! built in is cargo's copy of the source), and with one, into that.

use slidewalk_level_tools::generate::LEVELS;
use std::path::{Path, PathBuf};
use std::process::Command;

/// An empty folder of this test's own under the system's temporary one.
fn empty_folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("slidewalk-make-levels-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every generated level is in `dir`, byte for byte what the generator makes.
fn assert_levels_in(dir: &Path) {
    for level in LEVELS {
        let path = dir.join(level.file);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{} not written: {e}", path.display()));
        assert!(
            bytes == (level.generate)(),
            "{} differs from the generator's",
            path.display()
        );
    }
}

#[test]
fn with_no_folder_given_the_levels_go_to_the_current_directory() {
    let cwd = empty_folder("cwd");
    let out = Command::new(env!("CARGO_BIN_EXE_make-levels"))
        .current_dir(&cwd)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_levels_in(&cwd);
    let _ = std::fs::remove_dir_all(&cwd);
}

#[test]
fn a_folder_given_is_created_and_written() {
    let cwd = empty_folder("given");
    let out = Command::new(env!("CARGO_BIN_EXE_make-levels"))
        .current_dir(&cwd)
        .arg("levels/new")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_levels_in(&cwd.join("levels/new"));
    // Only there: nothing beside it in the current directory.
    let entries: Vec<_> = std::fs::read_dir(&cwd)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(entries, vec![std::ffi::OsString::from("levels")]);
    let _ = std::fs::remove_dir_all(&cwd);
}
