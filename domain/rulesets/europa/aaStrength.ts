import { RuleViolation } from '../../errors';

export const FIRE_MISSIONS = ['ground-support', 'bombing', 'air-transport', 'airdrop', 'das', 'harassment', 'naval-at-sea', 'naval-in-port'] as const;
export type FireMission = (typeof FIRE_MISSIONS)[number];
export const OVER_HEX: readonly FireMission[] = ['ground-support', 'bombing', 'air-transport', 'airdrop'];

export interface FiringUnit {
  unitId: string;
  aa: number;
  /** where the unit stands; left out: the target hex */
  hex?: string;
  naval?: boolean;
  cargo?: boolean;
  light?: boolean;
}

export interface StrengthInput {
  mission: FireMission;
  hex?: string;
  aa: readonly FiringUnit[];
  prohibitedHexes?: readonly string[];
  seaHexes?: readonly string[];
}

export interface AAStrength {
  how: string;
  units: { unitId: string; hex: string | null; aa: number; fires: boolean; reason?: string }[];
  hexes: { hex: string | null; aa: number; counted: boolean; reason?: string }[];
  total: number;
  hexCount: number;
  strength: number;
  text: string;
}

export const AA_RULE = {
  cargo: 'europa 37L1: transported cargo never fires AA',
  naval: 'europa 37L1: naval units fire only at air units bombing naval units, at most one per attacking air unit',
  where: 'europa 37L1: which AA fires at which mission',
  none: 'europa 37L2: only units with AA capability fire',
  ids: 'europa 37L: each unit is listed once',
};

const fail = (message: string, rule = AA_RULE.where): never => {
  throw new RuleViolation(message, rule);
};
const q = JSON.stringify;

/**
 * Rule 37L1: the AA strength that fires. Over a hex, the non-naval AA in it; at sea, up to
 * N naval units (N attacking air units); in port, those plus the non-naval AA; DAS, the AA
 * of units adjacent to the target hex over the hexes holding them (not across prohibited
 * terrain); harassment, the target hex's AA and that of adjacent land hexes with AA, over the
 * hexes involved. Never rounded.
 */
export function aaStrength(input: StrengthInput, forceSize: number, heavyOnly: boolean): AAStrength {
  const { mission, hex: target } = input;
  const seen = new Set<string>();
  for (const unit of input.aa) {
    if (seen.has(unit.unitId)) fail(`${q(unit.unitId)} is listed twice among the firing units.`, AA_RULE.ids);
    seen.add(unit.unitId);
    if (unit.cargo) fail(`${q(unit.unitId)} is transported cargo, which never fires AA.`, AA_RULE.cargo);
  }
  if (input.prohibitedHexes?.length && mission !== 'das') fail('Hexes across prohibited terrain matter only to DAS: leave prohibitedHexes out.');
  if (input.seaHexes?.length && mission !== 'harassment') fail('Sea hexes matter only to harassment: leave seaHexes out.');
  const inTarget = (unit: FiringUnit) => unit.hex === undefined || unit.hex === target;
  const naval = mission === 'naval-at-sea' || mission === 'naval-in-port';
  const navalCount = input.aa.filter((u) => u.naval).length;
  if (naval && navalCount > forceSize) {
    fail(`At most ${forceSize} naval ${forceSize === 1 ? 'unit' : 'units'} may fire at ${forceSize} attacking air ${forceSize === 1 ? 'unit' : 'units'}; ${navalCount} are listed: choose which.`, AA_RULE.naval);
  }

  const NAVAL_ONLY = 'naval units fire only at air units bombing naval units';
  const PROHIBITED = 'across prohibited terrain';
  const SEA = 'not a land hex';
  const units: AAStrength['units'] = input.aa.map((unit) => {
    const where = unit.hex ?? target ?? null;
    const out = (reason: string) => ({ unitId: unit.unitId, hex: where, aa: unit.aa, fires: false, reason });
    if (mission === 'das' && unit.hex === undefined) fail(`${q(unit.unitId)} needs its hex: against DAS, the AA of units adjacent to the target hex fires.`);
    if (mission === 'das' && inTarget(unit)) fail(`${q(unit.unitId)} is in the target hex: against DAS, the AA of units adjacent to it fires.`);
    if (mission !== 'das' && mission !== 'harassment' && !inTarget(unit)) fail(`${q(unit.unitId)} is in hex ${q(unit.hex)}: only AA in the target hex fires at a mission over it.`);
    if (mission === 'naval-at-sea' && !unit.naval) fail(`${q(unit.unitId)} is not a naval unit: at sea, only naval units fire AA.`, AA_RULE.naval);
    if (unit.naval && !naval) return out(NAVAL_ONLY);
    if (mission === 'harassment' && unit.hex !== undefined && input.seaHexes?.includes(unit.hex)) return out(SEA);
    if (mission === 'das' && input.prohibitedHexes?.includes(unit.hex!)) return out(PROHIBITED);
    if (unit.light && heavyOnly) return out('only heavy AA fires at HB flying this mission');
    return { unitId: unit.unitId, hex: where, aa: unit.aa, fires: true };
  });

  // The hexes holding units that may fire (naval units do not, and their hexes do not count);
  // a hex left out as a whole still shows the AA it holds.
  const byHex = new Map<string | null, number>();
  for (const unit of units) {
    if (unit.reason === NAVAL_ONLY) continue;
    const shown = unit.fires || unit.reason === PROHIBITED || unit.reason === SEA;
    byHex.set(unit.hex, (byHex.get(unit.hex) ?? 0) + (shown ? unit.aa : 0));
  }
  let hexes: AAStrength['hexes'] = [];
  let how: string;
  if (mission === 'das') {
    how = 'the AA of units adjacent to the target hex, divided by the hexes holding them';
    hexes = [...byHex].map(([hex, aa]) =>
      input.prohibitedHexes?.includes(hex!) ? { hex, aa, counted: false, reason: PROHIBITED } : { hex, aa, counted: true },
    );
  } else if (mission === 'harassment') {
    how = 'the AA of the target hex and of adjacent land hexes with AA, divided by the hexes involved';
    const targetKey = target ?? null;
    hexes = [{ hex: targetKey, aa: byHex.get(targetKey) ?? 0, counted: true }];
    for (const [hex, aa] of byHex) {
      if (hex === targetKey) continue;
      if (input.seaHexes?.includes(hex!)) hexes.push({ hex, aa, counted: false, reason: SEA });
      else hexes.push(aa > 0 ? { hex, aa, counted: true } : { hex, aa, counted: false, reason: 'no AA' });
    }
  } else {
    how = naval ? (mission === 'naval-at-sea' ? 'up to one naval unit per attacking air unit' : 'up to one naval unit per attacking air unit, plus the non-naval AA in the port') : 'the non-naval AA in the hex';
  }
  const counted = hexes.filter((h) => h.counted);
  const total = hexes.length ? counted.reduce((s, h) => s + h.aa, 0) : units.reduce((s, u) => s + (u.fires ? u.aa : 0), 0);
  const hexCount = hexes.length ? counted.length : 1;
  if (total === 0 || hexCount === 0) fail('No AA strength can fire here: units with no AA capability never fire, and the -1 and 0 columns are reached only by shifts.', AA_RULE.none);
  const strength = total / hexCount;
  const shown = Number.isInteger((total * 100) / hexCount) ? `= ${strength}` : `≈ ${strength.toFixed(2)}, not rounded`;
  return { how, units, hexes, total, hexCount, strength, text: hexes.length ? `${total} / ${hexCount} ${shown}` : String(total) };
}
