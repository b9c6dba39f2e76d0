// Preloaded with `node --import` by tests that bound a child's memory: on exit, writes the
// process's peak resident set (bytes) to $ARBITER_PEAK_MEMORY_FILE.
import { writeFileSync } from 'node:fs';

const file = process.env.ARBITER_PEAK_MEMORY_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)));
