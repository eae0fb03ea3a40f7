//! Judging a screenshot without looking at it: is there a picture, or is
//! the frame blank (nearly one colour)? The CI smoke test runs the game in
//! a real window and checks its `--screenshot` with this
//! (`screenshot-check FILE.png`, `cargo run -p screenshot_check -- FILE.png`).
//!
//! ```
//! use screenshot_check::PictureStats;
//!
//! // A 4 × 4 frame of one grey (RGBA): blank. `PictureStats::of_png` reads a file.
//! let grey = [128u8, 128, 128, 255].repeat(16);
//! assert!(PictureStats::of_rgba(&grey, 4, 4).is_blank());
//! ```
#![deny(missing_docs)]

use std::path::Path;

/// Share of the pixels one colour may cover before the frame counts as
/// blank. The demo level's first frame is under half sky.
pub const MAX_DOMINANT_SHARE: f64 = 0.9;
/// Fewest distinct colours (5 bits per channel) of a picture.
pub const MIN_DISTINCT_COLOURS: usize = 16;

/// What a frame holds.
#[derive(Clone, Debug, PartialEq)]
pub struct PictureStats {
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
    /// Share of the pixels (0 … 1) in the most common colour.
    pub dominant_share: f64,
    /// Distinct colours, each channel cut to 5 bits.
    pub distinct_colours: usize,
}

impl PictureStats {
    /// Counts the colours of an RGBA8 image (alpha ignored).
    pub fn of_rgba(rgba: &[u8], width: u32, height: u32) -> Self {
        let mut counts = vec![0u32; 1 << 15];
        for px in rgba.chunks_exact(4) {
            let key = (px[0] as usize >> 3) << 10 | (px[1] as usize >> 3) << 5 | px[2] as usize >> 3;
            counts[key] += 1;
        }
        let pixels = (rgba.len() / 4).max(1);
        Self {
            width,
            height,
            dominant_share: counts.iter().copied().max().unwrap_or(0) as f64 / pixels as f64,
            distinct_colours: counts.iter().filter(|&&c| c > 0).count(),
        }
    }

    /// Reads a PNG file (8-bit RGB or RGBA, as Bevy saves them).
    pub fn of_png(path: &Path) -> Result<Self, String> {
        let fail = |e: &dyn std::fmt::Display| format!("cannot read {}: {e}", path.display());
        let file = std::fs::File::open(path).map_err(|e| fail(&e))?;
        let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder.read_info().map_err(|e| fail(&e))?;
        let size = reader.output_buffer_size().ok_or_else(|| fail(&"image too large"))?;
        let mut buffer = vec![0; size];
        let info = reader.next_frame(&mut buffer).map_err(|e| fail(&e))?;
        let bytes = &buffer[..info.buffer_size()];
        let rgba: Vec<u8> = match info.color_type {
            png::ColorType::Rgba => bytes.to_vec(),
            png::ColorType::Rgb => bytes.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
            png::ColorType::GrayscaleAlpha => bytes.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect(),
            png::ColorType::Grayscale => bytes.iter().flat_map(|&g| [g, g, g, 255]).collect(),
            png::ColorType::Indexed => return Err(fail(&"indexed colour left unexpanded")),
        };
        Ok(Self::of_rgba(&rgba, info.width, info.height))
    }

    /// Nearly one colour: nothing was drawn (or only the clear colour).
    pub fn is_blank(&self) -> bool {
        self.dominant_share > MAX_DOMINANT_SHARE || self.distinct_colours < MIN_DISTINCT_COLOURS
    }

    /// One line for a person: size, dominant share, colours, verdict.
    pub fn describe(&self) -> String {
        format!(
            "{}×{}, the most common colour covers {:.1}% of the pixels, {} distinct colours: {}",
            self.width,
            self.height,
            self.dominant_share * 100.0,
            self.distinct_colours,
            if self.is_blank() {
                "blank (nearly one colour)"
            } else {
                "a picture"
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(width: u32, height: u32, colour: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
        let mut rgba = Vec::new();
        for y in 0..height {
            for x in 0..width {
                rgba.extend(colour(x, y));
            }
        }
        rgba
    }

    #[test]
    fn one_colour_and_sky_with_a_box_are_blank_a_scene_is_not() {
        let sky = [158, 189, 219, 255];
        let flat = image(64, 64, |_, _| sky);
        assert!(PictureStats::of_rgba(&flat, 64, 64).is_blank());
        // Sky with a small grey box (a HUD over nothing): still blank.
        let hud = image(64, 64, |x, y| if x < 12 && y < 6 { [90, 90, 90, 255] } else { sky });
        assert!(PictureStats::of_rgba(&hud, 64, 64).is_blank());
        // Sky over a shaded ground with lines: a picture.
        let scene = image(64, 64, |x, y| {
            if y < 28 {
                sky
            } else if x % 8 == 0 {
                [80, 90, 70, 255]
            } else {
                [(100 + y * 2) as u8, (120 + y) as u8, 90, 255]
            }
        });
        let stats = PictureStats::of_rgba(&scene, 64, 64);
        assert!(!stats.is_blank(), "{}", stats.describe());
        assert!(stats.describe().contains("a picture"));
    }

    #[test]
    fn pngs_are_read_and_bad_files_say_why() {
        let dir = std::env::temp_dir().join(format!("slidewalk-picture-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("frame.png");
        let (w, h) = (32, 16);
        let rgb: Vec<u8> = (0..w * h)
            .flat_map(|i| [(i * 7) as u8, (i * 3) as u8, (i * 11) as u8])
            .collect();
        let file = std::fs::File::create(&path).unwrap();
        let mut encoder = png::Encoder::new(file, w, h);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.write_header().unwrap().write_image_data(&rgb).unwrap();
        let stats = PictureStats::of_png(&path).unwrap();
        assert_eq!((stats.width, stats.height), (w, h));
        assert!(!stats.is_blank(), "{}", stats.describe());
        std::fs::write(&path, b"not a png").unwrap();
        assert!(PictureStats::of_png(&path).unwrap_err().contains("frame.png"));
        assert!(
            PictureStats::of_png(&dir.join("missing.png"))
                .unwrap_err()
                .contains("missing.png")
        );
    }
}
