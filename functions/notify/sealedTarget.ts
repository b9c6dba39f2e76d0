import type { SeedVault } from '../ports/seedVault';

/** What a subscription keeps secret: its URL (a Discord or Slack URL is its own credential), address, signing secret, and e-mail code. */
export interface TargetSecrets {
  url?: string;
  address?: string;
  secret?: string;
  /** The e-mail confirm/unsubscribe code: kept sealed to build each mail's links, and hashed to check them. */
  code?: string;
}

/** Sealed by the seed vault under the subscription's id: a sealed target cannot be moved to another subscription. */
const associatedId = (subscriptionId: string) => `subscription:${subscriptionId}`;

export const sealTarget = (vault: SeedVault, subscriptionId: string, secrets: TargetSecrets) =>
  vault.seal(associatedId(subscriptionId), Buffer.from(JSON.stringify(secrets), 'utf8'));

export async function openTarget(vault: SeedVault, subscriptionId: string, sealed: string): Promise<TargetSecrets> {
  return JSON.parse((await vault.open(associatedId(subscriptionId), sealed)).toString('utf8')) as TargetSecrets;
}
