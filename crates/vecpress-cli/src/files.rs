//! Inputs and outputs as `gzip` and `zstd` users expect them: `-` for
//! stdin/stdout, no overwriting without `-f`, outputs written to a temporary
//! file beside the destination and renamed into place only once complete (a
//! failure or Ctrl-C leaves nothing behind), progress bars on a terminal.
#![forbid(unsafe_code)]

use std::fs::{self, File};
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use tempfile::NamedTempFile;

use crate::UsageError;
use crate::pipe::PipeWriter;

/// Inputs larger than this get a progress bar (on a terminal, without `-q`).
const PROGRESS_ABOVE: u64 = 64 << 20;

/// Temporary outputs to delete on Ctrl-C.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Deletes pending temporary outputs on Ctrl-C (or SIGTERM) and exits 130.
pub fn install_interrupt_handler() {
    let _ = ctrlc::set_handler(|| {
        if let Ok(paths) = PENDING.lock() {
            for p in paths.iter() {
                let _ = fs::remove_file(p);
            }
        }
        eprintln!("vecpress: interrupted");
        std::process::exit(130);
    });
}

/// An input: a file or stdin.
pub struct Input {
    /// How messages name it.
    pub name: String,
    /// Its size, when it is a file.
    pub size: Option<u64>,
    pub reader: Box<dyn Read + Send>,
    /// Its permissions, when it is a file (the output gets them).
    pub permissions: Option<fs::Permissions>,
}

impl Input {
    /// Opens `path` (`-` for stdin).
    pub fn open(path: &Path) -> Result<Input> {
        if path == Path::new("-") {
            return Ok(Input {
                name: "<stdin>".into(),
                size: None,
                reader: Box::new(io::stdin()),
                permissions: None,
            });
        }
        let name = path.display().to_string();
        let file = File::open(path).with_context(|| format!("{name}: cannot open"))?;
        let meta = file
            .metadata()
            .with_context(|| format!("{name}: cannot stat"))?;
        if meta.is_dir() {
            bail!("{name}: is a directory");
        }
        Ok(Input {
            name,
            size: Some(meta.len()),
            reader: Box::new(io::BufReader::with_capacity(1 << 16, file)),
            permissions: Some(meta.permissions()),
        })
    }
}

/// Reads as much as `buf` holds or the input has; returns the count.
pub fn read_some(r: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// An output: stdout, or a temporary file renamed onto the destination by
/// [`Output::commit`]; dropped uncommitted, it leaves nothing.
pub struct Output {
    /// How messages name it.
    pub name: String,
    kind: Kind,
    /// Bytes written so far.
    pub written: u64,
}

enum Kind {
    Stdout(BufWriter<io::Stdout>),
    /// stdout when it is a pipe: written by a thread of its own.
    Pipe(PipeWriter),
    File {
        file: BufWriter<NamedTempFile>,
        dest: PathBuf,
        force: bool,
        permissions: Option<fs::Permissions>,
    },
}

impl Output {
    /// stdout for `-`; else a temporary file beside `dest`, refused at
    /// once when `dest` exists and `force` is off.
    pub fn create(
        dest: &Path,
        force: bool,
        permissions: Option<fs::Permissions>,
    ) -> Result<Output> {
        if dest == Path::new("-") {
            let kind = match stdout_pipe() {
                Some(pipe) => Kind::Pipe(PipeWriter::new(pipe)),
                None => Kind::Stdout(BufWriter::with_capacity(1 << 16, io::stdout())),
            };
            return Ok(Output {
                name: "<stdout>".into(),
                kind,
                written: 0,
            });
        }
        let name = dest.display().to_string();
        if !force && fs::symlink_metadata(dest).is_ok() {
            bail!("{name}: already exists (use -f to overwrite)");
        }
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let tmp = tempfile::Builder::new()
            .prefix(".vecpress-")
            .suffix(".tmp")
            .tempfile_in(dir)
            .with_context(|| {
                format!(
                    "{name}: cannot create a temporary file in {}",
                    dir.display()
                )
            })?;
        if let Ok(mut p) = PENDING.lock() {
            p.push(tmp.path().to_path_buf());
        }
        Ok(Output {
            name,
            kind: Kind::File {
                file: BufWriter::with_capacity(1 << 16, tmp),
                dest: dest.to_path_buf(),
                force,
                permissions,
            },
            written: 0,
        })
    }

    /// Flushes and, for a file, renames it onto the destination.
    pub fn commit(self) -> Result<()> {
        let name = self.name;
        match self.kind {
            Kind::Stdout(mut w) => w.flush().with_context(|| format!("{name}: write failed")),
            Kind::Pipe(w) => w.finish().with_context(|| format!("{name}: write failed")),
            Kind::File {
                file,
                dest,
                force,
                permissions,
            } => {
                let tmp = file
                    .into_inner()
                    .map_err(|e| e.into_error())
                    .with_context(|| format!("{name}: write failed"))?;
                tmp.as_file()
                    .sync_all()
                    .with_context(|| format!("{name}: write failed"))?;
                match permissions {
                    Some(p) => {
                        let _ = fs::set_permissions(tmp.path(), p);
                    }
                    None => set_default_permissions(tmp.path()),
                }
                let tmp_path = tmp.path().to_path_buf();
                let done = if force {
                    tmp.persist(&dest).map(|_| ())
                } else {
                    tmp.persist_noclobber(&dest).map(|_| ())
                };
                if let Ok(mut p) = PENDING.lock() {
                    p.retain(|q| q != &tmp_path);
                }
                done.map_err(|e| e.error)
                    .with_context(|| format!("{name}: cannot rename into place"))
            }
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = match &mut self.kind {
            Kind::Stdout(w) => w.write(buf)?,
            Kind::Pipe(w) => w.write(buf)?,
            Kind::File { file, .. } => file.write(buf)?,
        };
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.kind {
            Kind::Stdout(w) => w.flush(),
            Kind::Pipe(w) => w.flush(),
            Kind::File { file, .. } => file.flush(),
        }
    }
}

/// stdout as a file of its own (a duplicate of the descriptor) when it is a
/// pipe, where a writer thread lets the output be produced while the reader
/// drains it; `None` for a file, a terminal, or on failure.
fn stdout_pipe() -> Option<File> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::FileTypeExt;
        let fd = io::stdout().as_fd().try_clone_to_owned().ok()?;
        let file = File::from(fd);
        file.metadata()
            .ok()
            .filter(|m| m.file_type().is_fifo())
            .map(|_| file)
    }
    #[cfg(not(unix))]
    None
}

/// Gives a new file the permissions of a file the user created (tempfile
/// makes it private).
fn set_default_permissions(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = fs::set_permissions(path, fs::Permissions::from_mode(0o644));
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// The output path: `-o`, else stdout with `-c` or for stdin, else derived
/// from the input by `derive` (which names the problem when it cannot).
pub fn output_path(
    input: &Path,
    output: Option<&Path>,
    stdout: bool,
    derive: impl FnOnce(&Path) -> Result<PathBuf, String>,
) -> Result<PathBuf> {
    if let Some(o) = output {
        return Ok(o.to_path_buf());
    }
    if stdout || input == Path::new("-") {
        return Ok(PathBuf::from("-"));
    }
    derive(input).map_err(|m| UsageError(m).into())
}

/// A progress bar over `size` bytes when stderr is a terminal, the input is
/// large and `quiet` is off; else a hidden one.
pub fn progress(size: Option<u64>, quiet: bool, what: &str) -> ProgressBar {
    match size {
        Some(size) if size > PROGRESS_ABOVE && !quiet && io::stderr().is_terminal() => {
            let bar = ProgressBar::new(size);
            let style = ProgressStyle::with_template(
                "{msg} [{bar:40}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
            bar.set_style(style);
            bar.set_message(what.to_string());
            bar
        }
        _ => ProgressBar::hidden(),
    }
}
