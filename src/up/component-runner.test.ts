// A component on a worker thread, as a single-process cluster runs it: its argv, its output, its
// exit code, and SIGTERM posted to it (src/cli/main.ts) stopping it as the signal stops a process.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { launchWorkerThread } from './component-runner.js';
import { collect, KUBELITE_BIN } from './running-component.testutil.js';


describe('launchWorkerThread', () => {
  it('passes the flags: a bad one ends the component with code 2 and its message', async () => {
    const running = launchWorkerThread(KUBELITE_BIN, ['scheduler', '--no-such-flag']);
    const out = collect(running);
    assert.equal(await running.exited, '2');
    assert.match(out.stderr(), /^kubelite scheduler: unknown option '--no-such-flag'/);
  });

  it('terminate() stops a running component as SIGTERM does (exit code 0)', { timeout: 30_000 }, async () => {
    // A scheduler with no API server to reach keeps retrying, logging each attempt, until stopped.
    const running = launchWorkerThread(KUBELITE_BIN, ['scheduler', '--master', 'https://127.0.0.1:1', '--port', '0', '--leader-elect=false']);
    const out = collect(running);
    await new Promise<void>((resolve) => running.stderr.on('data', () => /request failed; retrying/.test(out.stderr()) && resolve()));
    running.terminate();
    assert.equal(await running.exited, '0');
  });
});
