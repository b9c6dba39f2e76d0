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
  attackers?: { unitId?: string; strength: number; kind?: 'engineer' | 'artillery' | 'other'; acrossFortifiedHexside?: boolean }[];
  groundSupport?: number;
  weather?: Weather;
  usAndUk?: boolean;
}

/**
 * Rule 30A4 and the page's other DRMs, without state: the fortification of the defender's
 * hex and a fortified hexside crossed both apply (their DRMs added, each effect once; the
 * hexside's halving only for attackers across it). Halves are kept exact.
 */
export function fortificationEffects(input: EffectsInput) {
  const hexside = input.across ? (`fortified-hexside-${input.across}` as const) : undefined;
  const applied = [input.into, hexside].filter((r): r is ChartRow => r !== undefined).map((r) => ({ row: r, ...FORTIFICATION_CHART[r] }));
  const drms: { source: string; value: number }[] = applied.filter((a) => a.drm !== 0).map((a) => ({ source: a.row, value: a.drm }));
  const weather = input.weather ?? 'clear';
  if (WEATHER_DRM[weather]) drms.push({ source: `${weather} weather`, value: WEATHER_DRM[weather] });
  if (input.usAndUk) drms.push({ source: 'US and UK ground units in one attack', value: US_AND_UK_DRM });

  const hexHalving = input.into ? FORTIFICATION_CHART[input.into].attackerHalved : 'none';
  const sideHalving = hexside ? FORTIFICATION_CHART[hexside].attackerHalved : 'none';
  const halves = (h: Halving, kind: string) => h === 'all' || (h === EXCEPT && kind !== 'engineer' && kind !== 'artillery');
  const attackers = (input.attackers ?? []).map((a) => {
    const kind = a.kind ?? 'other';
    const reasons = [...(halves(hexHalving, kind) ? [input.into!] : []), ...(a.acrossFortifiedHexside !== false && halves(sideHalving, kind) ? [hexside!] : [])];
    return { ...(a.unitId === undefined ? {} : { unitId: a.unitId }), kind, strength: a.strength, halvedBy: reasons, counted: reasons.length ? a.strength / 2 : a.strength };
  });
  const gsHalved = applied.some((a) => a.groundSupportHalved);
  return {
    applied,
    drms,
    drm: drms.reduce((s, d) => s + d.value, 0),
    noAec: applied.some((a) => a.noAec),
    attackers,
    attack: attackers.reduce((s, a) => s + a.counted, 0),
    groundSupport: input.groundSupport === undefined ? null : { given: input.groundSupport, halved: gsHalved, counted: gsHalved ? input.groundSupport / 2 : input.groundSupport },
    defenderIgnoresRetreat: applied.some((a) => a.defenderIgnoresRetreat),
  };
}
