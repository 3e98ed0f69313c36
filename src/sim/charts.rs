//! SVG charts a person can look at: each queue's share of the cluster over time against its
//! guaranteed and maximum capacity, cluster utilization, and pending containers.

use std::io;

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

/// One plotted line with its legend entry, and points on it to mark (kills by preemption).
struct Line {
    label: String,
    color: RGBColor,
    width: u32,
    points: Vec<(f64, f64)>,
    marks: Vec<(f64, f64)>,
}

/// A horizontal reference line: (colour, y, dash length, gap).
type Guide = (RGBColor, f64, u32, u32);

/// Draws lines over simulated time (seconds) with a legend, plus horizontal guides; returns
/// the SVG text (the caller writes it where it belongs).
fn draw(
    title: &str,
    y_desc: &str,
    y_max: f64,
    end_s: f64,
    lines: &[Line],
    guides: &[Guide],
) -> io::Result<String> {
    let mut svg = String::new();
    draw_into(&mut svg, title, y_desc, y_max, end_s, lines, guides)?;
    Ok(svg)
}

fn draw_into(
    svg: &mut String,
    title: &str,
    y_desc: &str,
    y_max: f64,
    end_s: f64,
    lines: &[Line],
    guides: &[Guide],
) -> io::Result<()> {
    let root = SVGBackend::with_string(svg, (1000, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(to_io)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(55)
        .build_cartesian_2d(0f64..end_s, 0f64..y_max)
        .map_err(to_io)?;
    chart
        .configure_mesh()
        .x_desc("simulated time (s)")
        .y_desc(y_desc)
        .draw()
        .map_err(to_io)?;
    for &(c, y, dash, gap) in guides {
        chart
            .draw_series(DashedLineSeries::new(
                vec![(0.0, y), (end_s, y)],
                dash,
                gap,
                c.stroke_width(1),
            ))
            .map_err(to_io)?;
    }
    for line in lines {
        let style = line.color.stroke_width(line.width);
        chart
            .draw_series(LineSeries::new(line.points.iter().copied(), style))
            .map_err(to_io)?
            .label(line.label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], style));
        chart
            .draw_series(
                line.marks
                    .iter()
                    .map(|&p| TriangleMarker::new(p, 5, line.color.filled())),
            )
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

/// The run's charts: (file name, SVG).
pub fn render_charts(r: &SimulationResult) -> io::Result<Vec<(&'static str, String)>> {
    let end = r
        .samples
        .last()
        .map(|s| s.time_ms as f64 / 1000.0)
        .unwrap_or(1.0)
        .max(1.0);
    let t = |ms: i64| ms as f64 / 1000.0;
    let (mem, vc) = (
        r.cluster.memory_mb().max(1) as f64,
        r.cluster.vcores().max(1) as f64,
    );

    // Queue usage as a share of cluster memory; guaranteed dashed, maximum dotted.
    let lines: Vec<Line> = r
        .leaves
        .iter()
        .enumerate()
        .map(|(i, leaf)| Line {
            label: leaf.path.clone(),
            color: color(i),
            width: 2,
            points: r
                .samples
                .iter()
                .map(|s| {
                    (
                        t(s.time_ms),
                        s.queues[i].allocated_memory as f64 * 100.0 / mem,
                    )
                })
                .collect(),
            // Where the preemption monitor killed this leaf's containers.
            marks: r
                .samples
                .iter()
                .filter(|s| s.queues[i].killed > 0)
                .map(|s| {
                    (
                        t(s.time_ms),
                        s.queues[i].allocated_memory as f64 * 100.0 / mem,
                    )
                })
                .collect(),
        })
        .collect();
    let guides: Vec<Guide> = r
        .leaves
        .iter()
        .enumerate()
        .flat_map(|(i, leaf)| {
            [
                (color(i), leaf.guaranteed_share * 100.0, 8, 5),
                (color(i), leaf.max_share * 100.0, 2, 4),
            ]
        })
        .collect();
    let queue_usage = draw(
        "Queue usage: share of cluster memory (guaranteed dashed, maximum dotted, ▲ containers preempted)",
        "% of cluster memory",
        105.0,
        end,
        &lines,
        &guides,
    )?;

    // Utilization; memory drawn wider, underneath: with proportional containers they coincide.
    let lines = [
        Line {
            label: "memory".into(),
            color: color(0),
            width: 5,
            points: r
                .samples
                .iter()
                .map(|s| (t(s.time_ms), s.allocated_memory as f64 * 100.0 / mem))
                .collect(),
            marks: Vec::new(),
        },
        Line {
            label: "vcores".into(),
            color: color(1),
            width: 2,
            points: r
                .samples
                .iter()
                .map(|s| (t(s.time_ms), s.allocated_vcores as f64 * 100.0 / vc))
                .collect(),
            marks: Vec::new(),
        },
    ];
    let utilization = draw(
        "Cluster utilization",
        "% allocated",
        105.0,
        end,
        &lines,
        &[],
    )?;

    // Pending containers per queue.
    let lines: Vec<Line> = r
        .leaves
        .iter()
        .enumerate()
        .map(|(i, leaf)| Line {
            label: leaf.path.clone(),
            color: color(i),
            width: 2,
            points: r
                .samples
                .iter()
                .map(|s| (t(s.time_ms), s.queues[i].pending_containers as f64))
                .collect(),
            marks: Vec::new(),
        })
        .collect();
    let top = lines
        .iter()
        .flat_map(|l| l.points.iter().map(|p| p.1))
        .fold(1.0, f64::max);
    let pending = draw(
        "Pending containers per queue",
        "containers",
        top * 1.05,
        end,
        &lines,
        &[],
    )?;
    Ok(vec![
        ("queue_usage.svg", queue_usage),
        ("utilization.svg", utilization),
        ("pending.svg", pending),
    ])
}

/// Side-by-side runs of one workload (the opportunistic comparison): what the NodeManagers
/// ran as a share of the cluster, and tasks completed, over time — one line per run, as
/// (`<prefix>-utilization.svg`, SVG) and (`<prefix>-tasks.svg`, SVG).
pub fn render_comparison(
    prefix: &str,
    runs: &[(String, &SimulationResult)],
) -> io::Result<Vec<(String, String)>> {
    let end = runs
        .iter()
        .filter_map(|(_, r)| r.samples.last())
        .map(|s| s.time_ms as f64 / 1000.0)
        .fold(1.0, f64::max);
    let t = |ms: i64| ms as f64 / 1000.0;
    let lines: Vec<Line> = runs
        .iter()
        .enumerate()
        .map(|(i, (label, r))| {
            let mem = r.cluster.memory_mb().max(1) as f64;
            Line {
                label: label.clone(),
                color: color(i),
                width: 2,
                points: r
                    .samples
                    .iter()
                    .map(|s| (t(s.time_ms), s.nm_used_memory as f64 * 100.0 / mem))
                    .collect(),
                marks: Vec::new(),
            }
        })
        .collect();
    let utilization = draw(
        "Memory in use on the NodeManagers (opportunistic containers included)",
        "% of cluster memory",
        105.0,
        end,
        &lines,
        &[],
    )?;
    let lines: Vec<Line> = runs
        .iter()
        .enumerate()
        .map(|(i, (label, r))| Line {
            label: label.clone(),
            color: color(i),
            width: 2,
            points: r
                .samples
                .iter()
                .map(|s| (t(s.time_ms), s.tasks_completed as f64))
                .collect(),
            marks: Vec::new(),
        })
        .collect();
    let top = lines
        .iter()
        .flat_map(|l| l.points.iter().map(|p| p.1))
        .fold(1.0, f64::max);
    let tasks = draw("Tasks completed", "tasks", top * 1.05, end, &lines, &[])?;
    Ok(vec![
        (format!("{prefix}-utilization.svg"), utilization),
        (format!("{prefix}-tasks.svg"), tasks),
    ])
}

/// Each job's run time (submission to finish) against its submission time, one panel per run
/// side by side on the same scales: where opportunistic execution lengthens jobs, and which.
/// A job that ran opportunistic containers is a filled circle, one that ran only guaranteed
/// ones a hollow circle.
pub fn render_job_times(runs: &[(String, &SimulationResult)]) -> io::Result<String> {
    let s = |ms: i64| ms as f64 / 1000.0;
    let points = |r: &SimulationResult| -> Vec<(f64, f64, bool)> {
        r.jobs
            .iter()
            .filter_map(|j| {
                Some((
                    s(j.submit_ms),
                    s(j.run_ms()?),
                    j.opportunistic_containers > 0,
                ))
            })
            .collect()
    };
    let all: Vec<Vec<(f64, f64, bool)>> = runs.iter().map(|(_, r)| points(r)).collect();
    let x_max = all.iter().flatten().map(|p| p.0).fold(1.0, f64::max) * 1.03;
    let y_max = all.iter().flatten().map(|p| p.1).fold(1.0, f64::max) * 1.1;
    let mut svg = String::new();
    {
        let width = 520 * runs.len().max(1) as u32;
        let root = SVGBackend::with_string(&mut svg, (width, 460)).into_drawing_area();
        root.fill(&WHITE).map_err(to_io)?;
        let root = root
            .titled("Job run time against submission time", ("sans-serif", 20))
            .map_err(to_io)?;
        let panels = root.split_evenly((1, runs.len().max(1)));
        for (i, ((label, _), panel)) in runs.iter().zip(&panels).enumerate() {
            let mut chart = ChartBuilder::on(panel)
                .caption(label, ("sans-serif", 15))
                .margin(10)
                .x_label_area_size(36)
                .y_label_area_size(50)
                .build_cartesian_2d(0f64..x_max, 0f64..y_max)
                .map_err(to_io)?;
            chart
                .configure_mesh()
                .x_desc("submitted at (s)")
                .y_desc("job run time (s)")
                .draw()
                .map_err(to_io)?;
            let c = color(i);
            chart
                .draw_series(all[i].iter().map(|&(x, y, opp)| {
                    let style = if opp { c.filled() } else { c.stroke_width(1) };
                    Circle::new((x, y), 3, style)
                }))
                .map_err(to_io)?;
        }
        root.present().map_err(to_io)?;
    }
    Ok(svg)
}
