//! What the walks found, merged walk by walk, and the verdict: passed,
//! failed (with the reason in one line) or a thin check.

use glam::Vec3;

/// What the walks found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WalkReport {
    /// Walks run.
    pub walks: u32,
    /// Controller ticks run.
    pub updates: u64,
    /// Simulated time walked, summed over the walkers, seconds.
    pub simulated_seconds: f64,
    /// Times a walker was placed again after its walk ended (soak mode; the
    /// first placement of each walk is not counted).
    pub respawns: u64,
    /// Deepest penetration after any tick not reported crushed, eSpace
    /// units (fraction of the radius).
    pub max_penetration: f32,
    /// Ticks (not reported crushed) that ended penetrating by more than
    /// [`penetration_tolerance`](crate::penetration_tolerance) (1e-4 eSpace units near the origin).
    pub penetrating_passes: u64,
    /// Walks (soak: placements) whose centre passed through a triangle (fell through a surface).
    pub fell_through: u32,
    /// Ticks that ended with a non-finite (NaN or infinite) position or velocity.
    pub non_finite: u32,
    /// Walks (soak: placements) that could not move for 3 s although the
    /// walker tried a new direction every tick it was blocked.
    pub stuck: u32,
    /// Walks (soak: placements) that walked off an open edge of the level
    /// and fell out of it (not an error).
    pub walked_off: u32,
    /// Walks (soak: placements) in which a door or lift squeezed the walker
    /// (the controller reported it crushed; the door or lift then turned
    /// back). Not an error.
    pub crushed: u32,
    /// Deepest overlap after a tick reported crushed (a door or lift
    /// squeezing the walker against something, before it turned back),
    /// eSpace units. Not counted as penetration.
    pub max_squeeze: f32,
    /// Jumps taken (coverage).
    pub jumps: u64,
    /// Step-ups taken.
    pub steps: u64,
    /// Ticks standing on a moving door or lift.
    pub riding_ticks: u64,
    /// Mean time per controller tick (all passes), microseconds.
    pub micros_per_update: f64,
    /// Walks that started (found a free place to stand); the others are
    /// named in `problems`.
    pub walks_started: u32,
    /// Where walk 0 first stood (the character's centre, metres): on a
    /// level without spawn nodes (and walk 0 not sent to a door or lift),
    /// the place the game starts the player ([`slidewalk_level::spawn::start_point`]).
    pub first_start: Option<Vec3>,
    /// Area of the static surfaces a character can stand on (facing up
    /// within the walkable slope; the static parts the player meets
    /// included), square metres.
    pub walkable_area_m2: f64,
    /// Cells of the walkable static surfaces (cubes of `cell_m` on a side).
    pub walkable_cells: u64,
    /// Of those, the cells some walker stood in.
    pub visited_cells: u64,
    /// Side of a coverage cell, metres (1, coarser on levels of over a
    /// square kilometre of walkable surface).
    pub cell_m: f32,
    /// Where each problem happened (walk, tick, position), at most 20.
    pub problems: Vec<String>,
}

/// Most problems a report lists.
const MAX_PROBLEMS: usize = 20;

/// Fewest ticks walked for a pass not to be called a thin check.
pub const THIN_CHECK_TICKS: u64 = 1_000;

impl WalkReport {
    /// True when at least half the walks started and none penetrated, fell
    /// through, went non-finite or got stuck (see [`WalkReport::failure`]).
    pub fn passed(&self) -> bool {
        self.failure().is_none()
    }

    /// Why the check failed, in one line; `None` when it passed.
    pub fn failure(&self) -> Option<String> {
        if self.walkable_area_m2 == 0.0 && self.walks_started == 0 {
            return Some(
                "no walkable surface: no static triangle faces up within the walkable slope, \
                 so no walk could start"
                    .into(),
            );
        }
        if self.walks_started == 0 {
            return Some(format!(
                "no walk started: none of the {} walks found a free place to stand",
                self.walks
            ));
        }
        if 2 * self.walks_started < self.walks {
            return Some(format!(
                "only {} of {} walks started (fewer than half found a free place to stand)",
                self.walks_started, self.walks
            ));
        }
        let mut found = Vec::new();
        if self.penetrating_passes > 0 {
            found.push(format!("{} ticks ended inside geometry", self.penetrating_passes));
        }
        if self.fell_through > 0 {
            found.push(format!("{} walks fell through a surface", self.fell_through));
        }
        if self.non_finite > 0 {
            found.push(format!("{} ticks went non-finite", self.non_finite));
        }
        if self.stuck > 0 {
            found.push(format!("{} walks got stuck", self.stuck));
        }
        (!found.is_empty()).then(|| found.join(", "))
    }

    /// A pass on fewer than [`THIN_CHECK_TICKS`] ticks walked.
    pub fn thin(&self) -> bool {
        self.passed() && self.updates < THIN_CHECK_TICKS
    }

    /// Share of the walkable static surface some walker stood on, 0 … 1.
    pub fn visited_share(&self) -> f64 {
        if self.walkable_cells == 0 {
            0.0
        } else {
            self.visited_cells as f64 / self.walkable_cells as f64
        }
    }

    pub(super) fn note(&mut self, text: String) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(text);
        }
    }

    /// Adds another walk's findings (walks merged in walk order).
    pub(super) fn absorb(&mut self, other: WalkReport) {
        self.walks_started += other.walks_started;
        self.first_start = self.first_start.or(other.first_start);
        self.updates += other.updates;
        self.respawns += other.respawns;
        self.max_penetration = self.max_penetration.max(other.max_penetration);
        self.max_squeeze = self.max_squeeze.max(other.max_squeeze);
        self.penetrating_passes += other.penetrating_passes;
        self.fell_through += other.fell_through;
        self.non_finite += other.non_finite;
        self.stuck += other.stuck;
        self.walked_off += other.walked_off;
        self.crushed += other.crushed;
        self.jumps += other.jumps;
        self.steps += other.steps;
        self.riding_ticks += other.riding_ticks;
        for p in other.problems {
            self.note(p);
        }
    }
}
