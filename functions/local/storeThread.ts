import * as dynamodb from '@aws-sdk/client-dynamodb';
import { parentPort, workerData } from 'node:worker_threads';
import { directClient, openDynalite } from './dynaliteStore';
import type { FromStore, ToStore } from './storeThreadClient';

/**
 * The embedded store's own thread (storeThreadClient.ts starts it): the SDK's work for each
 * call (serializing, signing, parsing) and dynalite's answer happen here, as they happen
 * outside the function on AWS, so neither their CPU nor their garbage collection is the
 * API's. Nothing here listens: only this process can post to it.
 */
const port = parentPort;
if (!port) throw new Error('storeThread.ts runs as a worker thread');
const send = (message: FromStore) => port.postMessage(message);

/** The SDK's commands by name; names come from the commands the service sends, never from a player. */
const commands = new Map<string, new (input: never) => never>();
for (const [name, value] of Object.entries(dynamodb)) if (name.endsWith('Command') && typeof value === 'function') commands.set(name, value as never);

const opened = (() => {
  try {
    return openDynalite((workerData as { path?: string }).path);
  } catch (error) {
    send({ kind: 'failed', message: (error as Error).message });
    return undefined;
  }
})();
if (opened) {
  const { client, close } = directClient(opened);
  send({ kind: 'ready' });
  port.on('message', (message: ToStore) => {
    if (message.kind === 'close') {
      close().then(
        () => send({ kind: 'closed' }),
        (error: Error) => send({ kind: 'closed', message: error.message }),
      );
      return;
    }
    const Command = commands.get(message.command);
    if (!Command) return send({ kind: 'error', id: message.id, error: { name: 'UnknownCommand', message: `the embedded store has no ${message.command}` } });
    client.send(new Command(message.input as never)).then(
      (output) => send({ kind: 'output', id: message.id, output }),
      (error: Error) => send({ kind: 'error', id: message.id, error: plainError(error) }),
    );
  });
}

/** An error as data that crosses threads: its name, message and the fields the SDK gives it (CancellationReasons, $metadata, …). */
function plainError(error: Error): Record<string, unknown> {
  const plain: Record<string, unknown> = { name: error.name, message: error.message };
  for (const [field, value] of Object.entries(error)) {
    if (typeof value !== 'function' && field !== '$response') plain[field] = value;
  }
  return structuredCloneable(plain);
}

function structuredCloneable(value: Record<string, unknown>): Record<string, unknown> {
  try {
    return structuredClone(value);
  } catch {
    return { name: value.name, message: value.message };
  }
}
