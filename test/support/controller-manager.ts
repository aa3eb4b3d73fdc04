// Starts a real `kubelite controller-manager` for end-to-end tests (a free loopback port for its
// own HTTP server, its output kept for failure messages) and stops it, whatever happens.
import { spawn, type ChildProcess } from 'node:child_process';
import { KUBELITE_BIN } from './kubelite.js';
import { freePort } from './ports.js';

export interface RunningControllerManager {
  process: ChildProcess;
  /** The last 100 kB of its output. */
  logs(): string;
  stop(): Promise<void>;
}

/** `kubelite controller-manager --kubeconfig <kubeconfig> --leader-elect=false <args>`. */
export async function startControllerManager(kubeconfig: string, args: string[]): Promise<RunningControllerManager> {
  const port = await freePort();
  const child = spawn(process.execPath, [KUBELITE_BIN, 'controller-manager', '--address=127.0.0.1', `--port=${port}`, '--kubeconfig', kubeconfig, '--leader-elect=false', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let logs = '';
  const keep = (d: Buffer) => (logs = (logs + d.toString()).slice(-100_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return {
    process: child,
    logs: () => logs,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    },
  };
}
