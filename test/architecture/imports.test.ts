// The layers of ../shared/DESIGN.md, checked on the source: no module imports in a circle, and no
// module imports upward or sideways across the layers (controllers, the scheduler and the nodes
// reach the API server only through client/). Tests and test helpers may reach anywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');

/** What each top-level folder of src/ may import besides itself. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  api: [],
  machinery: ['api'],
  storage: ['api', 'machinery'],
  registry: ['api', 'machinery', 'storage'],
  apiserver: ['api', 'machinery', 'storage', 'registry'],
  client: ['api', 'machinery'],
  controllers: ['api', 'machinery', 'client'],
  scheduler: ['api', 'machinery', 'client'],
  nodes: ['api', 'machinery', 'client'],
  'controller-manager': ['api', 'machinery', 'client', 'controllers'],
  up: ['api', 'machinery', 'storage', 'registry', 'apiserver', 'client', 'controllers', 'controller-manager', 'scheduler', 'nodes'],
  cli: ['api', 'machinery', 'storage', 'registry', 'apiserver', 'client', 'controllers', 'controller-manager', 'scheduler', 'nodes', 'up'],
};

const isTestCode = (path: string): boolean => /\.test\.ts$|\.testutil\.ts$|test-helpers\.ts$|\/testing\.ts$|\/testutil\.ts$|\/fake\//.test(path);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith('.ts') && !isTestCode(path)) out.push(path);
  }
  return out;
}

// Static imports and re-exports, type-only ones included: a type import is still a dependency of
// the design, even though it leaves no trace at run time.
const IMPORT = /^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|^\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/gm;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) out.push(resolve(dirname(file), (m[1] ?? m[2])!).replace(/\.js$/, '.ts'));
  return out;
}

const files = sourceFiles(root);
const known = new Set(files);
const graph = new Map(files.map((f) => [f, importsOf(f).filter((d) => known.has(d))]));
const layerOf = (file: string): string => relative(root, file).split('/')[0]!;

/** Strongly connected components with more than one module (Tarjan). */
function circles(): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(relative(root, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found;
}

test('the source tree is found', () => {
  assert.ok(files.length > 100, `only ${files.length} modules under ${root}`);
  for (const f of files) assert.ok(layerOf(f) in MAY_IMPORT || f.startsWith(join(root, 'index')), `${relative(root, f)} is in no layer of the design`);
});

// Circles that predate this check, each being taken apart (issue 18); the list only shrinks.
const KNOWN_CIRCLES: readonly string[] = [
];

test('no module imports in a circle', () => {
  const found = circles().map((c) => c.join(' '));
  assert.deepEqual(found.filter((c) => !KNOWN_CIRCLES.includes(c)), []);
  assert.deepEqual(KNOWN_CIRCLES.filter((c) => !found.includes(c)), [], 'a circle that is gone is struck from KNOWN_CIRCLES');
});

test('no module imports upward or sideways across the layers', () => {
  const violations: string[] = [];
  for (const [file, deps] of graph) {
    const from = layerOf(file);
    for (const dep of deps) {
      const to = layerOf(dep);
      if (to !== from && !(MAY_IMPORT[from] ?? []).includes(to)) violations.push(`${relative(root, file)} → ${relative(root, dep)}`);
    }
  }
  assert.deepEqual(violations, []);
});

// The fast path (registry/fast-path/) has one door: nothing outside it imports anything in it but
// its index.ts, so it can change, or be turned off, without its callers knowing.
test('nothing outside the fast path imports its internals', () => {
  const door = join(root, 'registry/fast-path');
  const inside = (f: string) => f.startsWith(`${door}/`);
  const violations: string[] = [];
  for (const [file, deps] of graph) {
    if (inside(file)) continue;
    for (const dep of deps) if (inside(dep) && dep !== join(door, 'index.ts')) violations.push(`${relative(root, file)} → ${relative(root, dep)}`);
  }
  assert.deepEqual(violations, []);
});
