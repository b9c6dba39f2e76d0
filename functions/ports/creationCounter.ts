/**
 * Counts one creation of `client` in the window ending at `windowEnd` (unix seconds), if it
 * has had fewer than `limit` there; false when it has not. The count is kept until
 * `windowEnd` and then expires.
 */
export interface CreationCounter {
  count(client: string, windowEnd: number, limit: number): Promise<boolean>;
}
