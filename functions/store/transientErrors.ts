import { StoreUnavailable } from '../ports/eventStore';

/** AWS errors that mean "try again shortly": throttling, timeouts, a service briefly down. */
const TRANSIENT = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'ServiceUnavailable',
  'InternalServerError',
  'TimeoutError',
  'RequestTimeout',
  // A write of an item that a transaction is writing at this moment (a game being created): try again.
  'TransactionConflictException',
  // KMS's own names for the same.
  'KMSInternalException',
  'DependencyTimeoutException',
]);

/**
 * A call that failed for a while rather than for good: throttled, timed out, unreachable or
 * answered 503. These become StoreUnavailable (503 with Retry-After); anything else (access
 * denied, a disabled key) is a fault, logged with its cause.
 */
export function isTransientAwsError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code;
  return (
    TRANSIENT.has(error.name) ||
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'ETIMEDOUT' ||
    (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 503
  );
}

/** Runs an AWS call: a transient failure becomes StoreUnavailable (503 with Retry-After); any other is thrown as it is. */
export async function unavailableWhenTransient<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (isTransientAwsError(error)) throw new StoreUnavailable(error);
    throw error;
  }
}
