// What `kubectl exec` runs in a simulated container: the built-in shell and its tools over the
// container's virtual filesystem (README.md in this folder lists the commands and the files).
import type { Readable, Writable } from 'node:stream';
import { Writable as WritableStream } from 'node:stream';
import { Aborted, ROOT_USER, type UserInfo } from './context.js';
import { Shell } from './interpreter.js';
import { BrokenPipe, SIGPIPE_STATUS, emptyReadable } from './streams.js';
import type { Vfs } from './vfs.js';

export { Vfs, FsError, DEFAULT_BUDGET_BYTES } from './vfs.js';
export { containerFilesystem, type VolumeSources } from './container-fs.js';
export { containerEnvironment, type EnvSources } from './env.js';
export { commandNames } from './shell-builtins.js';
export type { UserInfo } from './context.js';

export interface ExecIO {
  /** The exec's stdin, when it has one (`kubectl exec -i`). */
  stdin: Readable | undefined;
  stdout: Writable;
  /** With a tty, kubectl has no stderr stream: pass stdout here too. */
  stderr: Writable;
  tty: boolean;
}

export interface ExecContext {
  fs: Vfs;
  env: Record<string, string>;
  /** The container's workingDir (default `/`). */
  cwd?: string;
  hostname: string;
  /** Aborts the command (the exec stream closed): sleeps stop, loops end, status 137. */
  signal: AbortSignal;
  /** The user the container runs as (default root). */
  user?: UserInfo;
  now?: () => number;
}

/** Status of a command killed through its signal: 128 + SIGKILL. */
export const KILLED_STATUS = 137;

/**
 * Runs the exec command `argv` (`["env"]`, `["sh", "-c", "echo hi; exit 3"]`, `["tar", "cf", "-",
 * "/tmp/x"]`) and resolves with its exit status once everything it wrote was handed to the
 * streams. It never ends the streams: the caller closes the exec after sending the status.
 */
export async function runCommand(argv: string[], io: ExecIO, ctx: ExecContext): Promise<number> {
  const vars = new Map(Object.entries(ctx.env));
  if (io.tty && !vars.has('TERM')) vars.set('TERM', 'xterm');
  const cwd = ctx.cwd ?? '/';
  const stdout = io.tty ? new TerminalOutput(io.stdout) : io.stdout;
  const stderr = io.tty ? (io.stderr === io.stdout ? stdout : new TerminalOutput(io.stderr)) : io.stderr;
  const shell = new Shell({ fs: ctx.fs, cwd, vars, hostname: ctx.hostname, signal: ctx.signal, user: ctx.user ?? ROOT_USER, tty: io.tty, now: ctx.now ?? Date.now });
  let status: number;
  try {
    if (argv.length === 0) throw new Error('no command');
    status = await shell.runIsolated(() => shell.execute(argv, { stdin: io.stdin ?? emptyReadable(), stdout, stderr }));
  } catch (err) {
    if (err instanceof Aborted) status = KILLED_STATUS;
    else if (err instanceof BrokenPipe) status = SIGPIPE_STATUS;
    else throw err;
  }
  // What the terminal wrapper still holds goes out before the caller sends the status.
  await Promise.all([flushed(stdout), flushed(stderr)]);
  return status;
}

function flushed(w: Writable): Promise<void> {
  if (!(w instanceof TerminalOutput) || w.destroyed || w.writableFinished) return Promise.resolve();
  return new Promise((resolve) => {
    w.once('close', () => resolve());
    w.end(() => resolve());
  });
}

/**
 * What a terminal's line discipline does to output (onlcr): `\n` becomes `\r\n`. There is no pty,
 * so the shell does it for commands run with a tty.
 */
class TerminalOutput extends WritableStream {
  constructor(private readonly target: Writable) {
    super({ highWaterMark: 16 * 1024 });
    this.on('error', () => {});
    target.on('close', () => this.destroy());
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, callback: (err?: Error | null) => void): void {
    if (this.target.destroyed) return callback(new BrokenPipe());
    const text = Buffer.from(chunk.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
    if (this.target.write(text)) callback();
    else this.target.once('drain', () => callback());
  }
}
