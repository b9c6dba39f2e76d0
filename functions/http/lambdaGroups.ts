/** The deployed functions; infra/ builds one per group, each serving the operations of the table (operations.ts) that name it. */
export const LAMBDA_GROUPS = ['commands', 'reads', 'catalogue', 'verifier', 'web', 'docs'] as const;
export type LambdaGroup = (typeof LAMBDA_GROUPS)[number];
