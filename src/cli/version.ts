// `kubelite version` / `kubelite --version`: kubelite's own version (package.json, found the same
// three levels up from tsc's dist/src/cli/ and from the bundle's dist/bundle/cli/), the
// Kubernetes API it serves and Node's.
import { readFileSync } from 'node:fs';
import { KUBERNETES_VERSION } from '../apiserver/version.js';
import { parseOrExit, program } from '../machinery/flags.js';

export function kubeliteVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export function versionLine(): string {
  return `kubelite ${kubeliteVersion()} (Kubernetes API ${KUBERNETES_VERSION}, node ${process.version})`;
}

export function versionMain(argv: string[]): number {
  const cmd = program('version', "Print kubelite's version, the Kubernetes API version it serves and Node's.");
  const code = parseOrExit(cmd, argv);
  if (code !== undefined) return code;
  process.stdout.write(`${versionLine()}\n`);
  return 0;
}
