//! What each peer says about itself before play, and how two of them
//! are compared.

use serde::{Deserialize, Serialize};
use std::hash::{BuildHasher, Hasher};
use std::net::SocketAddr;

/// Version of the datagrams this crate sends (the tags, the handshake,
/// the GGRS messages' encoding): raise it whenever one of them changes,
/// so mismatched builds are named, not misread.
pub const PROTOCOL: u32 = 1;

/// What a peer tells the other before play: everything that must be the
/// same on both for their simulations to stay in step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// [`PROTOCOL`] of this build. Kept first: a peer that cannot read
    /// the rest still reads this.
    pub protocol: u32,
    /// The game's version (`CARGO_PKG_VERSION`), for messages and checks.
    pub game_version: String,
    /// The level's file name, for messages (its contents go by `level_digest`).
    pub level: String,
    /// [`Digest`](crate::Digest) of the level file's bytes.
    pub level_digest: u64,
    /// [`Digest`](crate::Digest) of every simulation setting, exactly (by bits).
    pub settings_digest: u64,
    /// Each simulation setting as name → value text, to name what differs.
    pub settings: Vec<(String, String)>,
    /// Fixed ticks per second × 1000 (60 Hz is 60 000), an exact integer.
    pub tick_hz_millis: u32,
    /// A random number ([`random_nonce`]) that orders the two peers: the
    /// lower one is player 0.
    pub nonce: u64,
}

/// A handshake datagram's body: a [`Hello`] and whether the sender has
/// seen the receiver's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Greeting {
    /// The sender's `Hello` (first, so its protocol leads the datagram).
    pub hello: Hello,
    /// The sender has received the receiver's `Hello`.
    pub acknowledged: bool,
}

/// A random 64-bit nonce for [`Hello::nonce`], different in each run
/// (from the standard library's randomly seeded hasher, the time and the
/// process id).
pub fn random_nonce() -> u64 {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    hasher.write_u128(now);
    hasher.write_u32(std::process::id());
    hasher.finish()
}

/// Ticks per second from milli-hertz, as a message shows them: `60`, `59.94`.
fn hz(millis: u32) -> String {
    let whole = millis / 1000;
    match millis % 1000 {
        0 => format!("{whole}"),
        frac => format!("{whole}.{}", format!("{frac:03}").trim_end_matches('0')),
    }
}

/// How the two `settings` lists differ, each setting named with both
/// values: `gravity 9.81 here, 20 there; jump_height 1.2 here, not set there`.
fn setting_differences(ours: &[(String, String)], theirs: &[(String, String)]) -> Vec<String> {
    let find = |list: &[(String, String)], name: &str| list.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    let mut names: Vec<&str> = ours.iter().chain(theirs).map(|(n, _)| n.as_str()).collect();
    let mut seen = std::collections::HashSet::new();
    names.retain(|n| seen.insert(*n));
    names
        .into_iter()
        .filter_map(|name| {
            let (here, there) = (find(ours, name), find(theirs, name));
            (here != there).then(|| {
                let show = |v: Option<String>| v.unwrap_or_else(|| "not set".into());
                format!("{name} {} here, {} there", show(here), show(there))
            })
        })
        .collect()
}

impl Hello {
    /// What differs between this peer's `Hello` and the peer's at `peer`,
    /// in one line, or `None` if the two can play together. Names the
    /// first of: protocol, game version, level, tick rate, settings (all
    /// the differing settings, with both values).
    pub(crate) fn differences(&self, theirs: &Hello, peer: SocketAddr) -> Option<String> {
        let who = format!("the peer at {peer}");
        if theirs.protocol != self.protocol {
            return Some(format!(
                "{who} speaks network protocol {} (this one speaks {}): run the same slidewalk on both",
                theirs.protocol, self.protocol
            ));
        }
        if theirs.game_version != self.game_version {
            return Some(format!(
                "{who} runs slidewalk {} (this one runs {}): run the same version on both",
                theirs.game_version, self.game_version
            ));
        }
        if theirs.level_digest != self.level_digest {
            return Some(if theirs.level == self.level {
                format!(
                    "{who} runs another level file named {:?} (its contents differ from this one's)",
                    theirs.level
                )
            } else {
                format!("{who} runs level {:?} (this one runs {:?})", theirs.level, self.level)
            });
        }
        if theirs.tick_hz_millis != self.tick_hz_millis {
            return Some(format!(
                "{who} ticks at {} Hz (this one at {} Hz): give both the same --tick-hz",
                hz(theirs.tick_hz_millis),
                hz(self.tick_hz_millis)
            ));
        }
        if theirs.settings_digest != self.settings_digest {
            let named = setting_differences(&self.settings, &theirs.settings);
            return Some(if named.is_empty() {
                format!("the settings of {who} differ from this one's (though every named setting reads the same)")
            } else {
                format!("the settings of {who} differ: {}", named.join("; "))
            });
        }
        None
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A `Hello` for tests: level `playground.glb` at 60 Hz, gravity 9.81.
    pub(crate) fn hello(nonce: u64) -> Hello {
        Hello {
            protocol: PROTOCOL,
            game_version: "0.1.0".into(),
            level: "playground.glb".into(),
            level_digest: 11,
            settings_digest: 22,
            settings: vec![("gravity".into(), "9.81".into()), ("jump_height".into(), "1.2".into())],
            tick_hz_millis: 60_000,
            nonce,
        }
    }

    #[test]
    fn each_difference_is_named_with_both_values() {
        let peer: SocketAddr = "127.0.0.1:7001".parse().unwrap();
        let ours = hello(1);
        assert_eq!(ours.differences(&hello(2), peer), None, "nonces may differ");
        let mut theirs = hello(2);
        theirs.level = "other.glb".into();
        theirs.level_digest = 12;
        assert_eq!(
            ours.differences(&theirs, peer).unwrap(),
            r#"the peer at 127.0.0.1:7001 runs level "other.glb" (this one runs "playground.glb")"#
        );
        let mut theirs = hello(2);
        theirs.tick_hz_millis = 59_940;
        let e = ours.differences(&theirs, peer).unwrap();
        assert!(e.contains("ticks at 59.94 Hz (this one at 60 Hz)"), "{e}");
        let mut theirs = hello(2);
        theirs.settings_digest = 23;
        theirs.settings = vec![("gravity".into(), "20".into()), ("air_jumps".into(), "2".into())];
        assert_eq!(
            ours.differences(&theirs, peer).unwrap(),
            "the settings of the peer at 127.0.0.1:7001 differ: gravity 9.81 here, 20 there; \
             jump_height 1.2 here, not set there; air_jumps not set here, 2 there"
        );
        let mut theirs = hello(2);
        theirs.game_version = "0.2.0".into();
        theirs.level_digest = 0;
        let e = ours.differences(&theirs, peer).unwrap();
        assert!(e.contains("runs slidewalk 0.2.0 (this one runs 0.1.0)"), "{e}");
        assert!(!e.contains('\n'));
    }

    #[test]
    fn nonces_differ_between_calls() {
        assert_ne!(random_nonce(), random_nonce());
    }
}
