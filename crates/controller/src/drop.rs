//! Dropping through a one-way platform: the filter that passes through
//! the platform left while the drop lasts.

use glam::Vec3;

/// How far below the height a drop began (metres) a one-way surface must
/// reach no higher than to stay solid during the drop (a platform one
/// stood on has its top a skin below the feet), and how far below it the
/// whole body must be for the drop to end.
pub(crate) const DROP_MARGIN: f32 = 0.05;

/// The contact filter of a tick: while dropping through a one-way
/// platform (the feet were at `height` along `up` when it began), a
/// one-way collider's triangles reaching up to within [`DROP_MARGIN`] of
/// that height are passed through; everything else is met as usual.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DropThrough {
    pub(crate) up: Vec3,
    pub(crate) height: Option<f32>,
}

impl slidewalk_sweep::ContactFilter for DropThrough {
    #[inline]
    fn keeps_triangle(&mut self, candidate: &slidewalk_sweep::Candidate<'_, '_>) -> bool {
        let Some(height) = self.height else { return true };
        if candidate.placed().one_way.is_none() {
            return true;
        }
        let top = candidate
            .corners()
            .map(|p| p.dot(self.up))
            .into_iter()
            .fold(f32::MIN, f32::max);
        top < height - DROP_MARGIN
    }
}
