// Loads one built Lambda bundle in this (fresh) process and calls its handler with
// each API Gateway v2 event of a JSON file, writing the results to a file (stdout
// holds the function's own logs).
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [bundle, eventsFile, resultsFile] = process.argv.slice(2);
const started = performance.now();
const { handler } = await import(pathToFileURL(bundle).href);
const loadMs = performance.now() - started;
const results = [];
for (const event of JSON.parse(readFileSync(eventsFile, 'utf8'))) {
  // The function's timeout as Lambda counts it down (LAMBDA_TIMEOUT_MS, the stack's timeout of the function; 10 s by default).
  const deadline = Date.now() + Number(process.env.LAMBDA_TIMEOUT_MS ?? 10_000);
  const context = { awsRequestId: `req-${results.length}`, functionName: 'test', getRemainingTimeInMillis: () => deadline - Date.now() };
  results.push(await handler(event, context));
}
// The process's peak resident memory (KB), as a function's memory limit would meet it.
writeFileSync(resultsFile, JSON.stringify({ loadMs, results, maxRssKb: process.resourceUsage().maxRSS }));
