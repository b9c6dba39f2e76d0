export function oracleAttack(input: unknown, dice: number[]): { refused: string } & Record<string, unknown>;
export function oracleDeterminedDefense(input: unknown, die: number): Record<string, unknown>;
