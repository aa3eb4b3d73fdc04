// `kubectl exec` into a container the process runtime runs: the command runs as another process
// beside the container's, with its environment and in its root, as the host maps commands for
// its image (host-command.ts; any other command through the host's /bin/sh, which looks it up in
// PATH). stdin, stdout and stderr are pipes (no terminal: with a tty, stderr goes to stdout).
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { Container } from '../../api/types.js';
import { exitStatus } from './container-process.js';
import { besideCommand } from './host-command.js';
import type { ExecTarget } from './runtime.js';

export interface ProcessExecIO {
  stdin: Readable | null;
  stdout: Writable | null;
  stderr: Writable | null;
  signal: AbortSignal;
}

/** Runs `argv` beside container `c`; resolves with its exit status (128 + the signal when killed). */
export function execInProcessContainer(argv: string[], c: Container, target: ExecTarget, io: ProcessExecIO): Promise<number> {
  const host = besideCommand(c, argv);
  return new Promise((resolve) => {
    const child = spawn(host.file, host.args, { cwd: target.cwd, env: target.env, stdio: [io.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'], detached: true });
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone already */
      }
    };
    io.signal.addEventListener('abort', kill, { once: true });
    if (io.stdin && child.stdin) {
      io.stdin.pipe(child.stdin);
      child.stdin.on('error', () => {});
    }
    const out = io.stdout;
    const err = io.stderr ?? io.stdout;
    // the session's streams are ended by the session itself, after the status
    if (out) child.stdout?.pipe(out, { end: false });
    else child.stdout?.resume();
    if (err) child.stderr?.pipe(err, { end: false });
    else child.stderr?.resume();
    child.once('error', (e) => {
      io.signal.removeEventListener('abort', kill);
      err?.write(`exec: ${e.message}\n`);
      resolve(127);
    });
    child.once('close', (code, signal) => {
      io.signal.removeEventListener('abort', kill);
      resolve(exitStatus(code, signal));
    });
  });
}
