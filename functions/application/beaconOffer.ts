import { KNOWN_BEACON_CHAINS, type BeaconChain } from '../../domain/beacon/chain';
import { ApplicationError, invalidRequest } from './errors';
import { shown } from './zodIssues';

/** The beacon chains a server offers, and whether anything of it reveals their rounds. */
export interface BeaconOffer {
  /** By name: quicknet and the operator's chains (ARBITER_BEACON_CHAINS). */
  chains: ReadonlyMap<string, BeaconChain>;
  /** A BeaconSource in this process, or a reveal function beside it (AWS): without one, beacon games are refused. */
  reveals: boolean;
}

export const knownChains = (): ReadonlyMap<string, BeaconChain> => new Map(KNOWN_BEACON_CHAINS.map((chain) => [chain.chain, chain]));

/** The chain `randomness.beacon` names: 400 for a chain this server does not know, 422 when it reveals none. */
export function offeredChain(offer: BeaconOffer, name: string, field = 'randomness.beacon'): BeaconChain {
  const chain = offer.chains.get(name);
  if (!chain) {
    const names = [...offer.chains.keys()];
    throw invalidRequest([{ field, message: `must be a drand chain this server offers, not ${shown(name)}: it offers ${names.join(', ') || 'none'}`, valid: names }]);
  }
  if (!offer.reveals) throw beaconsUnavailable('Create the game without "randomness".');
  return chain;
}

/** 422 beacon_unavailable: nothing of this server reveals beacon games (no ARBITER_DRAND_RELAYS). */
export function beaconsUnavailable(advice = 'Its operator can set it again; until then, the game takes no roll.'): ApplicationError {
  return new ApplicationError(422, 'beacon_unavailable', `This server fetches no drand beacons, so it cannot run beacon games: its operator names drand relays with ARBITER_DRAND_RELAYS. ${advice}`);
}
