//! Two players over UDP with rollback netcode (bevy_ggrs's P2P session):
//! each walks its own character with its own keyboard (WASD relative to
//! the camera, Space to jump, Shift to sprint) or gamepad (left stick,
//! south button to jump, left trigger to sprint), on a floor with steps, a
//! lift and a ferry both can ride. Run it twice, in two terminals:
//!
//! ```text
//! cargo run -p bevy_slidewalk --features ggrs --example rollback -- --local-port 7000 --players local 127.0.0.1:7001
//! cargo run -p bevy_slidewalk --features ggrs --example rollback -- --local-port 7001 --players 127.0.0.1:7000 local
//! ```
//!
//! `--players` lists every player in handle order (`local`, or the
//! address of the peer playing it); more than two work the same way. With
//! `--synctest` there is no network: one process, a sync-test session of
//! two local players (the keyboard's and a scripted one) that simulates
//! every tick again 7 ticks later and compares checksums.
//!
//! The characters move in bevy_ggrs's `GgrsSchedule`
//! (`SlidewalkPlugin::in_schedule(GgrsSchedule)`), `SlidewalkRollbackPlugin`
//! registers the plugin's state for snapshots and checksums, and the
//! movers follow a rolled-back clock. What is sent is the input: a world
//! direction (quantised to a byte per axis) and three buttons.

use bevy::prelude::*;
use bevy_slidewalk::SlidewalkRollbackPlugin;
use bevy_slidewalk::bevy_ggrs::ggrs::{DesyncDetection, P2PSession, UdpNonBlockingSocket};
use bevy_slidewalk::bevy_ggrs::prelude::*;
use bevy_slidewalk::bevy_ggrs::{LocalInputs, LocalPlayers};
use bevy_slidewalk::prelude::*;
use std::f32::consts::TAU;
use std::net::SocketAddr;

/// One player's input for one tick: bits 0–7 the buttons, bits 8–15 and
/// 16–23 the walking direction's x and z in the world, each an `i8`
/// (−127 … 127 for −1 … 1).
pub type Input = u32;

/// The session's types: the input above, peers by socket address.
pub type Config = GgrsConfig<Input>;

/// Jump was pressed since the last tick (an edge: one jump per press).
const JUMP: u8 = 1;
/// Jump is held (a held press jumps high, a tap low).
const JUMP_HELD: u8 = 2;
/// Sprint is held.
const SPRINT: u8 = 4;

/// Ticks per second of the rollback schedule.
const HZ: usize = 60;

/// Ticks a sync test simulates again before comparing.
pub const CHECK_DISTANCE: usize = 7;

/// One colour per player handle.
const COLOURS: [Color; 4] = [
    Color::srgb(0.2, 0.45, 0.9),
    Color::srgb(0.95, 0.55, 0.15),
    Color::srgb(0.3, 0.75, 0.3),
    Color::srgb(0.85, 0.25, 0.6),
];

const USAGE: &str = "usage: rollback --local-port PORT --players (local|IP:PORT)... | rollback --synctest";

fn main() {
    let mode = Mode::parse(std::env::args().skip(1)).unwrap_or_else(|e| fail(&e));
    let mut app = App::new();
    let title = match &mode {
        Mode::Help => {
            println!("{USAGE}");
            return;
        }
        Mode::SyncTest => {
            sync_test(&mut app);
            "slidewalk rollback: sync test".to_string()
        }
        Mode::P2P { local_port, players } => {
            let session = p2p_session(*local_port, players).unwrap_or_else(|e| fail(&e));
            let locals = session.local_player_handles();
            app.insert_resource(Session::P2P(session));
            format!("slidewalk rollback: player {locals:?} on port {local_port}")
        }
    };
    let window = Window {
        title,
        resolution: (960, 540).into(),
        ..default()
    };
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(window),
        ..default()
    }))
    .add_plugins(game)
    .add_systems(Update, report_network_events)
    .run();
}

/// Says what went wrong in one line and exits with status 2.
fn fail(message: &str) -> ! {
    eprintln!("rollback: {message} (--help for usage)");
    std::process::exit(2);
}

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Mode {
    /// `--help`.
    Help,
    /// `--synctest`: no network.
    SyncTest,
    /// `--local-port PORT --players ...`: one entry per handle, `None`
    /// for a local player.
    P2P {
        local_port: u16,
        players: Vec<Option<SocketAddr>>,
    },
}

impl Mode {
    /// Reads the arguments after the program's name.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Mode, String> {
        let (mut port, mut players, mut synctest) = (None, Vec::new(), false);
        let mut args = args.into_iter().peekable();
        while let Some(flag) = args.next() {
            match flag.as_str() {
                "--help" | "-h" => return Ok(Mode::Help),
                "--synctest" => synctest = true,
                "--local-port" => {
                    let value = args.next().ok_or("--local-port needs a port number")?;
                    let parsed = value
                        .parse()
                        .map_err(|_| format!("--local-port: `{value}` is not a port"))?;
                    port = Some(parsed);
                }
                "--players" => {
                    while let Some(player) = args.next_if(|a| !a.starts_with("--")) {
                        players.push(match player.as_str() {
                            "local" => None,
                            addr => Some(addr.parse().map_err(|_| {
                                format!("--players: `{addr}` is neither `local` nor an address IP:PORT")
                            })?),
                        });
                    }
                }
                other => return Err(format!("unknown argument `{other}`")),
            }
        }
        match (synctest, port) {
            (true, None) if players.is_empty() => Ok(Mode::SyncTest),
            (true, _) => Err("--synctest takes no --local-port or --players".into()),
            (false, None) => Err("--local-port is missing".into()),
            (false, Some(_)) if players.len() < 2 => Err("--players needs two players or more".into()),
            (false, Some(_)) if !players.contains(&None) => Err("--players names no `local` player".into()),
            (false, Some(_)) if players.len() > COLOURS.len() => Err(format!("at most {} players", COLOURS.len())),
            (false, Some(local_port)) => Ok(Mode::P2P { local_port, players }),
        }
    }
}

/// A P2P session of `players` over a UDP socket on `local_port`, checking
/// the peers' checksums every 10 ticks.
pub fn p2p_session(local_port: u16, players: &[Option<SocketAddr>]) -> Result<P2PSession<Config>, String> {
    let mut builder = SessionBuilder::<Config>::new()
        .with_num_players(players.len())
        .map_err(|e| e.to_string())?
        .with_desync_detection_mode(DesyncDetection::On { interval: 10 })
        .with_input_delay(2);
    for (handle, player) in players.iter().enumerate() {
        let kind = player.map_or(PlayerType::Local, PlayerType::Remote);
        builder = builder.add_player(kind, handle).map_err(|e| e.to_string())?;
    }
    let socket = UdpNonBlockingSocket::bind_to_port(local_port).map_err(|e| format!("UDP port {local_port}: {e}"))?;
    builder.start_p2p_session(socket).map_err(|e| e.to_string())
}

/// A sync-test session of two local players, the second played by the
/// script.
pub fn sync_test(app: &mut App) {
    let session = SessionBuilder::<Config>::new()
        .with_num_players(2)
        .and_then(|b| b.with_check_distance(CHECK_DISTANCE).add_player(PlayerType::Local, 0))
        .and_then(|b| b.add_player(PlayerType::Local, 1))
        .and_then(|b| b.start_synctest_session())
        .expect("a sync-test session of two local players");
    app.insert_resource(Session::SyncTest(session))
        .insert_resource(Scripted(vec![1]));
}

/// Local player handles played by the script instead of the keyboard.
#[derive(Resource, Default)]
pub struct Scripted(pub Vec<usize>);

/// Which player's input moves a character.
#[derive(Component, Clone, Copy)]
pub struct Player(pub usize);

/// Ticks since the start: the movers' poses are a function of it. Rolled
/// back with the rest, or a re-simulated tick would see them elsewhere.
#[derive(Resource, Clone, Copy, Default, Hash)]
pub struct MoverClock(pub u32);

/// How a mover moves from where it was spawned (`base`, metres).
#[derive(Component, Clone, Copy)]
enum Mover {
    /// Up by `rise` metres and back every 8 s.
    Lift { base: Vec3, rise: f32 },
    /// Along x by ±`reach` metres every 10 s.
    Ferry { base: Vec3, reach: f32 },
}

/// Everything but the window and the session: the rollback, the plugin in
/// its schedule, the scene, the input.
pub fn game(app: &mut App) {
    app.add_plugins((
        GgrsPlugin::<Config>::default(),
        SlidewalkPlugin::in_schedule(GgrsSchedule),
        SlidewalkRollbackPlugin,
    ))
    .insert_resource(RollbackFrameRate(HZ))
    .init_resource::<MoverClock>()
    .init_resource::<Scripted>()
    .rollback_resource_with_copy::<MoverClock>()
    .checksum_resource_with_hash::<MoverClock>()
    .add_systems(Startup, scene)
    .add_systems(ReadInputs, read_inputs)
    .add_systems(
        GgrsSchedule,
        (apply_inputs, move_movers).before(SlidewalkSystems::Prepare),
    );
}

/// The floor, a stair of three steps, the lift, the ferry, a light, the
/// camera, and one character per player.
fn scene(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    session: Res<Session<Config>>,
) {
    let grey = materials.add(Color::srgb(0.6, 0.6, 0.65));
    let mut solid = |size: Vec3, at: Vec3, colour: &Handle<StandardMaterial>| {
        let mesh = Mesh3d(meshes.add(Cuboid::from_size(size)));
        let place = Transform::from_translation(at);
        commands
            .spawn((mesh, MeshMaterial3d(colour.clone()), place, SlidewalkCollider::mesh()))
            .id()
    };
    solid(Vec3::new(24.0, 1.0, 24.0), Vec3::new(0.0, -0.5, 0.0), &grey);
    // Walls 1.5 m high round the floor: nobody walks off it.
    for (size, at) in [
        (Vec3::new(24.0, 1.5, 0.5), Vec3::new(0.0, 0.75, -12.25)),
        (Vec3::new(24.0, 1.5, 0.5), Vec3::new(0.0, 0.75, 12.25)),
        (Vec3::new(0.5, 1.5, 25.0), Vec3::new(-12.25, 0.75, 0.0)),
        (Vec3::new(0.5, 1.5, 25.0), Vec3::new(12.25, 0.75, 0.0)),
    ] {
        solid(size, at, &grey);
    }
    // Steps of 0.25 m up to a landing 0.75 m high.
    let stone = materials.add(Color::srgb(0.45, 0.45, 0.5));
    for (i, depth) in [1.5, 1.5, 3.0].into_iter().enumerate() {
        let h = 0.25 * (i + 1) as f32;
        let z = -3.0 - 1.5 * i as f32 - depth / 2.0 + 0.75;
        solid(Vec3::new(4.0, h, depth), Vec3::new(-6.0, h / 2.0, z), &stone);
    }
    let orange = materials.add(Color::srgb(0.9, 0.5, 0.2));
    // The lift starts flush with the floor; the ferry is a 0.3 m step up.
    let lift = Vec3::new(6.0, -0.25, -4.0);
    let ferry = Vec3::new(0.0, 0.15, -1.0);
    let lift_entity = solid(Vec3::new(3.0, 0.5, 3.0), lift, &orange);
    let ferry_entity = solid(Vec3::new(3.0, 0.3, 3.0), ferry, &orange);
    commands
        .entity(lift_entity)
        .insert(Mover::Lift { base: lift, rise: 3.0 });
    commands.entity(ferry_entity).insert(Mover::Ferry {
        base: ferry,
        reach: 4.0,
    });
    commands.spawn((
        DirectionalLight {
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(4.0, 10.0, 6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        Camera3d::default(),
        Transform::from_xyz(0.0, 19.0, 19.0).looking_at(Vec3::new(0.0, 0.0, 1.0), Vec3::Y),
    ));
    let players = match &*session {
        Session::SyncTest(s) => s.num_players(),
        Session::P2P(s) => s.num_players(),
        Session::Spectator(s) => s.num_players(),
    };
    let body = CharacterController::default();
    let shape = meshes.add(Mesh::from(Sphere::new(1.0)).scaled_by(body.config.standing_radii));
    for handle in 0..players {
        let a = TAU * handle as f32 / players as f32;
        let feet = Vec3::new(2.0 * libm::sinf(a), 0.0, 6.0 + 2.0 * libm::cosf(a));
        let colour = materials.add(COLOURS[handle % COLOURS.len()]);
        commands.spawn((
            body.transform_at_feet(feet),
            body.clone(),
            Player(handle),
            Mesh3d(shape.clone()),
            MeshMaterial3d(colour),
        ));
    }
}

/// Each local player's input for the next tick: the keyboard and
/// gamepads (every local player reads them), or the script.
#[allow(clippy::too_many_arguments)]
fn read_inputs(
    mut commands: Commands,
    local: Res<LocalPlayers>,
    scripted: Res<Scripted>,
    keys: Res<ButtonInput<KeyCode>>,
    gamepads: Query<&Gamepad>,
    camera: Query<&Transform, With<Camera3d>>,
    mut jump_was_held: Local<bool>,
    mut frame: Local<u32>,
) {
    *frame += 1;
    let axis = |neg, pos| f32::from(u8::from(keys.pressed(pos))) - f32::from(u8::from(keys.pressed(neg)));
    let keys_wish = Vec2::new(axis(KeyCode::KeyA, KeyCode::KeyD), axis(KeyCode::KeyS, KeyCode::KeyW));
    // The left stick (up is +y) past a small dead zone.
    let stick: Vec2 = gamepads.iter().map(Gamepad::left_stick).sum();
    let stick = if stick.length() > 0.15 { stick } else { Vec2::ZERO };
    let wish = (keys_wish.normalize_or_zero() + stick).clamp_length_max(1.0);
    // Relative to the camera, on the ground.
    let (right, forward) = camera.iter().next().map_or((Vec3::X, Vec3::NEG_Z), |c| {
        let flat = |v: Vec3| Vec3::new(v.x, 0.0, v.z).normalize_or_zero();
        (flat(*c.right()), flat(*c.forward()))
    });
    let direction = right * wish.x + forward * wish.y;
    let jump_held = keys.pressed(KeyCode::Space) || gamepads.iter().any(|g| g.pressed(GamepadButton::South));
    let sprint = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight])
        || gamepads.iter().any(|g| g.pressed(GamepadButton::LeftTrigger));
    let mut buttons = if jump_held { JUMP_HELD } else { 0 };
    buttons |= if jump_held && !*jump_was_held { JUMP } else { 0 };
    buttons |= if sprint { SPRINT } else { 0 };
    *jump_was_held = jump_held;
    let input = |h| match scripted.0.contains(&h) {
        true => script(*frame),
        false => pack(direction, buttons),
    };
    let inputs = local.0.iter().map(|&h| (h, input(h))).collect();
    commands.insert_resource(LocalInputs::<Config>(inputs));
}

/// The scripted player: walks a square of 2.5 s sides, jumping every 2 s.
fn script(frame: u32) -> Input {
    let side = [Vec3::NEG_Z, Vec3::X, Vec3::Z, Vec3::NEG_X][(frame / 150 % 4) as usize];
    let jump = if frame % 120 == 60 { JUMP | JUMP_HELD } else { 0 };
    pack(side, jump)
}

/// A world direction (its y ignored, its length at most 1) and buttons as
/// an [`Input`].
fn pack(direction: Vec3, buttons: u8) -> Input {
    let byte = |v: f32| u32::from((v.clamp(-1.0, 1.0) * 127.0).round() as i8 as u8);
    u32::from(buttons) | byte(direction.x) << 8 | byte(direction.z) << 16
}

/// The direction and buttons of an [`Input`].
fn unpack(input: Input) -> (Vec3, u8) {
    let axis = |shift: u32| f32::from((input >> shift) as u8 as i8) / 127.0;
    (Vec3::new(axis(8), 0.0, axis(16)), input as u8)
}

/// Each character's intent from its player's input for this tick.
fn apply_inputs(inputs: Res<PlayerInputs<Config>>, mut characters: Query<(&Player, &mut MovementIntent)>) {
    for (player, mut intent) in &mut characters {
        let (direction, buttons) = unpack(inputs[player.0].0);
        intent.direction = direction;
        intent.jump = buttons & JUMP != 0;
        intent.jump_held = buttons & JUMP_HELD != 0;
        intent.sprint = buttons & SPRINT != 0;
    }
}

/// The movers' poses at this tick of the rolled-back clock.
fn move_movers(mut clock: ResMut<MoverClock>, mut movers: Query<(&Mover, &mut Transform)>) {
    clock.0 += 1;
    let t = clock.0 as f32 / HZ as f32;
    for (mover, mut transform) in &mut movers {
        transform.translation = match *mover {
            Mover::Lift { base, rise } => base + Vec3::Y * rise * 0.5 * (1.0 - libm::cosf(TAU * t / 8.0)),
            Mover::Ferry { base, reach } => base + Vec3::X * reach * libm::sinf(TAU * t / 10.0),
        };
    }
}

/// Logs the P2P session's events: peers synchronising, leaving, and any
/// desync (the peers' checksums of a tick differ).
fn report_network_events(mut session: Option<ResMut<Session<Config>>>) {
    let Some(Session::P2P(session)) = session.as_deref_mut() else {
        return;
    };
    for event in session.events() {
        match event {
            GgrsEvent::DesyncDetected { .. } => error!("{event:?}"),
            GgrsEvent::Disconnected { .. } | GgrsEvent::NetworkInterrupted { .. } => warn!("{event:?}"),
            _ => info!("{event:?}"),
        }
    }
}
