// ES modules as they are (no transform); a cluster takes a second or two to start.
export default { testEnvironment: 'node', transform: {}, testMatch: ['**/*.test.mjs'], testTimeout: 60_000 };
