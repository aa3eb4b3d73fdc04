#!/usr/bin/env node
// `npm start`: runs `kubelite <args>` from the bundle, building first only when the build is older
// than what it is made from (the sources, the build scripts, package.json, tsconfig.json) — a
// stat of each file, not a type check and a bundle on every start.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'dist/bundle/cli/kubelite.js');
const built = join(root, 'dist/bundle/cli/kubelite.cjs.cache'); // the build's last output

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

function builtAt() {
  try {
    return statSync(built).mtimeMs;
  } catch {
    return -1;
  }
}

const inputs = ['src', 'scripts', 'package.json', 'tsconfig.json'].map((p) => join(root, p));
if (builtAt() < Math.max(...inputs.map(newest))) {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// kubelite stops on SIGINT/SIGTERM itself: a terminal's Ctrl-C reaches it directly, a SIGTERM sent
// to npm is passed on; this process waits for its exit code.
const child = spawn(process.execPath, [bin, ...process.argv.slice(2)], { stdio: 'inherit' });
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
