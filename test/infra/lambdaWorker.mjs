// One warm Lambda execution environment: loads a built bundle once (a cold start), then
// answers each event the parent sends over IPC, one at a time, as Lambda gives them.
import { pathToFileURL } from 'node:url';

const [bundle] = process.argv.slice(2);
const timeoutMs = Number(process.env.LAMBDA_TIMEOUT_MS ?? 30_000);
const { handler } = await import(pathToFileURL(bundle).href);
process.on('message', async ({ id, event }) => {
  const deadline = Date.now() + timeoutMs;
  const context = { awsRequestId: `req-${id}`, functionName: 'test', getRemainingTimeInMillis: () => deadline - Date.now() };
  try {
    process.send({ id, result: (await handler(event, context)) ?? null });
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});
process.send({ ready: true });
