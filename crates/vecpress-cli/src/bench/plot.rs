//! `--plot FILE.svg`: the integer codecs' results drawn as the Stream VByte
//! paper draws them (Lemire, Kurz, Rupp 2017, Fig. 5).
//!
//! Left, decoding speed in billions of integers per second (Bis) against
//! compressibility, the bits per integer VByte takes on each input, one line
//! per codec and kernel, with memcpy of the decoded bytes for reference
//! (Fig. 5a). Right, the storage each codec takes beyond VByte's, in bits per
//! integer, on the same axis (Fig. 5b). Delta codecs are preferred where a
//! codec has both forms, as the paper codes posting lists by their gaps.
#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, bail};
use plotters::prelude::*;

use super::report::{Line, Row};

/// Draws the figure from the integer rows of `lines` into an SVG file.
pub fn draw(path: &Path, lines: &[Line], data: &str) -> Result<()> {
    let rows: Vec<&Row> = lines
        .iter()
        .filter_map(|l| match l {
            Line::Row(r) if r.elem == "u32" && !r.codec.starts_with("peer:") => Some(r),
            _ => None,
        })
        .collect();
    let delta = rows.iter().any(|r| r.codec.ends_with("-delta"));
    let rows: Vec<&Row> = rows
        .into_iter()
        .filter(|r| r.codec.ends_with("-delta") == delta)
        .collect();
    let vbyte_name = if delta { "vbyte-delta" } else { "vbyte" };
    // VByte's bits per integer on each input: the x axis.
    let vbyte_bits: BTreeMap<&str, f64> = rows
        .iter()
        .filter(|r| r.codec == vbyte_name)
        .map(|r| (r.input.as_str(), r.bits_per_value))
        .collect();
    if vbyte_bits.is_empty() {
        bail!("--plot needs the {vbyte_name} codec among --codecs (its size is the x axis)");
    }
    // One series per codec, at its fastest kernel on each input, as the
    // paper draws one line per codec; VByte's scalar decoder is a series of
    // its own (the paper's "VByte" beside "Masked VByte"). Points: (VByte
    // bits, Bis, extra bits).
    let mut best: BTreeMap<(String, &str), (f64, f64, f64)> = BTreeMap::new();
    let mut memcpy: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for r in &rows {
        let Some(&x) = vbyte_bits.get(r.input.as_str()) else {
            continue;
        };
        let codec = r.codec.trim_end_matches("-delta");
        let label = if r.isa == "scalar" && codec == "vbyte" {
            "vbyte (scalar)".to_string()
        } else if r.isa == "scalar" {
            continue;
        } else {
            format!("{codec} (fastest kernel)")
        };
        let point = (x, r.decode_mis / 1e3, r.bits_per_value - x);
        let slot = best.entry((label, r.input.as_str())).or_insert(point);
        if point.1 > slot.1 {
            *slot = point;
        }
        memcpy.entry(&r.input).or_default().push(r.memcpy_gbs / 4.0);
    }
    let mut series: BTreeMap<String, Vec<(f64, f64, f64)>> = BTreeMap::new();
    for ((label, _), point) in best {
        series.entry(label).or_default().push(point);
    }
    for points in series.values_mut() {
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    // memcpy of each input: the median of its measurements in this run.
    let mut memcpy: Vec<(f64, f64)> = memcpy
        .into_iter()
        .map(|(input, mut speeds)| {
            speeds.sort_by(f64::total_cmp);
            (vbyte_bits[input], speeds[speeds.len() / 2])
        })
        .collect();
    memcpy.sort_by(|a, b| a.0.total_cmp(&b.0));

    let x_max = vbyte_bits.values().copied().fold(8.0, f64::max) * 1.05;
    let x_min = vbyte_bits.values().copied().fold(x_max, f64::min).min(8.0) * 0.95;
    let y_max = series
        .values()
        .flatten()
        .map(|p| p.1)
        .chain(memcpy.iter().map(|m| m.1))
        .fold(0.1, f64::max)
        * 1.1;
    let extra = series.values().flatten().map(|p| p.2);
    let e_min = extra.clone().fold(0.0, f64::min) - 0.5;
    let e_max = extra.fold(0.0, f64::max) + 0.5;

    let root = SVGBackend::new(path, (1400, 620)).into_drawing_area();
    root.fill(&WHITE)?;
    let title = format!(
        "Integer decoding{} on {} — {}",
        if delta { " (delta)" } else { "" },
        cpu_name(),
        data
    );
    let root = root.titled(&title, ("sans-serif", 22))?;
    let (left, right) = root.split_horizontally(760);

    // Dark, distinct colours, legible on white: one for each series of the
    // integer codecs (nine with the bit packers), so that none repeats.
    const COLORS: [RGBColor; 10] = [
        RGBColor(0xd6, 0x27, 0x28),
        RGBColor(0x1f, 0x77, 0xb4),
        RGBColor(0x2c, 0xa0, 0x2c),
        RGBColor(0x94, 0x67, 0xbd),
        RGBColor(0xff, 0x7f, 0x0e),
        RGBColor(0x8c, 0x56, 0x4b),
        RGBColor(0xe3, 0x77, 0xc2),
        RGBColor(0x17, 0xbe, 0xcf),
        RGBColor(0x7f, 0x7f, 0x7f),
        RGBColor(0xbc, 0xbd, 0x22),
    ];
    let colors = |i: usize| COLORS[i % COLORS.len()].to_rgba();
    let mut chart = ChartBuilder::on(&left)
        .caption("(a) decoding speed vs. compressibility", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(x_min..x_max, 0.0..y_max)?;
    chart
        .configure_mesh()
        .x_desc("bits per integer taken by VByte")
        .y_desc("decoding speed (billions of integers/s)")
        .draw()?;
    for (i, (label, points)) in series.iter().enumerate() {
        let color = colors(i);
        chart
            .draw_series(LineSeries::new(
                points.iter().map(|p| (p.0, p.1)),
                color.stroke_width(2),
            ))?
            .label(label.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
        chart.draw_series(
            points
                .iter()
                .map(|p| Circle::new((p.0, p.1), 3, color.filled())),
        )?;
    }
    chart
        .draw_series(LineSeries::new(
            memcpy.iter().copied(),
            BLACK.stroke_width(2),
        ))?
        .label("memcpy of the decoded bytes")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], BLACK.stroke_width(2)));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;

    let mut chart = ChartBuilder::on(&right)
        .caption("(b) storage beyond VByte", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(x_min..x_max, e_min..e_max)?;
    chart
        .configure_mesh()
        .x_desc("bits per integer taken by VByte")
        .y_desc("extra bits per integer vs. VByte")
        .draw()?;
    for (i, (label, points)) in series.iter().enumerate() {
        // VByte's kernels share its size (zero extra bits): one line for it.
        if label == "vbyte (scalar)" {
            continue;
        }
        let color = colors(i);
        chart
            .draw_series(LineSeries::new(
                points.iter().map(|p| (p.0, p.2)),
                color.stroke_width(2),
            ))?
            .label(label.trim_end_matches(" (fastest kernel)"))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    root.present()
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// The CPU's model name, as Linux reports it.
fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}
