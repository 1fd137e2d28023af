//! Trains the value network of the search bots (`crates/bots/src/starrealms/value.rs`) on the
//! samples of `cargo run --release -p bots --example value_data`, or the learned purchase
//! network (`crates/bots/src/starrealms/buyer.rs`) on those of `… --example buyer -- data`: one
//! hidden layer (ReLU), one output (the chance that the player of the sample wins), binary
//! cross-entropy, AdamW. The last tenth of the samples (the last games) is held out to measure
//! the network.
//!
//! ```sh
//! cd tools/value-train && cargo run --release -- --data /tmp/value.bin \
//!     --out ../../crates/bots/data/value-base.safetensors --curve ../../docs/ai/value-training.svg
//! ```
//!
//! With `--measure NET` instead of `--out`, it trains nothing and prints the loss and accuracy of
//! a network it wrote earlier on the held-out samples, so that two networks can be compared on
//! the same games.

use std::collections::HashMap;
use std::io::{BufRead as _, Read as _};

use anyhow::{Context as _, bail};
use candle_core::{D, DType, Device, Tensor};
use candle_nn::{Linear, Module as _, Optimizer as _, VarBuilder, VarMap};
use rand::seq::SliceRandom as _;
use rand::{Rng as _, SeedableRng as _};

#[derive(clap::Parser)]
struct Args {
    /// Samples written by the `value_data` or `buyer data` example; several files are
    /// trained on as one, in their order (the held-out tenth comes from the last).
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<std::path::PathBuf>,
    /// The network file to write (safetensors: w1, b1, w2, b2).
    #[arg(long, required_unless_present = "measure")]
    out: Option<std::path::PathBuf>,
    /// The training curve to write (SVG).
    #[arg(long)]
    curve: Option<std::path::PathBuf>,
    /// Hidden units.
    #[arg(long, default_value_t = 64)]
    hidden: usize,
    /// Passes over the training samples.
    #[arg(long, default_value_t = 8)]
    epochs: usize,
    /// Samples per step.
    #[arg(long, default_value_t = 512)]
    batch: usize,
    /// Learning rate.
    #[arg(long, default_value_t = 1e-3)]
    lr: f64,
    /// Seed of the initial weights and of the order of the samples.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Measure this network (a file this tool wrote) on the held-out samples instead of
    /// training one, to compare networks on the same samples.
    #[arg(long, conflicts_with_all = ["out", "curve"])]
    measure: Option<std::path::PathBuf>,
}

struct Data {
    features: usize,
    x: Vec<f32>,
    y: Vec<f32>,
}

fn load(path: &std::path::Path) -> anyhow::Result<Data> {
    let mut file = std::io::BufReader::new(
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?,
    );
    let mut header = String::new();
    file.read_line(&mut header)?;
    let h: serde_json::Value = serde_json::from_str(&header).context("the header line")?;
    let f = h["features"].as_u64().context("features")? as usize;
    let n = h["samples"].as_u64().context("samples")? as usize;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    if bytes.len() != n * (f + 1) * 4 {
        bail!(
            "{} bytes, {n} samples of {f} features need {}",
            bytes.len(),
            n * (f + 1) * 4
        );
    }
    let all: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let mut x = Vec::with_capacity(n * f);
    let mut y = Vec::with_capacity(n);
    for r in all.chunks_exact(f + 1) {
        x.extend_from_slice(&r[..f]);
        y.push(r[f]);
    }
    Ok(Data { features: f, x, y })
}

struct Net {
    l1: Linear,
    l2: Linear,
}

impl Net {
    fn logits(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        self.l2
            .forward(&self.l1.forward(x)?.relu()?)?
            .squeeze(D::Minus1)
    }
}

/// Binary cross-entropy from logits `z` and targets `y`, in the stable form
/// `max(z, 0) − z·y + ln(1 + e^−|z|)`: confident predictions (near the end of a game) neither
/// overflow nor take the logarithm of zero.
fn bce_with_logits(z: &Tensor, y: &Tensor) -> candle_core::Result<Tensor> {
    let softplus = z.abs()?.neg()?.exp()?.affine(1.0, 1.0)?.log()?;
    (z.relu()? - (z * y)?)?.add(&softplus)?.mean_all()
}

/// Mean loss and accuracy (over decided games) of the network on samples `rows`.
fn measure(net: &Net, d: &Data, rows: &[usize], dev: &Device) -> anyhow::Result<(f32, f32)> {
    let (mut loss, mut right, mut decided) = (0.0f64, 0usize, 0usize);
    for chunk in rows.chunks(8192) {
        let (x, y) = batch(d, chunk, dev)?;
        let logits = net.logits(&x)?;
        let l = bce_with_logits(&logits, &y)?;
        loss += l.to_scalar::<f32>()? as f64 * chunk.len() as f64;
        let p = logits.to_vec1::<f32>()?;
        for (i, &r) in chunk.iter().enumerate() {
            if d.y[r] != 0.5 {
                decided += 1;
                right += ((p[i] > 0.0) == (d.y[r] > 0.5)) as usize;
            }
        }
    }
    Ok((
        (loss / rows.len() as f64) as f32,
        right as f32 / decided.max(1) as f32,
    ))
}

fn batch(d: &Data, rows: &[usize], dev: &Device) -> anyhow::Result<(Tensor, Tensor)> {
    let f = d.features;
    let mut x = Vec::with_capacity(rows.len() * f);
    let mut y = Vec::with_capacity(rows.len());
    for &r in rows {
        x.extend_from_slice(&d.x[r * f..(r + 1) * f]);
        y.push(d.y[r]);
    }
    Ok((
        Tensor::from_vec(x, (rows.len(), f), dev)?,
        Tensor::from_vec(y, rows.len(), dev)?,
    ))
}

fn main() -> anyhow::Result<()> {
    let args: Args = clap::Parser::parse();
    let dev = Device::Cpu;
    let mut d = load(&args.data[0])?;
    for path in &args.data[1..] {
        let more = load(path)?;
        if more.features != d.features {
            bail!(
                "{} has {} features, {} has {}",
                path.display(),
                more.features,
                args.data[0].display(),
                d.features
            );
        }
        d.x.extend(more.x);
        d.y.extend(more.y);
    }
    let n = d.y.len();
    let split = n - n / 10;
    let mut train: Vec<usize> = (0..split).collect();
    let valid: Vec<usize> = (split..n).collect();
    eprintln!(
        "{n} samples of {} features: {split} to train, {} held out",
        d.features,
        n - split
    );
    if let Some(path) = &args.measure {
        let t = candle_core::safetensors::load(path, &dev)
            .with_context(|| format!("cannot read the network {}", path.display()))?;
        let get = |name: &str| {
            t.get(name)
                .cloned()
                .with_context(|| format!("{} has no tensor {name}", path.display()))
        };
        let w1 = get("w1")?;
        if w1.dims().get(1) != Some(&d.features) {
            bail!(
                "{} reads {} inputs, the samples have {} features",
                path.display(),
                w1.dims().get(1).copied().unwrap_or(0),
                d.features
            );
        }
        let net = Net {
            l1: Linear::new(w1, Some(get("b1")?)),
            l2: Linear::new(get("w2")?, Some(get("b2")?)),
        };
        let (loss, acc) = measure(&net, &d, &valid, &dev)?;
        println!(
            "{}: held-out loss {loss:.4}, accuracy {:.1}%",
            path.display(),
            100.0 * acc
        );
        return Ok(());
    }
    let mut rng = rand_pcg::Pcg64::seed_from_u64(args.seed);
    let vars = VarMap::new();
    let vb = VarBuilder::from_varmap(&vars, DType::F32, &dev);
    let net = Net {
        l1: candle_nn::linear(d.features, args.hidden, vb.pp("l1"))?,
        l2: candle_nn::linear(args.hidden, 1, vb.pp("l2"))?,
    };
    // Initial weights from the seed (uniform in ±1/√inputs, as PyTorch's default), so that a run
    // is repeatable.
    for (name, inputs) in [
        ("l1.weight", d.features),
        ("l1.bias", d.features),
        ("l2.weight", args.hidden),
        ("l2.bias", args.hidden),
    ] {
        let vars = vars.data().lock().expect("the variables");
        let var = vars.get(name).context(name.to_string())?;
        let bound = 1.0 / (inputs as f32).sqrt();
        let n = var.elem_count();
        let values: Vec<f32> = (0..n).map(|_| rng.random_range(-bound..bound)).collect();
        var.set(&Tensor::from_vec(values, var.shape(), &dev)?)?;
    }
    let mut opt = candle_nn::AdamW::new(
        vars.all_vars(),
        candle_nn::ParamsAdamW {
            lr: args.lr,
            weight_decay: 1e-4,
            ..Default::default()
        },
    )?;
    let mut curve = Vec::new();
    let (l0, a0) = measure(&net, &d, &valid, &dev)?;
    eprintln!(
        "epoch 0: held-out loss {l0:.4}, accuracy {:.1}%",
        100.0 * a0
    );
    for epoch in 1..=args.epochs {
        train.shuffle(&mut rng);
        let (mut sum, mut count) = (0.0f64, 0usize);
        for rows in train.chunks(args.batch) {
            let (x, y) = batch(&d, rows, &dev)?;
            let loss = bce_with_logits(&net.logits(&x)?, &y)?;
            opt.backward_step(&loss)?;
            sum += loss.to_scalar::<f32>()? as f64 * rows.len() as f64;
            count += rows.len();
        }
        let train_loss = (sum / count as f64) as f32;
        let (loss, acc) = measure(&net, &d, &valid, &dev)?;
        eprintln!(
            "epoch {epoch}: training loss {train_loss:.4}, held-out loss {loss:.4}, accuracy {:.1}%",
            100.0 * acc
        );
        curve.push((epoch, train_loss, loss, acc));
    }
    let get = |name: &str| -> anyhow::Result<Tensor> {
        let vars = vars.data().lock().expect("the variables");
        Ok(vars
            .get(name)
            .context(name.to_string())?
            .as_tensor()
            .clone())
    };
    let mut tensors = HashMap::new();
    tensors.insert("w1".to_string(), get("l1.weight")?);
    tensors.insert("b1".to_string(), get("l1.bias")?);
    tensors.insert("w2".to_string(), get("l2.weight")?);
    tensors.insert("b2".to_string(), get("l2.bias")?);
    let out = args
        .out
        .as_ref()
        .context("--out names the network to write")?;
    candle_core::safetensors::save(&tensors, out)?;
    eprintln!("wrote {}", out.display());
    if let Some(path) = &args.curve {
        std::fs::write(path, svg(&curve, l0)?)?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

/// The training curve: training and held-out loss by epoch.
fn svg(curve: &[(usize, f32, f32, f32)], start: f32) -> anyhow::Result<String> {
    use plotters::prelude::*;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (640, 400)).into_drawing_area();
        root.fill(&WHITE)?;
        let lo = curve.iter().map(|c| c.1.min(c.2)).fold(f32::MAX, f32::min) - 0.01;
        let hi = curve.iter().map(|c| c.1.max(c.2)).fold(start, f32::max) + 0.01;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Value network: binary cross-entropy by epoch",
                ("sans-serif", 18),
            )
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(0f32..curve.len() as f32, lo..hi)?;
        chart
            .configure_mesh()
            .x_desc("epoch")
            .y_desc("loss")
            .label_style(("sans-serif", 14))
            .draw()?;
        let first = |v: f32| std::iter::once((0.0, v));
        let blue = RGBColor(31, 119, 180);
        let orange = RGBColor(255, 127, 14);
        chart
            .draw_series(LineSeries::new(
                first(start).chain(curve.iter().map(|c| (c.0 as f32, c.1))),
                blue.stroke_width(2),
            ))?
            .label("training")
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], blue.stroke_width(2))
            });
        chart
            .draw_series(LineSeries::new(
                first(start).chain(curve.iter().map(|c| (c.0 as f32, c.2))),
                orange.stroke_width(2),
            ))?
            .label("held out (last tenth of the games)")
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], orange.stroke_width(2))
            });
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE)
            .label_font(("sans-serif", 14))
            .draw()?;
        root.present()?;
    }
    Ok(out)
}
