// Which containers the process runtime runs as real processes, and what it runs for them: the
// documented allow-list of "host images" (README.md in this folder).
//   node:*              the host's node (process.execPath): the image's entrypoint (`node`, or
//                       docker-entrypoint.sh, which runs its arguments) is node, so `node x.js`,
//                       `["-e", "..."]` and a bare `npm`-less command line all run on it;
//   busybox:*, alpine:* their shell commands on the host's: `sh -c ...` is /bin/sh, any other
//                       command is looked up in PATH by /bin/sh (`sleep`, `echo`, `cat`, ...);
//   any image           a command whose first word is an absolute path of an executable file on
//                       the host runs as it is.
// Everything else stays simulated (its image's program is not on the host).
import { accessSync, constants, statSync } from 'node:fs';
import type { Container } from '../../api/types.js';
import { normalizeImage } from '../simulate.js';

export interface HostCommand {
  file: string;
  args: string[];
  /** The program is node: it gets the preload that binds servers to the pod's IP. */
  node: boolean;
}

const SHELL_IMAGES = new Set(['docker.io/library/busybox', 'docker.io/library/alpine']);
const NODE_IMAGE = 'docker.io/library/node';
const SHELLS = new Set(['sh', 'ash', 'bash', 'dash']);
const NODE_NAMES = new Set(['node', 'nodejs']);

function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

function isHostExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The host command that runs `c` (undefined: the container stays simulated). */
export function hostCommand(c: Container, nodePath = process.execPath, shell = '/bin/sh'): HostCommand | undefined {
  const command = c.command ?? [];
  const args = c.args ?? [];
  const argv = [...command, ...args];
  const repo = normalizeImage(c.image ?? '').repo;
  const first = argv[0] ?? '';
  if (repo === NODE_IMAGE) {
    // the image's CMD is `node`: no command and no args runs a REPL, which has nothing to read
    if (argv.length === 0) return { file: nodePath, args: [], node: true };
    if (NODE_NAMES.has(basename(first))) return { file: nodePath, args: argv.slice(1), node: true };
    if (command.length === 0 && first.startsWith('-')) return { file: nodePath, args, node: true };
    if (SHELLS.has(basename(first))) return { file: shell, args: argv.slice(1), node: false };
    if (first.startsWith('/') && isHostExecutable(first)) return { file: first, args: argv.slice(1), node: false };
    // docker-entrypoint.sh runs a command that is not an option as it is: a script name goes to node
    if (command.length === 0 && /\.(c|m)?js$/.test(first)) return { file: nodePath, args, node: true };
    return { file: shell, args: ['-c', 'exec "$@"', 'sh', ...argv], node: false };
  }
  if (SHELL_IMAGES.has(repo)) {
    // the images' CMD is `sh`: an interactive shell with nothing on stdin exits at once, as there
    if (argv.length === 0) return { file: shell, args: [], node: false };
    if (SHELLS.has(basename(first))) return { file: shell, args: argv.slice(1), node: false };
    if (first.startsWith('/') && isHostExecutable(first)) return { file: first, args: argv.slice(1), node: false };
    return { file: shell, args: ['-c', 'exec "$@"', 'sh', ...argv], node: false };
  }
  if (first.startsWith('/') && isHostExecutable(first)) return { file: first, args: argv.slice(1), node: NODE_NAMES.has(basename(first)) };
  return undefined;
}

/**
 * What runs for a command executed beside a process container (exec, an exec probe): as its image
 * maps it, else through the host's /bin/sh, which finds it in PATH.
 */
export function besideCommand(c: Container, argv: string[]): HostCommand {
  return hostCommand({ ...c, command: argv, args: [] }) ?? { file: '/bin/sh', args: ['-c', 'exec "$@"', 'sh', ...argv], node: false };
}
