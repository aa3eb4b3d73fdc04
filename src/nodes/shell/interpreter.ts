// Runs a parsed script: expansions, pipelines (each stage a subshell, streams between them),
// && / ||, redirections, compound commands, and the commands themselves — the shell's own
// (cd, exit, export, ...: they change its state) and the built-in tools of builtins/.
import { Readable, type Writable } from 'node:stream';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { ArithmeticError, evaluateArithmetic } from './arith.js';
import { ShellSyntaxError, type AndOr, type Command, type Pipeline, type Redirect, type Script, type SimpleCommand, type Word } from './ast.js';
import { BUILTINS } from './builtins/index.js';
import { Aborted, ExitRequest, LoopControl, type Builtin, type ShellIO, type ShellState, type UserInfo } from './context.js';
import { expandGlob, hasGlob, removePattern } from './glob.js';
import { parseScript } from './parse.js';
import { SHELL_BUILTINS, shCommand } from './shell-builtins.js';
import { BrokenPipe, Collector, FileSink, SIGPIPE_STATUS, emptyReadable, pipe, write } from './streams.js';
import { FsError, basename, dirname, type Vfs } from './vfs.js';

/** Where a path-qualified command name still means the built-in (`/bin/ls`, `/usr/bin/env`). */
const BIN_DIRS = new Set(['/bin', '/sbin', '/usr/bin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin']);
const IFS_WHITESPACE = /[ \t\n]+/;

export interface ShellInit {
  fs: Vfs;
  cwd: string;
  vars: Map<string, string>;
  hostname: string;
  signal: AbortSignal;
  user: UserInfo;
  tty: boolean;
  now: () => number;
}

interface Field {
  text: string;
  /** Per character: an unquoted glob character. */
  mask: boolean[];
  started: boolean;
}

export class Shell implements ShellState {
  readonly fs: Vfs;
  cwd: string;
  readonly vars: Map<string, string>;
  readonly hostname: string;
  readonly signal: AbortSignal;
  readonly user: UserInfo;
  readonly tty: boolean;
  readonly now: () => number;
  lastStatus = 0;
  positional: string[] = [];
  arg0 = 'sh';
  errexit = false;
  private conditionDepth = 0;
  /** Loops being run: `break` outside one does nothing. */
  loopDepth = 0;
  private substitutionStatus: number | undefined;

  constructor(init: ShellInit) {
    this.fs = init.fs;
    this.cwd = init.cwd;
    this.vars = init.vars;
    this.hostname = init.hostname;
    this.signal = init.signal;
    this.user = init.user;
    this.tty = init.tty;
    this.now = init.now;
  }

  /** A subshell: a copy of this shell's state that cannot change it. */
  child(): Shell {
    const c = new Shell({ ...this, vars: new Map(this.vars) });
    c.lastStatus = this.lastStatus;
    c.positional = [...this.positional];
    c.arg0 = this.arg0;
    c.errexit = this.errexit;
    return c;
  }

  /** Parses and runs `text`; a syntax error is reported as sh does (status 2). */
  async runSource(text: string, io: ShellIO): Promise<number> {
    let script: Script;
    try {
      script = parseScript(text);
    } catch (err) {
      if (!(err instanceof ShellSyntaxError)) throw err;
      await write(io.stderr, `sh: ${err.message}\n`);
      return 2;
    }
    return this.runIsolated(() => this.runScript(script, io));
  }

  /** Runs `fn`, turning an `exit` inside it into its status. */
  async runIsolated(fn: () => Promise<number>): Promise<number> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ExitRequest) return err.status;
      if (err instanceof LoopControl) return 0;
      throw err;
    }
  }

  async runScript(script: Script, io: ShellIO): Promise<number> {
    let status = 0;
    for (const item of script) {
      this.checkAbort();
      status = await this.runAndOr(item, io);
    }
    return status;
  }

  private async runAndOr(ao: AndOr, io: ShellIO): Promise<number> {
    let status = await this.runPipeline(ao.first, io);
    let lastRan = ao.first;
    for (const { op, pipeline } of ao.rest) {
      if ((op === '&&') !== (status === 0)) continue;
      status = await this.runPipeline(pipeline, io);
      lastRan = pipeline;
    }
    const finalPipeline = ao.rest.length === 0 ? ao.first : ao.rest[ao.rest.length - 1]!.pipeline;
    if (this.errexit && status !== 0 && this.conditionDepth === 0 && lastRan === finalPipeline && !lastRan.negated) {
      throw new ExitRequest(status);
    }
    return status;
  }

  private async runPipeline(p: Pipeline, io: ShellIO): Promise<number> {
    let status: number;
    if (p.commands.length === 1) {
      status = await this.runCommandNode(p.commands[0]!, io);
    } else {
      const n = p.commands.length;
      const pipes = Array.from({ length: n - 1 }, pipe);
      const stages = p.commands.map(async (cmd, i) => {
        const sub = this.child();
        const stageIo: ShellIO = { stdin: i === 0 ? io.stdin : pipes[i - 1]!, stdout: i === n - 1 ? io.stdout : pipes[i]!, stderr: io.stderr };
        try {
          return await sub.runIsolated(() => sub.runCommandNode(cmd, stageIo));
        } finally {
          if (i < n - 1) pipes[i]!.end();
          // The reader is gone: a writer still writing gets a broken pipe instead of waiting forever.
          if (i > 0) pipes[i - 1]!.destroy();
        }
      });
      const statuses = await Promise.all(stages);
      status = statuses[n - 1]!;
    }
    if (p.negated) status = status === 0 ? 1 : 0;
    this.lastStatus = status;
    return status;
  }

  private async condition(script: Script, io: ShellIO): Promise<number> {
    this.conditionDepth++;
    try {
      return await this.runScript(script, io);
    } finally {
      this.conditionDepth--;
    }
  }

  private async runCommandNode(cmd: Command, io: ShellIO): Promise<number> {
    this.checkAbort();
    if (cmd.kind === 'simple') return this.runSimple(cmd, io);
    const applied = await this.applyRedirects(cmd.redirects, io);
    if (typeof applied === 'number') return applied;
    switch (cmd.kind) {
      case 'subshell': {
        const sub = this.child();
        return sub.runIsolated(() => sub.runScript(cmd.body, applied));
      }
      case 'group':
        return this.runScript(cmd.body, applied);
      case 'if':
        for (const branch of cmd.branches) {
          if ((await this.condition(branch.condition, applied)) === 0) return this.runScript(branch.body, applied);
        }
        return cmd.otherwise ? this.runScript(cmd.otherwise, applied) : 0;
      case 'loop':
        return this.loop(async () => ((await this.condition(cmd.condition, applied)) === 0) !== cmd.until, cmd.body, applied);
      case 'for': {
        const items = cmd.items ? await this.expandWords(cmd.items, applied) : [...this.positional];
        let i = 0;
        return this.loop(
          async () => {
            if (i >= items.length) return false;
            this.vars.set(cmd.name, items[i++]!);
            return true;
          },
          cmd.body,
          applied,
        );
      }
    }
  }

  private async loop(next: () => Promise<boolean>, body: Script, io: ShellIO): Promise<number> {
    let status = 0;
    this.loopDepth++;
    try {
      for (;;) {
        // Each turn lets timers and I/O run: `while true; do :; done` must stay abortable.
        await yieldToEventLoop();
        this.checkAbort();
        if (!(await next())) return status;
        try {
          status = await this.runScript(body, io);
        } catch (err) {
          if (!(err instanceof LoopControl)) throw err;
          if (err.levels > 1) {
            err.levels--;
            throw err;
          }
          if (err.what === 'break') return 0;
        }
      }
    } finally {
      this.loopDepth--;
    }
  }

  private async runSimple(cmd: SimpleCommand, io: ShellIO): Promise<number> {
    this.substitutionStatus = undefined;
    const argv = await this.expandWords(cmd.words, io);
    const assigned: Array<[string, string]> = [];
    for (const a of cmd.assignments) assigned.push([a.name, await this.expandToString(a.value, io)]);
    const applied = await this.applyRedirects(cmd.redirects, io);
    if (typeof applied === 'number') return applied;
    if (argv.length === 0) {
      for (const [k, v] of assigned) this.vars.set(k, v);
      return this.substitutionStatus ?? 0;
    }
    if (assigned.length === 0 || SHELL_BUILTINS.has(argv[0]!)) {
      for (const [k, v] of assigned) this.vars.set(k, v);
      return this.execute(argv, applied);
    }
    const sub = this.child();
    for (const [k, v] of assigned) sub.vars.set(k, v);
    return sub.runIsolated(() => sub.execute(argv, applied));
  }

  async spawn(argv: string[], io: ShellIO, vars?: Map<string, string>): Promise<number> {
    const sub = this.child();
    if (vars !== undefined) {
      sub.vars.clear();
      for (const [k, v] of vars) sub.vars.set(k, v);
    }
    return sub.runIsolated(() => sub.execute(argv, io));
  }

  /** Runs one command by name: the shell's own, a built-in tool, or a script file of the vfs. */
  async execute(argv: string[], io: ShellIO): Promise<number> {
    const name = argv[0]!;
    const own = SHELL_BUILTINS.get(name);
    if (own !== undefined) return own(this, argv, io);
    const builtin = this.lookup(name);
    if (builtin !== undefined) {
      try {
        return await builtin([basename(name), ...argv.slice(1)], io, this);
      } catch (err) {
        return this.commandFailed(basename(name), err, io);
      }
    }
    if (name.includes('/')) return this.runFile(name, argv, io);
    await write(io.stderr, `sh: ${name}: not found\n`);
    return 127;
  }

  private lookup(name: string): Builtin | undefined {
    const base = basename(name);
    if (name.includes('/') && !BIN_DIRS.has(dirname(name.startsWith('/') ? name : `${this.cwd}/${name}`))) return undefined;
    if (base === 'sh' || base === 'ash') return (args, io) => shCommand(this, args, io);
    return BUILTINS.get(base);
  }

  /** A path to a file of the vfs: an executable `#!/bin/sh` script runs; anything else cannot. */
  private async runFile(path: string, argv: string[], io: ShellIO): Promise<number> {
    let content: Buffer;
    try {
      const node = this.fs.stat(path, this.cwd);
      if (node.kind === 'dir') {
        await write(io.stderr, `sh: ${path}: Permission denied\n`);
        return 126;
      }
      content = this.fs.contentOf(node, path);
      if ((node.mode & 0o111) === 0) {
        await write(io.stderr, `sh: ${path}: Permission denied\n`);
        return 126;
      }
    } catch (err) {
      if (!(err instanceof FsError)) throw err;
      await write(io.stderr, `sh: ${path}: not found\n`);
      return 127;
    }
    const text = content.toString('utf8');
    const shebang = /^#!\s*(\S+)/.exec(text);
    if (shebang !== null && !['sh', 'ash', 'bash', 'dash'].includes(basename(shebang[1]!))) {
      await write(io.stderr, `sh: ${path}: not found\n`);
      return 127;
    }
    const sub = this.child();
    sub.arg0 = path;
    sub.positional = argv.slice(1);
    return sub.runSource(text, io);
  }

  private async commandFailed(name: string, err: unknown, io: ShellIO): Promise<number> {
    if (err instanceof BrokenPipe) return SIGPIPE_STATUS;
    if (err instanceof Aborted || err instanceof ExitRequest || err instanceof LoopControl) throw err;
    const message = err instanceof FsError && err.code === 'ENOSPC' ? `write error: ${err.message}` : err instanceof Error ? err.message : String(err);
    try {
      await write(io.stderr, `${name}: ${message}\n`);
    } catch {
      // stderr is gone too
    }
    return 1;
  }

  checkAbort(): void {
    if (this.signal.aborted) throw new Aborted();
  }

  // --- redirections ---

  private async applyRedirects(redirects: Redirect[], io: ShellIO): Promise<ShellIO | number> {
    if (redirects.length === 0) return io;
    const fds: Array<Readable | Writable | undefined> = [io.stdin, io.stdout, io.stderr];
    for (const r of redirects) {
      if (r.hereDoc !== undefined) {
        fds[r.fd] = Readable.from([Buffer.from(await this.expandToString(r.hereDoc.body, io))]);
        continue;
      }
      const target = await this.expandToString(r.target, io);
      try {
        switch (r.op) {
          case '>':
          case '>|':
          case '>>':
            fds[r.fd] = new FileSink(this.fs.openWrite(target, this.cwd, { append: r.op === '>>' }));
            break;
          case '<':
          case '<>':
            fds[r.fd] = fileReadable(this.fs.readFile(target, this.cwd));
            break;
          case '>&':
          case '<&':
            if (target === '-') fds[r.fd] = r.op === '>&' ? new FileSink(() => {}) : emptyReadable();
            else if (/^\d+$/.test(target)) {
              const source = fds[Number(target)];
              if (source === undefined) {
                await write(io.stderr, `sh: ${target}: bad file descriptor\n`);
                return 1;
              }
              fds[r.fd] = source;
            } else {
              // `>&file`: both outputs to the file.
              fds[1] = fds[2] = new FileSink(this.fs.openWrite(target, this.cwd));
            }
            break;
        }
      } catch (err) {
        if (!(err instanceof FsError)) throw err;
        await write(io.stderr, `sh: can't ${r.op.startsWith('<') ? 'open' : 'create'} ${target}: ${err.message}\n`);
        return 1;
      }
    }
    return {
      stdin: (fds[0] as Readable | undefined) ?? emptyReadable(),
      stdout: (fds[1] as Writable | undefined) ?? new FileSink(() => {}),
      stderr: (fds[2] as Writable | undefined) ?? new FileSink(() => {}),
    };
  }

  // --- expansions ---

  async expandWords(words: Word[], io: ShellIO): Promise<string[]> {
    const out: string[] = [];
    for (const w of words) out.push(...(await this.expandWord(w, io, true)));
    return out;
  }

  /** One word without field splitting or globbing (assignments, redirection targets, here-documents). */
  async expandToString(word: Word, io: ShellIO): Promise<string> {
    return (await this.expandWord(word, io, false)).join(' ');
  }

  private async expandWord(word: Word, io: ShellIO, split: boolean): Promise<string[]> {
    const fields: Field[] = [];
    let cur: Field = { text: '', mask: [], started: false };
    const append = (text: string, quoted: boolean): void => {
      cur.started = true;
      cur.text += text;
      for (let i = 0; i < text.length; i++) cur.mask.push(!quoted);
    };
    const finish = (): void => {
      if (cur.started) fields.push(cur);
      cur = { text: '', mask: [], started: false };
    };
    for (let idx = 0; idx < word.length; idx++) {
      const part = word[idx]!;
      if (part.kind === 'text') {
        let text = part.text;
        if (idx === 0 && !part.quoted && split && (text === '~' || text.startsWith('~/'))) text = (this.vars.get('HOME') ?? '/root') + text.slice(1);
        append(text, part.quoted);
        continue;
      }
      if (part.kind === 'param' && part.name === '@' && part.quoted && part.op === undefined && split) {
        this.positional.forEach((p, i) => {
          if (i > 0) finish();
          append(p, true);
        });
        continue;
      }
      const value = await this.partValue(part, io);
      if (part.quoted || !split) {
        append(value, true);
        continue;
      }
      // Unquoted expansion: split on IFS whitespace; its glob characters stay active.
      const pieces = value.split(IFS_WHITESPACE);
      pieces.forEach((piece, i) => {
        if (i > 0) finish();
        if (piece !== '') append(piece, false);
      });
    }
    finish();
    if (!split) return [fields.map((f) => f.text).join('')];
    const out: string[] = [];
    for (const f of fields) {
      if (hasGlob(f.text, f.mask)) {
        const matches = expandGlob(this.fs, this.cwd, f.text, f.mask);
        if (matches.length > 0) {
          out.push(...matches);
          continue;
        }
      }
      out.push(f.text);
    }
    return out;
  }

  private async partValue(part: Exclude<Word[number], { kind: 'text' }>, io: ShellIO): Promise<string> {
    switch (part.kind) {
      case 'command': {
        const sub = this.child();
        const out = new Collector();
        const status = await sub.runIsolated(() => sub.runScript(part.script, { stdin: emptyReadable(), stdout: out, stderr: io.stderr }));
        this.lastStatus = status;
        this.substitutionStatus = status;
        return out.text().replace(/\n+$/, '');
      }
      case 'arith': {
        const expr = await this.expandToString(part.expr, io);
        try {
          return evaluateArithmetic(expr, (name) => this.vars.get(name));
        } catch (err) {
          if (!(err instanceof ArithmeticError)) throw err;
          await write(io.stderr, `sh: ${err.message}\n`);
          throw new ExitRequest(2);
        }
      }
      case 'param':
        return this.paramValue(part, io);
    }
  }

  private async paramValue(part: Extract<Word[number], { kind: 'param' }>, io: ShellIO): Promise<string> {
    const value = this.lookupParam(part.name);
    const arg = async (): Promise<string> => this.expandToString(part.arg ?? [], io);
    switch (part.op) {
      case undefined:
        return value ?? '';
      case 'length':
        return String([...(value ?? '')].length);
      case ':-':
      case '-':
        return (part.op === ':-' ? !value : value === undefined) ? arg() : value!;
      case ':=':
      case '=':
        if (part.op === ':=' ? !value : value === undefined) {
          const v = await arg();
          this.vars.set(part.name, v);
          return v;
        }
        return value!;
      case ':+':
      case '+':
        return (part.op === ':+' ? !!value : value !== undefined) ? arg() : '';
      case ':?':
      case '?':
        if (part.op === ':?' ? !value : value === undefined) {
          const message = await arg();
          await write(io.stderr, `sh: ${part.name}: ${message || 'parameter not set'}\n`);
          throw new ExitRequest(1);
        }
        return value!;
      default:
        return removePattern(value ?? '', await arg(), part.op);
    }
  }

  private lookupParam(name: string): string | undefined {
    switch (name) {
      case '?':
        return String(this.lastStatus);
      case '$':
        return '1';
      case '#':
        return String(this.positional.length);
      case '0':
        return this.arg0;
      case '@':
      case '*':
        return this.positional.join(' ');
      case '!':
        return '';
      case '-':
        return this.errexit ? 'e' : '';
    }
    if (/^\d+$/.test(name)) return this.positional[Number(name) - 1];
    return this.vars.get(name);
  }
}

function fileReadable(content: Buffer): Readable {
  const slices: Buffer[] = [];
  for (let off = 0; off < content.length; off += 64 * 1024) slices.push(content.subarray(off, off + 64 * 1024));
  return Readable.from(slices);
}

