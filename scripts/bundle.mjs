#!/usr/bin/env node
// Bundles the kubelite CLI (src/cli/main.ts) into dist/bundle/cli/: kubelite.js (package.json's
// `bin`) and the chunks it imports. Start-up time is the point: tsc's output is ~340 ES modules,
// and resolving, reading, compiling and linking them one by one was most of a component's start
// (a third of the API server's CPU to /readyz). esbuild's code splitting keeps each command's
// code in its own chunks, loaded by the `import()` in main.ts, so `kubelite nodes` still does not
// load the API server, and what is lazy in the sources (OpenAPI, x509, etcd) stays lazy.
//
// tsc stays the type checker and produces dist/src for the tests; this only repackages the same
// sources. Packages are bundled too (fewer files to resolve and read), except those that must be
// found in node_modules at run time: lmdb loads its native addon relative to its own directory,
// and etcd3 (gRPC, protobufjs) reads .proto files from its package and is loaded only with
// `--storage etcd`.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = 'dist/bundle/cli';
// Chunk names carry content hashes: without a clean directory, every build would leave its old ones.
rmSync(new URL(`../${outdir}`, import.meta.url), { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: { kubelite: 'src/cli/main.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // The ES module builds of dependencies (their CommonJS builds would be wrapped in require shims).
  mainFields: ['module', 'main'],
  external: ['lmdb', 'etcd3'],
  // CommonJS packages bundled into an ES module still call require() for Node's built-ins.
  banner: { js: "import { createRequire as kubeliteCreateRequire } from 'node:module';\nconst require = kubeliteCreateRequire(import.meta.url);" },
  sourcemap: 'linked',
  logLevel: 'warning',
});
