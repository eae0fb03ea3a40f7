//! Tests of the BVH: box queries, the prefetch walk and the trace against
//! brute force, the entry grid's size, degenerate inputs, the tree being
//! the same for any thread count, and the swept walk missing nothing.

use super::build::{self, MAX_DEPTH};
use super::tree::{Bvh, prims_of};
use crate::aabb::Aabb;
use glam::Vec3;

/// 20,000 boxes up to 3 m wide in a 100 m cube: enough for an entry
/// grid, so most queries start below the root.
fn scattered_boxes(rng: &mut fastrand::Rng) -> Vec<Aabb> {
    (0..20_000)
        .map(|_| {
            let p = Vec3::new(rng.f32(), rng.f32(), rng.f32()) * 100.0;
            Aabb::from_corners(p, p + Vec3::new(rng.f32(), rng.f32(), rng.f32()) * 3.0)
        })
        .collect()
}

fn brute(boxes: &[Aabb], q: &Aabb) -> Vec<u32> {
    (0..boxes.len() as u32)
        .filter(|&i| boxes[i as usize].intersects(q))
        .collect()
}

#[test]
fn query_finds_every_overlapping_box() {
    let mut rng = fastrand::Rng::with_seed(7);
    let boxes = scattered_boxes(&mut rng);
    let (bvh, order) = Bvh::build(&boxes);
    let stats = bvh.stats();
    assert!(stats.depth <= MAX_DEPTH, "{stats:?}");
    let mut below_root = 0;
    for _ in 0..200 {
        let p = Vec3::new(rng.f32(), rng.f32(), rng.f32()) * 100.0;
        let q = Aabb::from_corners(p, p + Vec3::splat(rng.f32() * 10.0));
        below_root += usize::from(bvh.start(q.min, q.max) != 0);
        let mut found = Vec::new();
        bvh.query(&q, |slot| found.push(order[slot]));
        found.sort();
        // Leaves may report boxes that do not overlap; none may be missed.
        let found: Vec<u32> = found
            .into_iter()
            .filter(|&i| boxes[i as usize].intersects(&q))
            .collect();
        assert_eq!(found, brute(&boxes, &q));
        // The trace tests the same nodes: its overlapping leaves hold
        // exactly the slots the query visited.
        let mut queried = 0;
        bvh.query(&q, |_| queried += 1);
        let mut traced = 0;
        let mut tested = 0;
        bvh.trace(&q, |node| {
            tested += 1;
            assert_eq!(node.overlaps, node.bounds.intersects(&q));
            if node.leaf && node.overlaps {
                traced += node.triangles;
            }
        });
        assert_eq!(traced, queried);
        assert!(tested < stats.nodes, "a small box tests a fraction of the tree");
    }
    assert!(below_root > 100, "only {below_root} queries started below the root");
}

#[test]
fn fetching_near_many_boxes_reaches_the_leaves_each_query_reads() {
    let mut rng = fastrand::Rng::with_seed(11);
    let boxes = scattered_boxes(&mut rng);
    let (bvh, _) = Bvh::build(&boxes);
    // A batch of places, some near each other (sharing nodes), one far
    // outside the tree.
    let mut places: Vec<Aabb> = (0..16)
        .map(|_| {
            let p = Vec3::new(rng.f32(), rng.f32(), rng.f32()) * 100.0;
            Aabb::from_corners(p, p + Vec3::splat(rng.f32() * 4.0))
        })
        .collect();
    places.push(Aabb::from_corners(Vec3::splat(500.0), Vec3::splat(501.0)));
    places.push(places[0]);
    let mut fetched = Vec::new();
    bvh.fetch_near(&places, |first, count| fetched.push(first..first + count as usize));
    let mut fetched: Vec<usize> = fetched.into_iter().flatten().collect();
    fetched.sort();
    let mut queried = Vec::new();
    for q in &places {
        bvh.query(q, |slot| queried.push(slot));
    }
    queried.sort();
    assert!(!queried.is_empty());
    assert_eq!(fetched, queried);
}

#[test]
fn the_entry_grid_stays_small_for_any_shape() {
    // Two clusters at the ends of a long line (few cells hold
    // anything, so the sizing shrinks the cells), a plane and a cube:
    // the grid holds at most one cell per 8 boxes, and queries still
    // find every box.
    let mut rng = fastrand::Rng::with_seed(3);
    for spread in [
        Vec3::new(1e4, 1.0, 1.0),
        Vec3::new(300.0, 0.0, 300.0),
        Vec3::splat(50.0),
    ] {
        let boxes: Vec<Aabb> = (0..6000)
            .map(|i| {
                let mut p = Vec3::new(rng.f32(), rng.f32(), rng.f32()) * spread;
                if spread.x > 1e3 {
                    p.x = if i % 2 == 0 { rng.f32() } else { spread.x - rng.f32() };
                }
                Aabb::from_corners(p, p + Vec3::splat(0.1))
            })
            .collect();
        let (bvh, order) = Bvh::build(&boxes);
        let cells = bvh.entry.as_ref().expect("a grid").memory_bytes() / 4;
        assert!(cells <= boxes.len() / 8, "{spread}: {cells} cells");
        for b in boxes.iter().step_by(97) {
            let mut found = false;
            bvh.query(b, |slot| found |= boxes[order[slot] as usize] == *b);
            assert!(found, "{spread}: a box was not found by its own query");
        }
    }
}

#[test]
fn empty_and_coincident_inputs() {
    let (bvh, _) = Bvh::build(&[]);
    bvh.query(&Aabb::from_corners(Vec3::splat(-1e30), Vec3::splat(1e30)), |_| {
        panic!("empty BVH reported a primitive")
    });
    // 1000 identical boxes: no SAH split exists, the builder must still terminate.
    let same = vec![Aabb::from_corners(Vec3::ZERO, Vec3::ONE); 1000];
    let (bvh, _) = Bvh::build(&same);
    let mut n = 0;
    bvh.query(&Aabb::from_corners(Vec3::splat(0.5), Vec3::splat(0.6)), |_| n += 1);
    assert_eq!(n, 1000);
    assert!(bvh.stats().depth <= MAX_DEPTH);
}

#[test]
fn a_query_box_without_bounds_meets_every_box_and_no_empty_lane() {
    // A rotated collider's query for a motion near f32::MAX becomes a
    // box from −∞ to +∞ (found by fuzzing, crates/fuzz): it met the
    // empty lanes' boxes too, and the walk followed one to node
    // u32::MAX. Trees with empty lanes: none at all, one box (a root
    // of one leaf), three, and a large one (with an entry grid).
    let everywhere = Aabb {
        min: Vec3::NEG_INFINITY,
        max: Vec3::INFINITY,
    };
    let mut rng = fastrand::Rng::with_seed(5);
    let large = scattered_boxes(&mut rng);
    for boxes in [&[][..], &large[..1], &large[..3], &large[..]] {
        let (bvh, _) = Bvh::build(boxes);
        let mut slots = Vec::new();
        bvh.query(&everywhere, |slot| slots.push(slot));
        slots.sort_unstable();
        assert_eq!(slots, (0..boxes.len()).collect::<Vec<_>>());
        let mut fetched = 0;
        bvh.fetch_near(&[everywhere], |_, count| fetched += count as usize);
        assert_eq!(fetched, boxes.len());
        let mut traced = 0;
        bvh.trace(&everywhere, |node| traced += usize::from(node.leaf) * node.triangles);
        assert_eq!(traced, boxes.len());
    }
}

/// Boxes in clusters of very different sizes and densities (a level's
/// tessellated props on a coarse floor), enough for several forks.
fn clustered_boxes(n: usize, seed: u64) -> Vec<Aabb> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let centres: Vec<Vec3> = (0..40)
        .map(|_| Vec3::new(rng.f32(), rng.f32() * 0.2, rng.f32()) * 200.0)
        .collect();
    (0..n)
        .map(|_| {
            let c = centres[rng.usize(..centres.len())];
            let spread = if rng.bool() { 1.0 } else { 30.0 };
            let p = c + Vec3::new(rng.f32() - 0.5, rng.f32() - 0.5, rng.f32() - 0.5) * spread;
            Aabb::from_corners(p, p + Vec3::new(rng.f32(), rng.f32(), rng.f32()) * 0.05 * spread)
        })
        .collect()
}

#[test]
fn the_tree_is_the_same_for_any_thread_count() {
    let boxes = clustered_boxes(20 * build::FORK_MIN, 11);
    let prims = prims_of(&boxes);
    let mut one = prims.clone();
    let tree = Bvh::from_prims(&mut one, 1);
    let order: Vec<u32> = one.iter().map(|p| p.index).collect();
    for threads in [2, 3, 8] {
        let mut many = prims.clone();
        assert_eq!(Bvh::from_prims(&mut many, threads), tree, "{threads} threads");
        assert_eq!(
            many.iter().map(|p| p.index).collect::<Vec<_>>(),
            order,
            "{threads} threads"
        );
    }
    // Every primitive in exactly one leaf slot, every leaf box holding its primitives.
    let mut sorted = order.clone();
    sorted.sort_unstable();
    assert!(sorted.iter().enumerate().all(|(i, &p)| p == i as u32));
    let mut covered = 0;
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        let node = &tree.nodes[i];
        for k in (0..4).filter(|&k| node.used(k)) {
            let bounds = node.bounds(k);
            let contains = |b: &Aabb| bounds.min.cmple(b.min).all() && b.max.cmple(bounds.max).all();
            if node.count[k] > 0 {
                let first = node.child[k] as usize;
                for slot in first..first + node.count[k] as usize {
                    assert!(contains(&boxes[order[slot] as usize]));
                    covered += 1;
                }
            } else {
                let child = &tree.nodes[node.child[k] as usize];
                assert!((0..4).filter(|&j| child.used(j)).all(|j| contains(&child.bounds(j))));
                // A wide node below the root holds at least two children.
                assert!((0..4).filter(|&j| child.used(j)).count() >= 2);
                stack.push(node.child[k] as usize);
            }
        }
    }
    assert_eq!(covered, boxes.len());
    assert!(tree.stats().depth <= MAX_DEPTH);
}

/// Whether the sphere of radius `reach` centred at `p` touches `b`.
fn sphere_touches(p: Vec3, reach: f32, b: &Aabb) -> bool {
    (p.clamp(b.min, b.max) - p).length() <= reach
}

#[test]
fn swept_query_visits_every_box_the_sweep_reaches() {
    let boxes = clustered_boxes(30_000, 5);
    let (bvh, order) = Bvh::build(&boxes);
    let mut rng = fastrand::Rng::with_seed(9);
    let mut reached = 0;
    let mut below_root = 0;
    for k in 0..300 {
        let radii = Vec3::new(0.2 + rng.f32(), 0.2 + rng.f32() * 2.0, 0.2 + rng.f32());
        let inv_r = radii.recip();
        let start = boxes[rng.usize(..boxes.len())].center() + Vec3::new(rng.f32(), rng.f32(), rng.f32()) - 0.5;
        let motion = match k % 3 {
            0 => Vec3::new(rng.f32() - 0.5, rng.f32() - 0.5, rng.f32() - 0.5) * 4.0,
            1 => Vec3::new(rng.f32() - 0.5, 0.0, 0.0) * 0.2,
            _ => Vec3::ZERO,
        };
        let v = motion * inv_r;
        let t_max = if k % 2 == 0 { 1.0 } else { rng.f32() };
        let reach = 1.001;
        let moved = motion * t_max;
        let (lo, hi) = (
            start + moved.min(Vec3::ZERO) - radii,
            start + moved.max(Vec3::ZERO) + radii,
        );
        below_root += usize::from(bvh.start(lo, hi) != 0);
        let mut visited = vec![false; boxes.len()];
        bvh.query_swept(
            start,
            inv_r,
            v,
            reach,
            t_max,
            true,
            |_, _| {},
            |slots, t| {
                slots.for_each(|slot| visited[order[slot] as usize] = true);
                t
            },
        );
        // Points along the sweep: every box within reach of one must be visited.
        for (i, b) in boxes.iter().enumerate() {
            let e = Aabb {
                min: (b.min - start) * inv_r,
                max: (b.max - start) * inv_r,
            };
            let touched = (0..=32).any(|j| sphere_touches(v * (t_max * j as f32 / 32.0), 1.0, &e));
            if touched {
                reached += 1;
                assert!(visited[i], "sweep {k}: box {i} within reach was skipped");
            }
        }
    }
    assert!(reached > 1000, "too few boxes reached to prove anything: {reached}");
    assert!(below_root > 100, "only {below_root} sweeps started below the root");
}
