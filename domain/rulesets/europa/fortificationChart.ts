import { RuleViolation } from '../../errors';
import type { RulesVersion } from './rulesVersion';

/** Who a fortification halves: nobody, every attacker but engineers and artillery, or every attacker. */
export type Halving = 'none' | 'except-engineers-artillery' | 'all';

export interface ChartEffects {
  /** on the attack's die roll */
  drm: number;
  /** the attacker gets no armor effects capability (AEC) */
  noAec: boolean;
  attackerHalved: Halving;
  groundSupportHalved: boolean;
  defenderIgnoresRetreat: boolean;
}

const row = (drm: number, attackerHalved: Halving = 'none', groundSupportHalved = false, defenderIgnoresRetreat = false): ChartEffects => ({
  drm,
  noAec: true,
  attackerHalved,
  groundSupportHalved,
  defenderIgnoresRetreat,
});
const EXCEPT = 'except-engineers-artillery';

/** Rule 30A4's fortification effects chart, line by line; every line denies AEC. */
export const FORTIFICATION_CHART = {
  fort: row(-1),
  'fortified-area': row(-1),
  'port-fortification': row(-1, EXCEPT, true),
  'fortified-hexside-unimproved': row(0),
  'fortified-hexside-improved': row(0, EXCEPT),
  'fortress-unimproved': row(-1),
  'fortress-improved': row(-1, EXCEPT, true),
  'westwall-unimproved': row(-1),
  'westwall-1': row(-1, 'none', false, true),
  'westwall-2': row(-2, 'none', false, true),
  'westwall-3': row(-3, 'none', false, true),
  // The chart's ouvrage line halves the attacker without the engineer and artillery exception of the others (followed as printed).
  ouvrage: row(-1, 'all', true, true),
  'ouvrage-destroyed': row(-1),
} as const satisfies Record<string, ChartEffects>;

export type ChartRow = keyof typeof FORTIFICATION_CHART;
export const CHART_ROWS = Object.keys(FORTIFICATION_CHART) as ChartRow[];
export const HEX_ROWS = CHART_ROWS.filter((r) => !r.startsWith('fortified-hexside')) as Exclude<ChartRow, `fortified-hexside-${string}`>[];

/** The other DRMs of the page: weather on all attacks, and US with UK ground units in one attack. */
export const WEATHER_DRM = { clear: 0, frost: 0, mud: -2, winter: -1, snow: -1 } as const;
export type Weather = keyof typeof WEATHER_DRM;
export const US_AND_UK_DRM = -1;

export interface EffectsInput {
  into?: (typeof HEX_ROWS)[number];
  across?: 'unimproved' | 'improved';
  attackers?: { unitId?: string; strength: number; kind?: 'engineer' | 'artillery' | 'other'; acrossFortifiedHexside?: boolean; outOfSupplyTurns?: number; isolated?: boolean }[];
  groundSupport?: number;
  weather?: Weather;
  usAndUk?: boolean;
}

/** Weather in which armor effects (not antitank effects) are reduced: the seed gives no figure. */
export const ARMOR_REDUCED_IN: readonly Weather[] = ['winter', 'snow'];
const SUPPLY_RULE = 'europa supply: units in their first turn out of supply are not halved unless isolated (rules version 3)';
const OUT_OF_SUPPLY = 'out of supply';

/**
 * Why an attacker's attack factor is halved for supply (rules version 3), or null: out of
 * supply a second turn or more, or in its first turn out of supply and isolated as well.
 */
const supplyHalving = (a: { outOfSupplyTurns?: number; isolated?: boolean }) =>
  (a.outOfSupplyTurns ?? 0) >= 2 || ((a.outOfSupplyTurns ?? 0) === 1 && a.isolated === true) ? OUT_OF_SUPPLY : null;

/**
 * Rule 30A4 and the page's other DRMs, without state: the fortification of the defender's
 * hex and a fortified hexside crossed both apply (their DRMs added; the hexside's halving only
 * for attackers across it). Versions 1 and 2 halve an attacker once however many lines halve
 * it; version 3 applies "the combined effects of both": each halving line halves again, and so
 * does being out of supply. Halves are kept exact.
 */
export function fortificationEffects(input: EffectsInput, rulesVersion: RulesVersion) {
  const hexside = input.across ? (`fortified-hexside-${input.across}` as const) : undefined;
  const applied = [input.into, hexside].filter((r): r is ChartRow => r !== undefined).map((r) => ({ row: r, ...FORTIFICATION_CHART[r] }));
  const drms: { source: string; value: number }[] = applied.filter((a) => a.drm !== 0).map((a) => ({ source: a.row, value: a.drm }));
  const weather = input.weather ?? 'clear';
  if (WEATHER_DRM[weather]) drms.push({ source: `${weather} weather`, value: WEATHER_DRM[weather] });
  if (input.usAndUk) drms.push({ source: 'US and UK ground units in one attack', value: US_AND_UK_DRM });
  if (rulesVersion < 3 && input.attackers?.some((a) => a.outOfSupplyTurns !== undefined || a.isolated !== undefined)) {
    throw new RuleViolation('Supply is taken into the attack from rules version 3: leave outOfSupplyTurns and isolated out, or evaluate with rulesVersion 3.', SUPPLY_RULE);
  }

  const hexHalving = input.into ? FORTIFICATION_CHART[input.into].attackerHalved : 'none';
  const sideHalving = hexside ? FORTIFICATION_CHART[hexside].attackerHalved : 'none';
  const halves = (h: Halving, kind: string) => h === 'all' || (h === EXCEPT && kind !== 'engineer' && kind !== 'artillery');
  const attackers = (input.attackers ?? []).map((a) => {
    const kind = a.kind ?? 'other';
    const supply = rulesVersion >= 3 ? supplyHalving(a) : null;
    const reasons: string[] = [
      ...(halves(hexHalving, kind) ? [input.into!] : []),
      ...(a.acrossFortifiedHexside !== false && halves(sideHalving, kind) ? [hexside!] : []),
      ...(supply ? [supply] : []),
    ];
    const counted = rulesVersion >= 3 ? a.strength / 2 ** reasons.length : reasons.length ? a.strength / 2 : a.strength;
    return { ...(a.unitId === undefined ? {} : { unitId: a.unitId }), kind, strength: a.strength, halvedBy: reasons, counted };
  });
  const gsHalved = applied.some((a) => a.groundSupportHalved);
  const noAec = applied.some((a) => a.noAec);
  return {
    applied,
    drms,
    drm: drms.reduce((s, d) => s + d.value, 0),
    noAec,
    // Version 3 says when the seed's reduced armor effects apply; by how much, it does not say.
    ...(rulesVersion >= 3 ? { armorEffectsReduced: !noAec && ARMOR_REDUCED_IN.includes(weather) } : {}),
    attackers,
    attack: attackers.reduce((s, a) => s + a.counted, 0),
    groundSupport: input.groundSupport === undefined ? null : { given: input.groundSupport, halved: gsHalved, counted: gsHalved ? input.groundSupport / 2 : input.groundSupport },
    defenderIgnoresRetreat: applied.some((a) => a.defenderIgnoresRetreat),
  };
}
