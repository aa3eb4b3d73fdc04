#!/usr/bin/env node
// Bundles the kubelite CLI for start-up time, after tsc (which stays the type checker and builds
// dist/ for the tests and the library API). In dist/bundle/cli/:
//
//   kubelite.cjs        src/cli/main.ts and everything it imports, one CommonJS file
//   kubelite.cjs.cache  V8's code cache of it
//   kubelite.js         the executable (package.json's `bin`, src/cli/launch.ts): runs the bundle
//                       with the cache through node:vm (see src/machinery/bundle-script.ts)
//
// tsc's output is ~340 ES modules: resolving, reading, compiling and linking them one by one was
// a third of a component's CPU to ready; one file compiled from V8's cache takes a fraction. Each
// command's modules are still evaluated only when it runs (the `import()` in main.ts), so
// `kubelite nodes` does not build the API server's tables. Packages are bundled too, except those
// that must be found in node_modules at run time: lmdb loads its native addon relative to its own
// directory, and etcd3 (gRPC, protobufjs) reads .proto files from its package and is loaded only
// with `--storage etcd`.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = fileURLToPath(new URL('../dist/bundle/cli/', import.meta.url));
const bundleFile = `${outdir}kubelite.cjs`;
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

const common = { absWorkingDir: root, bundle: true, platform: 'node', target: 'node20', logLevel: 'warning' };
const { outputFiles } = await build({
  ...common,
  entryPoints: ['src/cli/main.ts'],
  outfile: bundleFile,
  write: false,
  format: 'cjs',
  // The ES module builds of dependencies, as Node's own loader picks them for the tsc output.
  mainFields: ['module', 'main'],
  // Native modules load their binaries from beside their own files: bundled, bufferutil (ws's
  // optional native helper) would find none and quietly fall back to JavaScript.
  external: ['lmdb', 'etcd3', 'lz4-napi', 'bufferutil'],
  define: { 'import.meta.url': 'importMetaUrl' },
  inject: ['scripts/bundle-import-meta-url.js'],
  sourcemap: 'linked',
});
// esbuild escapes non-ASCII characters in strings, not in regular expressions and comments: one
// `μ` would make V8 hold the whole 2.4 MB source as a two-byte string, decoded from UTF-8 at every
// start. As \u escapes (valid in every one of those places) the file is ASCII, which the launcher
// reads as Latin-1 without decoding. Only the columns of those few lines move in the source map.
// The bundle is written wrapped as the launcher compiles it (bundle-script.ts wrapBundleSource):
// only the first line's columns move in the source map, as they did when it was wrapped at run time.
const bundleScriptModule = new URL('../dist/src/machinery/bundle-script.js', import.meta.url).href;
const { wrapBundleSource } = await import(bundleScriptModule);
for (const file of outputFiles) {
  const text = file.path === bundleFile ? wrapBundleSource(file.text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)) : file.text;
  writeFileSync(file.path, text);
}
await build({ ...common, entryPoints: ['src/cli/launch.ts'], outfile: `${outdir}kubelite.js`, format: 'esm' });

// The cache is made by compiling the bundle exactly as the launcher does, with tsc's build of the
// same module, and running it in its warm-up mode (every component's modules loaded, nothing
// started: bundle-script.ts), in a process of its own with node's default flags.
const warmUp = `const { warmCodeCache, cacheFileOf } = await import(${JSON.stringify(bundleScriptModule)});
const { writeFileSync } = await import('node:fs');
writeFileSync(cacheFileOf(${JSON.stringify(bundleFile)}), await warmCodeCache(${JSON.stringify(bundleFile)}));
process.exit(0);`;
const made = spawnSync(process.execPath, ['--input-type=module', '-e', warmUp], { stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '' } });
if (made.status !== 0) throw new Error(`making the bundle's code cache failed (${made.status ?? made.signal})`);
