#!/usr/bin/env node
// The `kubelite` executable (package.json's `bin`, built into dist/bundle/cli/kubelite.js by
// scripts/bundle.mjs): runs the bundled CLI beside it with V8's code cache (see src/machinery/bundle-script.ts).
import { fileURLToPath } from 'node:url';
import { runBundle } from '../machinery/bundle-script.js';

runBundle(fileURLToPath(new URL('./kubelite.cjs', import.meta.url)));
