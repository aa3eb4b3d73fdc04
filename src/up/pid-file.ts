// How `kubelite down` and `kubelite status` find the `kubelite up` of a data dir: up writes its
// pid, server and kubeconfig to <data-dir>/kubelite.pid once ready and removes the file when it
// stops. A file whose process is gone (up was killed outright) is stale.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RunningUp {
  pid: number;
  server: string;
  kubeconfig: string;
  /** The user kubeconfig the `kubelite` context was merged into (--kubeconfig-context). */
  mergedInto?: string;
}

export const pidFileOf = (dataDir: string): string => join(dataDir, 'kubelite.pid');

export function writePidFile(dataDir: string, up: RunningUp): void {
  writeFileSync(pidFileOf(dataDir), `${JSON.stringify(up)}\n`);
}

export function removePidFile(dataDir: string): void {
  rmSync(pidFileOf(dataDir), { force: true });
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What the pid file says, and whether that process is still there; undefined without a readable file. */
export function readPidFile(dataDir: string): { up: RunningUp; running: boolean } | undefined {
  let up: RunningUp;
  try {
    up = JSON.parse(readFileSync(pidFileOf(dataDir), 'utf8')) as RunningUp;
  } catch {
    return undefined;
  }
  if (!Number.isInteger(up.pid) || up.pid <= 0) return undefined;
  return { up, running: isRunning(up.pid) };
}
