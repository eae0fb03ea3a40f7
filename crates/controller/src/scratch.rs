//! The contact lists the passes sweep into, kept per thread from tick to
//! tick: once they have grown to what a tick needs, a character's tick
//! allocates nothing.

use slidewalk_sweep::{Contact, SlideResult};
use std::cell::RefCell;
use std::ops::Deref;

/// Most lists kept per thread: more than the passes of one tick hold at once.
const KEPT: usize = 16;

/// Lists made at a thread's first pass.
const FIRST: usize = 8;

/// Contacts a new list has room for: more than one pass meets (a slide's
/// iterations and its depenetration's pushes), so a list never grows.
const ROOM: usize = 24;

thread_local! {
    static SPARE: RefCell<Vec<Vec<Contact>>> = const { RefCell::new(Vec::new()) };
}

/// A pass's result whose contact list goes back to the thread's spares
/// when it is dropped.
pub(crate) struct Slid(pub(crate) SlideResult);

impl Deref for Slid {
    type Target = SlideResult;

    fn deref(&self) -> &SlideResult {
        &self.0
    }
}

impl Drop for Slid {
    fn drop(&mut self) {
        give_back(std::mem::take(&mut self.0.contacts));
    }
}

/// An empty contact list, with the memory of one used before when the
/// thread has one.
pub(crate) fn spare_contacts() -> Vec<Contact> {
    SPARE
        .try_with(|spare| {
            let mut spare = spare.borrow_mut();
            if spare.capacity() == 0 {
                // The thread's first pass: as many lists as a tick's passes
                // hold at once (a step-up's four, a wedge's probe), so that
                // no later tick needs a new one.
                spare.reserve_exact(KEPT);
                spare.extend((0..FIRST).map(|_| Vec::with_capacity(ROOM)));
            }
            spare.pop()
        })
        .ok()
        .flatten()
        .unwrap_or_else(|| Vec::with_capacity(ROOM))
}

fn give_back(mut contacts: Vec<Contact>) {
    if contacts.capacity() == 0 {
        return;
    }
    contacts.clear();
    let _ = SPARE.try_with(|spare| {
        let mut spare = spare.borrow_mut();
        if spare.len() < spare.capacity() {
            spare.push(contacts);
        }
    });
}
