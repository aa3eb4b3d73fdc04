// `kubelite up` stops its components on SIGTERM whenever it comes — also while the cluster is still
// starting, or just as the ready line is printed — instead of dying and leaving them running.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { KUBELITE_BIN } from '../support/kubelite.js';
import { childPids, isAlive } from '../support/procs.js';
import { waitFor } from '../support/wait.js';

describe('kubelite up and signals', () => {
  for (const when of ['while starting', 'on the ready line'] as const) {
    it(`SIGTERM ${when} stops every component and exits 0`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'kubelite-up-signal-'));
      const up = spawn(process.execPath, [KUBELITE_BIN, 'up', '--data-dir', dataDir, '--port', '0', '--nodes', '1', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
      try {
        const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => up.once('exit', (code, signal) => resolve([code, signal])));
        const components = await waitFor(() => {
          const kids = childPids(up.pid!);
          return kids.length === 4 ? kids : undefined;
        }, 'the four components', 20_000);
        if (when === 'on the ready line') {
          await new Promise<void>((resolve) => {
            let out = '';
            up.stdout!.on('data', (d: Buffer) => {
              out += d.toString();
              if (out.includes('ready:')) resolve();
            });
          });
        }
        up.kill('SIGTERM');
        assert.deepEqual(await exited, [0, null]);
        assert.deepEqual(components.filter(isAlive), [], 'no component left running');
      } finally {
        if (up.exitCode === null && up.signalCode === null) up.kill('SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});
