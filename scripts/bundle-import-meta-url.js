// Injected into the CommonJS bundle (scripts/bundle.mjs), where `import.meta.url` is replaced
// by this: the sources resolve files next to themselves with `new URL(path, import.meta.url)`.
export const importMetaUrl = require('node:url').pathToFileURL(__filename).href;
