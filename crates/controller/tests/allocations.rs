//! A walking character allocates nothing once its contacts stop growing:
//! 1,000 ticks after its first 10, counted by a counting allocator (this
//! test binary's global allocator, counting the ticking thread's
//! allocations only: the test harness's own threads allocate when they
//! like), on stairs, a ramp and flat floor with jumps, at every tick rate.

use glam::Vec3;
use slidewalk_controller::test_util::{ramp, slab, stairs};
use slidewalk_controller::{CharacterState, Controller, ControllerConfig, Intent, Surroundings, TickReport};
use slidewalk_sweep::test_util::Soup;
use slidewalk_sweep::{MeshCollider, PlacedCollider};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting allocations and reallocations made by a
/// thread while its `COUNTING` is set.
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn a_walking_character_allocates_nothing_after_its_first_ticks() {
    let mut soup = Soup::default();
    slab(&mut soup, 80.0, 0.0);
    stairs(&mut soup, -2.0, 0.18, 0.3, 8, 3.0, 4.0);
    ramp(&mut soup, 6.0, 25.0, 1.5, 4.0, 2.0);
    let mesh = MeshCollider::build(&soup.positions, &soup.triangles).unwrap();
    let placed = [PlacedCollider::fixed(&mesh)];
    let world = Surroundings::new(&placed);
    for hz in [30.0f32, 60.0, 144.0, 300.0] {
        for config in [
            ControllerConfig::default(),
            ControllerConfig::default().with_every_move(),
        ] {
            let controller = Controller::new(config).unwrap();
            let mut state = CharacterState::standing_at(Vec3::new(0.0, 0.0, 12.0), controller.config());
            let mut report = TickReport::default();
            let intent = |k: usize| {
                let a = k as f32 * 0.02;
                Intent {
                    direction: Vec3::new(a.cos(), 0.0, a.sin()),
                    jump: k.is_multiple_of(97),
                    jump_held: k % 97 < 20,
                    ..Intent::default()
                }
            };
            // The report's contact list grows to what a tick needs; it is
            // reserved here as a game reserves it once per character.
            report.contacts.reserve(64);
            for k in 0..10 {
                controller
                    .tick_into(&mut state, &intent(k), &world, 1.0 / hz, &mut report)
                    .unwrap();
            }
            let before = ALLOCATIONS.load(Ordering::Relaxed);
            COUNTING.with(|c| c.set(true));
            let mut walked = 0.0;
            for k in 10..1010 {
                let from = state.position;
                controller
                    .tick_into(&mut state, &intent(k), &world, 1.0 / hz, &mut report)
                    .unwrap();
                walked += (state.position - from).length();
            }
            COUNTING.with(|c| c.set(false));
            let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
            println!("{hz} Hz: {allocations} allocations in 1,000 ticks, {walked:.1} m walked");
            assert!(walked > 1000.0 / hz * 2.0, "{hz} Hz: walked only {walked} m");
            assert_eq!(allocations, 0, "{hz} Hz");
        }
    }
}
