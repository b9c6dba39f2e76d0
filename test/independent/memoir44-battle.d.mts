export function oracleBattle(input: unknown, dice: number[]): { refused?: string; used?: number } & Record<string, unknown>;
