/**
 * An object whose module is loaded by the first call of one of its methods (each returns a
 * promise): what only a few routes use stays out of a Lambda function's cold start
 * (infra/bundling.ts splits it into a chunk of its own). A failed load is tried again on the next call.
 */
/** What onDemand gives for a T: each method answers a promise of what T's answers, whatever it answers itself (an async generator's lines too). */
export type OnDemand<T> = { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never };

export function onDemand<T extends object>(load: () => Promise<T>): OnDemand<T> {
  let loaded: Promise<T> | undefined;
  const target = () =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
  return new Proxy({} as OnDemand<T>, {
    // Not a thenable: an `await` of the object itself, or a return from an async function, gives the object.
    get: (_, method) =>
      method === 'then' || typeof method === 'symbol'
        ? undefined
        : async (...args: unknown[]) => {
            const object = (await target()) as Record<PropertyKey, (...a: unknown[]) => unknown>;
            return object[method](...args);
          },
  });
}
