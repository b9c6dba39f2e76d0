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

/**
 * What a rotation to `to` records (npm run rotate-key:aws): the position of `to` in the stack's
 * `SigningKeyArns` output (1 for the first), which is what every later deploy must keep
 * (`-c signingKeys` at least that). Not the number of rotations: a rotation may skip a key
 * (1 → 3). The first key of the list is the one that signs before any rotation. Without the
 * list (`--initial` alone) the position is unknown, and nothing is recorded.
 */
export function rotationTarget(args: { keys?: string; initial?: string; to: string }): { initial: string; generation?: number } {
  if (args.keys === undefined) {
    if (!args.initial) throw new Error('Give --keys <the output SigningKeyArns> (or at least --initial <its first ARN>).');
    return { initial: args.initial };
  }
  const keys = args.keys.split(',').map((arn) => arn.trim()).filter((arn) => arn !== '');
  if (keys.length === 0) throw new Error('--keys is empty: give the output SigningKeyArns, every ARN separated by a comma.');
  if (args.initial !== undefined && args.initial !== keys[0]) throw new Error(`--initial ${args.initial} is not the first key of --keys (${keys[0]}): the first key of SigningKeyArns is the one that signed before any rotation.`);
  const position = keys.indexOf(args.to);
  if (position < 0) throw new Error(`--to ${args.to} is not one of the stack's signing keys (--keys): rotate only to a key of SigningKeyArns, deployed first with -c signingKeys=<one more>.`);
  return { initial: keys[0], generation: position + 1 };
}
