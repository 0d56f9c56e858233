//! Merge, split and rotate through the toolbox against the qpdf CLI on the same files, one file
//! after another: merge (each file with the next), split into single pages, rotate every page.
//! Goal: total time ≤ 1.0× qpdf's.

use std::path::{Path, PathBuf};

use crate::{qpdf, report, s, timed, web::WebSession};

pub fn run(web: &WebSession, files: &[PathBuf]) -> anyhow::Result<()> {
    let out = tempfile::tempdir()?;
    let dir: &Path = out.path();

    println!(
        "\nToolbox page tools on {} real-world PDFs (.cache/compress-corpus), Quire (HTTP, \
         session, scan, worker) and the qpdf CLI in the same run",
        files.len()
    );
    println!(
        "{:<8} {:>6} {:>12} {:>12} {:>8}",
        "tool", "files", "quire s", "qpdf s", "ratio"
    );
    let pairs: Vec<(&PathBuf, &PathBuf)> = files.iter().zip(files.iter().cycle().skip(1)).collect();
    let mut merge = (0.0, 0.0);
    for (a, b) in &pairs {
        merge.0 += timed(|| web.run("merge", &[], &[a, b], &dir.join("q.pdf")))?;
        merge.1 += timed(|| {
            qpdf(&[
                "--empty",
                "--pages",
                s(a),
                s(b),
                "--",
                s(&dir.join("g.pdf")),
            ])
        })?;
    }
    report("merge", pairs.len(), merge);
    let mut split = (0.0, 0.0);
    for file in files {
        split.0 += timed(|| {
            web.run(
                "split",
                &["mode=every", "every=1"],
                &[file],
                &dir.join("q.zip"),
            )
        })?;
        let pattern = dir.join("g-%d.pdf");
        split.1 += timed(|| qpdf(&[s(file), "--split-pages=1", s(&pattern)]))?;
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("g-"))
            {
                std::fs::remove_file(path)?;
            }
        }
    }
    report("split", files.len(), split);
    let mut rotate = (0.0, 0.0);
    for file in files {
        rotate.0 += timed(|| web.run("rotate", &["degrees=90"], &[file], &dir.join("q.pdf")))?;
        rotate.1 += timed(|| qpdf(&[s(file), "--rotate=+90", s(&dir.join("g.pdf"))]))?;
    }
    report("rotate", files.len(), rotate);
    Ok(())
}
