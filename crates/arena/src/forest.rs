//! Forest plots: a row a thing measured, its estimate a dot and its 95% interval a bar, the first
//! row at the top and a line at zero. `realms arena` draws its bots' ratings so, and `realms cards
//! stats` each card's effect on the win rate.

use plotters::prelude::*;

/// One row of a plot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row<'a> {
    /// Its name, left of it.
    pub label: &'a str,
    /// The estimate (the dot).
    pub estimate: f64,
    /// Its 95% interval (the bar).
    pub ci95: [f64; 2],
}

/// What a plot says, and how it is laid out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Forest<'a> {
    /// The title above it.
    pub title: &'a str,
    /// What the horizontal axis measures.
    pub axis: &'a str,
    /// Rows of 18 pixels, bars without end marks and smaller labels, for a long list (the cards);
    /// otherwise rows of 40 pixels (a few bots).
    pub dense: bool,
    /// The least room left on each side of the bars, in the axis's unit.
    pub min_pad: f64,
}

impl Forest<'_> {
    /// The plot of `rows`, in their order from the top, as an SVG document.
    pub fn svg(&self, rows: &[Row<'_>]) -> Result<String, String> {
        let mut svg = String::new();
        self.draw(rows, &mut svg).map_err(|e| e.to_string())?;
        Ok(svg)
    }

    fn draw(&self, rows: &[Row<'_>], svg: &mut String) -> Result<(), Box<dyn std::error::Error>> {
        // At least one segment on the vertical axis, whatever the rows.
        let n = rows.len().max(1);
        let lo = rows
            .iter()
            .map(|r| r.ci95[0].min(r.estimate))
            .fold(0.0, f64::min);
        let hi = rows
            .iter()
            .map(|r| r.ci95[1].max(r.estimate))
            .fold(0.0, f64::max);
        let pad = ((hi - lo) * 0.08).max(self.min_pad);
        let longest = rows
            .iter()
            .map(|r| r.label.chars().count())
            .max()
            .unwrap_or(0) as u32;
        let (row_height, font, char_width, dot) = if self.dense {
            (18, 12, 7, 4)
        } else {
            (40, 14, 8, 5)
        };
        let height = 110 + row_height * n as u32;
        let root = SVGBackend::with_string(svg, (800, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(self.title, ("sans-serif", 18))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(24 + char_width * longest)
            // An integer range is inclusive once segmented: 0..n-1 gives n segments.
            .build_cartesian_2d(lo - pad..hi + pad, (0..n - 1).into_segmented())?;
        let label_at = |v: &SegmentValue<usize>| match v {
            SegmentValue::CenterOf(k) if *k < rows.len() => rows[n - 1 - k].label.to_string(),
            _ => String::new(),
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(n)
            .y_label_formatter(&label_at)
            .x_label_formatter(&|x| format!("{x:+.0}"))
            .x_desc(self.axis)
            .label_style(("sans-serif", font))
            .draw()?;
        let grey = RGBColor(150, 150, 150);
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(0.0, SegmentValue::Exact(0)), (0.0, SegmentValue::Last)],
            grey.stroke_width(1),
        )))?;
        let blue = RGBColor(31, 119, 180);
        let bar = blue.stroke_width(2);
        for (rank, r) in rows.iter().enumerate() {
            let y = SegmentValue::CenterOf(n - 1 - rank);
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(r.ci95[0], y.clone()), (r.ci95[1], y.clone())],
                bar,
            )))?;
            if !self.dense {
                for x in r.ci95 {
                    chart.draw_series(std::iter::once(
                        EmptyElement::at((x, y.clone()))
                            + PathElement::new(vec![(0, -6), (0, 6)], bar),
                    ))?;
                }
            }
            chart.draw_series(std::iter::once(Circle::new(
                (r.estimate, y.clone()),
                dot,
                blue.filled(),
            )))?;
        }
        root.present()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plot(dense: bool, rows: &[Row<'_>]) -> String {
        Forest {
            title: "Les cotes",
            axis: "points",
            dense,
            min_pad: 1.0,
        }
        .svg(rows)
        .unwrap()
    }

    /// Each text of the plot, with its height (`y`), in the document's order.
    fn texts(svg: &str) -> Vec<(f64, String)> {
        svg.split("<text")
            .skip(1)
            .map(|text| {
                let (tag, rest) = text.split_once('>').unwrap();
                let y = tag.split(" y=\"").nth(1).unwrap();
                let y = y[..y.find('"').unwrap()].parse().unwrap();
                (y, rest[..rest.find("</text>").unwrap()].trim().to_string())
            })
            .collect()
    }

    #[test]
    fn each_row_has_its_label_its_dot_and_its_bar_and_the_title_and_axis_are_shown() {
        let rows = [
            Row {
                label: "heuristic",
                estimate: 120.0,
                ci95: [90.0, 150.0],
            },
            Row {
                label: "random",
                estimate: -120.0,
                ci95: [-160.0, -80.0],
            },
            Row {
                label: "ismcts:200",
                estimate: 0.0,
                ci95: [-30.0, 35.0],
            },
        ];
        for dense in [false, true] {
            let svg = plot(dense, &rows);
            assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
            let texts = texts(&svg);
            let shown = |word: &str| texts.iter().filter(|(_, t)| t == word).count();
            assert_eq!(shown("Les cotes"), 1);
            assert_eq!(shown("points"), 1);
            for r in &rows {
                assert_eq!(shown(r.label), 1, "{texts:?}");
            }
            assert_eq!(svg.matches("<circle").count(), rows.len());
            // The axes and their ticks, the zero line, each bar, and with room each bar's two
            // end marks: the same plot has two end marks a row more when it is not dense.
            let lines = svg.matches("<polyline").count();
            let sparse = plot(false, &rows).matches("<polyline").count();
            assert_eq!(sparse - lines, if dense { 2 * rows.len() } else { 0 });
            // The first row highest (the smallest y), the others under it in their order.
            let y_of = |label: &str| texts.iter().find(|(_, t)| t == label).unwrap().0;
            assert!(y_of("heuristic") < y_of("random") && y_of("random") < y_of("ismcts:200"));
        }
    }

    #[test]
    fn no_row_is_still_a_plot() {
        let svg = plot(true, &[]);
        assert!(texts(&svg).iter().any(|(_, t)| t == "Les cotes"));
        assert_eq!(svg.matches("<circle").count(), 0);
    }
}
