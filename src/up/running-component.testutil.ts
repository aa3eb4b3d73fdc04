// What the launcher tests (component-runner.test.ts, in-loop.test.ts) share: the built executable
// and a component's output gathered as it comes.
import { fileURLToPath } from 'node:url';
import type { RunningComponent } from './component-runner.js';

export const KUBELITE_BIN = fileURLToPath(new URL('../../bundle/cli/kubelite.js', import.meta.url));

export function collect(running: RunningComponent): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  running.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  running.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return { stdout: () => stdout, stderr: () => stderr };
}
