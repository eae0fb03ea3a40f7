//! What an inspector (bevy-inspector-egui and the like) sees of a
//! character: its components through Bevy's type registry, read and
//! edited live.

use super::*;
use bevy::ecs::reflect::{ReflectComponent, ReflectResource};
use bevy::reflect::GetPath;
use std::any::TypeId;

#[test]
fn a_character_is_read_and_edited_through_the_type_registry() {
    let mut app = app_at(Pacing::FramesPerTick(1));
    floor(&mut app);
    let c = character(&mut app, Vec3::ZERO);
    run(&mut app, 10);
    let registry = app.world().resource::<AppTypeRegistry>().clone();
    let registry = registry.read();
    let data = |id: TypeId| {
        registry
            .get_type_data::<ReflectComponent>(id)
            .expect("a reflected component")
    };
    // Read: the config's walking speed and the state's centre, by path.
    let controller = data(TypeId::of::<CharacterController>());
    let walk_speed = controller
        .reflect(app.world().entity(c))
        .unwrap()
        .reflect_path("config.walk_speed")
        .unwrap()
        .try_downcast_ref::<f32>()
        .copied();
    assert_eq!(walk_speed, Some(ControllerConfig::default().walk_speed));
    let centre = data(TypeId::of::<MovementState>())
        .reflect(app.world().entity(c))
        .unwrap()
        .reflect_path("0.position")
        .unwrap()
        .try_downcast_ref::<Vec3>()
        .copied();
    assert_eq!(centre, Some(get(&app, c).position));
    // Edit, as an inspector's slider does: the next ticks walk at 2 m/s.
    let mut entity = app.world_mut().entity_mut(c);
    let mut reflected = controller.reflect_mut(&mut entity).unwrap();
    *reflected
        .reflect_path_mut("config.walk_speed")
        .unwrap()
        .try_downcast_mut::<f32>()
        .unwrap() = 2.0;
    drop(registry);
    walk(&mut app, c, Vec3::X);
    run(&mut app, 120);
    assert_eq!(config(&app, c).walk_speed, 2.0);
    let speed = get(&app, c).velocity.length();
    assert!((speed - 2.0).abs() < 1e-3, "walks at {speed} m/s");
    // Every public component and resource of the plugin is registered.
    let registry = app.world().resource::<AppTypeRegistry>().read();
    for (name, id) in [
        ("MovementIntent", TypeId::of::<MovementIntent>()),
        ("MovementReport", TypeId::of::<MovementReport>()),
        ("FootstepStride", TypeId::of::<FootstepStride>()),
        ("Surface", TypeId::of::<Surface>()),
        ("SlidewalkCollider", TypeId::of::<SlidewalkCollider>()),
        ("SolidScene", TypeId::of::<SolidScene>()),
    ] {
        assert!(registry.get_type_data::<ReflectComponent>(id).is_some(), "{name}");
    }
    for (name, id) in [
        ("StepTimings", TypeId::of::<bevy_slidewalk::StepTimings>()),
        ("Obstacles", TypeId::of::<Obstacles>()),
    ] {
        assert!(registry.get_type_data::<ReflectResource>(id).is_some(), "{name}");
    }
}

#[test]
fn the_diagnostics_plugin_measures_every_tick() {
    let mut app = app_at(Pacing::FramesPerTick(1));
    app.add_plugins(bevy_slidewalk::SlidewalkDiagnosticsPlugin);
    floor(&mut app);
    character(&mut app, Vec3::ZERO);
    character(&mut app, Vec3::new(3.0, 0.0, 0.0));
    run(&mut app, 10);
    let timings = app.world().resource::<bevy_slidewalk::StepTimings>();
    assert_eq!(timings.characters, 2);
    assert!(timings.micros > 0.0 && timings.sweep_micros > 0.0, "{timings:?}");
    let store = app.world().resource::<bevy::diagnostic::DiagnosticsStore>();
    let step = store.get(&bevy_slidewalk::SlidewalkDiagnosticsPlugin::STEP).unwrap();
    assert!(step.measurement().is_some_and(|m| m.value > 0.0));
}
