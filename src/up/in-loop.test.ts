// Components in the supervisor's own event loop, as a single-process cluster runs them by default:
// their argv, their own output streams (never another's), their exit codes, stop by terminate()
// as SIGTERM stops a process, and kill() giving up on one at once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { launchInLoop } from './in-loop.js';
import type { RunningComponent } from './component-runner.js';
import { collect, KUBELITE_BIN } from './running-component.testutil.js';


/** A scheduler with no API server to reach: it keeps retrying, logging each attempt, until stopped. */
const RETRYING_SCHEDULER = ['scheduler', '--master', 'https://127.0.0.1:1', '--port', '0', '--leader-elect=false'];

function retrying(running: RunningComponent, out: { stderr: () => string }): Promise<void> {
  return new Promise<void>((resolve) => running.stderr.on('data', () => /request failed; retrying/.test(out.stderr()) && resolve()));
}

describe('launchInLoop', () => {
  it('passes the flags: a bad one ends the component with code 2 and its message on its own stderr', async () => {
    const running = launchInLoop(KUBELITE_BIN, ['scheduler', '--no-such-flag']);
    const out = collect(running);
    assert.equal(await running.exited, '2');
    assert.match(out.stderr(), /^kubelite scheduler: unknown option '--no-such-flag'/);
    assert.equal(out.stdout(), '');
  });

  it('runs only the components of a cluster', async () => {
    const running = launchInLoop(KUBELITE_BIN, ['down', '--data-dir', '/nonexistent']);
    const out = collect(running);
    assert.equal(await running.exited, '2');
    assert.match(out.stderr(), /"down" is not a component/);
  });

  it('terminate() stops a running component as SIGTERM does (exit code 0), and each one\'s lines stay its own', { timeout: 30_000 }, async () => {
    const scheduler = launchInLoop(KUBELITE_BIN, RETRYING_SCHEDULER);
    const apiserver = launchInLoop(KUBELITE_BIN, ['apiserver', '--storage', 'nowhere']);
    const schedulerOut = collect(scheduler);
    const apiserverOut = collect(apiserver);
    await retrying(scheduler, schedulerOut);
    assert.equal(await apiserver.exited, '2');
    assert.match(apiserverOut.stderr(), /^kubelite apiserver: option '--storage <backend>' argument 'nowhere' is invalid/);
    assert.doesNotMatch(apiserverOut.stderr(), /scheduler|retrying/);
    assert.doesNotMatch(schedulerOut.stderr(), /apiserver|nowhere/);
    scheduler.terminate();
    assert.equal(await scheduler.exited, '0');
    assert.match(schedulerOut.stderr(), /"msg":"scheduler stopped"/);
  });

  it('kill() gives up on a component at once: it is reported ended', { timeout: 30_000 }, async () => {
    const running = launchInLoop(KUBELITE_BIN, RETRYING_SCHEDULER);
    const out = collect(running);
    await retrying(running, out);
    running.kill();
    assert.equal(await running.exited, 'SIGKILL');
  });
});
