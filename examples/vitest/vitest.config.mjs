// A cluster takes a second or two to start: hooks get more time than Vitest's default 10 s on a loaded machine.
export default { test: { hookTimeout: 60_000, testTimeout: 60_000 } };
