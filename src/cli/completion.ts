// `kubelite completion bash|zsh`: a completion script with every command and the flags each one
// takes, read from the commands' own --help (so it cannot fall behind them); a word that is not a
// flag completes as a file name. zsh runs the same function through bashcompinit.
import { parseChoice, parseOrExit, program } from '../machinery/flags.js';
import { commands } from './commands.js';

/** What a command prints for --help (its stdout, captured: help is all it does). */
async function helpOf(run: (argv: string[]) => Promise<number>): Promise<string> {
  const write = process.stdout.write;
  let text = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  }) as typeof process.stdout.write;
  try {
    await run(['--help']);
  } finally {
    process.stdout.write = write;
  }
  return text;
}

/** The long flags a --help lists (its option lines: `  -q, --quiet`, `  --port <port>`). */
export function flagsOfHelp(help: string): string[] {
  return [...help.matchAll(/^ {2}(?:-\w, )?(--[a-z0-9][a-z0-9-]*)/gm)].map((m) => m[1]!);
}

/** `flags`: the flags of each command that takes flags; `names`: every command. */
export function bashCompletion(names: readonly string[], flags: ReadonlyMap<string, readonly string[]>): string {
  const cases = [...flags].map(([name, list]) => `    ${name}) words="${list.join(' ')}" ;;`).join('\n');
  return `# kubelite completion for bash: source <(kubelite completion bash)
_kubelite() {
  local cur=\${COMP_WORDS[COMP_CWORD]} words=""
  COMPREPLY=()
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${names.join(' ')} --help --version" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases}
    completion) [ "$COMP_CWORD" -eq 2 ] && COMPREPLY=($(compgen -W "bash zsh" -- "$cur")); return ;;
  esac
  # flags when the word starts with -, else file names (complete -o default)
  case "$cur" in -*) COMPREPLY=($(compgen -W "$words --help" -- "$cur")) ;; esac
}
complete -o default -F _kubelite kubelite
`;
}

export async function completionMain(argv: string[]): Promise<number> {
  const cmd = program('completion', 'Print a shell completion script for bash or zsh.').argument('<shell>', 'bash or zsh', parseChoice(['bash', 'zsh'] as const));
  const code = parseOrExit(cmd, argv);
  if (code !== undefined) return code;
  const shell = cmd.processedArgs[0] as 'bash' | 'zsh';
  const flags = new Map<string, string[]>();
  for (const [name, c] of Object.entries(commands)) {
    if (name !== 'completion' && name !== 'version') flags.set(name, flagsOfHelp(await helpOf((a) => c.run(a))).filter((f) => f !== '--help'));
  }
  const script = bashCompletion(Object.keys(commands), flags);
  process.stdout.write(shell === 'bash' ? script : `#compdef kubelite\n# kubelite completion for zsh: source <(kubelite completion zsh)\nautoload -U +X bashcompinit && bashcompinit\n${script}`);
  return 0;
}
