// The examples of examples/ run as a user runs them — node:test, Vitest and Jest, each its own
// process on the example suite — and pass: the documentation's proof that the library, snapshots
// and client-node work from a test runner.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

// dist/test/e2e → the repository
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    // a runner of its own, not a child of this test's (node:test marks its children through NODE_TEST_CONTEXT)
    const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', NO_COLOR: '1' };
    delete env.NODE_TEST_CONTEXT;
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('examples/', () => {
  it('node:test', async () => {
    const r = await run(['--test', join('examples', 'node-test')]);
    assert.equal(r.code, 0, r.output);
    assert.match(r.output, /# pass 4/);
  });

  it('Vitest', async () => {
    const r = await run([join('node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', join('examples', 'vitest')]);
    assert.equal(r.code, 0, r.output);
    assert.match(r.output, /Tests\s+4 passed \(4\)/);
  });

  it('Jest', async () => {
    const r = await run(['--experimental-vm-modules', join('node_modules', 'jest', 'bin', 'jest.js'), '--rootDir', join('examples', 'jest')]);
    assert.equal(r.code, 0, r.output);
    assert.match(r.output, /Tests:\s+4 passed, 4 total/);
  });
});
