// How the bundled CLI (scripts/bundle.mjs) is compiled and run: as a CommonJS script through
// node:vm, which takes V8's code cache (`cachedData`) — Node 20's module loaders take none
// (Node 22's module.enableCompileCache() is the same idea). The build compiles the bundle once and
// writes V8's cache of it beside it; a start then deserializes compiled code instead of parsing
// 2.4 MB of JavaScript (~40 ms of CPU in every component on the 2-core machine). V8 checks that
// the cache matches the source and its own version and flags, and compiles from source when not
// (another Node version, --cpu-prof, ...), so a stale cache costs nothing but the gain.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/** The bundle's code cache, beside it. */
export const cacheFileOf = (bundleFile: string): string => `${bundleFile}.cache`;

/**
 * The bundle's text as the build writes it: wrapped in the function CommonJS would wrap it in (its
 * `#!` line made a comment), so that the launcher compiles the file's text as it is read. Wrapped
 * at run time instead, the source was a second copy of the file in every isolate's heap: the
 * concatenation flattened into 5 MB beside the 5 MB read (Node keeps a large Latin-1 string
 * outside the heap, as an external string, which V8 compiles from as it is).
 */
export function wrapBundleSource(text: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${text.startsWith('#!') ? `//${text.slice(2)}` : text}\n})`;
}

/**
 * The bundle as a script. The build makes it ASCII, so it is read as Latin-1: no UTF-8 decoding,
 * a one-byte string.
 */
export function bundleScript(bundleFile: string, cachedData?: Buffer): Script {
  return new Script(readFileSync(bundleFile, 'latin1'), { filename: bundleFile, cachedData });
}

/** Runs the compiled bundle as CommonJS would; returns its exports. */
function runScript(script: Script, bundleFile: string): unknown {
  const wrapper = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
  const module = { exports: {} };
  wrapper.call(module.exports, module.exports, createRequire(bundleFile), module, bundleFile, dirname(bundleFile));
  return module.exports;
}

/** The bundle compiled with its code cache when there is one. */
function cachedBundleScript(bundleFile: string): Script {
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFileOf(bundleFile));
  } catch {
    // no cache: compiled from source
  }
  return bundleScript(bundleFile, cachedData);
}

/** Runs the bundle with its code cache when there is one. */
export function runBundle(bundleFile: string): void {
  runScript(cachedBundleScript(bundleFile), bundleFile);
}

/** The environment variable of a library load (loadBundleAsLibrary; main.ts's asLibrary). */
export const LIBRARY_VARIABLE = 'KUBELITE_BUNDLE_AS_LIBRARY';

/**
 * Loads the bundle as a library: its exports (main.ts's), the command line not run and nothing
 * of the process taken (its signals, IPC channel). The variable is set only while the bundle's
 * top level runs, which is synchronous.
 */
export function loadBundleAsLibrary(bundleFile: string): Record<string, unknown> {
  process.env[LIBRARY_VARIABLE] = '1';
  try {
    return runScript(cachedBundleScript(bundleFile), bundleFile) as Record<string, unknown>;
  } finally {
    delete process.env[LIBRARY_VARIABLE];
  }
}

/** The environment variable of the warm-up run (main.ts's codeCacheWarmUp). */
const WARM_UP_VARIABLE = 'KUBELITE_CODE_CACHE_WARMUP';

/**
 * V8's code cache of the bundle, made after a warm-up run that loads every component's modules
 * (main.ts): it then holds their compiled module bodies too, which a cache made right after
 * compiling does not (V8 compiles a function when first called, and the cache holds only what was
 * compiled) — a component's start deserializes them instead of compiling them from source (the
 * API server's CPU to ready −15%, bench/NOTES.md session 17). To be run in a process of its own
 * with node's default flags: V8 rejects a cache made under other flags.
 */
export async function warmCodeCache(bundleFile: string): Promise<Buffer> {
  const script = bundleScript(bundleFile);
  process.env[WARM_UP_VARIABLE] = '1';
  const { codeCacheWarmUp } = runScript(script, bundleFile) as { codeCacheWarmUp?: Promise<void> };
  if (codeCacheWarmUp === undefined) throw new Error(`${bundleFile} has no warm-up (main.ts codeCacheWarmUp)`);
  await codeCacheWarmUp;
  return script.createCachedData();
}
