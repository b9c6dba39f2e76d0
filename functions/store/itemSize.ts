import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** DynamoDB refuses an item larger than this (attribute names and values together). */
export const DYNAMODB_ITEM_LIMIT = 400 * 1024;

/**
 * The most one write of this service may take: DynamoDB's limit less a margin, so that an
 * item measured here is never refused there (its own accounting of numbers and sets differs
 * by a few bytes an attribute). Both stores refuse an item above it (ItemTooLarge).
 */
export const ITEM_BUDGET = 380 * 1024;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * An item's size as DynamoDB counts it, rounded up: each attribute's name and value; a
 * number as its digits (DynamoDB stores about half as many bytes), a set or a list as its
 * members plus a few bytes each.
 */
export function itemBytes(item: Record<string, AttributeValue>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) bytes += utf8(name) + valueBytes(value);
  return bytes;
}

function valueBytes(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return value.N.length + 1;
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS) return value.SS.reduce((sum, s) => sum + utf8(s) + 1, 0);
  if (value.NS) return value.NS.reduce((sum, n) => sum + n.length + 2, 0);
  if (value.BS) return value.BS.reduce((sum, b) => sum + b.length + 1, 0);
  if (value.L) return 3 + value.L.reduce((sum, member) => sum + 1 + valueBytes(member), 0);
  if (value.M) return 3 + Object.entries(value.M).reduce((sum, [name, member]) => sum + 1 + utf8(name) + valueBytes(member), 0);
  return 0;
}

/** A write the store refused before sending it: the item would pass ITEM_BUDGET. */
export class ItemTooLarge extends Error {
  constructor(
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(`an item of ${bytes} bytes passes the ${maxBytes} bytes one write may take`);
    this.name = 'ItemTooLarge';
  }
}

/** Throws ItemTooLarge for an item above `maxBytes`. */
export function checkItemSize(item: Record<string, AttributeValue>, maxBytes = ITEM_BUDGET): void {
  const bytes = itemBytes(item);
  if (bytes > maxBytes) throw new ItemTooLarge(bytes, maxBytes);
}
