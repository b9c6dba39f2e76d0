/**
 * X-Ray subsegments for a client's AWS calls, loaded only when an invocation is sampled: the
 * Powertools Tracer and the X-Ray SDK (about 90 KB, tracing.ts) are a chunk of their own
 * (infra/bundling.ts), imported by the first call of a sampled invocation, so that a cold
 * start does not load them and an unsampled container never does. A sampled call goes
 * through the X-Ray SDK's own middleware, as `tracer.captureAWSv3Client` adds it.
 */
type Next = (args: unknown) => Promise<unknown>;
type Middleware = (next: Next, context: unknown) => Next;
interface Stack {
  add(middleware: Middleware, options: { step: 'build'; name: string; override: boolean }): void;
  identify(): string[];
  addRelativeTo(middleware: unknown, options: unknown): void;
}

/** Lambda's trace header of this invocation (its invoke store first, as the X-Ray SDK reads it), sampled or not. */
function traceHeader(): string {
  const store = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId?: () => string | undefined } } }).awslambda?.InvokeStore;
  return store?.getXRayTraceId?.() ?? process.env._X_AMZN_TRACE_ID ?? '';
}
export const sampled = (header = traceHeader()) => header.split(';').includes('Sampled=1');

export function traceWhenSampled<T extends { config: unknown; middlewareStack: unknown; send: unknown }>(client: T): T {
  const stack = client.middlewareStack as Stack;
  let xray: Promise<Middleware | undefined> | undefined;
  stack.add(
    (next, context) => async (args) => {
      if (!sampled()) return next(args);
      xray ??= import('./tracing').then(({ tracer }) => {
        // The Tracer adds its middleware to the stack it is given: take it, to run it for this call and the next ones.
        let middleware: Middleware | undefined;
        const probe = {
          send: client.send,
          config: client.config,
          middlewareStack: {
            identify: () => stack.identify(),
            addRelativeTo: (added: unknown, options: unknown) => stack.addRelativeTo(added, options),
            remove: () => true,
            use: (plugin: { applyToStack(stack: { add(m: Middleware): void }): void }) => plugin.applyToStack({ add: (m) => (middleware = m) }),
          },
        };
        tracer.captureAWSv3Client(probe as never);
        return middleware;
      });
      const traced = await xray;
      return traced ? traced(next, context)(args) : next(args);
    },
    { step: 'build', name: 'arbiterSampledTracing', override: true },
  );
  return client;
}
