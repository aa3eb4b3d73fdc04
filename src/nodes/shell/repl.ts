// `sh` reading its commands from stdin: each complete command is run as soon as its last line
// arrives (a script piped in, or someone typing). On a terminal (`kubectl exec -it ... -- sh`) it
// is interactive, as busybox's ash: a prompt (`/ # `), and — as the terminal is in raw mode and
// there is no pty — the line discipline's work: echo, backspace, ^C, ^U, ^D at an empty line.
import { StringDecoder } from 'node:string_decoder';
import { ShellSyntaxError, type Script } from './ast.js';
import { ExitRequest, type ShellIO, type UserInfo } from './context.js';
import { parseScript } from './parse.js';
import { chunks, emptyReadable, lines, write } from './streams.js';

/** The shell the lines run in. */
export interface LineShell {
  readonly cwd: string;
  readonly user: UserInfo;
  readonly tty: boolean;
  runScript(script: Script, io: ShellIO): Promise<number>;
}

type Input = { kind: 'line'; text: string } | { kind: 'interrupt' };

export async function runLines(shell: LineShell, io: ShellIO, interactive: boolean): Promise<number> {
  let pending = '';
  let status = 0;
  // Commands do not read the terminal: the shell does.
  const commandIo: ShellIO = interactive ? { ...io, stdin: emptyReadable() } : io;
  const prompt = async (): Promise<void> => {
    if (interactive) await write(io.stdout, pending === '' ? `${shell.cwd} ${shell.user.uid === 0 ? '#' : '$'} ` : '> ');
  };
  await prompt();
  const input = shell.tty ? terminalInput(io) : plainInput(io);
  for await (const item of input) {
    if (item.kind === 'interrupt') {
      pending = '';
      status = 130;
      await prompt();
      continue;
    }
    pending += `${item.text}\n`;
    let script: Script;
    try {
      if (/(^|[^\\])(\\\\)*\\\n$/.test(pending)) throw new ShellSyntaxError('syntax error: unexpected end of file');
      script = parseScript(pending);
    } catch (err) {
      if (!(err instanceof ShellSyntaxError)) throw err;
      if (!isIncomplete(err)) {
        await write(io.stderr, `sh: ${err.message}\n`);
        pending = '';
        status = 2;
      }
      await prompt();
      continue;
    }
    pending = '';
    try {
      status = await shell.runScript(script, commandIo);
    } catch (err) {
      if (err instanceof ExitRequest) return err.status;
      throw err;
    }
    await prompt();
  }
  if (pending !== '') {
    await write(io.stderr, `sh: syntax error: unexpected end of file\n`);
    return 2;
  }
  return status;
}

function isIncomplete(err: ShellSyntaxError): boolean {
  return /end of file|unterminated|missing '}'/.test(err.message);
}

async function* plainInput(io: ShellIO): AsyncGenerator<Input> {
  for await (const text of lines(io.stdin)) yield { kind: 'line', text };
}

/** Raw terminal input made into lines, echoing what is typed (the remote end of a tty echoes). */
async function* terminalInput(io: ShellIO): AsyncGenerator<Input> {
  const decoder = new StringDecoder('utf8');
  let line = '';
  let lastWasCR = false;
  let escape = 0;
  for await (const chunk of chunks(io.stdin)) {
    let echo = '';
    // Echo what was typed before handing a line over, so output follows it as on a terminal.
    const flush = async (): Promise<void> => {
      if (echo !== '') await write(io.stdout, echo);
      echo = '';
    };
    for (const c of decoder.write(chunk)) {
      if (escape > 0) {
        // ESC [ ... final: cursor keys and the like are ignored.
        if (escape === 1 && c !== '[' && c !== 'O') escape = 0;
        else if (escape === 2 && c >= '@' && c <= '~') escape = 0;
        else escape = 2;
        continue;
      }
      if (c === '\n' && lastWasCR) {
        lastWasCR = false;
        continue;
      }
      lastWasCR = c === '\r';
      if (c === '\r' || c === '\n') {
        echo += '\n';
        await flush();
        const text = line;
        line = '';
        yield { kind: 'line', text };
      } else if (c === '\x7f' || c === '\b') {
        if (line !== '') {
          line = [...line].slice(0, -1).join('');
          echo += '\b \b';
        }
      } else if (c === '\x03') {
        echo += '^C\n';
        line = '';
        await flush();
        yield { kind: 'interrupt' };
      } else if (c === '\x15') {
        echo += '\b \b'.repeat([...line].length);
        line = '';
      } else if (c === '\x04') {
        if (line === '') {
          await flush();
          return;
        }
      } else if (c === '\x1b') {
        escape = 1;
      } else if (c === '\t' || c >= ' ') {
        line += c;
        echo += c;
      }
    }
    await flush();
  }
}
