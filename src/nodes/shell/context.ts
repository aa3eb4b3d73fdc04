// What a command sees: its three streams and the shell's state (filesystem, variables, working
// directory, identity). Shared by the interpreter and the built-in commands.
import type { Readable, Writable } from 'node:stream';
import type { Script } from './ast.js';
import type { Vfs } from './vfs.js';

export interface ShellIO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

/** The user a container runs as (its securityContext): for `id`, `whoami` and file owners. */
export interface UserInfo {
  uid: number;
  gid: number;
  groups: number[];
}

export const ROOT_USER: UserInfo = { uid: 0, gid: 0, groups: [0, 1, 2, 3, 4, 6, 10, 11, 20, 26, 27] };

/** The state a built-in command reads and changes. */
export interface CommandEnv {
  readonly fs: Vfs;
  cwd: string;
  /** The shell's variables (all exported: a command's environment). */
  readonly vars: Map<string, string>;
  readonly hostname: string;
  readonly signal: AbortSignal;
  readonly user: UserInfo;
  readonly tty: boolean;
  now(): number;
  /** Runs a command line (argv) as this shell would, with `vars` as its environment when given (`env CMD`). */
  spawn(argv: string[], io: ShellIO, vars?: Map<string, string>): Promise<number>;
}

export type Builtin = (args: string[], io: ShellIO, env: CommandEnv) => Promise<number>;

/** The command was stopped through its AbortSignal (the exec stream went away). */
export class Aborted extends Error {
  constructor() {
    super('aborted');
  }
}

/** `exit N` (or a fatal error) unwinding to the shell that runs the script. */
export class ExitRequest extends Error {
  constructor(readonly status: number) {
    super(`exit ${status}`);
  }
}

/** `break N` / `continue N` unwinding to the enclosing loop. */
export class LoopControl extends Error {
  constructor(
    readonly what: 'break' | 'continue',
    public levels: number,
  ) {
    super(what);
  }
}

/** The shell as its own commands (cd, set, read, sh, ...) see it. */
export interface ShellState extends CommandEnv {
  lastStatus: number;
  positional: string[];
  arg0: string;
  errexit: boolean;
  /** Loops being run: `break` outside one does nothing. */
  readonly loopDepth: number;
  /** A subshell: a copy of this shell's state that cannot change it. */
  child(): ShellState;
  /** Runs one command by name. */
  execute(argv: string[], io: ShellIO): Promise<number>;
  /** Parses and runs a script, reporting a syntax error (status 2); `exit` ends it. */
  runSource(text: string, io: ShellIO): Promise<number>;
  /** Runs a parsed script; `exit` propagates as ExitRequest. */
  runScript(script: Script, io: ShellIO): Promise<number>;
}
