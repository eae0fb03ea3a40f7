//! `screenshot-check` run as a program: bad command lines get a message and
//! exit status 2, never a panic.

use std::process::Command;

fn run(args: &[std::ffi::OsString]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_screenshot-check"))
        .args(args)
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn bad_command_lines_exit_2_with_a_message() {
    let dir = std::env::temp_dir();
    for (args, says) in [
        (vec![], "usage: screenshot-check FILE.png"),
        (vec!["a.png".into(), "b.png".into()], "usage"),
        (
            vec!["/definitely/not/here.png".into()],
            "cannot read /definitely/not/here.png",
        ),
        (vec![dir.clone().into_os_string()], "cannot read"),
    ] {
        let (code, stderr) = run(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_is_read_not_a_panic() {
    use std::os::unix::ffi::OsStringExt;
    // std::env::args panicked (exit 101) on it; a missing file is exit 2.
    let name = std::ffi::OsString::from_vec(b"/definitely/not/\xff.png".to_vec());
    let (code, stderr) = run(&[name]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("cannot read"), "{stderr}");
}
