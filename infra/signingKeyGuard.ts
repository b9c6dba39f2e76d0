import { readFileSync, writeFileSync } from 'node:fs';

/**
 * The context value `npm run rotate-key:aws` writes into cdk.context.json after a rotation: the
 * generation of the key that signs now (1 + the rotations so far). `cdk deploy` reads
 * cdk.context.json, so every later synthesis knows it without asking AWS.
 */
export const CURRENT_SIGNING_KEY_CONTEXT = 'arbiter:currentSigningKey';

/**
 * Refuses a deploy that would take the signing grant off the key that signs now: fewer keys
 * than its generation (the key would leave the stack's grants), or as many retired keys (the
 * stack would deny it kms:Sign). Either way every command would fail. Returns nothing when
 * the settings keep the current key usable.
 */
export function checkSigningKeys(settings: { signingKeys?: number; retiredSigningKeys?: number; currentSigningKey?: unknown }): void {
  const given = settings.currentSigningKey;
  if (given === undefined || given === null) return;
  const current = typeof given === 'string' && /^[0-9]+$/.test(given) ? Number(given) : given;
  if (typeof current !== 'number' || !Number.isInteger(current) || current < 1) {
    throw new Error(`${CURRENT_SIGNING_KEY_CONTEXT} in cdk.context.json must be a whole number of at least 1 (the key that signs now, written by npm run rotate-key:aws): got ${JSON.stringify(current)}`);
  }
  const keys = settings.signingKeys ?? 1;
  if (keys < current) {
    throw new Error(
      `Refusing to deploy with -c signingKeys=${keys}: signing key ${current} signs now (${CURRENT_SIGNING_KEY_CONTEXT} in cdk.context.json, written by the last rotation), and a stack of ${keys} key${keys === 1 ? '' : 's'} would take its grant away, so every command would fail. Deploy with -c signingKeys=${current} or more (put it in cdk.json's "context"; docs/deploy.md#rotating-the-signing-key).`,
    );
  }
  const retired = settings.retiredSigningKeys ?? 0;
  if (retired >= current) {
    throw new Error(
      `Refusing to deploy with -c retiredSigningKeys=${retired}: signing key ${current} signs now (${CURRENT_SIGNING_KEY_CONTEXT} in cdk.context.json), and retiring it would deny it kms:Sign, so every command would fail. Retire at most ${current - 1}.`,
    );
  }
}

/** Writes the current key's generation into cdk.context.json (`file`), keeping what else it holds. */
export function recordCurrentSigningKey(generation: number, file = 'cdk.context.json'): void {
  let context: Record<string, unknown> = {};
  try {
    context = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const before = context[CURRENT_SIGNING_KEY_CONTEXT];
  if (typeof before === 'number' && before > generation) return;
  context[CURRENT_SIGNING_KEY_CONTEXT] = generation;
  writeFileSync(file, `${JSON.stringify(context, null, 2)}\n`);
}
