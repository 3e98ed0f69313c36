//! SVG charts a person can look at: each queue's share of the cluster over time against its
//! guaranteed and maximum capacity, cluster utilization, and pending containers.

use std::io;
use std::path::Path;

use plotters::prelude::*;

use super::engine::SimulationResult;

const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

fn to_io<E: std::error::Error + Send + Sync + 'static>(e: E) -> io::Error {
    io::Error::other(e.to_string())
}

pub fn write_charts(dir: &Path, r: &SimulationResult) -> io::Result<()> {
    queue_usage(&dir.join("queue_usage.svg"), r)?;
    utilization(&dir.join("utilization.svg"), r)?;
    pending(&dir.join("pending.svg"), r)?;
    Ok(())
}

fn seconds(r: &SimulationResult) -> f64 {
    r.samples
        .last()
        .map(|s| s.time_ms as f64 / 1000.0)
        .unwrap_or(1.0)
        .max(1.0)
}

/// Queue usage (share of cluster memory, %) with dashed guaranteed and dotted maximum lines.
fn queue_usage(path: &Path, r: &SimulationResult) -> io::Result<()> {
    let root = SVGBackend::new(path, (1000, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(to_io)?;
    let end = seconds(r);
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Queue usage: share of cluster memory (guaranteed dashed, maximum dotted)",
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(55)
        .build_cartesian_2d(0f64..end, 0f64..105f64)
        .map_err(to_io)?;
    chart
        .configure_mesh()
        .x_desc("simulated time (s)")
        .y_desc("% of cluster memory")
        .draw()
        .map_err(to_io)?;
    let total = r.cluster.memory_mb().max(1) as f64;
    for (i, leaf) in r.leaves.iter().enumerate() {
        let c = color(i);
        let series = r.samples.iter().map(|s| {
            (
                s.time_ms as f64 / 1000.0,
                s.queues[i].allocated_memory as f64 * 100.0 / total,
            )
        });
        chart
            .draw_series(LineSeries::new(series, c.stroke_width(2)))
            .map_err(to_io)?
            .label(leaf.path.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2)));
        let g = leaf.guaranteed_share * 100.0;
        chart
            .draw_series(DashedLineSeries::new(
                vec![(0.0, g), (end, g)],
                8,
                5,
                c.stroke_width(1),
            ))
            .map_err(to_io)?;
        let m = leaf.max_share * 100.0;
        chart
            .draw_series(DashedLineSeries::new(
                vec![(0.0, m), (end, m)],
                2,
                4,
                c.stroke_width(1),
            ))
            .map_err(to_io)?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(to_io)?;
    root.present().map_err(to_io)
}

fn utilization(path: &Path, r: &SimulationResult) -> io::Result<()> {
    let root = SVGBackend::new(path, (1000, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(to_io)?;
    let end = seconds(r);
    let mut chart = ChartBuilder::on(&root)
        .caption("Cluster utilization", ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(55)
        .build_cartesian_2d(0f64..end, 0f64..105f64)
        .map_err(to_io)?;
    chart
        .configure_mesh()
        .x_desc("simulated time (s)")
        .y_desc("% allocated")
        .draw()
        .map_err(to_io)?;
    let (mem, vc) = (
        r.cluster.memory_mb().max(1) as f64,
        r.cluster.vcores().max(1) as f64,
    );
    let m = r.samples.iter().map(|s| {
        (
            s.time_ms as f64 / 1000.0,
            s.allocated_memory as f64 * 100.0 / mem,
        )
    });
    chart
        // Drawn wider, underneath: with proportional containers the two lines coincide.
        .draw_series(LineSeries::new(m, color(0).stroke_width(5)))
        .map_err(to_io)?
        .label("memory")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color(0).stroke_width(5)));
    let v = r.samples.iter().map(|s| {
        (
            s.time_ms as f64 / 1000.0,
            s.allocated_vcores as f64 * 100.0 / vc,
        )
    });
    chart
        .draw_series(LineSeries::new(v, color(1).stroke_width(2)))
        .map_err(to_io)?
        .label("vcores")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color(1).stroke_width(2)));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(to_io)?;
    root.present().map_err(to_io)
}

fn pending(path: &Path, r: &SimulationResult) -> io::Result<()> {
    let root = SVGBackend::new(path, (1000, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(to_io)?;
    let end = seconds(r);
    let top = r
        .samples
        .iter()
        .flat_map(|s| s.queues.iter().map(|q| q.pending_containers))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption("Pending containers per queue", ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(55)
        .build_cartesian_2d(0f64..end, 0f64..top * 1.05)
        .map_err(to_io)?;
    chart
        .configure_mesh()
        .x_desc("simulated time (s)")
        .y_desc("containers")
        .draw()
        .map_err(to_io)?;
    for (i, leaf) in r.leaves.iter().enumerate() {
        let c = color(i);
        let series = r.samples.iter().map(|s| {
            (
                s.time_ms as f64 / 1000.0,
                s.queues[i].pending_containers as f64,
            )
        });
        chart
            .draw_series(LineSeries::new(series, c.stroke_width(2)))
            .map_err(to_io)?
            .label(leaf.path.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(to_io)?;
    root.present().map_err(to_io)
}
