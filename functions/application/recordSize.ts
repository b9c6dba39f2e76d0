import type { UnsignedCommit } from '../../domain/fairness/hashChain';
import type { Command } from '../../domain/ruleset';
import { ITEM_BUDGET } from '../store/itemSize';
import { ApplicationError } from './errors';

/**
 * What an item holds besides its commits, rounded up: its keys and attribute names, the
 * signed head of its last commit (a few hundred bytes).
 */
export const ITEM_OVERHEAD = 2048;
/** Longer than any signature a signer gives (an Ed25519 signature is 88 base64 characters). */
const SIGNATURE_ALLOWANCE = 'x'.repeat(128);

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * The bytes a commit adds to the item it is stored in, before it is signed: its JSON with a
 * signature at least as long as the one it will have, and its commandId (a group lists the
 * commandIds apart). Never less than it takes once signed.
 */
export function commitShare(unsigned: UnsignedCommit, hash: string): number {
  return utf8(JSON.stringify({ ...unsigned, hash, signature: SIGNATURE_ALLOWANCE })) + utf8(unsigned.commandId) + 2;
}

/** The bytes a command's own record takes, before it is decided: the commit holds it whole. */
export function commandShare(commandId: string, command: Command): number {
  return utf8(JSON.stringify({ type: command.type, payload: command.payload ?? null })) + 2 * utf8(commandId);
}

/** 413: one command whose record (its commit) would not fit in one item of the store. */
export const recordTooLarge = (bytes: number, maxBytes = ITEM_BUDGET) =>
  new ApplicationError(
    413,
    'payload_too_large',
    `This command's record would take ${bytes.toLocaleString('en-US')} bytes, more than the ${maxBytes.toLocaleString('en-US')} bytes one command may take, so it was not recorded and the game is unchanged. Send less in one command where the rules allow it.`,
    { bytes, maxBytes },
  );
