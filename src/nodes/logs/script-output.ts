// What a simulated container's command prints: the `echo`s of the command forms behaviour.ts
// recognises (`echo ...`, `sh -c "<script>"`), each at the moment the script reaches it — after
// the `sleep`s before it — and, for `while true; do ...; sleep N; done`, once per turn for as long
// as the container runs (produced lazily: the caller pulls the lines whose time has come).
// `$VAR` and `${VAR}` expand from the container's literal `env` values (unset: empty), as a shell
// would; `$(...)` and backquotes are printed as written. Output redirected to a file (`> f`,
// `>> f`) is not the container's output; `>&2` is (stderr goes to the log too).
// Anything else a script does prints nothing: no output is invented.
import type { Container } from '../../api/types.js';
import { parseSleepDuration } from '../shell-form.js';

export interface PrintedLine {
  /** Milliseconds after the container started. */
  offsetMs: number;
  text: string;
}

const SHELLS = new Set(['sh', 'bash', 'ash', 'dash', 'zsh', 'busybox']);

function basename(p: string): string {
  const i = p.lastIndexOf('/');
  return i >= 0 ? p.slice(i + 1) : p;
}

interface Word {
  text: string;
  /** Whether any of it was unquoted (a redirection operator must be). */
  bare: boolean;
}

function expand(text: string, env: ReadonlyMap<string, string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, a: string | undefined, b: string | undefined) => env.get(a ?? b ?? '') ?? '');
}

/** Splits one statement into words: single quotes literal, double quotes and bare text expanded. */
export function shellWords(statement: string, env: ReadonlyMap<string, string>): Word[] {
  const out: Word[] = [];
  let cur = '';
  let bare = false;
  let inWord = false;
  let i = 0;
  const flush = () => {
    if (inWord) out.push({ text: cur, bare });
    cur = '';
    bare = false;
    inWord = false;
  };
  while (i < statement.length) {
    const c = statement[i]!;
    if (c === "'") {
      const j = statement.indexOf("'", i + 1);
      const end = j < 0 ? statement.length : j;
      cur += statement.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      let s = '';
      while (j < statement.length && statement[j] !== '"') {
        if (statement[j] === '\\' && j + 1 < statement.length && '"\\$`'.includes(statement[j + 1]!)) {
          s += statement[j + 1];
          j += 2;
        } else s += statement[j++];
      }
      cur += expand(s, env);
      inWord = true;
      i = j + 1;
    } else if (c === ' ' || c === '\t') {
      flush();
      i++;
    } else {
      let j = i;
      while (j < statement.length && !" \t'\"".includes(statement[j]!)) j++;
      cur += expand(statement.slice(i, j), env);
      bare = true;
      inWord = true;
      i = j;
    }
  }
  flush();
  return out;
}

/**
 * Splits a script into statements at `;`, `&&`, `|` and newlines outside quotes. The statement
 * after `||` runs only when the one before fails: it is kept only after a literal `false`.
 */
export function statementsOf(script: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | undefined;
  let skip = false;
  const push = () => {
    const st = cur.trim();
    if (st !== '' && !skip) out.push(st);
    skip = false;
    cur = '';
    return st;
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      cur += c;
    } else if (c === '|' && script[i + 1] === '|') {
      i++;
      const before = push();
      skip = before !== 'false';
    } else if (c === ';' || c === '\n' || c === '|' || (c === '&' && script[i + 1] === '&')) {
      if (c === '&') i++;
      push();
    } else cur += c;
  }
  push();
  return out;
}

type Step = { kind: 'echo'; words: Word[] } | { kind: 'sleep'; ms: number } | { kind: 'stop' } | { kind: 'loop'; body: Step[] } | { kind: 'for'; turns: Step[][] };

const REDIRECT_TO_STDERR = /^[12]?>&[12]$/;

/** An echo's line(s): `-n`/`-e`/`-E` read, `-e` escapes (\n, \t) interpreted; undefined when redirected to a file. */
function echoText(words: Word[]): string[] | undefined {
  let escapes = false;
  let args = words;
  while (args.length > 0 && args[0]!.bare && /^-[neE]+$/.test(args[0]!.text)) {
    if (args[0]!.text.includes('e')) escapes = true;
    args = args.slice(1);
  }
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (w.bare && REDIRECT_TO_STDERR.test(w.text)) continue;
    if (w.bare && /^\d?>>?/.test(w.text)) return undefined;
    kept.push(w.text);
  }
  let text = kept.join(' ');
  if (escapes) text = text.replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\\\/g, '\\');
  return text.split('\n');
}

/** The steps of a list of statements, up to what cannot be followed (an `if`, a `for`, a loop on a condition). */
function parseSteps(statements: string[], env: ReadonlyMap<string, string>): { steps: Step[]; used: number } {
  const steps: Step[] = [];
  let i = 0;
  while (i < statements.length) {
    const st = statements[i]!;
    const words = shellWords(st, env);
    const cmd = basename(words[0]?.text ?? '');
    if (cmd === 'done') return { steps, used: i };
    if (cmd === 'while' || cmd === 'until') {
      const cond = words.slice(1).map((w) => w.text).join(' ');
      const endless = (cmd === 'while' && (cond === 'true' || cond === ':')) || (cmd === 'until' && cond === 'false');
      const first = statements[i + 1];
      if (!endless || first === undefined || !/^do(\s|$)/.test(first)) return { steps: [...steps, { kind: 'stop' }], used: statements.length };
      const bodyStatements = [first.replace(/^do\s*/, ''), ...statements.slice(i + 2)].filter((s) => s !== '');
      const body = parseSteps(bodyStatements, env);
      steps.push({ kind: 'loop', body: body.steps });
      // past the `while`, the `do` statement, the body and its `done`
      i += (first.replace(/^do\s*/, '') === '' ? 3 : 2) + body.used;
      continue;
    }
    if (cmd === 'for' && words[2]?.text === 'in' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(words[1]?.text ?? '') && /^do(\s|$)/.test(statements[i + 1] ?? '')) {
      // for NAME in WORDS; do BODY; done: the body once per word, NAME set to it
      const first = statements[i + 1]!.replace(/^do\s*/, '');
      const bodyStatements = [first, ...statements.slice(i + 2)].filter((x) => x !== '');
      const turns = words.slice(3).map((w) => parseSteps(bodyStatements, new Map([...env, [words[1]!.text, w.text]])).steps);
      steps.push({ kind: 'for', turns });
      i += (first === '' ? 3 : 2) + parseSteps(bodyStatements, env).used;
      continue;
    }
    if (cmd === 'if' || cmd === 'for' || cmd === 'case' || cmd === 'then' || cmd === 'do') return { steps: [...steps, { kind: 'stop' }], used: statements.length };
    if (cmd === 'echo') steps.push({ kind: 'echo', words: words.slice(1) });
    else if (cmd === 'sleep' && words[1]) {
      const s = parseSleepDuration(words[1].text);
      if (s !== undefined) steps.push(s === Infinity ? { kind: 'stop' } : { kind: 'sleep', ms: s * 1000 });
    } else if (cmd === 'exit' || cmd === 'exec' || (cmd === 'tail' && words[1]?.text === '-f')) steps.push({ kind: 'stop' });
    i++;
  }
  return { steps, used: i };
}

const hasSleep = (steps: readonly Step[]): boolean => steps.some((s) => (s.kind === 'sleep' && s.ms > 0) || (s.kind === 'loop' && hasSleep(s.body)) || (s.kind === 'for' && s.turns.some(hasSleep)));

/**
 * How far a reader of the output has got (ms after the start) and how much of it is kept: an
 * endless loop far behind skips the turns whose lines would be dropped anyway, so a container
 * that has printed for days is read without producing every line since its start.
 */
export interface Horizon {
  untilMs: number;
  keepBytes: number;
}

/** The time and bytes one run of `steps` takes, when fixed (no endless loop, no stop). */
function extentOf(steps: readonly Step[]): { ms: number; bytes: number } | undefined {
  let ms = 0;
  let bytes = 0;
  for (const s of steps) {
    if (s.kind === 'echo') for (const text of echoText(s.words) ?? []) bytes += Buffer.byteLength(text) + 1;
    else if (s.kind === 'sleep') ms += s.ms;
    else if (s.kind === 'for') {
      for (const turn of s.turns) {
        const e = extentOf(turn);
        if (!e) return undefined;
        ms += e.ms;
        bytes += e.bytes;
      }
    } else return undefined;
  }
  return { ms, bytes };
}

/** Runs the steps from `t`; returns where it stopped (undefined: the script stopped printing for good). */
function* run(steps: readonly Step[], t: number, horizon: Horizon | undefined): Generator<PrintedLine, number | undefined> {
  for (const s of steps) {
    if (s.kind === 'echo') {
      for (const text of echoText(s.words) ?? []) yield { offsetMs: t, text };
    } else if (s.kind === 'sleep') t += s.ms;
    else if (s.kind === 'stop') return undefined;
    else if (s.kind === 'for') {
      for (const turn of s.turns) {
        const next = yield* run(turn, t, horizon);
        if (next === undefined) return undefined;
        t = next;
      }
    } else {
      // A loop without a sleep would print without end at one instant: one turn is shown.
      if (!hasSleep(s.body)) return yield* run(s.body, t, horizon);
      const turn = horizon ? extentOf(s.body) : undefined;
      for (;;) {
        if (horizon && turn && turn.ms > 0) {
          // the turns that fit in what is kept, and one more, before the horizon
          const kept = Math.ceil(horizon.keepBytes / Math.max(1, turn.bytes)) + 1;
          const skip = Math.floor((horizon.untilMs - t) / turn.ms) - kept;
          if (skip > 0) t += skip * turn.ms;
        }
        const next = yield* run(s.body, t, horizon);
        if (next === undefined) return undefined;
        t = next;
      }
    }
  }
  return t;
}

/** The literal `env` values of a container (valueFrom is not resolved: such variables read empty). */
export function literalEnv(container: Container): Map<string, string> {
  const env = new Map<string, string>();
  for (const e of container.env ?? []) if (e?.name && typeof e.value === 'string') env.set(e.name, e.value);
  return env;
}

/** What the container's command prints, in order of time (possibly without end). */
export function* commandOutput(container: Container, extraEnv: ReadonlyMap<string, string> = new Map(), horizon?: Horizon): Generator<PrintedLine> {
  const argv = [...(container.command ?? []), ...(container.args ?? [])].map(String);
  if (argv.length === 0) return;
  const env = new Map([...extraEnv, ...literalEnv(container)]);
  let cmd = basename(argv[0]!);
  let rest = argv.slice(1);
  if (cmd === 'busybox' || cmd === 'env' || cmd === 'exec') {
    cmd = basename(rest[0] ?? '');
    rest = rest.slice(1);
  }
  if (cmd === 'echo') {
    // exec form: no shell, so no expansion and no redirection
    for (const text of echoText(rest.map((text) => ({ text, bare: false }))) ?? []) yield { offsetMs: 0, text };
    return;
  }
  if (!SHELLS.has(cmd)) return;
  const i = rest.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a));
  if (i < 0 || rest[i + 1] === undefined) return;
  yield* run(parseSteps(statementsOf(rest[i + 1]!), env).steps, 0, horizon);
}
