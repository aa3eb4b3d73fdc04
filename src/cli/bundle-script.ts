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
 * The bundle as a script: the function CommonJS would wrap it in (its `#!` line made a comment).
 * The build makes it ASCII, so it is read as Latin-1: no UTF-8 decoding, a one-byte V8 string.
 */
export function bundleScript(bundleFile: string, cachedData?: Buffer): Script {
  let source = readFileSync(bundleFile, 'latin1');
  if (source.startsWith('#!')) source = `//${source.slice(2)}`;
  return new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundleFile, cachedData });
}

/** Runs the bundle with its code cache when there is one. */
export function runBundle(bundleFile: string): void {
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFileOf(bundleFile));
  } catch {
    // no cache: compiled from source
  }
  const wrapper = bundleScript(bundleFile, cachedData).runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
  const module = { exports: {} };
  wrapper.call(module.exports, module.exports, createRequire(bundleFile), module, bundleFile, dirname(bundleFile));
}
