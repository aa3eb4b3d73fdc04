// Every built-in tool by name (the shell's own commands — cd, exit, export, ... — are in
// interpreter.ts, and `sh` itself too).
import type { Builtin } from '../context.js';
import { write } from '../streams.js';
import { FILE_COMMANDS } from './files.js';
import { SYSTEM_COMMANDS } from './system.js';
import { TAR_COMMANDS } from './tar.js';
import { TEST_COMMANDS } from './test.js';
import { TEXT_COMMANDS } from './text.js';

export const BUILTINS = new Map<string, Builtin>(
  Object.entries({
    ...FILE_COMMANDS,
    ...TEXT_COMMANDS,
    ...SYSTEM_COMMANDS,
    ...TEST_COMMANDS,
    ...TAR_COMMANDS,
  }),
);

/** `which NAME...`: where each command is (`/bin/NAME`: they are all built in). */
BUILTINS.set('which', async (args, io) => {
  let status = 0;
  for (const name of args.slice(1)) {
    if (BUILTINS.has(name) || name === 'sh' || name === 'ash') await write(io.stdout, `/bin/${name}\n`);
    else status = 1;
  }
  return status;
});
