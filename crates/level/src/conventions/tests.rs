//! Tests of reading a node's role and parameters (`read_node`).

use super::*;
use glam::Vec3;

#[test]
fn roles_from_names() {
    let role = |n: &str| read_node(Some(n), None).unwrap().role;
    assert_eq!(role("Spawn"), Role::Spawn);
    assert_eq!(role("spawn_2"), Role::Spawn);
    assert_eq!(role("Spawner"), Role::Static);
    assert!(matches!(role("Door.001"), Role::Door(_)));
    assert!(matches!(role("lift"), Role::Lift(_)));
    assert_eq!(role("nocollide-grass"), Role::NoCollide);
    assert_eq!(role("Doorway"), Role::Static);
    assert_eq!(role("Cube"), Role::Static);
}

#[test]
fn extras_win_over_names_and_carry_parameters() {
    let c = read_node(
        Some("Cube"),
        Some(r#"{"slidewalk":"lift","travel":[0,4.5,0],"speed":2,"pause_s":1}"#),
    )
    .unwrap();
    assert_eq!(
        c.role,
        Role::Lift(LiftSpec {
            travel: Vec3::new(0.0, 4.5, 0.0),
            speed: 2.0,
            pause_seconds: 1.0
        })
    );
    let c = read_node(Some("door"), Some(r#"{"slidewalk":"static","friction":0.1}"#)).unwrap();
    assert_eq!(
        c,
        NodeConventions {
            role: Role::Static,
            friction: Some(0.1),
            collider: None,
            proxy: None,
            one_way: None,
            layers: None,
            sensor: None,
            climbable: None,
            launch: None,
            water: None,
            conveyor: None,
        }
    );
    let c = read_node(
        None,
        Some(r#"{"slidewalk":"door","door":"slide","slide":[1.2,0,0],"open_s":0.5}"#),
    )
    .unwrap();
    let Role::Door(d) = c.role else { panic!() };
    assert_eq!(
        d.motion,
        DoorMotion::Slide {
            offset: Some(Vec3::new(1.2, 0.0, 0.0))
        }
    );
    assert_eq!(d.open_seconds, 0.5);
    let c = read_node(Some("Door"), None).unwrap();
    let Role::Door(d) = c.role else { panic!() };
    assert!(matches!(d.motion, DoorMotion::Hinge { axis: Vec3::Y, .. }));
}

#[test]
fn bad_parameters_say_what_is_wrong() {
    let err = |extras: &str| read_node(None, Some(extras)).unwrap_err();
    assert!(err(r#"{"slidewalk":"lift","speed":-1}"#).contains("speed must be greater than zero"));
    assert!(err(r#"{"slidewalk":"lift","travel":[0,1]}"#).contains("travel must be an array of three numbers"));
    assert!(err(r#"{"slidewalk":"elevator"}"#).contains("unknown \"slidewalk\" role"));
    assert!(err(r#"{"friction":3}"#).contains("friction must be between 0 and 1"));
    assert!(err(r#"{"slidewalk":"door","door":"swing"}"#).contains("\"door\" must be"));
    assert!(err("{not json").contains("not valid JSON"));
}

#[test]
fn enormous_tiny_and_pointless_parameters_are_refused() {
    // Each of these loaded before: a lift or door that teleports, never
    // moves, or moves kilometres away; a 1e300 that read as "must be a
    // number"; an axis too long for f32 reported as zero.
    let err = |extras: &str| read_node(Some("Thing"), Some(extras)).unwrap_err();
    for (extras, says) in [
        (
            r#"{"slidewalk":"lift","speed":1e30}"#,
            "speed must be greater than zero and at most 100 m/s, got 1e30",
        ),
        (r#"{"slidewalk":"lift","speed":1e300}"#, "at most 100 m/s, got 1e300"),
        (r#"{"slidewalk":"lift","speed":0}"#, "speed must be greater than zero"),
        (
            r#"{"slidewalk":"lift","speed":1e-50}"#,
            "speed must be at least 0.000001 m/s, got ",
        ),
        (
            r#"{"slidewalk":"door","open_s":1e-40}"#,
            "open_s must be at least 0.000001 s",
        ),
        (
            r#"{"slidewalk":"lift","travel":[0,1e30,0]}"#,
            "travel must be an array of three numbers, each from -1e4 to 1e4",
        ),
        (
            r#"{"slidewalk":"lift","travel":[0,1e-30,0]}"#,
            "lift travel must be at least 0.001 m long, got 1.0000000031710769e-30 m",
        ),
        (r#"{"slidewalk":"lift","travel":{"y":3}}"#, "travel must be an array"),
        (
            r#"{"slidewalk":"lift","pause_s":1e30}"#,
            "pause_s must be from 0 to 3600 s",
        ),
        (
            r#"{"slidewalk":"lift","pause_s":-1}"#,
            "pause_s must be from 0 to 3600 s (not negative), got -1",
        ),
        (
            r#"{"slidewalk":"lift","pause_s":"2"}"#,
            "pause_s must be a number, got \"2\"",
        ),
        (
            r#"{"slidewalk":"door","angle_deg":1e30}"#,
            "angle_deg must be from -360 to 360 degrees and not 0, got 1e30",
        ),
        (r#"{"slidewalk":"door","angle_deg":0}"#, "and not 0"),
        (
            r#"{"slidewalk":"door","axis":[1e30,1e30,1e30]}"#,
            "axis must be an array of three numbers, each from -1e6 to 1e6",
        ),
        (r#"{"slidewalk":"door","axis":[0,0,0]}"#, "door axis must not be zero"),
        (
            r#"{"slidewalk":"door","open_s":1e30}"#,
            "open_s must be greater than zero and at most 3600 s",
        ),
        (r#"{"slidewalk":"door","open_s":0}"#, "open_s must be greater than zero"),
        (
            r#"{"slidewalk":"door","trigger_m":1e30}"#,
            "trigger_m must be greater than zero and at most 1000 m",
        ),
        (
            r#"{"slidewalk":"door","door":"slide","slide":[1e30,0,0]}"#,
            "slide must be an array of three numbers, each from -1e4 to 1e4",
        ),
        (
            r#"{"slidewalk":"door","door":"slide","slide":[0,0,0]}"#,
            "slide must not be zero",
        ),
        (r#"{"friction":1e300}"#, "friction must be between 0 and 1, got 1e300"),
        (r#"{"friction":"ice"}"#, "friction must be a number, got \"ice\""),
    ] {
        let e = err(extras);
        assert!(e.contains(says), "{extras}: {e}");
    }
    // The limits themselves are accepted.
    let c = read_node(
        None,
        Some(r#"{"slidewalk":"lift","speed":100,"pause_s":0,"travel":[0,0.001,0]}"#),
    );
    assert!(c.is_ok(), "{c:?}");
    let c = read_node(
        None,
        Some(r#"{"slidewalk":"door","angle_deg":-360,"open_s":3600,"trigger_m":1000}"#),
    );
    assert!(c.is_ok(), "{c:?}");
}

#[test]
fn proxies_on_nodes_that_collide() {
    let proxy = |name: Option<&str>, extras: &str| read_node(name, Some(extras)).map(|c| c.proxy);
    assert_eq!(proxy(None, r#"{"proxy":"hull"}"#), Ok(Some(ProxyShape::Hull)));
    assert_eq!(proxy(Some("Door"), r#"{"proxy":"Box"}"#), Ok(Some(ProxyShape::Box)));
    assert_eq!(
        proxy(None, r#"{"slidewalk":"lift","proxy":"capsule"}"#),
        Ok(Some(ProxyShape::Capsule))
    );
    assert_eq!(proxy(None, r#"{"friction":0.5}"#), Ok(None));
    let err = |name: Option<&str>, extras: &str| proxy(name, extras).unwrap_err();
    assert_eq!(
        err(None, r#"{"proxy":"cone"}"#),
        "unknown \"proxy\" \"cone\" (expected box, sphere, capsule or hull)"
    );
    assert!(err(None, r#"{"proxy":true}"#).contains("\"proxy\" must be"));
    assert!(err(None, r#"{"proxy":"sphere","collider":"cylinder"}"#).contains("cannot go together"));
    assert!(err(Some("nocollide"), r#"{"proxy":"box"}"#).contains("not a nocollide node"));
    assert!(err(Some("Spawn"), r#"{"proxy":"box"}"#).contains("not a spawn node"));
}

#[test]
fn analytic_colliders_on_static_nodes() {
    let collider = |name: Option<&str>, extras: &str| read_node(name, Some(extras)).map(|c| c.collider);
    assert_eq!(collider(None, r#"{"collider":"plane"}"#), Ok(Some(AnalyticKind::Plane)));
    assert_eq!(
        collider(None, r#"{"collider":"Cylinder"}"#),
        Ok(Some(AnalyticKind::Cylinder))
    );
    assert_eq!(
        collider(
            Some("Pillar"),
            r#"{"slidewalk":"static","collider":"cylinder","friction":0.5}"#
        ),
        Ok(Some(AnalyticKind::Cylinder))
    );
    assert_eq!(collider(None, r#"{"friction":0.5}"#), Ok(None));
    let err = |name: Option<&str>, extras: &str| collider(name, extras).unwrap_err();
    assert_eq!(
        err(None, r#"{"collider":"sphere"}"#),
        "unknown \"collider\" \"sphere\" (expected plane or cylinder)"
    );
    assert!(err(None, r#"{"collider":1}"#).contains("\"collider\" must be \"plane\" or \"cylinder\", got 1"));
    assert_eq!(
        err(None, r#"{"slidewalk":"lift","collider":"plane"}"#),
        "\"collider\": \"plane\" is for static geometry, not a lift node"
    );
    assert!(err(Some("Door_1"), r#"{"collider":"cylinder"}"#).contains("not a door node"));
    assert!(err(Some("nocollide"), r#"{"collider":"plane"}"#).contains("not a nocollide node"));
}
