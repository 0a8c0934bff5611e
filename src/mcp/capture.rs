//! Running a command in this process with its output captured: what it prints to standard
//! output and standard error goes to two files for the length of the call, and standard
//! input reads nothing. The command functions print with `println!`/`eprintln!` as they do
//! for the CLI, so the descriptors themselves are moved (dup2), not Rust's handles.
//!
//! Between calls, fd 1 points at standard error: the protocol is written to a descriptor of
//! its own, so nothing a command or a library prints can land in the middle of a message.
//! The protocol's descriptors are close-on-exec: a command a tool starts (an adapter, a
//! toolchain) cannot write into the protocol, nor hold the client's pipe open after rulec
//! has exited.

use std::fs::File;
use std::io::{Read, Seek, Write};
use std::os::fd::OwnedFd;

/// The protocol's own ends, and the standard error that fd 1 and fd 2 go back to.
pub struct Stdio {
    pub input: File,
    pub output: File,
    stderr: OwnedFd,
}

impl Stdio {
    /// Take the process's standard input and output for the protocol: later reads of fd 0
    /// find nothing, and later writes to fd 1 go to standard error.
    pub fn take() -> std::io::Result<Stdio> {
        let keep = |fd| rustix::io::fcntl_dupfd_cloexec(fd, 3);
        let input = File::from(keep(rustix::stdio::stdin())?);
        let output = File::from(keep(rustix::stdio::stdout())?);
        let stderr = keep(rustix::stdio::stderr())?;
        let null = File::open("/dev/null")?;
        rustix::stdio::dup2_stdin(&null)?;
        rustix::stdio::dup2_stdout(&stderr)?;
        Ok(Stdio { input, output, stderr })
    }

    /// Run `f` with fd 1 and fd 2 going to files: what it printed on each, and what it returned.
    pub fn capture<T>(&self, f: impl FnOnce() -> T) -> std::io::Result<(String, String, T)> {
        let (mut out, mut err) = (tempfile::tempfile()?, tempfile::tempfile()?);
        std::io::stdout().flush()?;
        std::io::stderr().flush()?;
        rustix::stdio::dup2_stdout(&out)?;
        rustix::stdio::dup2_stderr(&err)?;
        let value = f();
        let flushed = std::io::stdout().flush().and(std::io::stderr().flush());
        let back = rustix::stdio::dup2_stdout(&self.stderr).and(rustix::stdio::dup2_stderr(&self.stderr));
        back?;
        flushed?;
        Ok((read_all(&mut out)?, read_all(&mut err)?, value))
    }
}

fn read_all(f: &mut File) -> std::io::Result<String> {
    f.rewind()?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
