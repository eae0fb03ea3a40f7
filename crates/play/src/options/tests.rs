//! The command line's parsing: every flag read, every bad value refused with one line.

use super::*;

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn parses_the_documented_flags() {
    let o = Options::parse(&args(
        "--headless --level a.glb --script s.json --tick-hz 144 --spawn 1,2.5,-3 --yaw 90 --crowd 1000",
    ))
    .unwrap();
    assert_eq!(o.crowd, 1000);
    assert!(o.headless);
    assert_eq!(o.level, Some("a.glb".into()));
    assert_eq!(o.tick_hz, Some(144.0));
    assert_eq!(o.tick_hz(), 144.0);
    assert_eq!(o.spawn, Some(Vec3::new(1.0, 2.5, -3.0)));
    assert_eq!(o.yaw_deg, Some(90.0));
    let o = Options::parse(&args("--script s.json --settings my.json --rewind 6,1.5")).unwrap();
    assert_eq!(o.settings, Some("my.json".into()));
    assert_eq!(o.rewind, Some((6.0, 1.5)));
    assert_eq!(o.tick_hz(), 60.0);
    assert_eq!(Options::parse(&[]).unwrap(), Options::default());
}

#[test]
fn bad_values_say_what_is_wrong() {
    for (a, says) in [
        ("--tick-hz 0", "between 1 and 1000"),
        ("--tick-hz fast", "needs a number"),
        ("--tick-hz NaN", "between 1 and 1000"),
        ("--spawn 1,2", "X,Y,Z"),
        ("--spawn 1,nan,2", "X,Y,Z"),
        ("--yaw inf", "between -1e6 and 1e6"),
        ("--yaw 1e30", "--yaw must be degrees between -1e6 and 1e6, got 1e30"),
        (
            "--tick-hz 1e30",
            "--tick-hz must be between 1 and 1000 ticks per second, got 1e30",
        ),
        ("--tick-hz 1e-30", "between 1 and 1000"),
        ("--spawn 1e30,0,0", "X,Y,Z"),
        ("--spawn 1,2,3,4", "X,Y,Z"),
        ("--spawn 1,,3", "X,Y,Z"),
        ("--frames -1", "from 1 to 1000000"),
        ("--crowd -1", "from 0 to 20000"),
        ("--crowd 20001", "from 0 to 20000"),
        ("--crowd 1e3", "from 0 to 20000"),
        ("--crowd", "needs a value"),
        ("--frames 18446744073709551616", "from 1 to 1000000"),
        ("--screenshot shot.jpg", "ending in .png"),
        ("--screenshot shot", "ending in .png"),
        ("--frames 0", "from 1 to 1000000"),
        ("--frames 4294967295", "from 1 to 1000000"),
        ("--rewind 1e30,1", "AT,BACK"),
        ("--level", "needs a value"),
        ("--headless --level a.glb", "needs --script"),
        ("--rewind 5", "AT,BACK"),
        ("--rewind 5,11", "AT,BACK"),
        ("--rewind -1,1", "AT,BACK"),
        ("--rewind nan,1", "AT,BACK"),
        ("--headless --script s.json --rewind 5,1", "need a window"),
        ("--settings", "needs a value"),
        ("--wat", "unknown argument"),
    ] {
        let e = Options::parse(&args(a)).unwrap_err();
        assert!(e.contains(says), "{a}: {e}");
    }
}

#[test]
fn parses_the_p2p_flags() {
    let o = Options::parse(&args("--p2p 7000 --peer 192.168.1.20:7001")).unwrap();
    assert_eq!(o.p2p, Some(7000));
    assert_eq!(o.peer.as_deref(), Some("192.168.1.20:7001"));
    assert_eq!((o.input_delay, o.net_loss, o.peer_wait), (2, 0.0, 15.0), "the defaults");
    let o = Options::parse(&args(
        "--peer host --p2p 65535 --input-delay 0 --net-loss 0.25 --peer-wait 0.1 --level a.glb",
    ))
    .unwrap();
    assert_eq!((o.p2p, o.peer.as_deref()), (Some(65535), Some("host")));
    assert_eq!((o.input_delay, o.net_loss, o.peer_wait), (0, 0.25, 0.1));
    let o = Options::parse(&args("--p2p 1 --peer [::1]:2 --input-delay 8 --peer-wait 600")).unwrap();
    assert_eq!((o.input_delay, o.peer_wait, o.net_jitter_ms), (8, 600.0, 0));
    let o = Options::parse(&args("--p2p 1 --peer [::1]:2 --net-jitter 100")).unwrap();
    assert_eq!(o.net_jitter_ms, 100);
    let default = Options::default();
    assert_eq!((default.p2p, &default.peer), (None, &None));
}

#[test]
fn bad_p2p_flags_say_what_is_wrong() {
    let p2p = "--p2p 7000 --peer 127.0.0.1:7001";
    for (a, says) in [
        (
            "--p2p x --peer h".to_string(),
            r#"--p2p needs a UDP port from 1 to 65535, got "x""#,
        ),
        ("--p2p 0 --peer h".into(), "from 1 to 65535, got \"0\""),
        ("--p2p 65536 --peer h".into(), "from 1 to 65535"),
        ("--p2p -1 --peer h".into(), "from 1 to 65535"),
        ("--p2p".into(), "--p2p needs a value"),
        ("--p2p 7000 --peer".into(), "--peer needs a value"),
        (format!("{p2p} --input-delay 9"), "from 0 to 8, got \"9\""),
        (format!("{p2p} --input-delay -1"), "from 0 to 8"),
        (format!("{p2p} --input-delay 1.5"), "from 0 to 8"),
        (format!("{p2p} --net-loss 1"), "from 0 to below 1, got \"1\""),
        (format!("{p2p} --net-loss -0.1"), "from 0 to below 1"),
        (format!("{p2p} --net-loss NaN"), "from 0 to below 1"),
        (
            format!("{p2p} --net-jitter 1001"),
            "--net-jitter needs whole milliseconds from 0 to 1000, got \"1001\"",
        ),
        (
            format!("{p2p} --net-jitter -5"),
            "--net-jitter needs whole milliseconds",
        ),
        (
            format!("{p2p} --peer-wait 0.05"),
            "--peer-wait needs seconds from 0.1 to 600",
        ),
        (format!("{p2p} --peer-wait 601"), "from 0.1 to 600"),
        (format!("{p2p} --peer-wait inf"), "from 0.1 to 600"),
        ("--p2p 7000".into(), "--p2p needs --peer ADDR[:PORT]"),
        ("--peer 127.0.0.1:7001".into(), "--peer needs --p2p LOCAL_PORT"),
        ("--input-delay 3".into(), "--input-delay only applies to a P2P game"),
        ("--net-loss 0.1".into(), "--net-loss only applies to a P2P game"),
        ("--net-jitter 50".into(), "--net-jitter only applies to a P2P game"),
        ("--peer-wait 30".into(), "--peer-wait only applies to a P2P game"),
        (
            format!("{p2p} --rewind 5,1"),
            "--p2p cannot go with --rewind or --record",
        ),
        (format!("{p2p} --record walk.json"), "out of step"),
    ] {
        let e = Options::parse(&args(&a)).unwrap_err();
        assert!(e.contains(says), "{a}: {e}");
        assert!(!e.contains('\n'), "{a}: {e}");
    }
    let e = Options::parse(&["--p2p".into(), "7000".into(), "--peer".into(), " ".into()]).unwrap_err();
    assert_eq!(e, "--peer needs ADDR[:PORT], got an empty value");
}

#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_an_error_not_a_panic() {
    use std::os::unix::ffi::OsStringExt;
    let args = vec!["--level".into(), std::ffi::OsString::from_vec(b"\xff.glb".to_vec())];
    let e = text_args(args).unwrap_err();
    assert!(e.starts_with("argument 2 (\"\\xFF.glb\") is not valid UTF-8"), "{e}");
    assert_eq!(text_args(["--yaw".into(), "90".into()]).unwrap(), ["--yaw", "90"]);
}

#[test]
fn outputs_that_cannot_be_written_are_refused_up_front() {
    let dir = std::env::temp_dir().join(format!("slidewalk-output-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shot = dir.join("shot.png");
    check_output("--screenshot", &shot).unwrap();
    assert!(!shot.exists(), "the file made to try is removed");
    std::fs::write(&shot, b"keep").unwrap();
    check_output("--screenshot", &shot).unwrap();
    assert_eq!(
        std::fs::read(&shot).unwrap(),
        b"keep",
        "an existing file is left as it was"
    );
    let e = check_output("--record", &dir).unwrap_err();
    assert!(e.starts_with("--record ") && e.contains("is a folder"), "{e}");
    let e = check_output("--record", &dir.join("missing").join("walk.json")).unwrap_err();
    assert!(e.contains("does not exist"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
