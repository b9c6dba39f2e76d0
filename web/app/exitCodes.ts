// trust.md §5's exit codes, written out: importing domain/verify/verifierReport.ts would bring zod into the page's script.
export const EXIT = { ok: 0, failed: 1, unusable: 2, inconclusive: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
