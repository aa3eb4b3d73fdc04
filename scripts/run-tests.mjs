#!/usr/bin/env node
// Runs every compiled *.test.js under dist/ with Node's built-in test runner. Node 20's --test
// takes no globs, and its directory default would also run helper modules under test/, so we
// list the files ourselves. Extra arguments filter test files by substring (npm test -- storage).
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');
const filters = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const passThrough = process.argv.slice(2).filter((a) => a.startsWith('-'));

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (name.endsWith('.test.js')) out.push(path);
  }
  return out;
}

const files = walk(dist, [])
  .filter((f) => filters.length === 0 || filters.some((flt) => relative(dist, f).includes(flt)))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...passThrough, ...files], {
  stdio: 'inherit',
  cwd: root,
});
process.exit(result.status ?? 1);
