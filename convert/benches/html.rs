//! html-to-pdf: the warm engine against a cold `chromium --headless --print-to-pdf` per file,
//! the way the Chromium manual runs it (a fresh `--user-data-dir` each time), on the same
//! inputs: generated pages of varied size and weight, plus real-world HTML from Debian's
//! documentation when the machine has it. The warm browser's start is not timed (a worker
//! starts it once, before its first job). Prints per-file times, totals and the ratio.
//!
//! `cargo bench -p quire-convert --bench html`

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use quire_convert::Limits;
use quire_convert::chromium::{Chromium, ChromiumConfig, Paper, PrintOptions, Source};

const LOREM: &str = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor \
    incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation \
    ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit.";

/// Debian documentation pages, printed when present.
const REAL_WORLD: &[&str] = &[
    "/usr/share/doc/python3/python-policy.html",
    "/usr/share/doc/socat/socat.html",
    "/usr/share/doc/qemu-utils/qemu-img.html",
];

fn page(title: &str, style: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{title}</title><style>{style}</style></head><body>{body}</body></html>"
    )
}

fn article(pages: usize) -> String {
    let mut body = String::new();
    for section in 0..pages * 4 {
        let _ = write!(body, "<h2>Section {section}</h2>");
        for _ in 0..3 {
            let _ = write!(body, "<p>{LOREM}</p>");
        }
    }
    page(
        "article",
        "body{font-family:serif;font-size:11pt} h2{color:#234}",
        &body,
    )
}

fn table(rows: usize) -> String {
    let mut body = String::from(
        "<table><thead><tr><th>#</th><th>Name</th><th>Region</th><th>Amount</th></tr></thead><tbody>",
    );
    for row in 0..rows {
        let _ = write!(
            body,
            "<tr><td>{row}</td><td>Customer {row}</td><td>Region {}</td><td>{}.{:02}</td></tr>",
            row % 7,
            row * 37 % 10_000,
            row % 100
        );
    }
    body.push_str("</tbody></table>");
    page(
        "table",
        "table{border-collapse:collapse;width:100%} td,th{border:1px solid #999;padding:2px 6px} tr:nth-child(even){background:#eef}",
        &body,
    )
}

fn svg_chart(bars: usize) -> String {
    let mut svg = format!(
        "<svg width=\"700\" height=\"400\" viewBox=\"0 0 {} 400\">",
        bars * 4
    );
    for bar in 0..bars {
        let height = (bar * 97 % 380) + 10;
        let _ = write!(
            svg,
            "<rect x=\"{}\" y=\"{}\" width=\"3\" height=\"{height}\" fill=\"hsl({} 70% 50%)\"/>",
            bar * 4,
            400 - height,
            bar % 360
        );
    }
    svg.push_str("</svg>");
    page("chart", "", &format!("<h1>Bars</h1>{svg}<p>{LOREM}</p>"))
}

fn js_report(rows: usize) -> String {
    let script = format!(
        "const t = document.getElementById('t'); for (let i = 0; i < {rows}; i++) {{ const r = t.insertRow(); \
         r.insertCell().textContent = 'Row ' + i; r.insertCell().textContent = (i * 31 % 997).toString(); }} \
         const c = document.getElementById('c').getContext('2d'); for (let i = 0; i < 100; i++) {{ \
         c.fillStyle = 'hsl(' + i * 3.6 + ' 60% 50%)'; c.fillRect(i * 6, 300 - (i * 37 % 280), 5, i * 37 % 280); }}"
    );
    page(
        "js",
        "td{border-bottom:1px solid #ccc}",
        &format!(
            "<h1>Scripted report</h1><canvas id=c width=600 height=300></canvas><table id=t></table><script>{script}</script>"
        ),
    )
}

fn images(count: usize) -> String {
    use base64::Engine as _;
    let mut body = String::from("<h1>Photos</h1>");
    for n in 0..count {
        let png = png_bytes(200, 150, [(n * 40 % 256) as u8, 120, 200]);
        let data = base64::engine::general_purpose::STANDARD.encode(png);
        let _ = write!(
            body,
            "<figure><img src=\"data:image/png;base64,{data}\"><figcaption>Figure {n}</figcaption></figure>"
        );
    }
    page("images", "figure{display:inline-block;margin:4px}", &body)
}

fn png_bytes(width: u32, height: u32, rgb: [u8; 3]) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("png header");
    let data: Vec<u8> = (0..width * height)
        .flat_map(|i| [rgb[0], rgb[1].wrapping_add((i % 200) as u8), rgb[2]])
        .collect();
    writer.write_image_data(&data).expect("png data");
    writer.finish().expect("png finish");
    bytes
}

fn cards(count: usize) -> String {
    let mut body = String::from("<div class=grid>");
    for n in 0..count {
        let _ = write!(
            body,
            "<div class=card><h3>Card {n}</h3><p>{}</p></div>",
            &LOREM[..120]
        );
    }
    body.push_str("</div>");
    page(
        "cards",
        ".grid{display:grid;grid-template-columns:repeat(3,1fr);gap:8px} .card{background:linear-gradient(135deg,#fde,#def);border-radius:8px;box-shadow:0 2px 6px #0004;padding:8px}",
        &body,
    )
}

fn code(lines: usize) -> String {
    let mut body = String::from("<h1>Listing</h1><pre>");
    for n in 0..lines {
        let _ = writeln!(
            body,
            "{n:5}  fn function_{n}(argument: u32) -&gt; u32 {{ argument.wrapping_mul({n}) + 1 }}"
        );
    }
    body.push_str("</pre>");
    page("code", "pre{font-size:8pt;white-space:pre-wrap}", &body)
}

fn inputs(dir: &Path) -> Vec<(String, PathBuf)> {
    let generated = [
        ("hello", page("hello", "", "<p>Hello, world.</p>")),
        (
            "letter",
            page(
                "letter",
                "body{font:12pt Georgia,serif;margin:2cm}",
                &format!("<p>Dear reader,</p><p>{LOREM}</p><p>Yours,</p>"),
            ),
        ),
        ("article-10p", article(10)),
        ("article-50p", article(50)),
        ("table-2000", table(2000)),
        ("svg-600", svg_chart(600)),
        ("js-1000", js_report(1000)),
        ("images-20", images(20)),
        ("cards-300", cards(300)),
        ("code-3000", code(3000)),
    ];
    let mut files = Vec::new();
    for (name, html) in generated {
        let folder = dir.join("in").join(name);
        std::fs::create_dir_all(&folder).expect("input folder");
        let path = folder.join("index.html");
        std::fs::write(&path, html).expect("write input");
        files.push((name.to_string(), path));
    }
    for path in REAL_WORLD.iter().map(Path::new).filter(|p| p.is_file()) {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        files.push((name, path.to_path_buf()));
    }
    files
}

fn pages(pdf: &Path) -> String {
    let Ok(out) = Command::new("pdfinfo").arg(pdf).output() else {
        return "?".into();
    };
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .map(|n| n.trim().to_string())
        .unwrap_or_else(|| "?".into())
}

fn cold(program: &Path, input: &Path, profile: &Path, output: &Path) -> Duration {
    let started = Instant::now();
    let mut command = Command::new(program);
    command.arg("--headless");
    if rustix::process::geteuid().is_root() {
        command.arg("--no-sandbox");
    }
    let status = command
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--no-pdf-header-footer")
        .arg(format!("--print-to-pdf={}", output.display()))
        .arg(format!("file://{}", input.display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("run chromium");
    let elapsed = started.elapsed();
    assert!(
        status.success() && output.is_file(),
        "cold chromium failed on {}",
        input.display()
    );
    elapsed
}

fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}

fn main() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = ChromiumConfig::debian(dir.path().join("profiles"));
    let files = inputs(dir.path());
    // Letter, as the cold command prints by default in an en-US locale; its default margins.
    let options = PrintOptions {
        paper: Paper::Letter,
        margin_mm: 10.0,
        ..PrintOptions::default()
    };
    let limits = Limits {
        time: Duration::from_secs(120),
        memory: 8 << 30,
    };

    // "warm": the browser started once, each job makes its page. "idle": the worker also calls
    // `start()` after each job (untimed, as between jobs), which readies the next page.
    let mut warm = Chromium::new(config.clone());
    let mut idle = Chromium::new(config.clone());
    let start = Instant::now();
    warm.start().expect("start chromium");
    println!(
        "html-to-pdf bench: {} files, {}",
        files.len(),
        config.program.display()
    );
    println!(
        "warm browser start (untimed): {:.0} ms",
        ms(start.elapsed())
    );
    idle.start().expect("start chromium");
    println!(
        "{:<16} {:>8} {:>5} {:>8} {:>5} {:>8} {:>5} {:>6} {:>6}",
        "file", "cold ms", "pages", "warm ms", "pages", "idle ms", "pages", "warm/c", "idle/c"
    );

    let mut totals = [Duration::ZERO; 3];
    for (n, (name, input)) in files.iter().enumerate() {
        let cold_pdf = dir.path().join(format!("cold-{n}.pdf"));
        let cold_time = cold(
            &config.program,
            input,
            &dir.path().join(format!("cold-profile-{n}")),
            &cold_pdf,
        );

        let engine_run = |engine: &mut Chromium, label: &str| {
            let pdf = dir.path().join(format!("{label}-{n}.pdf"));
            let work = dir.path().join(format!("work-{label}-{n}"));
            std::fs::create_dir_all(&work).expect("work dir");
            let started = Instant::now();
            engine
                .print(input, Source::Html, &work, &options, &pdf, limits)
                .expect("warm print");
            (started.elapsed(), pdf)
        };
        let (warm_time, warm_pdf) = engine_run(&mut warm, "warm");
        let (idle_time, idle_pdf) = engine_run(&mut idle, "idle");
        idle.start().expect("ready the next page");

        totals[0] += cold_time;
        totals[1] += warm_time;
        totals[2] += idle_time;
        println!(
            "{name:<16} {:>8.0} {:>5} {:>8.0} {:>5} {:>8.0} {:>5} {:>6.2} {:>6.2}",
            ms(cold_time),
            pages(&cold_pdf),
            ms(warm_time),
            pages(&warm_pdf),
            ms(idle_time),
            pages(&idle_pdf),
            warm_time.as_secs_f64() / cold_time.as_secs_f64(),
            idle_time.as_secs_f64() / cold_time.as_secs_f64(),
        );
    }
    let [cold_total, warm_total, idle_total] = totals;
    println!(
        "{:<16} {:>8.0} {:>5} {:>8.0} {:>5} {:>8.0} {:>5} {:>6.2} {:>6.2}",
        "total",
        ms(cold_total),
        "",
        ms(warm_total),
        "",
        ms(idle_total),
        "",
        warm_total.as_secs_f64() / cold_total.as_secs_f64(),
        idle_total.as_secs_f64() / cold_total.as_secs_f64(),
    );
    println!(
        "warm / cold = {:.2}x, with start() between jobs {:.2}x (goal <= 0.30x)",
        warm_total.as_secs_f64() / cold_total.as_secs_f64(),
        idle_total.as_secs_f64() / cold_total.as_secs_f64()
    );
}
