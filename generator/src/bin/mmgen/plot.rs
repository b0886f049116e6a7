//! `mmgen compare --plot FILE.svg`: the strategies' distributions of guesses as one
//! grouped bar chart. The document is built with the `svg` crate (elements and
//! attributes escaped for us); the scales, axes and legend are ours.

use svg::node::element::{Line, Rectangle, Text as Label};
use svg::Document;

/// One strategy's distribution: its name, average, and `histogram[k]`, the secrets
/// solved with k + 1 guesses.
pub struct Series {
    pub name: String,
    pub average: f64,
    pub histogram: Vec<u64>,
}

const COLOURS: [&str; 6] = [
    "#3584e4", "#e66100", "#26a269", "#9141ac", "#c01c28", "#865e3c",
];
const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 420.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 270.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;

fn label(x: f64, y: f64, anchor: &str, text: impl Into<String>) -> Label {
    Label::new(text.into())
        .set("x", x)
        .set("y", y)
        .set("text-anchor", anchor)
        .set("font-family", "sans-serif")
        .set("font-size", 12)
}

/// Where the bars go: `deepest` groups of bars across, `most` secrets up.
struct Frame {
    deepest: usize,
    most: u64,
}

impl Frame {
    const PLOT_WIDTH: f64 = WIDTH - LEFT - RIGHT;
    const PLOT_HEIGHT: f64 = HEIGHT - TOP - BOTTOM;

    fn group(&self) -> f64 {
        Frame::PLOT_WIDTH / self.deepest as f64
    }

    fn y(&self, value: u64) -> f64 {
        TOP + Frame::PLOT_HEIGHT * (1.0 - value as f64 / self.most as f64)
    }
}

fn line(x1: f64, y1: f64, x2: f64, y2: f64) -> Line {
    Line::new()
        .set("x1", x1)
        .set("y1", y1)
        .set("x2", x2)
        .set("y2", y2)
        .set("stroke", "#333")
}

/// The title, the axes, five ticks up the side and the guess counts along.
fn axes(mut document: Document, board: &str, frame: &Frame) -> Document {
    let bottom = TOP + Frame::PLOT_HEIGHT;
    document = document
        .add(label(
            WIDTH / 2.0,
            22.0,
            "middle",
            format!("{board}: secrets solved with each number of guesses, by strategy"),
        ))
        .add(line(LEFT, TOP, LEFT, bottom))
        .add(line(LEFT, bottom, LEFT + Frame::PLOT_WIDTH, bottom))
        .add(label(
            LEFT + Frame::PLOT_WIDTH / 2.0,
            HEIGHT - 10.0,
            "middle",
            "guesses needed",
        ));
    for tick in 0..=4 {
        let value = frame.most * tick / 4;
        let y = frame.y(value);
        document = document.add(line(LEFT - 4.0, y, LEFT, y)).add(label(
            LEFT - 8.0,
            y + 4.0,
            "end",
            value.to_string(),
        ));
    }
    for k in 0..frame.deepest {
        let x = LEFT + frame.group() * (k as f64 + 0.5);
        document = document.add(label(x, bottom + 18.0, "middle", (k + 1).to_string()));
    }
    document
}

/// Series `i` of `count`: a bar per number of guesses, and its line of the legend.
fn bars(mut document: Document, frame: &Frame, i: usize, count: usize, s: &Series) -> Document {
    let colour = COLOURS[i % COLOURS.len()];
    let width = frame.group() * 0.8 / count as f64;
    for (k, &secrets) in s.histogram.iter().enumerate() {
        let y = frame.y(secrets);
        let rect = Rectangle::new()
            .set(
                "x",
                LEFT + frame.group() * (k as f64 + 0.1) + width * i as f64,
            )
            .set("y", y)
            .set("width", width)
            .set("height", TOP + Frame::PLOT_HEIGHT - y)
            .set("fill", colour);
        document = document.add(rect);
    }
    let legend_y = TOP + 10.0 + 22.0 * i as f64;
    let swatch = Rectangle::new()
        .set("x", WIDTH - RIGHT + 20.0)
        .set("y", legend_y - 10.0)
        .set("width", 12)
        .set("height", 12)
        .set("fill", colour);
    document.add(swatch).add(label(
        WIDTH - RIGHT + 38.0,
        legend_y,
        "start",
        format!("{} (average {:.4})", s.name, s.average),
    ))
}

/// The chart of `series` on the board named `board`, as SVG text.
pub fn distributions(board: &str, series: &[Series]) -> String {
    let frame = Frame {
        deepest: series
            .iter()
            .map(|s| s.histogram.len())
            .max()
            .unwrap_or(1)
            .max(1),
        most: (series.iter())
            .flat_map(|s| s.histogram.iter().copied())
            .max()
            .unwrap_or(1)
            .max(1),
    };
    let background = Rectangle::new()
        .set("width", WIDTH)
        .set("height", HEIGHT)
        .set("fill", "white");
    let mut document = Document::new()
        .set("viewBox", (0, 0, WIDTH, HEIGHT))
        .set("width", WIDTH)
        .set("height", HEIGHT)
        .add(background);
    document = axes(document, board, &frame);
    for (i, s) in series.iter().enumerate() {
        document = bars(document, &frame, i, series.len(), s);
    }
    document.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_strategy_gets_a_bar_per_count_and_a_legend_line() {
        let series = [
            Series {
                name: "knuth".into(),
                average: 4.4761,
                histogram: vec![1, 6, 62, 533, 694],
            },
            Series {
                name: "optimal <&>".into(),
                average: 4.3403,
                histogram: vec![1, 8, 102, 630, 548, 7],
            },
        ];
        let svg = distributions("4x6", &series);
        assert!(svg.starts_with("<svg"));
        // A background and 5 + 6 bars and 2 swatches.
        assert_eq!(svg.matches("<rect").count(), 1 + 11 + 2);
        assert!(svg.contains("knuth (average 4.4761)"));
        assert!(svg.contains("optimal &lt;&amp;&gt;"), "names are escaped");
    }
}
