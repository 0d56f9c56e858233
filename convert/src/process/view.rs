//! A bubblewrap view's mounts: what a sandboxed process sees of the filesystem.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

/// Read-only in every view, where they exist: programs and libraries, the font configuration
/// and cache, the dynamic linker's cache, LibreOffice's registry and Chromium's preferences
/// (Debian keeps both under /etc), the alternatives' links and the local time zone. No
/// passwd, no shadow, no /home, /root, /var/lib or /srv.
const SYSTEM: &[&str] = &[
    "/usr",
    "/etc/fonts",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/libreoffice",
    "/etc/chromium",
    "/etc/alternatives",
    "/etc/localtime",
    "/var/cache/fontconfig",
];
/// Links into /usr on a merged-/usr system (bound read-only where they are directories).
const ROOT_LINKS: &[&str] = &["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/// What a process may see beyond the system paths.
#[derive(Debug, Clone, Default)]
pub struct View {
    /// Bound read-only at the same path (files or folders), where they exist.
    pub readable: Vec<PathBuf>,
    /// Bound read-write at the same path.
    pub writable: Vec<PathBuf>,
    /// Bound read-write elsewhere: (folder, where the process sees it).
    pub writable_at: Vec<(PathBuf, PathBuf)>,
    /// Bound read-write as /tmp; `None`: an empty tmpfs.
    pub tmp: Option<PathBuf>,
}

/// The mounts of a view, in order: the system read-only, private /dev, /proc and /tmp, then the
/// view's own paths (parents first). Folders made to hold a mount point are 0755: bwrap makes
/// them 0700, which `nobody` could not cross.
pub(super) fn view_args(view: &View, own_proc: bool) -> Vec<OsString> {
    let mut args = Mounts::default();
    for link in ROOT_LINKS {
        let path = Path::new(link);
        match fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                if let Ok(target) = fs::read_link(path) {
                    args.push(["--symlink".into(), target.into(), path.into()]);
                }
            }
            Ok(_) => args.bind("--ro-bind", path, path),
            Err(_) => {}
        }
    }
    for path in SYSTEM {
        if Path::new(path).exists() {
            args.bind("--ro-bind", Path::new(path), Path::new(path));
        }
    }
    args.push(["--dev".into(), "/dev".into()]);
    if own_proc {
        args.push(["--proc".into(), "/proc".into()]);
    } else {
        args.push(["--ro-bind".into(), "/proc".into(), "/proc".into()]);
    }
    match &view.tmp {
        Some(tmp) => args.push(["--bind".into(), tmp.into(), "/tmp".into()]),
        None => args.push([
            "--perms".into(),
            "1777".into(),
            "--tmpfs".into(),
            "/tmp".into(),
        ]),
    }
    let mut own: Vec<(&str, PathBuf, PathBuf)> = view
        .readable
        .iter()
        .map(|path| ("--ro-bind-try", absolute(path), absolute(path)))
        .chain(
            view.writable
                .iter()
                .map(|path| ("--bind", absolute(path), absolute(path))),
        )
        .chain(
            view.writable_at
                .iter()
                .map(|(from, to)| ("--bind", absolute(from), absolute(to))),
        )
        .collect();
    own.sort_by_key(|(_, _, to)| to.components().count());
    for (kind, from, to) in own {
        // Already visible read-only through a system path: binding again would change nothing.
        if kind == "--ro-bind-try" && args.under_system(&to) {
            continue;
        }
        args.bind(kind, &from, &to);
    }
    args.args
}

fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|dir| dir.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    }
}

#[derive(Default)]
struct Mounts {
    args: Vec<OsString>,
    /// Bind mounts so far: folders under them exist already (and a read-only one cannot take
    /// new ones). The tmpfs /tmp is not one: folders in it are made like those of the root.
    mounted: Vec<PathBuf>,
    /// Folders made so far.
    made: Vec<PathBuf>,
}

impl Mounts {
    fn push<const N: usize>(&mut self, args: [OsString; N]) {
        self.args.extend(args);
    }

    fn under_system(&self, path: &Path) -> bool {
        SYSTEM
            .iter()
            .chain(ROOT_LINKS)
            .any(|system| path.starts_with(system) && Path::new(system).exists())
    }

    fn bind(&mut self, kind: &str, from: &Path, path: &Path) {
        let parents: Vec<PathBuf> = path
            .ancestors()
            .skip(1)
            .filter(|parent| parent.parent().is_some())
            .map(Path::to_path_buf)
            .collect();
        for parent in parents.into_iter().rev() {
            let inside_mount = self.mounted.iter().any(|m| parent.starts_with(m));
            if !inside_mount && !self.made.contains(&parent) {
                self.push([
                    "--perms".into(),
                    "0755".into(),
                    "--dir".into(),
                    parent.clone().into(),
                ]);
                self.made.push(parent);
            }
        }
        self.push([kind.into(), from.into(), path.into()]);
        self.mounted.push(path.to_path_buf());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[OsString]) -> Vec<String> {
        args.iter()
            .map(|arg| arg.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn a_view_binds_its_paths_under_folders_nobody_can_cross() {
        let view = View {
            readable: vec![PathBuf::from("/usr/lib/x"), PathBuf::from("/srv/pdfium.so")],
            writable: vec![PathBuf::from("/tmp/job/profile")],
            ..View::default()
        };
        let args = strings(&view_args(&view, true)).join(" ");
        assert!(args.contains("--ro-bind /usr /usr"), "{args}");
        // Under /usr already: not bound twice.
        assert!(!args.contains("/usr/lib/x"), "{args}");
        assert!(
            args.contains("--perms 0755 --dir /srv --ro-bind-try /srv/pdfium.so /srv/pdfium.so"),
            "{args}"
        );
        // /tmp is a fresh tmpfs, mounted before the folders made in it.
        let tmpfs = args.find("--tmpfs /tmp").expect("tmpfs");
        let job = args
            .find("--perms 0755 --dir /tmp/job --bind /tmp/job/profile /tmp/job/profile")
            .expect("job bound");
        assert!(tmpfs < job, "{args}");
        assert!(args.contains("--dev /dev --proc /proc"), "{args}");
        for secret in ["/etc/passwd", "/etc/shadow", "/root", "/home", "/var/lib"] {
            assert!(!args.contains(&format!(" {secret} ")), "{secret}: {args}");
        }
        let nested = strings(&view_args(&view, false)).join(" ");
        assert!(nested.contains("--ro-bind /proc /proc"), "{nested}");
    }
}
